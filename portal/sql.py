"""The few statements written in SQL because the ORM costs too much building them
(docs/data-layer.md has the figures), through Django's public API only.

A template names tables and columns through the models, never by hand: `{table}` is
the table of `model`, `{table.field}` the column of its field `field` (`{table.pk}` its
primary key's), `{columns}` all its concrete fields' columns (for `read()`); any other
`{name}` / `{name.field}` the same for the model passed as `name=`; `{lock}` is
` FOR UPDATE` where the database locks rows (not SQLite). A misspelt field
fails when the statement is built (FieldDoesNotExist), and a renamed column follows
the model. Names are quoted by the database's rules; values are always parameters.
The statement runs on the database the router gives the model (for reading or for
writing). Each use has a test that holds its result to the ORM's.
"""

from datetime import UTC
from functools import lru_cache

from django.conf import settings
from django.db import connections, models, router
from django.utils import timezone


class _Names:
    """A model's table (formatted as is) and its fields' columns (as attributes)."""

    def __init__(self, model, quote):
        self._model, self._quote = model, quote

    def __format__(self, spec: str) -> str:
        return self._quote(self._model._meta.db_table)

    def __getattr__(self, name: str) -> str:
        if name.startswith("_"):
            raise AttributeError(name)
        meta = self._model._meta
        return self._quote((meta.pk if name == "pk" else meta.get_field(name)).column)


class _Columns:
    """`{columns}`: the model's concrete fields' columns in order; `{columns:q}` each
    qualified by the table alias `q`."""

    def __init__(self, model, quote):
        self._model, self._quote = model, quote

    def __format__(self, alias: str) -> str:
        prefix = f"{alias}." if alias else ""
        fields = self._model._meta.concrete_fields
        return ", ".join(prefix + self._quote(field.column) for field in fields)


@lru_cache(maxsize=256)
def statement(template: str, using: str, model, **models) -> str:
    """`template` with the quoted table and column names of `model` and `models`."""
    quote = connections[using].ops.quote_name
    names = {name: _Names(other, quote) for name, other in models.items()}
    columns = _Columns(model, quote)
    # SQLite has no row locks: its write transaction holds the whole database.
    lock = "" if connections[using].vendor == "sqlite" else " FOR UPDATE"
    return template.format(table=_Names(model, quote), columns=columns, lock=lock, **names)


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


def read(model, template: str, params, **models):
    """The `model` instance the statement reads, or None: the ORM's read without the
    ORM building the query (docs/data-layer.md: the user and the phase, read on every
    page). The statement selects `{columns}`, the model's concrete fields' columns in
    order; each value is converted by its field's public conversion (`from_db_value`,
    else `to_python`; a naive moment is UTC, as the ORM reads SQLite's) and the
    instance made by `Model.from_db()`; columns the statement selects after those are set
    as attributes, unconverted, by their names. Parameters are ints and strings, which every
    driver takes as they are. tests/portal/test_sql.py holds it to the ORM's read."""
    if any(isinstance(value, int) and not -(2**63) <= value < 2**63 for value in params):
        # No integer column holds it (a fuzzed /phase/9223372036854775808/), and SQLite
        # refuses to bind it: no row, as the ORM answers.
        return None
    # A locking read is part of a write: on the database written to.
    locking = "{lock}" in template
    using = router.db_for_write(model) if locking else router.db_for_read(model)
    connection = connections[using]
    with connection.cursor() as cursor:
        cursor.execute(statement(template, using, model, **models), params)
        row = cursor.fetchone()
        if row is None:
            return None
        description = cursor.description
    names, converters = _conversion(model)
    count = len(names)
    extras = [column[0] for column in description[count:]]
    values = [convert(value, connection) for value, convert in zip(row, converters, strict=False)]
    instance = model.from_db(using, names, values)
    for name, value in zip(extras, row[count:], strict=True):
        setattr(instance, name, value)
    return instance


@lru_cache(maxsize=64)
def _conversion(model) -> tuple[list[str], list]:
    """Per concrete field of `model`, in order: its attribute name and how a database
    value becomes the field's Python value."""
    fields = model._meta.concrete_fields
    return [field.attname for field in fields], [_converter(field) for field in fields]


def _converter(field):
    if hasattr(field, "from_db_value"):
        return lambda value, connection: field.from_db_value(value, None, connection)
    if isinstance(field, models.DateTimeField):

        def moment(value, connection):
            value = field.to_python(value)
            if value is not None and settings.USE_TZ and timezone.is_naive(value):
                value = timezone.make_aware(value, UTC)
            return value

        return moment
    return lambda value, connection: field.to_python(value)
