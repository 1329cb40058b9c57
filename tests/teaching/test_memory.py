"""The cohort's memory: predicted recall per learner and question, checked against the
fsrs library's own figures, and the rows of its CSV (the page: test_memory_page.py)."""

from datetime import UTC, datetime, timedelta

import pytest
import time_machine
from django.conf import settings
from fsrs import Card, Rating, Scheduler

from progress.models import ReviewCard
from quizzes.models import Question
from teaching.memory import HORIZON_DAYS, cohort_memory, curve, memory_csv_rows, recall_cells
from teaching.models import Cohort
from teaching.selectors import cohort_learner_ids
from tests.factories import UserFactory, answer
from tests.teaching.conftest import NOW, START, WEEK

pytestmark = pytest.mark.django_db


def library(*reviews) -> Card:
    """The card the library makes from (rating, moment) reviews of a new card."""
    scheduler = Scheduler(**settings.REVIEW_SCHEDULER)
    card = Card()
    for rating, at in reviews:
        card, _log = scheduler.review_card(card, rating, at)
    return card


def retrievability(card: Card) -> tuple[float, float]:
    scheduler = Scheduler(**settings.REVIEW_SCHEDULER)
    return (
        scheduler.get_card_retrievability(card, NOW),
        scheduler.get_card_retrievability(card, NOW + WEEK),
    )


def recall_of(world) -> dict[tuple[str, str], tuple[float, float]]:
    """Every (learner, question) figure of the CSV, as floats."""
    rows = list(memory_csv_rows(cohort=world["cohort"], now=NOW))
    assert rows[0] == ["learner", "question", "recall_now", "recall_in_7_days", "due"]
    return {(r[0], r[1]): (float(r[2]), float(r[3])) for r in rows[1:]}


def test_formula_equals_the_library_on_hand_picked_cards():
    shape = curve()
    scheduler = Scheduler(**settings.REVIEW_SCHEDULER)
    cards = [
        library((Rating.Good, START)),
        library((Rating.Again, START)),
        library((Rating.Again, START), (Rating.Good, START + timedelta(days=1))),
        library(
            (Rating.Again, START),
            (Rating.Hard, START + timedelta(days=1)),
            (Rating.Good, START + timedelta(days=4)),
            (Rating.Again, START + timedelta(days=30)),
        ),
    ]
    moments = [START, START + timedelta(hours=23), NOW, START + timedelta(days=400)]

    for card in cards:
        for moment in moments:
            days = (moment - card.last_review).days

            assert shape.recall(card.stability, days) == pytest.approx(
                scheduler.get_card_retrievability(card, moment), rel=1e-12
            )
    assert shape.recall(None, 3) == scheduler.get_card_retrievability(Card(), NOW) == 0


def test_first_review_stabilities_are_the_librarys():
    assert curve().first_stability == {
        True: library((Rating.Good, START)).stability,
        False: library((Rating.Again, START)).stability,
    }
    # The default parameters' w2 and w0, as published with FSRS-6.
    assert curve().first_stability == {True: 2.3065, False: 0.212}


def test_recall_right_answer_without_card_as_a_good_first_review(world):
    figures = recall_of(world)

    assert figures["ana", "q-10-05"] == pytest.approx(
        retrievability(library((Rating.Good, START))), abs=5e-5
    )
    # By hand: D = −0.1542, F = 0.9^(1/D) − 1 = 0.98040, S = 2.3065 (w2); 10 whole days:
    # (1 + F·10/S)^D = 5.2506^−0.1542 = 0.7744; 17 days: 8.2260^−0.1542 = 0.7226.
    assert figures["ana", "q-10-05"] == (0.7744, 0.7226)


def test_recall_wrong_answer_reads_its_card(world):
    figures = recall_of(world)

    assert figures["bea", "q-10-01"] == pytest.approx(
        retrievability(library((Rating.Again, START))), abs=5e-5
    )
    # By hand: S = 0.212 (w0): 47.245^−0.1542 = 0.5518; 79.617^−0.1542 = 0.5092.
    assert figures["bea", "q-10-01"] == (0.5518, 0.5092)


def test_recall_card_reviewed_several_times(world):
    figures = recall_of(world)
    card = library(*world["cy_reviews"])

    assert figures["cy", "q-10-04"] == pytest.approx(retrievability(card), abs=5e-5)
    assert figures["cy", "q-10-04"][0] > figures["bea", "q-10-01"][0]


def test_recall_regraded_first_answer_uses_the_effective_verdict(world):
    figures = recall_of(world)

    # Right when given, wrong after the key change: predicted as a first review rated
    # Again on the day it was given (the latest answer is right: no card).
    assert not ReviewCard.objects.filter(learner__username="dot").exists()
    assert figures["dot", "q-10-01"] == pytest.approx(
        retrievability(library((Rating.Again, START))), abs=5e-5
    )


def test_recall_overridden_first_answer_uses_the_effective_verdict(world):
    figures = recall_of(world)

    assert figures["eve", "q-10-02"] == pytest.approx(
        retrievability(library((Rating.Again, START))), abs=5e-5
    )
    # fay's only answer overridden wrong: a card due for review, never reviewed; the
    # library gives such a card 0.
    card = Card.from_dict(ReviewCard.objects.get(learner__username="fay").fsrs)
    assert retrievability(card) == (0, 0)
    assert figures["fay", "q-10-02"] == (0.0, 0.0)


