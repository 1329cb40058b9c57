"""`portal.counters`: a bound on a client holds across every worker, not per process.

Without Redis each worker has a cache of its own; a new empty cache (`cache.clear()`)
stands here for the next request landing on another worker."""

from datetime import timedelta

import pytest
from django.core.cache import cache
from django.utils import timezone

from portal.counters import count_of, count_up
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
    assert count_of("answers") == 4


def test_counts_are_per_key(in_database):
    count_up("a", WINDOW)
    count_up("a", WINDOW)

    assert count_up("b", WINDOW) == 1
    assert count_of("a") == 2
    assert count_of("never") == 0


def test_a_window_that_is_over_starts_again_and_its_row_goes(in_database):
    count_up("old", WINDOW)
    count_up("other", WINDOW)
    WindowCount.objects.update(expires_at=timezone.now() - timedelta(seconds=1))

    assert count_of("old") == 0
    assert count_up("old", WINDOW) == 1
    assert list(WindowCount.objects.values_list("key", "count")) == [("old", 1)]


def test_a_window_lasts_from_its_first_count(in_database):
    before = timezone.now()
    count_up("w", timedelta(minutes=15))
    count_up("w", timedelta(minutes=15))

    expires = WindowCount.objects.get(key="w").expires_at
    assert before + timedelta(minutes=15) <= expires <= timezone.now() + timedelta(minutes=15)


def test_with_redis_the_shared_cache_counts(in_cache):
    assert [count_up("c", WINDOW) for _ in range(3)] == [1, 2, 3]
    assert count_of("c") == 3
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
