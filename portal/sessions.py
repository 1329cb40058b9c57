"""Django's `cached_db` sessions, whose ended sessions stay ended on every app server.

Django's store reads a session the cache misses (evicted, Redis flushed or restarted)
from the database and then sets it in the cache. A logout on another server between
that read and that set deletes the row and the cache entry first, and the set puts the
session back: cached for its whole age (14 days), alive on every server, with no row
behind it (red-team run 18: 2 logouts in 80 raced so). So an ended session leaves a
marker in the cache for a while, and a session read from the database is only added
where the cache holds nothing: never over the marker, nor over a newer save.
"""

from django.conf import settings
from django.contrib.sessions.backends import cached_db, db
from django.core.cache import caches
from django.utils import timezone

ENDED = "ended"
# Longer than any request takes between its database read and its cache write.
ENDED_FOR = 10 * 60


class SessionStore(cached_db.SessionStore):
    def load(self):
        cache = caches[settings.SESSION_CACHE_ALIAS]
        try:
            data = cache.get(self.cache_key)
        except Exception:  # as Django's: a key some backends refuse is no session
            data = None
        if data is not None and data != ENDED:
            return data
        row = self.model.objects.filter(
            session_key=self.session_key, expire_date__gt=timezone.now()
        ).first()
        if row is None:  # Django's own read finds none too, and forgets the key
            return db.SessionStore.load(self)
        data = self.decode(row.session_data)
        cache.add(self.cache_key, data, self.get_expiry_age(expiry=row.expire_date))
        return data

    def delete(self, session_key=None):
        key = session_key if session_key is not None else self.session_key
        super().delete(session_key)
        if key is not None:
            cache = caches[settings.SESSION_CACHE_ALIAS]
            cache.set(self.cache_key_prefix + key, ENDED, ENDED_FOR)
