"""Values copied onto rows for queries: each standing's first answer's moment and
whether its learner has a review card for the question (LearnerQuestion.first_answered_at,
has_card), each review card's stability and last rating from its scheduler's JSON
(ReviewCard.stability, rated_at). Every write that can touch them leaves them equal to
what they copy."""

import importlib
from datetime import UTC, datetime, timedelta
from io import StringIO
from types import SimpleNamespace

import pytest
import time_machine
from django.apps import apps
from django.core.management import call_command
from django.db import connection

from progress.models import Attempt, LearnerQuestion, ReviewCard
from progress.services import learner_question_rebuild
from teaching.services import verdict_override
from tests.factories import UserFactory, answer
from tests.seeds import move_key_from_b_to_a

pytestmark = pytest.mark.django_db

START = datetime(2027, 3, 1, 9, 0, 0, 250, tzinfo=UTC)
TEN = "phase-10-init-norm-residuals.yaml"


def firsts() -> dict[tuple[str, str], datetime]:
    """{(username, question code): the first answer's moment its standing carries}."""
    return {
        (username, code): at
        for username, code, at in LearnerQuestion.objects.values_list(
            "learner__username", "question__code", "first_answered_at"
        )
    }


def firsts_from_attempts() -> dict[tuple[str, str], datetime]:
    """The same from the attempts: each pair's first attempt (by id) and its moment."""
    found = {}
    for username, code, at in Attempt.objects.order_by("id").values_list(
        "learner__username", "question__code", "created_at"
    ):
        found.setdefault((username, code), at)
    return found


def flags() -> dict[tuple[str, str], bool]:
    """{(username, question code): whether its standing says it has a card}."""
    return {
        (username, code): has_card
        for username, code, has_card in LearnerQuestion.objects.values_list(
            "learner__username", "question__code", "has_card"
        )
    }


def flags_from_cards() -> dict[tuple[str, str], bool]:
    carded = set(ReviewCard.objects.values_list("learner__username", "question__code"))
    return {pair: pair in carded for pair in flags()}


@pytest.fixture
def answered(seeds_imported):
    """ana: q-10-01 right, then wrong a day later; bea: q-10-01 wrong, then right two
    days later, q-10-05 right an hour in."""
    ana, bea = UserFactory(username="ana"), UserFactory(username="bea")
    with time_machine.travel(START, tick=False):
        answer(ana, "q-10-01", keys=["B"])
        answer(bea, "q-10-01", keys=["A"])
    with time_machine.travel(START + timedelta(hours=1), tick=False):
        answer(bea, "q-10-05", keys=["C"])
    with time_machine.travel(START + timedelta(days=1), tick=False):
        answer(ana, "q-10-01", keys=["A"])
    with time_machine.travel(START + timedelta(days=2), tick=False):
        answer(bea, "q-10-01", keys=["B"])
    return {"folder": seeds_imported, "ana": ana, "bea": bea}


def test_first_answer_sets_the_moment_and_later_answers_leave_it(answered):
    assert firsts() == firsts_from_attempts()
    assert firsts() == {
        ("ana", "q-10-01"): START,
        ("bea", "q-10-01"): START,
        ("bea", "q-10-05"): START + timedelta(hours=1),
    }


def test_a_card_made_by_an_answer_marks_the_standing(answered):
    # ana: right first, no card until her wrong answer a day later; bea: wrong first.
    assert flags() == flags_from_cards()
    assert flags() == {
        ("ana", "q-10-01"): True,
        ("bea", "q-10-01"): True,
        ("bea", "q-10-05"): False,
    }


def test_regrade_keeps_the_first_moment(answered):
    move_key_from_b_to_a(answered["folder"])

    call_command("regrade", "q-10-01", stdout=StringIO())

    assert LearnerQuestion.objects.get(
        learner__username="bea", question__code="q-10-01"
    ).first_correct
    assert firsts() == firsts_from_attempts()
    assert firsts()["bea", "q-10-01"] == START
    assert flags() == flags_from_cards()


def test_override_of_a_first_try_keeps_the_first_moment(answered):
    first = Attempt.objects.filter(learner=answered["ana"]).order_by("id").first()

    with time_machine.travel(START + timedelta(days=5), tick=False):
        verdict_override(
            attempt=first,
            correct=False,
            reason="copied",
            by=UserFactory(username="teach", is_staff=True),
        )

    assert firsts() == firsts_from_attempts()
    assert firsts()["ana", "q-10-01"] == START


