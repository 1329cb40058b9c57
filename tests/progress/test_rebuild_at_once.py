"""Two recounts of one learner's phase at once (PostgreSQL): no deadlock."""

import contextlib
import threading
from functools import partial

import pytest
from django.contrib.auth import get_user_model

from progress.models import Attempt
from progress.services import recounts
from teaching.services import verdict_override
from tests.factories import UserFactory
from tests.progress.test_phase_totals import ana_and_bea, from_scratch, kept  # noqa: F401
from tests.threads import at_once

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

    at_once(
        *(
            partial(verdict_override, attempt=a, correct=False, reason="Not so", by=teacher)
            for a in attempts
        )
    )

    assert all(a.verdict_entry_id() for a in attempts)
    assert kept() == from_scratch()
