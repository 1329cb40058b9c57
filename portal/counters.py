"""Counts that bound what one client may do in a window: a learner's answers a minute
(`progress/services/pace.py`), the refused posts of a setup or invite link's form
(`accounts/throttle.py`), the refused-login rows the audit log keeps.

A bound must hold across every worker, or it is multiplied by them: counted in the
embedded default's cache, which lives in each worker process, three gunicorn workers
took 88 answers from one learner in 4 s against a limit of 30 a minute (red team,
2026-12-05). So with REDIS_URL the count is Redis's (`COUNTS_IN_CACHE`: its INCR is
atomic and every app server shares it); without it, a `WindowCount` row in the database
every worker shares, raised by one `UPDATE ... SET count = count + 1`, which the
database applies one at a time, so parallel requests cannot lose a count.
"""

from datetime import timedelta

from django.conf import settings
from django.core.cache import cache
from django.db import IntegrityError, connections, router, transaction
from django.db.models import F
from django.utils import timezone

from . import sql
from .models import WindowCount


def count_up(key: str, window: timedelta) -> int:
    """Count one more `key` in its window, which starts at its first count and lasts
    `window`; the count so far, this one included."""
    if settings.COUNTS_IN_CACHE:
        return _cache_count_up(key, window)
    now = timezone.now()
    count = _raise(key, now)
    if count:
        return count
    # The key's first count, or its window is over: a window starts here. Ended windows
    # of any key go with it, so the table holds the live ones only.
    WindowCount.objects.filter(expires_at__lte=now).delete()
    try:
        with transaction.atomic():
            WindowCount.objects.create(key=key, count=1, expires_at=now + window)
        return 1
    except IntegrityError:  # a parallel request started it first
        return _raise(key, now)


def count_of(key: str) -> int:
    """How many times `key` was counted in its live window (0 once it is over)."""
    if settings.COUNTS_IN_CACHE:
        return cache.get(_cache_key(key)) or 0
    row = WindowCount.objects.filter(key=key, expires_at__gt=timezone.now()).first()
    return row.count if row else 0


# One statement on every answer: the ORM's update() and a read after it cost a request
# 0.4-2.0 ms of CPU more than the per-process cache did, this 0.1-0.6 ms (in-process
# answer path, three interleaved runs, docs/performance.md).
_RAISE = (
    "UPDATE {table} SET {table.count} = {table.count} + 1"
    " WHERE {table.key} = %s AND {table.expires_at} > %s RETURNING {table.count}"
)


def _raise(key: str, now) -> int:
    """The key's count raised by one, in one atomic statement; 0 when its window is over
    or it has none."""
    using = router.db_for_write(WindowCount)
    connection = connections[using]
    if not _returns_rows(connection):
        live = WindowCount.objects.filter(key=key, expires_at__gt=now)
        if not live.update(count=F("count") + 1):
            return 0
        return WindowCount.objects.filter(key=key).values_list("count", flat=True).first() or 0
    with connection.cursor() as cursor:
        moment = connection.ops.adapt_datetimefield_value(now)
        cursor.execute(sql.statement(_RAISE, using, WindowCount), [key, moment])
        row = cursor.fetchone()
    return row[0] if row else 0


def _returns_rows(connection) -> bool:
    """Whether an UPDATE can return what it wrote (not SQLite before 3.35)."""
    return connection.features.can_return_columns_from_insert


def _cache_key(key: str) -> str:
    return f"count:{key}"


def _cache_count_up(key: str, window: timedelta) -> int:
    key, seconds = _cache_key(key), max(int(window.total_seconds()), 1)
    try:
        return cache.incr(key)  # the common case: a later count in a live window
    except ValueError:  # the window's first count; add() loses to a parallel first
        return 1 if cache.add(key, 1, timeout=seconds) else cache.incr(key)
