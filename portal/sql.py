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


def one(model, template: str, params, *, using: str = DEFAULT_DB_ALIAS, **models):
    """The first `model` instance the statement reads, or None (Django's `raw()`, so
    fields come back converted as the ORM's would)."""
    sql = statement(template, using, table=model, **models)
    return next(iter(model._default_manager.db_manager(using).raw(sql, params)), None)
