"""Django's database sessions, read with SQL written once instead of built per request.

Every request reads its session; the ORM spends ~0.2 ms building that one-row query
each time, more than SQLite or PostgreSQL take to run it. This store keeps the query
text (`portal.sql`) and otherwise is Django's
`django.contrib.sessions.backends.db` unchanged: same table, same expiry rule, same
writes. A cached store was not taken (see the README's Performance section).
tests/portal/test_sessions.py holds it to the stock store's behaviour.
"""

from django.contrib.sessions.backends import db
from django.db import router
from django.utils import timezone

from portal.sql import one


class SessionStore(db.SessionStore):
    def _get_session_from_db(self):
        found = one(  # one() adapts the moment for the database, as the ORM does
            self.model,
            "SELECT * FROM {table} WHERE session_key = %s AND expire_date > %s",
            [self.session_key, timezone.now()],
            using=router.db_for_read(self.model),
        )
        if found is None:
            self._session_key = None
        return found
