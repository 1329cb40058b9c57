"""Writes for instructors: regrading older revisions' attempts."""

from __future__ import annotations

from dataclasses import dataclass, field

from django.db import transaction
from django.db.models import F

from progress.enums import VerdictSource
from progress.models import Attempt, Regrade
from progress.services import grade_feedback, learner_question_rebuild
from quizzes.enums import QuestionKind
from quizzes.grading import Grade
from quizzes.models import QuestionRevision


@dataclass
class RegradeChange:
    attempt: Attempt
    revision: QuestionRevision
    old_correct: bool
    old_score: float
    result: Grade


@dataclass
class RegradePlan:
    """What a regrade would change: attempts of older revisions graded again against
    the current revision's key."""

    changes: list[RegradeChange] = field(default_factory=list)
    unchanged: int = 0
    skipped: int = 0  # options no longer match by key, or the kind changed

    @property
    def to_right(self) -> int:
        return sum(1 for c in self.changes if c.result.correct and not c.old_correct)

    @property
    def to_wrong(self) -> int:
        return sum(1 for c in self.changes if c.old_correct and not c.result.correct)

    def summary(self) -> str:
        return (
            f"{len(self.changes)} attempt(s) change: {self.to_right} wrong → right, "
            f"{self.to_wrong} right → wrong, "
            f"{len(self.changes) - self.to_right - self.to_wrong} score only; "
            f"{self.unchanged} unchanged, {self.skipped} skipped (options differ by key)"
        )


def _regradable(old: QuestionRevision, new: QuestionRevision) -> bool:
    if old.kind != new.kind:
        return False
    if new.kind == QuestionKind.FREE:
        return True
    return {o["key"] for o in old.options} == {o["key"] for o in new.options}


def regrade_plan(*, questions) -> RegradePlan:
    """Plan a regrade of `questions` (Question rows); reads only."""
    plan = RegradePlan()
    attempts = (
        Attempt.objects.filter(question__in=questions)
        .exclude(revision_id=F("question__current_revision_id"))
        .select_related("revision", "question__current_revision")
        .prefetch_related("regrades")
        .order_by("id")
    )
    for attempt in attempts:
        current = attempt.question.current_revision
        if not _regradable(attempt.revision, current):
            plan.skipped += 1
            continue
        verdict = attempt.verdict()
        result = current.grade(keys=attempt.keys, text=attempt.text)
        if result.correct == verdict.correct and result.score == verdict.score:
            plan.unchanged += 1
            continue
        plan.changes.append(RegradeChange(attempt, current, verdict.correct, verdict.score, result))
    return plan


def regrade_apply(*, plan: RegradePlan, by=None) -> int:
    """Record one Regrade per change, in one transaction. Attempts stay as they are."""
    with transaction.atomic():
        Regrade.objects.bulk_create(
            [
                Regrade(
                    attempt=change.attempt,
                    kind=VerdictSource.REGRADE,
                    revision=change.revision,
                    old_correct=change.old_correct,
                    old_score=change.old_score,
                    new_correct=change.result.correct,
                    new_score=change.result.score,
                    new_partial=change.result.partial,
                    new_feedback=grade_feedback(change.result),
                    by=by,
                )
                for change in plan.changes
            ]
        )
        learner_question_rebuild(
            pairs={(c.attempt.learner_id, c.attempt.question_id) for c in plan.changes}
        )
    return len(plan.changes)
