"""Reads for the reviews: today's session, the learner's cards and the week ahead."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import timedelta

from django.db.models import Count, OuterRef, Q, Subquery
from django.utils import timezone

from .models import LearnerQuestion, ReviewCard
from .reviews import day_end, day_start
from .selectors import QuestionState, drafts_attach


@dataclass
class ReviewSummary:
    in_review: int = 0
    due_today: int = 0
    learned: int = 0
    suspended: int = 0


def review_summary(*, learner) -> ReviewSummary:
    """The learner's cards: in review, due today, learned, suspended (question retired)."""
    active = Q(learned_at__isnull=True, question__retired_at__isnull=True)
    counts = ReviewCard.objects.filter(learner=learner).aggregate(
        in_review=Count("id", filter=active),
        due_today=Count("id", filter=active & Q(due__lt=day_end())),
        learned=Count("id", filter=Q(learned_at__isnull=False)),
        suspended=Count(
            "id", filter=Q(learned_at__isnull=True, question__retired_at__isnull=False)
        ),
    )
    return ReviewSummary(**counts)


@dataclass
class ReviewSession:
    """Today's reviews, one card at a time: the first due card, how far along the
    learner is, and what today's reviews came to."""

    state: QuestionState | None
    done_today: int
    right_today: int
    due_now: int
    next_due: object = None  # when the next card is due, once none is due today

    @property
    def position(self) -> int:
        return self.done_today + 1

    @property
    def total(self) -> int:
        return self.done_today + self.due_now

    @property
    def next_due_tomorrow(self) -> bool:
        """Whether the next card falls due tomorrow, in the learner's time zone: said as
        "tomorrow", as the card's own feedback says it."""
        return (
            bool(self.next_due)
            and (timezone.localdate(self.next_due) - timezone.localdate()).days == 1
        )


def review_session(*, learner) -> ReviewSession:
    """Three queries: today's counts, the first due card, its draft."""
    today, tomorrow = day_start(), day_end()
    cards = ReviewCard.objects.filter(learner=learner)
    rated_today = Q(last_review_at__gte=today)
    counts = cards.aggregate(
        done=Count("id", filter=rated_today),
        right=Count("id", filter=rated_today & (Q(streak__gt=0) | Q(learned_at__gte=today))),
        due=Count(
            "id",
            filter=Q(learned_at__isnull=True, question__retired_at__isnull=True, due__lt=tomorrow)
            & (Q(last_review_at__isnull=True) | Q(last_review_at__lt=today)),
        ),
    )
    first = (
        cards.due_before(tomorrow)
        .filter(Q(last_review_at__isnull=True) | Q(last_review_at__lt=today))
        .select_related("question__current_revision", "question__phase")
        # The latest attempt the form is made after, in the same query: an answer sent
        # from another tab since (a review, or the phase page) is not replaced silently.
        .annotate(
            latest_id=Subquery(
                LearnerQuestion.objects.filter(
                    learner_id=OuterRef("learner_id"), question_id=OuterRef("question_id")
                ).values("latest_attempt_id")[:1]
            )
        )
        .order_by("due", "id")
        .first()
    )
    state = None
    if first is not None:
        # The due card's question; its latest attempt is not loaded, only its id.
        state = QuestionState(
            question=first.question,
            context="reviews",
            latest_read=False,
            latest_id_seen=first.latest_id or 0,
        )
        drafts_attach(learner=learner, states={first.question_id: state})
    session = ReviewSession(state, counts["done"], counts["right"], counts["due"])
    if state is None:
        session.next_due = next_review_due(learner=learner)
    return session


def review_forecast(*, learner, days: int = 7) -> list[tuple[object, int]]:
    """Cards coming due on each of the next `days` days (today counts what is due or
    overdue). A card reviewed today is due a day or more later: rating one schedules it
    at least a day ahead (no same-day learning steps, settings.REVIEW_SCHEDULER)."""
    today = timezone.localdate()
    counts = dict.fromkeys(range(days), 0)
    for due in (
        ReviewCard.objects.in_review()
        .filter(learner=learner, due__lt=day_end() + timedelta(days=days - 1))
        .values_list("due", flat=True)
    ):
        counts[max((timezone.localdate(due) - today).days, 0)] += 1
    return [(today + timedelta(days=n), counts[n]) for n in range(days)]


def next_review_due(*, learner):
    return (
        ReviewCard.objects.in_review()
        .filter(learner=learner)
        .order_by("due")
        .values_list("due", flat=True)
        .first()
    )
