"""Counts kept per learner and phase (LearnerPhase), and the first-try total each
standing carries (LearnerQuestion.phase_first_right): every write that can change them
leaves them equal to a count from scratch, from the attempts and their verdicts.

A count is (answered, right on first try, right on latest try, ever right)."""

import importlib
from collections import defaultdict
from io import StringIO

import pytest
from django.apps import apps
from django.core.management import call_command

from progress.models import Attempt, LearnerPhase, LearnerQuestion
from progress.services import learner_phase_recount, learner_question_rebuild
from quizzes.models import Phase, Question
from teaching.services import verdict_override
from tests.factories import UserFactory, answer
from tests.threads import at_once

pytestmark = pytest.mark.django_db

TEN = "phase-10-init-norm-residuals.yaml"
NINETEEN = "phase-19-training-dynamics.yaml"
# What the ana_and_bea fixture leaves.
ANSWERED = {("ana", 10): (3, 2, 2, 2), ("ana", 19): (1, 1, 1, 1), ("bea", 10): (2, 1, 2, 2)}


def from_scratch() -> dict[tuple[str, int], tuple[int, int, int, int]]:
    """{(username, phase number): count}, from each learner's attempts per active
    question in id order and their verdicts as they now stand."""
    tries = defaultdict(list)
    for attempt in (
        Attempt.objects.select_related("learner", "question__phase")
        .prefetch_related("regrades")
        .order_by("id")
    ):
        if attempt.question.retired_at is None:
            tries[(attempt.learner.username, attempt.question_id)].append(attempt)
    counts = defaultdict(lambda: [0, 0, 0, 0])
    for (username, _question), attempts in tries.items():
        rights = [a.verdict().correct for a in attempts]
        count = counts[(username, attempts[0].question.phase.number)]
        for index, value in enumerate((1, rights[0], rights[-1], any(rights))):
            count[index] += int(value)
    return {key: tuple(count) for key, count in counts.items()}


def kept() -> dict[tuple[str, int], tuple[int, int, int, int]]:
    return {
        (username, number): tuple(count)
        for username, number, *count in LearnerPhase.objects.values_list(
            "learner__username",
            "phase__number",
            "answered",
            "first_right",
            "latest_right",
            "ever_right",
        )
    }


def copied() -> dict[tuple[str, str], int]:
    """{(username, question code): the first-try total its standing carries}."""
    return {
        (username, code): n
        for username, code, n in LearnerQuestion.objects.values_list(
            "learner__username", "question__code", "phase_first_right"
        )
    }


def copies_from_scratch() -> dict[tuple[str, str], int]:
    """What each standing should carry: its learner's first-try total, from scratch, in
    the phase its question is in now (retired or not)."""
    counts = from_scratch()
    return {
        (username, code): counts.get((username, number), (0, 0, 0, 0))[1]
        for username, code, number in LearnerQuestion.objects.values_list(
            "learner__username", "question__code", "question__phase__number"
        )
    }


def reimport(folder) -> None:
    call_command("import_quizzes", str(folder), stdout=StringIO())


@pytest.fixture
def ana_and_bea(seeds_imported):
    """ana: right first on q-10-01, q-10-05 and q-19-01; bea: wrong first on q-10-01,
    then right; right first on q-10-05."""
    ana, bea = UserFactory(username="ana"), UserFactory(username="bea")
    answer(ana, "q-10-01", keys=["B"])
    answer(ana, "q-10-02", keys=["A"])  # wrong (A and C are right)
    answer(ana, "q-10-05", keys=["C"])
    answer(ana, "q-19-01", keys=["B"])
    answer(bea, "q-10-01", keys=["A"])
    answer(bea, "q-10-01", keys=["B"])  # right, but not the first try
    answer(bea, "q-10-05", keys=["C"])
    return {"folder": seeds_imported, "ana": ana, "bea": bea}


def test_answers_keep_the_counts(ana_and_bea):
    assert kept() == from_scratch() == ANSWERED
    assert copied() == copies_from_scratch()


def test_a_later_answer_moves_only_the_latest_count(ana_and_bea):
    answer(ana_and_bea["ana"], "q-10-01", keys=["A"])  # wrong now, right first

    assert (
        kept()
        == from_scratch()
        == {("ana", 10): (3, 2, 1, 2), ("ana", 19): (1, 1, 1, 1), ("bea", 10): (2, 1, 2, 2)}
    )
    assert copied() == copies_from_scratch()


