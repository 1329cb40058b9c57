"""The learner's attempts over time: the history, activity per day, reviews."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import timedelta

from django.db.models import Count, Exists, OuterRef
from django.utils import timezone

from ..models import (
    Attempt,
    LearnerQuestion,
    ReviewCard,
)
from ..reviews import day_start

HISTORY_LIMIT = 200


def checkable() -> Exists:
    """For an attempts query: whether the attempt is its learner's latest at a question
    still asked, the only one whose unsure verdict an instructor is asked to check (an
    answer given again makes an older doubt moot; a retired question's verdicts count
    for nothing now). To check, the drill-down and My progress read this one rule."""
    return Exists(
        LearnerQuestion.objects.filter(
            latest_attempt=OuterRef("pk"), question__retired_at__isnull=True
        )
    )


def attempt_history(*, learner, limit: int = HISTORY_LIMIT) -> list[Attempt]:
    """The learner's newest attempts; `checkable` says which is the one whose verdict
    an instructor may still check (see checkable())."""
    return list(
        Attempt.objects.filter(learner=learner)
        .annotate(checkable=checkable())
        .select_related("question", "revision", "question__phase")
        .prefetch_related("regrades")
        .order_by("-created_at", "-id")[:limit]
    )


def attempt_counts_for_revisions(revision_ids) -> dict[int, int]:
    """Attempts per revision, for the import's report (a dry run's too) of what an edit
    touches (settings.QUIZ_ATTEMPT_COUNTER)."""
    return dict(
        Attempt.objects.filter(revision_id__in=list(revision_ids))
        .order_by()
        .values("revision")
        .annotate(n=Count("id"))
        .values_list("revision", "n")
    )


@dataclass(frozen=True)
class ActivityDay:
    day: object  # a date in the learner's time zone
    answers: int
    right: int


def activity_by_day(*, learner, days: int = 28) -> list[ActivityDay]:
    """Answers and right answers (as they now stand: regrades and overrides count) per
    day over the last `days` days, oldest first, in the learner's time zone. One query
    over those days' attempts only."""
    today = timezone.localdate()
    first = today - timedelta(days=days - 1)
    since = day_start() - timedelta(days=days - 1)
    counts = {first + timedelta(days=n): [0, 0] for n in range(days)}
    rows = (
        Attempt.objects.filter(learner=learner, created_at__gte=since)
        .with_verdict()
        .values_list("created_at", "verdict_correct")
    )
    for created_at, correct in rows:
        day = counts.get(timezone.localdate(created_at))
        if day is not None:
            day[0] += 1
            day[1] += correct
    return [ActivityDay(day, answers, right) for day, (answers, right) in counts.items()]


def attempt_was_review(*, attempt: Attempt) -> bool:
    """`ReviewCard.reviewed_by`, asked of the database when the card is not loaded."""
    return ReviewCard.objects.filter(
        learner_id=attempt.learner_id,
        question_id=attempt.question_id,
        last_review_at=attempt.created_at,
    ).exists()
