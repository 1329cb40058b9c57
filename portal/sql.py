"""The few statements written in SQL because the ORM costs too much building them
(docs/data-layer.md has the figures), through Django's public API only.

A template names tables and columns through the models, never by hand: `{table}` is
the table of `model`, `{table.field}` the column of its field `field`; any other
`{name}` / `{name.field}` the same for the model passed as `name=`. A misspelt field
fails when the statement is built (FieldDoesNotExist), and a renamed column follows
the model. Names are quoted by the database's rules; values are always parameters.
The statement runs on the database the router gives the model (for reading or for
writing). Each use has a test that holds its result to the ORM's.
"""

from functools import lru_cache

from django.db import connections, router


class _Names:
    """A model's table (formatted as is) and its fields' columns (as attributes)."""

    def __init__(self, model, quote):
        self._model, self._quote = model, quote

    def __format__(self, spec: str) -> str:
        return self._quote(self._model._meta.db_table)

    def __getattr__(self, name: str) -> str:
        if name.startswith("_"):
            raise AttributeError(name)
        return self._quote(self._model._meta.get_field(name).column)


@lru_cache(maxsize=256)
def statement(template: str, using: str, model, **models) -> str:
    """`template` with the quoted table and column names of `model` and `models`."""
    quote = connections[using].ops.quote_name
    names = {name: _Names(other, quote) for name, other in models.items()}
    return template.format(table=_Names(model, quote), **names)


def rows(model, template: str, params, **models) -> list[tuple]:
    """The rows the statement reads, on the database the router reads `model` from."""
    using = router.db_for_read(model)
    with connections[using].cursor() as cursor:
        cursor.execute(statement(template, using, model, **models), params)
        return cursor.fetchall()


def write(model, template: str, params, **models) -> int:
    """Run the statement on the database the router writes `model` to; the rows it
    changed."""
    using = router.db_for_write(model)
    with connections[using].cursor() as cursor:
        cursor.execute(statement(template, using, model, **models), params)
        return cursor.rowcount


def one(model, template: str, params, *, using: str | None = None, **models):
    """The first `model` instance a raw SELECT reads (Django's `raw()`), or None. Only
    portal/sessions.py uses it; `{pk}` is the primary key's column."""
    using = using or router.db_for_read(model)
    quote = connections[using].ops.quote_name
    sql = template.format(
        table=quote(model._meta.db_table),
        pk=quote(model._meta.pk.column),
        **{name: quote(other._meta.db_table) for name, other in models.items()},
    )
    return next(iter(model.objects.using(using).raw(sql, params)), None)