def test_regrade_moves_the_counts_with_the_grades(ana_and_bea):
    path = ana_and_bea["folder"] / TEN
    text = path.read_text()
    path.write_text(  # q-10-01: A right instead of B
        text.replace(
            "equivalente a fp32\n        correct: true\n", "equivalente a fp32\n", 1
        ).replace(
            "dando valores de gradiente más precisos\n",
            "dando valores de gradiente más precisos\n        correct: true\n",
            1,
        ),
        "utf-8",
    )
    reimport(ana_and_bea["folder"])

    call_command("regrade", "q-10-01", stdout=StringIO())

    assert (
        kept()
        == from_scratch()
        == {("ana", 10): (3, 1, 1, 1), ("ana", 19): (1, 1, 1, 1), ("bea", 10): (2, 2, 1, 2)}
    )
    assert copied() == copies_from_scratch()


def test_override_of_a_first_try_moves_every_count_it_touches(ana_and_bea):
    first = Attempt.objects.filter(learner=ana_and_bea["bea"]).order_by("id").first()

    verdict_override(
        attempt=first,
        correct=True,
        reason="A is defensible",
        by=UserFactory(username="teach", is_staff=True),
    )

    assert kept() == from_scratch() == {**ANSWERED, ("bea", 10): (2, 2, 2, 2)}
    assert copied() == copies_from_scratch()


def test_override_of_a_latest_try_moves_the_counts(ana_and_bea):
    later = Attempt.objects.filter(learner=ana_and_bea["bea"]).order_by("id")[1]

    verdict_override(
        attempt=later,
        correct=False,
        reason="copied",
        by=UserFactory(username="teach", is_staff=True),
    )

    assert kept() == from_scratch() == {**ANSWERED, ("bea", 10): (2, 1, 1, 1)}
    assert copied() == copies_from_scratch()


def test_import_that_retires_a_question_leaves_it_out_of_the_counts(ana_and_bea):
    path = ana_and_bea["folder"] / TEN
    original = path.read_text()
    path.write_text(original[: original.index("  - id: q-10-05")], "utf-8")

    reimport(ana_and_bea["folder"])

    assert Question.objects.get(code="q-10-05").is_retired
    assert (
        kept()
        == from_scratch()
        == {("ana", 10): (2, 1, 1, 1), ("ana", 19): (1, 1, 1, 1), ("bea", 10): (1, 0, 1, 1)}
    )
    assert copied() == copies_from_scratch()


def test_import_that_brings_a_question_back_counts_it_again(ana_and_bea):
    path = ana_and_bea["folder"] / TEN
    original = path.read_text()
    path.write_text(original[: original.index("  - id: q-10-05")], "utf-8")
    reimport(ana_and_bea["folder"])
    path.write_text(original, "utf-8")

    reimport(ana_and_bea["folder"])

    assert kept() == from_scratch() == ANSWERED
    assert copied() == copies_from_scratch()


def test_import_that_moves_a_question_moves_its_counts(ana_and_bea):
    ten, nineteen = ana_and_bea["folder"] / TEN, ana_and_bea["folder"] / NINETEEN
    text = ten.read_text()
    block = text[text.index("  - id: q-10-05") :]
    ten.write_text(text.replace(block, ""), "utf-8")
    nineteen.write_text(nineteen.read_text().rstrip("\n") + "\n\n" + block, "utf-8")

    reimport(ana_and_bea["folder"])

    assert Question.objects.get(code="q-10-05").phase.number == 19
    assert (
        kept()
        == from_scratch()
        == {
            ("ana", 10): (2, 1, 1, 1),
            ("ana", 19): (2, 2, 2, 2),
            ("bea", 10): (1, 0, 1, 1),
            ("bea", 19): (1, 1, 1, 1),
        }
    )
    assert copied() == copies_from_scratch()


def test_answer_to_a_question_retired_meanwhile_is_left_out(ana_and_bea):
    Question.objects.filter(code="q-19-03").update(retired_at="2026-01-01T00:00Z")
    learner_phase_recount(phase_ids=[Phase.objects.get(number=19).pk])

    answer(ana_and_bea["bea"], "q-19-03", keys=["B"])  # as a form made before could

    assert kept() == from_scratch() == ANSWERED
    assert copied() == copies_from_scratch()


def test_rebuild_of_everything_recounts(ana_and_bea):
    LearnerPhase.objects.all().delete()

    learner_question_rebuild()

    assert kept() == from_scratch() == ANSWERED
    assert copied() == copies_from_scratch()


def test_migrations_backfill_the_counts_and_the_copies(ana_and_bea):
    LearnerPhase.objects.all().delete()
    LearnerQuestion.objects.update(phase_first_right=0)
    counts = importlib.import_module("progress.migrations.0013_learner_phase")
    copies = importlib.import_module("progress.migrations.0014_learner_question_phase_first_right")

    counts.backfill(apps, None)
    copies.backfill(apps, None)

    assert kept() == from_scratch() == ANSWERED
    assert copied() == copies_from_scratch()


