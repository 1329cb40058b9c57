"""A new attempt folded into the learner's standing on its question and counts in its
phase, inside the answer's write transaction."""

from __future__ import annotations

from django.db.models import OuterRef, Subquery
from django.db.models.functions import Coalesce

from portal import sql
from quizzes.models import Question

from ..models import Attempt, LearnerPhase, LearnerQuestion


class AnsweredSince(Exception):
    """The learner answered the question after the form of this attempt was made."""


def standing_add(attempt: Attempt, *, latest_seen: int | None = None) -> LearnerQuestion:
    """Fold a new attempt into the learner's standing on its question and into the
    learner's counts in its phase; returns the standing. `latest_seen`: the latest
    attempt id the answer's form showed (0: none); another one standing there now raises
    AnsweredSince, and the transaction undoes the attempt."""
    standing, created = standing_locked(attempt), False
    if standing is None:
        standing, created = LearnerQuestion.objects.select_for_update().get_or_create(
            learner_id=attempt.learner_id,
            question_id=attempt.question_id,
            defaults={
                "attempts": 1,
                "first_attempt": attempt,
                "first_answered_at": attempt.created_at,
                "latest_attempt": attempt,
                "first_correct": attempt.correct,
                "latest_correct": attempt.correct,
                "ever_correct": attempt.correct,
                "latest_score": attempt.score,
                "first_pattern": attempt.pattern,
                "latest_pattern": attempt.pattern,
            },
        )
    # Checked on the standing as this transaction holds it; one just made had none.
    if latest_seen is not None and (0 if created else standing.latest_attempt_id) != latest_seen:
        raise AnsweredSince
    if created:
        # The phase's first-try total on the standings that carry it: each of the
        # learner's in the phase when this first try was right, else only the new one.
        copies = LearnerQuestion.objects.filter(pk=standing.pk)
        if attempt.correct:
            copies = LearnerQuestion.objects.filter(
                learner_id=attempt.learner_id, question__phase__questions=attempt.question_id
            )
            # Locked before the counts, as a recount (an override's, another answer's
            # standing) locks the standings before the counts: no deadlock between them.
            list(copies.select_for_update(of=("self",)).order_by("pk").values_list("pk"))
        _phase_counts_add(attempt)
        phase_first_right_copy(copies)
        return standing
    latest_change = int(attempt.correct) - int(standing.latest_correct)
    ever_change = int(attempt.correct and not standing.ever_correct)
    standing.attempts += 1
    standing.latest_attempt = attempt
    standing.latest_correct = attempt.correct
    standing.latest_score = attempt.score
    standing.latest_pattern = attempt.pattern
    standing.ever_correct = standing.ever_correct or attempt.correct
    sql.write(
        LearnerQuestion,
        _STANDING_UPDATE,
        [
            standing.attempts,
            attempt.pk,
            attempt.correct,
            attempt.score,
            attempt.pattern,
            standing.ever_correct,
            standing.pk,
        ],
    )
    if latest_change or ever_change:
        sql.write(
            LearnerPhase,
            _COUNTS_MOVE,
            [latest_change, ever_change, attempt.learner_id, attempt.question_id],
            question=Question,
        )
    return standing


def standing_locked(attempt: Attempt) -> LearnerQuestion | None:
    """The learner's standing on the attempt's question, locked until the transaction
    ends where the database locks rows (PostgreSQL; on SQLite the transaction holds
    the whole database), or None before a first answer."""
    return sql.read(LearnerQuestion, _STANDING_READ, [attempt.learner_id, attempt.question_id])


# The statements every answer runs inside its write transaction, in SQL (`portal.sql`):
# the ORM builds each of them anew on every answer, and SQLite runs one write
# transaction at a time (docs/data-layer.md). tests/progress/test_phase_totals.py and
# test_answer.py hold their results to counts made from scratch.
_STANDING_READ = (
    "SELECT {columns} FROM {table} WHERE {table.learner} = %s AND {table.question} = %s{lock}"
)
_STANDING_UPDATE = (
    "UPDATE {table} SET {table.attempts} = %s, {table.latest_attempt} = %s, "
    "{table.latest_correct} = %s, {table.latest_score} = %s, {table.latest_pattern} = %s, "
    "{table.ever_correct} = %s WHERE {table.id} = %s"
)
# A retired question counts in no phase, as a recount leaves it out.
_COUNTS_MOVE = (
    "UPDATE {table} SET {table.latest_right} = {table.latest_right} + %s, "
    "{table.ever_right} = {table.ever_right} + %s "
    "WHERE {table.learner} = %s AND {table.phase} IN (SELECT {question.phase} FROM {question} "
    "WHERE {question.id} = %s AND {question.retired_at} IS NULL)"
)
# A first answer makes the row or adds to it in one statement, so two at once both count.
_COUNTS_ADD = (
    "INSERT INTO {table} ({table.learner}, {table.phase}, {table.answered}, "
    "{table.first_right}, {table.latest_right}, {table.ever_right}) "
    "SELECT %s, {question.phase}, 1, %s, %s, %s FROM {question} "
    "WHERE {question.id} = %s AND {question.retired_at} IS NULL "
    "ON CONFLICT ({table.learner}, {table.phase}) DO UPDATE SET "
    "{table.answered} = {table}.{table.answered} + 1, "
    "{table.first_right} = {table}.{table.first_right} + excluded.{table.first_right}, "
    "{table.latest_right} = {table}.{table.latest_right} + excluded.{table.latest_right}, "
    "{table.ever_right} = {table}.{table.ever_right} + excluded.{table.ever_right}"
)


def _phase_counts_add(attempt: Attempt) -> None:
    """Count a first answer into the learner's counts in the question's phase, leaving
    a retired question out, as a recount does."""
    right = int(attempt.correct)
    sql.write(
        LearnerPhase,
        _COUNTS_ADD,
        [attempt.learner_id, right, right, right, attempt.question_id],
        question=Question,
    )


def phase_first_right_copy(standings) -> None:
    """Copy each learner's kept first-try total in the question's phase onto the given
    standings (LearnerQuestion.phase_first_right), 0 where none is kept. Run after the
    counts are written: in the same transaction, a concurrent first answer in the phase
    waits on the counts' row and then copies the total with both tries in it."""
    total = LearnerPhase.objects.filter(
        learner_id=OuterRef("learner_id"), phase__questions=OuterRef("question_id")
    ).values("first_right")[:1]
    standings.update(phase_first_right=Coalesce(Subquery(total), 0))