def test_csv_lists_answered_questions_of_the_cohorts_learners(world):
    rows = list(memory_csv_rows(cohort=world["cohort"], now=NOW))

    assert [(r[0], r[1]) for r in rows[1:]] == [
        ("ana", "q-10-05"),
        ("bea", "q-10-01"),
        ("cy", "q-10-04"),
        ("dot", "q-10-01"),
        ("eve", "q-10-02"),
        ("fay", "q-10-02"),
    ]
    dues = {r[0]: r[4] for r in rows[1:]}
    bea_due = ReviewCard.objects.get(learner__username="bea").due
    assert dues == {
        "ana": "",  # no card
        "bea": bea_due.isoformat(),
        "cy": "",  # learned: out of the reviews
        "dot": "",
        "eve": "",
        "fay": (START + timedelta(days=2)).isoformat(),
    }


def per_cell_totals(cohort, now, threshold):
    """The page's totals worked out from `recall_cells` (the CSV's per-cell path)."""
    questions = list(Question.objects.active().values_list("pk", flat=True))
    by_question, by_learner = {}, {}
    for learner_id, question_id, recall_now, recall_week, _due in recall_cells(
        learner_ids=cohort_learner_ids(cohort), question_ids=questions, now=now
    ):
        q = by_question.setdefault(question_id, [0, 0.0, 0.0, 0, 0])
        q[0] += 1
        q[1] += recall_now
        q[2] += recall_week
        q[3] += recall_now < threshold
        q[4] += recall_week < threshold
        learner = by_learner.setdefault(learner_id, [0, 0])
        learner[0] += 1
        learner[1] += recall_week < threshold
    return by_question, by_learner


@pytest.mark.parametrize(
    "now",
    [
        START,
        START + timedelta(hours=23, minutes=59),
        NOW,
        START + timedelta(days=30, microseconds=1),
        START + timedelta(days=400),
    ],
)
@pytest.mark.parametrize("threshold", [0.0, 0.55, 0.7, 0.9, 1.01])
def test_database_totals_equal_the_per_cell_path(world, settings, now, threshold):
    settings.MEMORY_RISK_THRESHOLD = threshold
    expected_questions, expected_learners = per_cell_totals(world["cohort"], now, threshold)

    memory = cohort_memory(cohort=world["cohort"], now=now)

    questions = {
        item.question.pk: [
            item.learners,
            item.sum_now,
            item.sum_week,
            item.below_now,
            item.below_week,
        ]
        for item in memory.items
        if item.learners
    }
    # The counts exactly; the sums to rounding (the database adds in another order).
    assert {k: v[:1] + v[3:] for k, v in questions.items()} == {
        k: v[:1] + v[3:] for k, v in expected_questions.items()
    }
    for pk, figures in questions.items():
        assert figures[1:3] == pytest.approx(expected_questions[pk][1:3], rel=1e-12, abs=0)
    learners = {row.learner_id: [row.seen, row.at_risk] for row in memory.learners if row.seen}
    assert learners == expected_learners
    assert sum(v[0] for v in learners.values()) == 6  # six answered pairs, staff left out


@pytest.fixture
def late(seeds_imported):
    """hal answers q-10-05 right (no card) and q-10-01 wrong (a card) at 23:59 UTC."""
    cohort = Cohort.objects.create(name="Late")
    hal = UserFactory(username="hal")
    cohort.learners.add(hal)
    at = datetime(2027, 3, 1, 23, 59, 0, 1, tzinfo=UTC)  # a microsecond past 23:59
    with time_machine.travel(at, tick=False):
        answer(hal, "q-10-05", keys=["C"])
        answer(hal, "q-10-01", keys=["A"])
    return cohort, at


@pytest.mark.parametrize(
    ("after", "days"),
    [
        (timedelta(minutes=2), 0),  # 00:01 the next day: not a whole day yet
        (timedelta(days=1, microseconds=-1), 0),
        (timedelta(days=1), 1),  # exactly 24 hours
        (timedelta(days=1, minutes=2), 1),
        (timedelta(hours=-1), -1),  # a review later than now: no day, 6 in a week
    ],
)
def test_database_counts_whole_days_as_timedelta_does(late, after, days):
    cohort, at = late
    shape = curve()
    now = at + after
    assert (now - at).days == days

    memory = cohort_memory(cohort=cohort, now=now)

    figures = {item.question.code: (item.mean_now, item.mean_week) for item in memory.items}
    for code, right in (("q-10-05", True), ("q-10-01", False)):
        stability = shape.first_stability[right]
        assert figures[code] == (
            shape.recall(stability, days),
            shape.recall(stability, days + HORIZON_DAYS),
        ), code
    cells = {
        c[1]: c[2:4]
        for c in recall_cells(
            learner_ids=[cohort.learners.get().pk],
            question_ids=Question.objects.values_list("pk", flat=True),
            now=now,
        )
    }
    assert sorted(cells.values()) == sorted(figures[c] for c in ("q-10-05", "q-10-01"))
