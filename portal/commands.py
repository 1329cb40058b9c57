"""What a management command that reads the database checks first."""

from django.core.management.base import CommandError
from django.db import connections, router
from django.db.models import Model


def refuse_unmigrated(model: type[Model]) -> None:
    """Stop a command run before `migrate` with the step to take, not a traceback of "no
    such table": the model's table is looked for on the database the router writes it to."""
    connection = connections[router.db_for_write(model)]
    if model._meta.db_table not in connection.introspection.table_names():
        raise CommandError(
            "The database has no tables yet: run `python manage.py migrate` first "
            "(`make run` and `make import` do)."
        )
