"""Hot statements as SQL built once per process, run without the ORM building them.

On the pages every learner loads (the session, the user, the phase page, the answer),
the ORM spent ~0.2 ms building each one-row query, several times what the database
takes to run it. These statements are written as SQL templates instead: `{table}` is
the model's own table, `{pk}` its primary key column, any other `{name}` the table of
the model passed as `name=`, and `{lock}` is ` FOR UPDATE` where the database locks
rows (PostgreSQL; an SQLite write transaction holds the whole database). Names are
quoted by the database's own rules; values are always parameters. Each use has a test
that holds its result to the ORM's.
"""

from functools import lru_cache

from django.db import DEFAULT_DB_ALIAS, connections


@lru_cache(maxsize=256)
def statement(template: str, using: str = DEFAULT_DB_ALIAS, **models) -> str:
    """`template` with the quoted table names of `models` and `{lock}` filled in."""
    connection = connections[using]
    quote = connection.ops.quote_name
    own = models.get("table")
    return template.format(
        lock=" FOR UPDATE" if connection.features.has_select_for_update else "",
        pk=quote(own._meta.pk.column) if own is not None else "",
        **{name: quote(model._meta.db_table) for name, model in models.items()},
    )


def insert(instance, *, using: str = DEFAULT_DB_ALIAS) -> None:
    """`instance.save()` for a new row whose primary key the database assigns, with
    the INSERT built once per model and database: the ORM spent ~0.16 ms building it
    on every answer, inside the write transaction. Values are prepared by each field
    as the ORM prepares them (defaults, `pre_save`, JSON, dates). It calls no `save()`
    override and sends no `pre_save`/`post_save` signal, so it is for models nothing
    listens to (tests/portal/test_sql.py checks the models it is used for)."""
    if not instance._state.adding or instance.pk is not None:
        raise ValueError("insert() writes new rows only, with the key the database gives")
    sql, fields = _insert_statement(type(instance), using)
    connection = connections[using]
    params = [
        field.get_db_prep_save(field.pre_save(instance, True), connection) for field in fields
    ]
    with connection.cursor() as cursor:
        cursor.execute(sql, params)
        instance.pk = cursor.fetchone()[0]
    instance._state.adding, instance._state.db = False, using


@lru_cache(maxsize=64)
def _insert_statement(model, using: str) -> tuple[str, tuple]:
    connection = connections[using]
    if not model._meta.pk.db_returning or not connection.features.can_return_columns_from_insert:
        raise ValueError(f"{model.__name__}: the database must assign and return its key")
    quote = connection.ops.quote_name
    fields = tuple(field for field in model._meta.concrete_fields if not field.primary_key)
    sql = "INSERT INTO {} ({}) VALUES ({}) RETURNING {}".format(  # noqa: S608 - quoted names
        quote(model._meta.db_table),
        ", ".join(quote(field.column) for field in fields),
        ", ".join(["%s"] * len(fields)),
        quote(model._meta.pk.column),
    )
    return sql, fields


def one(model, template: str, params, *, using: str = DEFAULT_DB_ALIAS, **models):
    """The first `model` instance the statement reads, or None. Fields come back
    converted as the ORM's would (Django's `raw()` does the same per call: ~60 µs of
    each such read went into working out, again, which column is which field); a
    column that is no field of `model` is set as an attribute, as `raw()` does."""
    if any(isinstance(value, int) and not -(2**63) <= value < 2**63 for value in params):
        # No integer column holds it (a fuzzed /phase/9223372036854775808/), and SQLite
        # refuses to bind it: no row, as the ORM answers.
        return None
    sql = statement(template, using, table=model, **models)
    connection = connections[using]
    adapt = connection.ops.adapt_unknown_value  # as raw() adapts them (dates, decimals)
    with connection.cursor() as cursor:
        cursor.execute(sql, [adapt(value) for value in params])
        row = cursor.fetchone()
        if row is None:
            return None
        reader = _reader(model, using, tuple(column[0] for column in cursor.description))
    return reader(row, connection)


@lru_cache(maxsize=256)
def _reader(model, using: str, columns: tuple[str, ...]):
    """How a row of `columns` becomes a `model` instance: each field's column position
    and database converters, worked out once per model, database and columns."""
    connection = connections[using]
    by_column = {field.column: field for field in model._meta.concrete_fields}
    fields, extras, seen = [], [], set()
    for position, column in enumerate(columns):
        if column in seen:
            continue  # a repeated column: the first one counts, as in raw()
        seen.add(column)
        field = by_column.get(column)
        if field is None:
            extras.append((column, position))
            continue
        col = field.get_col(model._meta.db_table)
        converters = connection.ops.get_db_converters(col) + col.get_db_converters(connection)
        fields.append((field, position, col, converters))
    if model._meta.pk not in [entry[0] for entry in fields]:
        raise ValueError(f"the statement must read {model.__name__}'s primary key")
    fields.sort(key=lambda entry: model._meta.concrete_fields.index(entry[0]))
    names = [entry[0].attname for entry in fields]

    # The converters are the first connection's; they read only settings (the time
    # zone), the same for every thread's connection, which is passed to them.
    def read(row, connection):
        values = []
        for _, position, col, converters in fields:
            value = row[position]
            for converter in converters:
                value = converter(value, col, connection)
            values.append(value)
        instance = model.from_db(using, names, values)
        for name, position in extras:
            setattr(instance, name, row[position])
        return instance

    return read
