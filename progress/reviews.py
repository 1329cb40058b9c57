"""Spaced repetition of failed questions: the FSRS scheduler applied to attempts.

A card is made the first time a learner gets a question wrong, due the next day. An
answer rates the card (wrong → Again, partly right → Hard, right → Good) only when the
card is due and has not been rated yet that day; other answers to the question are
practice, stored as attempts but not reviews. So "learned", two right reviews in a row,
always means right answers on separate days. A wrong answer to a learned question
brings its card back.
"""

from __future__ import annotations

from datetime import datetime, timedelta
from functools import lru_cache

from django.conf import settings
from django.db import IntegrityError, transaction
from django.utils import timezone
from fsrs import Card, Rating, Scheduler

from portal import sql

from .models import Attempt, LearnerQuestion, ReviewCard


@lru_cache(maxsize=1)
def scheduler() -> Scheduler:
    return Scheduler(**settings.REVIEW_SCHEDULER)


def rating_for(attempt: Attempt) -> Rating:
    if attempt.correct:
        return Rating.Good
    if attempt.partial > 0:
        return Rating.Hard
    return Rating.Again


def day_end(now: datetime | None = None) -> datetime:
    """The start of tomorrow in the current time zone: a card due before it is due today."""
    local = timezone.localtime(now or timezone.now())
    return (local + timedelta(days=1)).replace(hour=0, minute=0, second=0, microsecond=0)


def day_start(now: datetime | None = None) -> datetime:
    return day_end(now) - timedelta(days=1)


def review_card_feed(*, attempt: Attempt) -> ReviewCard | None:
    """Rate the learner's card for the attempt's question if the answer is a review,
    making one on a first wrong answer. Called inside the transaction that stores the
    attempt."""
    card = sql.read(  # locked until the transaction ends, where the database locks rows
        ReviewCard,
        "SELECT {columns} FROM {table} WHERE {table.learner} = %s AND {table.question} = %s{lock}",
        [attempt.learner_id, attempt.question_id],
    )
    if card is None:
        if attempt.correct:
            return None
        card = ReviewCard(learner_id=attempt.learner_id, question_id=attempt.question_id)
        _rate(card, Card(), attempt)
        try:
            with transaction.atomic():  # a savepoint: the attempt's transaction goes on
                card.save()
        except IntegrityError:
            # Two first wrong answers at once (PostgreSQL lets both look): the other
            # made the card; this answer, minutes apart at most, is practice.
            return ReviewCard.objects.get(
                learner_id=attempt.learner_id, question_id=attempt.question_id
            )
        # The standing was written first, in this transaction (services.attempt_store).
        sql.write(LearnerQuestion, _HAS_CARD, [True, attempt.learner_id, attempt.question_id])
        return card
    elif card.learned_at is not None:
        if attempt.correct:
            return card  # still known; nothing to schedule
        card.learned_at = None  # forgotten: back into the queue
        fsrs_card = Card.from_dict(card.fsrs)
    elif not card_is_due(card, attempt.created_at):
        return card  # practice: the card keeps its schedule
    else:
        fsrs_card = Card.from_dict(card.fsrs)
        # A review of a due card, as opposed to the lapse that (re)starts a card.
        card.last_review_at = attempt.created_at
    _rate(card, fsrs_card, attempt)
    card.save()
    return card


# Run inside the answer's write transaction, as the standing's statements (`portal.sql`).
_HAS_CARD = (
    "UPDATE {table} SET {table.has_card} = %s WHERE {table.learner} = %s AND {table.question} = %s"
)


def card_is_due(card: ReviewCard, now: datetime) -> bool:
    """Due today, and not rated yet today."""
    if card.due >= day_end(now):
        return False
    return card.last_review_at is None or card.last_review_at < day_start(now)


def _rate(card: ReviewCard, fsrs_card: Card, attempt: Attempt) -> None:
    fsrs_card, _log = scheduler().review_card(fsrs_card, rating_for(attempt), attempt.created_at)
    card.fsrs = fsrs_card.to_dict()
    card.stability, card.rated_at = fsrs_card.stability, fsrs_card.last_review
    card.due = fsrs_card.due
    card.state = int(fsrs_card.state)
    card.reviews += 1
    card.streak = card.streak + 1 if attempt.correct else 0
    if card.streak >= settings.REVIEW_LEARNED_AFTER:
        card.learned_at = attempt.created_at


def review_card_ensure(*, learner_id: int, question_id: int, now: datetime) -> ReviewCard:
    """A question whose effective verdict is now wrong (a regrade, an instructor's
    override) comes back for review: due today, as after a wrong answer."""
    card, created = ReviewCard.objects.select_for_update().get_or_create(
        learner_id=learner_id,
        question_id=question_id,
        defaults={"fsrs": Card(due=now).to_dict(), "due": now, "state": int(Card().state)},
    )
    if created:
        LearnerQuestion.objects.filter(learner_id=learner_id, question_id=question_id).update(
            has_card=True
        )
        return card
    # Rated today on an answer now judged wrong: that review no longer counts, so the
    # card is due again today (the reviews page, the badge and My progress agree).
    rated_today = card.last_review_at is not None and card.last_review_at >= day_start(now)
    if card.learned_at is not None or card.due > now or rated_today:
        card.learned_at, card.streak, card.due = None, 0, min(card.due, now)
        if rated_today:
            card.last_review_at = None
        card.save(update_fields=["learned_at", "streak", "due", "last_review_at", "updated_at"])
    return card
