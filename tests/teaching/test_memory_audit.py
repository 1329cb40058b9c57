"""The Memory page's figures against the fsrs library, on a seeded random cohort."""

import random
import zoneinfo
from datetime import UTC, datetime, timedelta

import pytest
import time_machine
from django.utils import timezone
from fsrs import Card, Rating

from progress.models import Attempt, LearnerQuestion, ReviewCard
from progress.reviews import scheduler
from quizzes.models import Phase, Question
from teaching.memory import cohort_memory, memory_csv_rows, memory_heat_cells
from teaching.models import Cohort
from teaching.services import verdict_override
from tests.factories import UserFactory, answer

from .audit_reference import effective

START = datetime(2027, 3, 1, 22, 30, tzinfo=UTC)


@pytest.fixture
def memory_cohort(seeds_imported, instructor):
    rng = random.Random(7)
    cohort = Cohort.objects.create(name="Mem")
    questions = list(Question.objects.filter(current_revision__kind__in=["single", "multi"]))
    learners = [UserFactory(username=f"m{i:02d}") for i in range(12)]
    cohort.learners.add(*learners, UserFactory(username="zz-nothing"))
    for day in range(20):
        for learner in learners:
            for q in rng.sample(questions, 2):
                at = START + timedelta(days=day, minutes=rng.randrange(0, 300))
                with time_machine.travel(at, tick=False):
                    keys = [o["key"] for o in q.current_revision.options]
                    good = [o["key"] for o in q.current_revision.options if o.get("correct")]
                    answer(learner, q.code, keys=good if rng.random() < 0.6 else keys[:1])
    firsts = list(Attempt.objects.filter(learner__in=learners).order_by("id")[:200])
    for a in rng.sample(firsts, 6):
        verdict_override(attempt=a, correct=not a.correct, reason="audit", by=instructor)
    return cohort


def library_recall(learner_id, question_id, now):
    fsrs = scheduler()
    card = ReviewCard.objects.filter(learner_id=learner_id, question_id=question_id).first()
    if card is not None:
        c = Card.from_dict(card.fsrs)
    else:
        tries = list(
            Attempt.objects.filter(learner_id=learner_id, question_id=question_id)
            .prefetch_related("regrades")
            .order_by("created_at", "id")
        )
        first = tries[0]
        rating = Rating.Good if effective(first) else Rating.Again
        c = fsrs.review_card(Card(), rating, first.created_at)[0]
    return (
        fsrs.get_card_retrievability(c, now),
        fsrs.get_card_retrievability(c, now + timedelta(days=7)),
    )


def test_memory_figures_equal_the_library(memory_cohort):
    """In three zones, at three hours of the day: one cohort built once for the nine
    (building it took 3–5 s a time, twice that on PostgreSQL)."""
    for zone in ("UTC", "Asia/Tokyo", "America/Los_Angeles"):
        for hours in (0, 7, 23):
            figures_equal_the_library(memory_cohort, hours, zone)


def figures_equal_the_library(memory_cohort, hours, zone):
    now = START + timedelta(days=24, hours=hours)
    pairs = list(
        LearnerQuestion.objects.filter(learner__in=memory_cohort.learners.all()).values_list(
            "learner_id", "question_id"
        )
    )
    want = {p: library_recall(*p, now) for p in pairs}
    threshold = 0.7
    with timezone.override(zoneinfo.ZoneInfo(zone)):
        memory = cohort_memory(cohort=memory_cohort, now=now)
        rows = list(memory_csv_rows(cohort=memory_cohort, now=now))
        for phase in Phase.objects.all():
            m = cohort_memory(cohort=memory_cohort, now=now, phase=phase)
            memory_heat_cells(memory=m, learners=m.learners)
            for key, (r_now, r_week) in m.cells.items():
                assert (r_now, r_week) == pytest.approx(want[key], abs=1e-12), key
    names = dict(memory_cohort.learners.values_list("username", "id"))
    codes = dict(Question.objects.values_list("code", "id"))
    assert len(rows) - 1 == len(pairs)
    for name, code, r_now, r_week, due in rows[1:]:
        w = want[(names[name], codes[code])]
        assert (float(r_now), float(r_week)) == pytest.approx(w, abs=5e-5)
        card = ReviewCard.objects.filter(learner_id=names[name], question_id=codes[code]).first()
        if card is None or card.learned_at:
            assert due == ""
        else:
            assert datetime.fromisoformat(due) == card.due
            assert (
                datetime.fromisoformat(due).utcoffset()
                == card.due.astimezone(zoneinfo.ZoneInfo(zone)).utcoffset()
            )
    for item in memory.items:
        got = [w for (lid, qid), w in want.items() if qid == item.question.pk]
        assert item.learners == len(got)
        if got:
            assert item.mean_now == pytest.approx(sum(g[0] for g in got) / len(got))
            assert item.mean_week == pytest.approx(sum(g[1] for g in got) / len(got))
            assert item.below_now == sum(g[0] < threshold for g in got)
            assert item.below_week == sum(g[1] < threshold for g in got)
    for learner in memory.learners:
        got = [w for (lid, qid), w in want.items() if lid == learner.learner_id]
        assert (learner.seen, learner.at_risk) == (len(got), sum(g[1] < threshold for g in got))
        cards = ReviewCard.objects.filter(learner_id=learner.learner_id, learned_at__isnull=True)
        local = now.astimezone(zoneinfo.ZoneInfo(zone))
        tomorrow = (local + timedelta(days=1)).replace(hour=0, minute=0, second=0, microsecond=0)
        assert learner.due_today == sum(c.due < tomorrow for c in cards)
        assert learner.due_week == sum(c.due < now + timedelta(days=7) for c in cards)
