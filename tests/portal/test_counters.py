"""`portal.counters`: a bound on a client holds across every worker, not per process.

Without Redis each worker has a cache of its own; a new empty cache (`cache.clear()`)
stands here for the next request landing on another worker."""

from datetime import timedelta

import pytest
from django.core.cache import cache
from django.utils import timezone

from portal.counters import Taken, count_back, count_take, count_up
from portal.models import WindowCount

pytestmark = pytest.mark.django_db
WINDOW = timedelta(minutes=1)


@pytest.fixture
def in_database(settings):
    settings.COUNTS_IN_CACHE = False


@pytest.fixture
def in_cache(settings):
    settings.COUNTS_IN_CACHE = True


def test_a_count_without_redis_is_not_lost_to_another_worker(in_database):
    for _ in range(3):
        count_up("answers", WINDOW)
    cache.clear()

    assert count_up("answers", WINDOW) == 4


def test_counts_are_per_key(in_database):
    count_up("a", WINDOW)
    count_up("a", WINDOW)

    assert count_up("b", WINDOW) == 1
    assert count_up("a", WINDOW) == 3


def test_a_window_that_is_over_starts_again_in_place(in_database):
    count_up("old", WINDOW)
    count_up("old", WINDOW)
    WindowCount.objects.update(expires_at=timezone.now() - timedelta(seconds=1))

    assert count_up("old", WINDOW) == 1
    assert count_up("old", WINDOW) == 2
    assert WindowCount.objects.get().expires_at > timezone.now()


def test_prepare_clears_the_ended_windows(in_database):
    from io import StringIO

    from django.core.management import call_command

    count_up("ended", WINDOW)
    count_up("live", WINDOW)
    WindowCount.objects.filter(key="ended").update(expires_at=timezone.now())

    call_command("prepare", stdout=StringIO(), stderr=StringIO())

    assert list(WindowCount.objects.values_list("key", flat=True)) == ["live"]


def test_a_window_lasts_from_its_first_count(in_database):
    before = timezone.now()
    count_up("w", timedelta(minutes=15))
    count_up("w", timedelta(minutes=15))

    expires = WindowCount.objects.get(key="w").expires_at
    assert before + timedelta(minutes=15) <= expires <= timezone.now() + timedelta(minutes=15)


def test_with_redis_the_shared_cache_counts(in_cache):
    assert [count_up("c", WINDOW) for _ in range(3)] == [1, 2, 3]
    assert not WindowCount.objects.exists()


def test_the_orm_fallback_counts_as_the_statement_does(in_database, monkeypatch):
    """SQLite before 3.35 has no RETURNING: the ORM's update and read stand in."""
    from django.db import connection
    from django.test.utils import CaptureQueriesContext

    count_up("f", WINDOW)
    monkeypatch.setattr("portal.counters._returns_rows", lambda connection: False)

    with CaptureQueriesContext(connection) as queries:
        assert count_up("f", WINDOW) == 2
        assert count_up("g", WINDOW) == 1
        WindowCount.objects.filter(key="g").update(expires_at=timezone.now())
        assert count_up("g", WINDOW) == 1
    updates = [query["sql"] for query in queries if query["sql"].startswith("UPDATE")]
    assert updates and not any("RETURNING" in update for update in updates)


@pytest.mark.django_db(transaction=True)
def test_parallel_counts_are_never_lost(settings):
    """Four threads (four connections, as four workers) count one key at once: every
    count is returned once, none lost, whichever of them starts the window."""
    from concurrent.futures import ThreadPoolExecutor

    from django.db import connection

    settings.COUNTS_IN_CACHE = False

    def count_many(_):
        try:
            return [count_up("parallel", WINDOW) for _ in range(25)]
        finally:
            connection.close()

    with ThreadPoolExecutor(4) as pool:
        returned = sorted(n for counts in pool.map(count_many, range(4)) for n in counts)

    assert returned == list(range(1, 101))
    assert WindowCount.objects.get(key="parallel").count == 100


def test_a_count_the_cache_made_again_without_expiry_gets_its_window_back(in_cache, monkeypatch):
    """Redis: a key that expires between incr()'s EXISTS and INCR is made again by
    INCR with no expiry; the count would then never start over."""
    key = f"count:race:{count_take('race', WINDOW).window}"

    def incr_after_expiry(name, delta=1):
        return 1  # what INCR answers when it made the expired key again, with no expiry

    touched = []
    monkeypatch.setattr(cache, "incr", incr_after_expiry)
    monkeypatch.setattr(cache, "touch", lambda name, timeout: touched.append((name, timeout)))

    assert count_up("race", WINDOW) == 1
    assert touched == [(key, 60)]


@pytest.mark.parametrize("where", ["in_database", "in_cache"])
def test_a_count_taken_back_leaves_room_for_one_more(where, request):
    request.getfixturevalue(where)
    count_up("back", WINDOW)
    taken = count_take("back", WINDOW)

    count_back("back", taken)

    assert count_up("back", WINDOW) == 2


@pytest.mark.parametrize("where", ["in_database", "in_cache"])
def test_no_count_is_taken_back_below_nothing_or_from_a_window_that_is_over(where, request):
    request.getfixturevalue(where)
    count_back("never", count_take("another", WINDOW))  # no window at all
    taken = count_take("over", WINDOW)
    count_back("over", taken)
    count_back("over", taken)  # already at 0

    assert count_up("never", WINDOW) == 1
    assert count_up("over", WINDOW) == 1


def test_a_count_taken_back_from_a_key_that_expired_meanwhile_is_not_left_unbounded(
    in_cache, monkeypatch
):
    """Redis: DECR on a key that expired after decr()'s EXISTS makes it again at -1,
    with no expiry; it is deleted, so the next count starts a window of its own."""
    monkeypatch.setattr(cache, "decr", lambda name, delta=1: -1)
    deleted = []
    monkeypatch.setattr(cache, "delete", deleted.append)

    count_back("race", Taken(1, "w"))

    assert deleted == ["count:race:w"]


@pytest.mark.parametrize("where", ["in_database", "in_cache"])
def test_a_count_taken_back_after_its_window_ended_leaves_the_next_one_alone(where, request):
    """Each give-back returns only its own count (with REDIS_URL: Redis's own expiry)."""
    import time

    request.getfixturevalue(where)
    second = timedelta(seconds=1)
    taken = count_take("edge", second)  # counted at the window's end
    time.sleep(1.1)
    count_up("edge", second)  # the next window's first count

    count_back("edge", taken)  # given back after its window ended

    assert count_up("edge", second) == 2
