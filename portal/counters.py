"""Counts that bound what one client may do in a window: a learner's answers a minute
(`progress/services/pace.py`), the refused posts of a setup or invite link's form
(`accounts/throttle.py`), the refused-login rows the audit log keeps.

A bound must hold across every worker, or it is multiplied by them: counted in the
embedded default's cache, which lives in each worker process, three gunicorn workers
took 88 answers from one learner in 4 s against a limit of 30 a minute (red team,
2026-12-05). So with REDIS_URL the count is Redis's (`COUNTS_IN_CACHE`: its INCR is
atomic and every app server shares it); without it, a `WindowCount` row in the database
every worker shares, started or raised by one upsert, which the database applies one
at a time, so parallel requests cannot lose a count.
"""

from datetime import timedelta
from typing import NamedTuple
from uuid import uuid4

from django.conf import settings
from django.core.cache import cache
from django.db import IntegrityError, connections, router, transaction
from django.db.models import F
from django.utils import timezone

from . import sql
from .models import WindowCount


class Taken(NamedTuple):
    """One count taken: the count so far, this one included, and the window it was
    counted in, which `count_back` names so as to take back only this count."""

    count: int
    window: object


def count_up(key: str, window: timedelta) -> int:
    """Count one more `key` in its window, which starts at its first count and lasts
    `window`; the count so far, this one included."""
    return count_take(key, window).count


def count_take(key: str, window: timedelta) -> Taken:
    """`count_up`, with the window counted in, for a count that may be taken back."""
    if settings.COUNTS_IN_CACHE:
        return _cache_count_up(key, window)
    return _upsert(key, timezone.now(), window)


def count_back(key: str, taken: Taken) -> None:
    """Take back the count `taken` of `key` (a request counted that turned out to add
    nothing, such as a repeat of a stored answer): only in the window it was counted
    in, so a give-back after that window ended leaves the next one alone (red team
    round 22: each such give-back let the next window take one more). Nothing when its
    count is 0. Rare, so written plainly: no statement of its own on the common path."""
    if settings.COUNTS_IN_CACHE:
        name = f"count:{key}:{taken.window}"
        try:
            left = cache.decr(name)
        except ValueError:  # the window's count has expired: nothing to take back
            return
        if left < 0:  # expired between the cache's EXISTS and DECR: made again, unbounded
            cache.delete(name)
        return
    using = router.db_for_write(WindowCount)
    with connections[using].cursor() as cursor:
        cursor.execute(sql.statement(_BACK, using, WindowCount), [key, taken.window])


def counts_clear_ended() -> int:
    """Delete the rows of windows that are over; how many. A key's own row is started
    over in place, so the table holds one row per learner, link or refused login
    subject at most; `manage.py prepare` clears the ended ones at each start (on every
    new window it cost the answer 0.4-0.9 ms of CPU, docs/performance.md)."""
    deleted, _ = WindowCount.objects.filter(expires_at__lte=timezone.now()).delete()
    return deleted


# One statement on every answer, whether it starts a window or counts in one: the ORM's
# update, a read, and a savepoint around an insert at a window's start cost the answer
# 0.4-2.0 ms of CPU more than the per-process cache did (in-process answer path,
# docs/performance.md). An upsert: INSERT ... ON CONFLICT DO UPDATE ... RETURNING
# (SQLite 3.35, PostgreSQL 9.5), where a SET reads the row as it was.
_UPSERT = (
    "INSERT INTO {table} ({table.key}, {table.count}, {table.expires_at}) VALUES (%s, 1, %s)"
    " ON CONFLICT ({table.key}) DO UPDATE SET"
    " {table.count} = CASE WHEN {table}.{table.expires_at} > %s"
    " THEN {table}.{table.count} + 1 ELSE 1 END,"
    " {table.expires_at} = CASE WHEN {table}.{table.expires_at} > %s"
    " THEN {table}.{table.expires_at} ELSE EXCLUDED.{table.expires_at} END"
    " RETURNING {table.count}, {table.expires_at}"
)
# A window is its end, as stored: the one returned by the upsert (compared as stored).
_BACK = (
    "UPDATE {table} SET {table.count} = {table.count} - 1"
    " WHERE {table.key} = %s AND {table.expires_at} = %s AND {table.count} > 0"
)


def _upsert(key: str, now, window: timedelta) -> Taken:
    """The key's count after this one, in one atomic statement: 1 when its window was
    over or it had none (a new window, ending `window` from now)."""
    using = router.db_for_write(WindowCount)
    connection = connections[using]
    if not _returns_rows(connection):
        return _orm_count_up(key, now, window)
    adapt = connection.ops.adapt_datetimefield_value
    with connection.cursor() as cursor:
        cursor.execute(
            sql.statement(_UPSERT, using, WindowCount),
            [key, adapt(now + window), adapt(now), adapt(now)],
        )
        return Taken(*cursor.fetchone())


def _orm_count_up(key: str, now, window: timedelta) -> Taken:
    """`_upsert` for SQLite before 3.35, which has no RETURNING: the ORM's update, a
    read, and an insert where there was no live window."""
    live = WindowCount.objects.filter(key=key, expires_at__gt=now)
    if not live.update(count=F("count") + 1):
        WindowCount.objects.filter(key=key, expires_at__lte=now).delete()
        try:
            with transaction.atomic():
                WindowCount.objects.create(key=key, count=1, expires_at=now + window)
        except IntegrityError:  # a parallel request started it first
            live.update(count=F("count") + 1)
    count, ends = WindowCount.objects.filter(key=key).values_list("count", "expires_at").get()
    connection = connections[router.db_for_write(WindowCount)]
    return Taken(count, connection.ops.adapt_datetimefield_value(ends))


def _returns_rows(connection) -> bool:
    """Whether the upsert runs here: SQLite from 3.35 or PostgreSQL, whose INSERT can
    return what it wrote and which both know ON CONFLICT (MariaDB and Oracle do not)."""
    return (
        connection.vendor in {"sqlite", "postgresql"}
        and connection.features.can_return_columns_from_insert
    )


def _cache_count_up(key: str, window: timedelta) -> Taken:
    """The window is a key of its own, `window:KEY`, naming the count's key
    (`count:KEY:ID`), made at the window's first count and expiring with it: a count
    taken back names its window's count, never the next window's."""
    seconds = max(int(window.total_seconds()), 1)
    pointer = f"window:{key}"
    current = cache.get(pointer)
    if current is None:  # the window's first count; add() loses to a parallel first
        cache.add(pointer, uuid4().hex, timeout=seconds)
        current = cache.get(pointer) or uuid4().hex  # expired at once: a window apart
    name = f"count:{key}:{current}"
    try:
        count = cache.incr(name)  # the common case: a later count in a live window
    except ValueError:  # the window's first count
        if cache.add(name, 1, timeout=seconds):
            return Taken(1, current)
        try:
            count = cache.incr(name)
        except ValueError:  # and that first's count has expired since: start another
            cache.add(name, 1, timeout=seconds)
            return Taken(1, current)
    if count == 1:
        # Django's RedisCache.incr asks EXISTS, then INCR: a key that expired between
        # the two is made again by INCR, with no expiry (red team round 7). The window's
        # own key still ends it; this one must not stay in Redis for ever.
        cache.touch(name, timeout=seconds)
    return Taken(count, current)
