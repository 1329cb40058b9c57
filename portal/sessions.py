"""Django's database sessions, read with SQL written once instead of built per request.

Every request reads its session; the ORM spends ~0.2 ms building that one-row query
each time, more than SQLite or PostgreSQL take to run it. This store keeps the query
text (from the model's table and column names) and otherwise is Django's
`django.contrib.sessions.backends.db` unchanged: same table, same expiry rule, same
writes. A cached store was not taken (see the README's Performance section).
tests/portal/test_sessions.py holds it to the stock store's behaviour.
"""

from functools import cache

from django.contrib.sessions.backends import db
from django.db import connections, router
from django.utils import timezone


class SessionStore(db.SessionStore):
    def _get_session_from_db(self):
        alias = router.db_for_read(self.model)
        sql = _select_sql(self.model, alias)
        now = connections[alias].ops.adapt_datetimefield_value(timezone.now())
        found = list(self.model.objects.db_manager(alias).raw(sql, [self.session_key, now]))
        if found:
            return found[0]
        self._session_key = None
        return None


@cache
def _select_sql(model, alias: str) -> str:
    quote = connections[alias].ops.quote_name
    fields = model._meta
    key = quote(fields.get_field("session_key").column)
    expires = quote(fields.get_field("expire_date").column)
    table = quote(fields.db_table)
    return f"SELECT * FROM {table} WHERE {key} = %s AND {expires} > %s"  # noqa: S608 - quoted names