@pytest.mark.django_db(transaction=True)
def test_an_answer_while_an_override_of_its_learner_runs_is_counted(ana_and_bea, monkeypatch):
    """(Red team 14) An override read the learner's attempts, then wrote the standing
    and the counts from what it had read: an answer stored meanwhile on PostgreSQL (the
    standing not yet locked) was left out, its standing counting 2 attempts of 3 and
    its latest verdict the one before. Here the override is slowed after its read."""
    import threading
    import time

    bea = ana_and_bea["bea"]
    first = Attempt.objects.filter(learner=bea).order_by("id").first()
    read = threading.Event()
    update_or_create = LearnerQuestion.objects.update_or_create

    def slow_update_or_create(**kwargs):
        read.set()
        time.sleep(0.5)  # the answer is sent meanwhile
        return update_or_create(**kwargs)

    monkeypatch.setattr(LearnerQuestion.objects, "update_or_create", slow_update_or_create)
    teacher = UserFactory(username="teach", is_staff=True)

    def override():
        verdict_override(attempt=first, correct=True, reason="A is defensible", by=teacher)

    def send():
        assert read.wait(5)
        answer(bea, "q-10-01", keys=["A"])  # wrong

    at_once(override, send)

    standing = LearnerQuestion.objects.get(learner=bea, question__code="q-10-01")
    latest = Attempt.objects.filter(learner=bea, question__code="q-10-01").latest("id")
    assert (standing.attempts, standing.latest_attempt_id) == (3, latest.pk)
    assert not standing.latest_correct
    assert kept() == from_scratch() == {**ANSWERED, ("bea", 10): (2, 2, 1, 2)}
    assert copied() == copies_from_scratch()


@pytest.mark.django_db(transaction=True)
def test_an_override_while_another_answer_of_its_learner_moves_the_counts(ana_and_bea, monkeypatch):
    """(Red team 14) An override counts its learner's phase again from the standings:
    on PostgreSQL, an answer to another question of the phase that had changed its
    standing and not yet moved the counts deadlocked with it (the recount held the
    counts' row and waited for that standing, the answer the other way round), and
    PostgreSQL ended the override: a 500. The recount now locks the standings it counts
    before the counts. Here the answer is slowed between its two writes."""
    import threading
    import time

    from portal import sql
    from progress.services import standings

    bea = ana_and_bea["bea"]
    first = Attempt.objects.filter(learner=bea).order_by("id").first()
    changed = threading.Event()
    write = sql.write

    def slow_write(model, query, params, **kwargs):
        if query == standings._COUNTS_MOVE:
            changed.set()
            time.sleep(0.5)  # the override runs meanwhile
        return write(model, query, params, **kwargs)

    monkeypatch.setattr(sql, "write", slow_write)
    teacher = UserFactory(username="teach", is_staff=True)

    def override():
        assert changed.wait(5)
        verdict_override(attempt=first, correct=True, reason="A is defensible", by=teacher)

    at_once(override, lambda: answer(bea, "q-10-05", keys=["A"]))  # wrong, after a right one

    assert kept() == from_scratch() == {**ANSWERED, ("bea", 10): (2, 2, 1, 2)}
    assert copied() == copies_from_scratch()


@pytest.mark.django_db(transaction=True)
def test_a_first_right_answer_while_an_override_of_its_learner_runs(ana_and_bea, monkeypatch):
    """(Red team 14) A first answer, right, copies its learner's first-try total onto
    each of their standings in the phase, after it has added to the counts; an override
    of another question of that phase holds that standing and then counts the phase
    again. On PostgreSQL each waited for the other (a deadlock: one of them a 500). A
    first right answer now locks the standings it copies onto before the counts. Here
    the answer is slowed after it added to the counts."""
    import threading
    import time

    from portal import sql
    from progress.services import standings

    ana = ana_and_bea["ana"]
    first = Attempt.objects.filter(learner=ana, question__code="q-10-02").get()
    added = threading.Event()
    write = sql.write

    def slow_write(model, query, params, **kwargs):
        done = write(model, query, params, **kwargs)
        if query == standings._COUNTS_ADD:
            added.set()
            time.sleep(0.5)  # the override runs meanwhile
        return done

    monkeypatch.setattr(sql, "write", slow_write)
    teacher = UserFactory(username="teach", is_staff=True)

    def override():
        assert added.wait(5)
        verdict_override(attempt=first, correct=True, reason="A is defensible", by=teacher)

    at_once(override, lambda: answer(ana, "q-10-04", keys=["B"]))  # right, a first try

    counts = from_scratch()
    assert counts[("ana", 10)][0] == 4
    assert kept() == counts
    assert copied() == copies_from_scratch()
