"""The answer pace's give-back (`portal.counters.count_back`) returns only the count its
own post took: a repeat counted at a window's end and given back after it ended left
the next window one answer more (red team round 22)."""

import time
from datetime import timedelta

import pytest
from django.conf import settings as django_settings
from django.utils import timezone

from portal.models import WindowCount
from progress.models import Attempt
from progress.services import submission
from progress.services.pace import answer_pace_take

LOCMEM = "locmem" in django_settings.CACHES["default"]["BACKEND"].lower()


def _a_minute_later(monkeypatch):
    """The clock past the window's end: the database's count, or the local cache's."""
    later = timedelta(seconds=61)
    now, clock = timezone.now, time.time
    monkeypatch.setattr(timezone, "now", lambda: now() + later)
    monkeypatch.setattr(time, "time", lambda: clock() + later.total_seconds())


@pytest.mark.parametrize(
    "counts_in_cache",
    [False, pytest.param(True, marks=pytest.mark.skipif(not LOCMEM, reason="clock of Redis"))],
)
def test_a_repeat_given_back_after_its_window_ended_leaves_the_next_window_alone(
    seeds_imported, post_answer, phase_token, learner, settings, monkeypatch, counts_in_cache
):
    settings.COUNTS_IN_CACHE = counts_in_cache
    settings.ANSWERS_PER_MINUTE = 2
    token = phase_token("q-10-02")
    assert post_answer("q-10-02", choice=["B"], token=token).status_code == 200
    assert post_answer("q-10-03", text="first").status_code == 200  # the window is full

    found = submission.attempt_sent

    def slow_lookup(**kwargs):  # the repeat, counted, is still looking when the window ends
        _a_minute_later(monkeypatch)
        monkeypatch.setattr(submission, "attempt_sent", found)
        assert answer_pace_take(learner)  # another tab's answer opens the next window
        return found(**kwargs)

    monkeypatch.setattr(submission, "attempt_sent", slow_lookup)
    assert post_answer("q-10-02", choice=["B"], token=token).status_code == 200  # its feedback

    # The next window holds one answer already: one more is all it takes.
    assert post_answer("q-10-01", choice=["B"]).status_code == 200
    assert post_answer("q-10-03", text="third in the window").status_code == 429
    assert Attempt.objects.count() == 3
    if not counts_in_cache:
        assert WindowCount.objects.get().count >= 2
