"""Predicted recall from the review schedule: FSRS's retrievability applied to the numbers
the database holds, per learner and question (see teaching/memory.py for what the Memory
page makes of it, and docs/memory.md)."""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from datetime import UTC, datetime
from functools import lru_cache

from django.conf import settings
from django.db.models import CharField
from django.db.models.functions import Cast
from fsrs import Card, Rating

from progress.models import LearnerQuestion, ReviewCard
from progress.reviews import scheduler

from .selectors import raw_rows

HORIZON_DAYS = 7


@dataclass(frozen=True)
class Curve:
    """The forgetting curve's constants, from the scheduler in use."""

    decay: float
    factor: float
    first_stability: dict[bool, float]  # a first review's stability: right (Good), wrong

    def recall(self, stability: float | None, days: int) -> float:
        """Retrievability after `days` whole days (the library's formula)."""
        if not stability:
            return 0.0
        return (1 + self.factor * max(0, days) / stability) ** self.decay


@lru_cache(maxsize=1)
def curve() -> Curve:
    fsrs = scheduler()
    decay = -fsrs.parameters[20]
    # A new card's first review sets its stability from the rating alone, whenever
    # it happens: asked once of the library per rating.
    at = datetime(2000, 1, 1, tzinfo=UTC)
    first = {
        right: fsrs.review_card(Card(), Rating.Good if right else Rating.Again, at)[0].stability
        for right in (True, False)
    }
    return Curve(decay=decay, factor=0.9 ** (1 / decay) - 1, first_stability=first)


def risk_threshold() -> float:
    """Below this predicted recall a question is at risk (MEMORY_RISK_THRESHOLD)."""
    return getattr(settings, "MEMORY_RISK_THRESHOLD", 0.7)


def _moment(value) -> datetime | None:
    """A moment read as text (a column cast to text, which skips the ORM's per-value
    converters): ISO, with its offset, or naive UTC (SQLite)."""
    if value is None or value == "":
        return None
    value = datetime.fromisoformat(value) if isinstance(value, str) else value
    return value if value.tzinfo is not None else value.replace(tzinfo=UTC)


def _text(name: str) -> Cast:
    return Cast(name, output_field=CharField())


# (learner id, question id, recall now, recall in HORIZON_DAYS days, due or None): the
# due moment is the card's next review while it is in review (asked for with
# `with_due`). Plain tuples: a hundred thousand objects cost more than the figures.
Recall = tuple[int, int, float, float, datetime | None]


def recall_cells(
    *, learner_ids, question_ids: Iterable[int], now: datetime, with_due: bool = False
) -> list[Recall]:
    """One Recall per learner and answered question, for learners in `learner_ids` (ids
    or a subquery) and the questions given. Two queries: the cards, the standings.

    The loop is written flat (the formula of Curve.recall inlined, no call per cell):
    at 100,000 cells each function call cost ~20 ms. Tests hold it to the library."""
    question_ids = list(question_ids)
    cards = ReviewCard.objects.filter(learner_id__in=learner_ids, question_id__in=question_ids)
    # The scheduler's stability and last rating, copied from its JSON into columns; the
    # times read as text: no converter run per value.
    cards = cards.annotate(last=_text("rated_at"))
    if with_due:
        cards = cards.annotate(due_text=_text("due")).values_list(
            "learner_id", "question_id", "stability", "last", "due_text", "learned_at"
        )
    else:
        cards = cards.values_list("learner_id", "question_id", "stability", "last")
    standings = (
        LearnerQuestion.objects.filter(learner_id__in=learner_ids, question_id__in=question_ids)
        .annotate(first_at=_text("first_answered_at"))
        .order_by()
        .values_list("learner_id", "question_id", "first_correct", "first_at")
    )
    shape = curve()
    factor, decay = shape.factor, shape.decay
    right, wrong = shape.first_stability[True], shape.first_stability[False]
    naive_now = now.astimezone(UTC).replace(tzinfo=None)
    parse = datetime.fromisoformat

    # Each card as its stability, its last review (text), its due moment in review.
    by_pair = {
        (row[0], row[1]): (
            row[2],
            row[3],
            _moment(row[4]) if with_due and row[5] is None else None,
        )
        for row in raw_rows(cards.order_by())
    }
    pop = by_pair.pop
    # Every answered pair with what predicts it: its card, else its first answer.
    pairs = [
        (learner_id, question_id, pop((learner_id, question_id), None)
         or (right if first_correct else wrong, first_at, None))
        for learner_id, question_id, first_correct, first_at in raw_rows(standings)
    ]  # fmt: skip
    # A card without a standing (none is written so, but the card is what counts).
    pairs.extend(
        (learner_id, question_id, card) for (learner_id, question_id), card in by_pair.items()
    )
    cells = []
    append = cells.append
    for learner_id, question_id, (stability, last, due) in pairs:
        if not stability or last is None:
            append((learner_id, question_id, 0.0, 0.0, due))
            continue
        # Whole days since the last review, as timedelta.days counts them (the
        # library's elapsed days, never below 0); without an offset it is UTC (SQLite).
        moment = parse(last) if last.__class__ is str else last
        days = ((now if moment.tzinfo is not None else naive_now) - moment).days
        week = days + HORIZON_DAYS
        append(
            (
                learner_id,
                question_id,
                (1 + factor * (days if days > 0 else 0) / stability) ** decay,
                (1 + factor * (week if week > 0 else 0) / stability) ** decay,
                due,
            )
        )
    return cells
