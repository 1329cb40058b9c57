"""Calls sent at once, as two tabs or two workers send them: each in a thread of its own,
on a database connection of its own (closed after, so the test database can be dropped).
Needs `@pytest.mark.django_db(transaction=True)`."""

from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor

from django.db import connection


def _closing(call: Callable[[], object]) -> Callable[[], object]:
    def run():
        try:
            return call()
        finally:
            connection.close()

    return run


def at_once(*calls: Callable[[], object]) -> list:
    """Each call's result, in the order given; the first exception raised is raised."""
    with ThreadPoolExecutor(len(calls)) as pool:
        return [done.result() for done in [pool.submit(_closing(call)) for call in calls]]
