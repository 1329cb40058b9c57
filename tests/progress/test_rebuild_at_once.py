"""Two recounts of one learner's phase at once (PostgreSQL): no deadlock."""

import contextlib
import threading
from concurrent.futures import ThreadPoolExecutor

import pytest
from django.contrib.auth import get_user_model
from django.db import connection

from progress.models import Attempt
from progress.services import recounts
from teaching.services import verdict_override
from tests.factories import UserFactory
from tests.progress.test_phase_totals import ana_and_bea, from_scratch, kept  # noqa: F401

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.usefixtures("ana_and_bea")]


def test_two_overrides_of_one_learner_in_one_phase_at_once_both_record(monkeypatch):
    # Each override locked its own question's standing, then counted the phase again,
    # locking all the learner's standings there: each waited for the other's (a deadlock
    # on PostgreSQL, one of them a 500). Now each locks the phase's standings at once.
    ana = get_user_model().objects.get(username="ana")
    attempts = [
        Attempt.objects.get(learner=ana, question__code=code) for code in ("q-10-01", "q-10-02")
    ]
    teacher = UserFactory(username="teach", is_staff=True)
    inside = threading.Barrier(2)
    rebuild = recounts._rebuild

    def slow_rebuild(pairs):
        # Both holding their locks, each goes on; when the other waits for this one's
        # locks, it comes no more: on after a second.
        with contextlib.suppress(threading.BrokenBarrierError):
            inside.wait(1)
        return rebuild(pairs)

    monkeypatch.setattr(recounts, "_rebuild", slow_rebuild)

    def override(attempt):
        try:
            verdict_override(attempt=attempt, correct=False, reason="Not so", by=teacher)
        finally:
            connection.close()

    with ThreadPoolExecutor(2) as pool:
        for done in [pool.submit(override, a) for a in attempts]:
            done.result()

    assert all(a.verdict_entry_id() for a in attempts)
    assert kept() == from_scratch()