def test_rebuild_of_every_standing_writes_the_first_moment(answered):
    LearnerQuestion.objects.all().delete()

    learner_question_rebuild()

    assert firsts() == firsts_from_attempts()
    assert len(firsts()) == 3
    assert (
        flags()
        == flags_from_cards()
        == {
            ("ana", "q-10-01"): True,
            ("bea", "q-10-01"): True,
            ("bea", "q-10-05"): False,
        }
    )


def test_import_that_retires_a_question_keeps_the_first_moment(answered):
    path = answered["folder"] / TEN
    original = path.read_text()
    path.write_text(original[: original.index("  - id: q-10-05")], "utf-8")

    call_command("import_quizzes", str(answered["folder"]), stdout=StringIO())

    assert firsts() == firsts_from_attempts()
    assert firsts()["bea", "q-10-05"] == START + timedelta(hours=1)


def test_migration_backfills_the_first_moment(answered):
    LearnerQuestion.objects.update(first_answered_at=datetime(2000, 1, 1, tzinfo=UTC))
    migration = importlib.import_module(
        "progress.migrations.0017_learner_question_first_answered_at"
    )

    migration.backfill(apps, None)

    assert firsts() == firsts_from_attempts()
    assert firsts()["bea", "q-10-05"] == START + timedelta(hours=1)


def cards() -> dict[tuple[str, str], tuple[float | None, datetime | None]]:
    """{(username, question code): (stability, last rating) its card's columns hold}."""
    return {
        (username, code): (stability, at)
        for username, code, stability, at in ReviewCard.objects.values_list(
            "learner__username", "question__code", "stability", "rated_at"
        )
    }


def cards_from_json() -> dict[tuple[str, str], tuple[float | None, datetime | None]]:
    """The same read from each card's scheduler state, as the library wrote it."""
    found = {}
    for username, code, fsrs in ReviewCard.objects.values_list(
        "learner__username", "question__code", "fsrs"
    ):
        last = fsrs["last_review"]
        found[username, code] = (fsrs["stability"], last and datetime.fromisoformat(last))
    return found


def test_card_columns_follow_every_rating(seeds_imported):
    cy = UserFactory(username="cy")
    seen = []
    # Wrong (a card), practice the same day, a right review on each due day until
    # learned, then wrong again (forgotten: back in review).
    with time_machine.travel(START, tick=False):
        answer(cy, "q-10-04", keys=["A"])
        seen.append(cards())
        answer(cy, "q-10-04", keys=["B"])  # not due: practice, nothing rated
        assert cards() == seen[-1]
    for _ in range(2):
        with time_machine.travel(ReviewCard.objects.get().due, tick=False):
            answer(cy, "q-10-04", keys=["B"])
        assert cards() == cards_from_json()
        seen.append(cards())
    assert ReviewCard.objects.get().learned_at is not None
    with time_machine.travel(START + timedelta(days=60), tick=False):
        answer(cy, "q-10-04", keys=["A"])

    assert cards() == cards_from_json()
    assert seen[0] == {("cy", "q-10-04"): (0.212, START)}  # Again's stability (w0)
    assert len(seen) == 3
    assert cards()["cy", "q-10-04"][1] == START + timedelta(days=60)
    assert len({c["cy", "q-10-04"] for c in [*seen, cards()]}) == 4  # each rating moved them


def test_card_made_by_an_override_is_not_rated_yet(answered):
    only = Attempt.objects.get(learner=answered["bea"], question__code="q-10-05")

    verdict_override(
        attempt=only,
        correct=False,
        reason="copied",
        by=UserFactory(username="teach", is_staff=True),
    )

    assert cards() == cards_from_json()
    assert cards()["bea", "q-10-05"] == (None, None)
    assert flags() == flags_from_cards()
    assert flags()["bea", "q-10-05"]
    assert cards()["bea", "q-10-01"][1] == START + timedelta(days=2)  # its review


def test_migration_backfills_the_card_columns(answered):
    expected = cards_from_json()
    ReviewCard.objects.update(stability=99.0, rated_at=datetime(2000, 1, 1, tzinfo=UTC))
    migration = importlib.import_module("progress.migrations.0018_review_card_stability_rated_at")

    migration.backfill(apps, SimpleNamespace(connection=connection))

    assert cards() == expected
    assert cards()["ana", "q-10-01"] == (0.212, START + timedelta(days=1))


def test_migration_backfills_the_card_flags(answered):
    LearnerQuestion.objects.update(has_card=False)
    migration = importlib.import_module("progress.migrations.0019_learner_question_has_card")

    migration.backfill(apps, None)

    assert flags() == flags_from_cards()
    assert sorted(flags().values()) == [False, True, True]
