"""What a cohort will remember: each learner's predicted recall of each question they
answered, now and in a week, read from the review schedule (FSRS).

A question with a review card uses the card's FSRS state. An answered question without
one (right the first time, so never scheduled) is predicted as if its first answer had
been its first review, rated by its effective verdict (right → Good, wrong → Again),
with the same scheduler and parameters. A question never answered is "not seen".

The recall is FSRS's retrievability, R = (1 + F·t/S)^D, where t is the whole days since
the last review, S the card's stability, D = −w20 and F = 0.9^(1/D) − 1: the formula of
`fsrs.Scheduler.get_card_retrievability`, applied here to plain numbers read from the
database (building 100,000 `Card` objects would cost more than the whole page) and
tested equal to the library's on hand-picked cards. Stabilities come from the library
(`Scheduler.review_card`); nothing of the scheduler's rules is copied.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from dataclasses import dataclass, field
from datetime import UTC, datetime, timedelta
from functools import lru_cache

from django.conf import settings
from django.db import connection
from django.db.models import (
    Case,
    CharField,
    Count,
    DateTimeField,
    Exists,
    F,
    FloatField,
    Func,
    Min,
    OuterRef,
    Q,
    TextField,
    Value,
    When,
)
from django.db.models.fields.json import KT
from django.db.models.functions import Cast
from django.utils import timezone
from fsrs import Card, Rating

from progress.models import LearnerQuestion, ReviewCard
from progress.reviews import day_end, scheduler
from quizzes.models import Phase, Question

from .export import csv_safe
from .models import Cohort
from .selectors import cohort_learner_ids, raw_rows

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
    """A moment read as text (a card's JSON; a column cast to text, which skips the
    ORM's per-value converters): ISO, with its offset, or naive UTC (SQLite)."""
    if value is None or value in ("", "null"):
        return None
    value = datetime.fromisoformat(value) if isinstance(value, str) else value
    return value if value.tzinfo is not None else value.replace(tzinfo=UTC)


def _number(value) -> float | None:
    """A card's stability as the database extracted it: a number, text, or a JSON null
    (SQLite gives the text "null")."""
    if value is None or value in ("", "null"):
        return None
    return float(value)


def _json_key(column: str, key: str):
    """One key of a JSON column, as text or number. On SQLite one JSON_EXTRACT: Django's
    KT reads the document up to three times per key there (to tell a JSON null from
    SQL NULL, which is not needed here), a fifth of the page's time at 1,000 learners."""
    if connection.vendor == "sqlite":
        return Func(F(column), Value(f"$.{key}"), function="JSON_EXTRACT", output_field=TextField())
    return KT(f"{column}__{key}")


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
    # The JSON's two values pulled out by the database, the times read as text: no
    # row's JSON decoded here, no converter run per value.
    cards = cards.annotate(s=_json_key("fsrs", "stability"), last=_json_key("fsrs", "last_review"))
    if with_due:
        cards = cards.annotate(due_text=_text("due")).values_list(
            "learner_id", "question_id", "s", "last", "due_text", "learned_at"
        )
    else:
        cards = cards.values_list("learner_id", "question_id", "s", "last")
    standings = (
        LearnerQuestion.objects.filter(learner_id__in=learner_ids, question_id__in=question_ids)
        .annotate(first_at=_text("first_attempt__created_at"))
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
            _number(row[2]),
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
        if not stability or last is None or last == "" or last == "null":
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


def _pairs_sql(*, learner_ids, question_ids: list[int]) -> tuple[tuple[str, list], ...]:
    """Every answered pair as (learner_id, question_id, s, last), the SELECTs of
    `recall_cells` written for the database, (SQL, parameters) each: the cards, with
    their stability and last review; the standings without a card, with the
    first-review stability of the first answer's effective verdict and its moment.
    The last review is text on SQLite (as stored: ISO, UTC), a timestamptz on
    PostgreSQL."""
    shape = curve()
    if connection.vendor == "sqlite":
        last = _json_key("fsrs", "last_review")
    else:
        last = Cast(KT("fsrs__last_review"), DateTimeField())
    cards = (
        ReviewCard.objects.filter(learner_id__in=learner_ids, question_id__in=question_ids)
        .annotate(s=Cast(_json_key("fsrs", "stability"), FloatField()), last=last)
        .order_by()
        .values_list("learner_id", "question_id", "s", "last")
    )
    has_card = ReviewCard.objects.filter(
        learner_id=OuterRef("learner_id"), question_id=OuterRef("question_id")
    )
    standings = (
        LearnerQuestion.objects.filter(learner_id__in=learner_ids, question_id__in=question_ids)
        .filter(~Exists(has_card))
        .annotate(
            s=Case(
                When(
                    first_correct=True, then=Cast(Value(shape.first_stability[True]), FloatField())
                ),
                default=Cast(Value(shape.first_stability[False]), FloatField()),
            ),
            last=F("first_attempt__created_at"),
        )
        .order_by()
        .values_list("learner_id", "question_id", "s", "last")
    )
    cards_sql, cards_params = cards.query.sql_with_params()
    standings_sql, standings_params = standings.query.sql_with_params()
    return (cards_sql, cards_params), (standings_sql, standings_params)


def _whole_days_sql(now: datetime) -> tuple[str, list]:
    """SQL for the whole days from the column `last` to `now`, as timedelta.days counts
    them (floor, negative when `last` is later). PostgreSQL: the interval's seconds,
    floored. SQLite's date functions keep milliseconds only, so: the UTC dates'
    difference, less one when now's time of day is before the last review's, compared
    as text to the microsecond: "HH:MM:SS[.ffffff]", as Django writes a moment (UTC,
    no offset) and fsrs its last review (UTC, "+00:00": it refuses other zones)."""
    if connection.vendor == "sqlite":
        utc = now.astimezone(UTC)
        return (
            "(CAST(julianday(%s) - julianday(substr(last, 1, 10)) AS INTEGER)"
            " - (%s < replace(substr(last, 12), '+00:00', '')))",
            [utc.date().isoformat(), utc.strftime("%H:%M:%S.%f")],
        )
    # date_part's double, not EXTRACT's numeric (slower per row): the interval's seconds
    # are days·86400 plus microseconds/1e6, so a moment a microsecond short of a whole
    # day stays short of it by far more than a double's spacing, for centuries.
    return "CAST(FLOOR(date_part('epoch', %s - last) / 86400) AS integer)", [now]


def _first_day_below(shape: Curve, stability: float, threshold: float) -> int:
    """The fewest whole days after which the recall is below the threshold, found with
    the formula itself (it only falls as days pass): minus a billion when it starts
    below (any day, a review later than now's too), a billion when it never gets
    there."""
    if shape.recall(stability, 0) < threshold:
        return -(10**9)
    low, high = 0, 1  # recall(low) is not below; look for a `high` that is
    while shape.recall(stability, high) >= threshold:
        low, high = high, high * 2
        if high > 2**40:
            return 10**9
    while high - low > 1:
        middle = (low + high) // 2
        low, high = (low, middle) if shape.recall(stability, middle) < threshold else (middle, high)
    return high


def _recall_totals(
    *, learner_ids, question_ids: list[int], now: datetime, threshold: float
) -> tuple[dict[int, list], dict[int, list]]:
    """The recall of every answered pair summed by the database, in one query: per
    question [learners, sum now, sum in a week, below the threshold now, in a week],
    per learner [questions answered, below the threshold in a week].

    Each card's recall is computed in SQL, once (materialized), with the same formula
    and the same operations in the same order on the same doubles as `recall_cells`
    (POWER is C's pow() on both databases, as Python's **), then grouped both ways.
    A standing without a card has one of two stabilities, so the database only counts
    them per question, stability and whole days (a few rows), and their recall is
    worked out here per group; per learner, it counts those past the day from which
    the recall in a week is below the threshold, found here with the same formula.
    Only the sums add in another order than the per-cell path."""
    if not question_ids:
        return {}, {}
    shape = curve()
    (cards_sql, cards_params), (standings_sql, standings_params) = _pairs_sql(
        learner_ids=learner_ids, question_ids=question_ids
    )
    days_sql, days_params = _whole_days_sql(now)
    greatest = "MAX" if connection.vendor == "sqlite" else "GREATEST"
    double = "CAST(%s AS double precision)"

    def recall(horizon: int) -> tuple[str, list]:
        shifted = f"{days_sql} + {horizon}" if horizon else days_sql
        return (
            "CASE WHEN s IS NULL OR s = 0 OR last IS NULL THEN 0.0"
            f" ELSE POWER(1 + ({double} * {greatest}({shifted}, 0)) / s, {double}) END",
            [shape.factor, *days_params, shape.decay],
        )

    now_sql, now_params = recall(0)
    week_sql, week_params = recall(HORIZON_DAYS)

    def below(column: str) -> str:
        return f"SUM(CASE WHEN {column} < {double} THEN 1 ELSE 0 END)"

    right, wrong = shape.first_stability[True], shape.first_stability[False]
    # At risk in a week from this many whole days since the first answer on.
    risk_from = {s: _first_day_below(shape, s, threshold) - HORIZON_DAYS for s in (right, wrong)}
    # Our own SQL and the ORM's, every value a parameter. Columns: kind, id, stability,
    # whole days, count, sum now, sum in a week, below now, below in a week.
    sql = (
        f"WITH cards (learner_id, question_id, s, last) AS MATERIALIZED ({cards_sql}),"  # noqa: S608
        " cells (learner_id, question_id, r_now, r_week) AS MATERIALIZED"
        f" (SELECT learner_id, question_id, {now_sql}, {week_sql} FROM cards),"
        " answered (learner_id, question_id, s, days) AS MATERIALIZED"
        f" (SELECT learner_id, question_id, s, {days_sql} FROM ({standings_sql}) AS standings)"
        # Typed NULLs: PostgreSQL types a UNION's columns from its first SELECTs.
        " SELECT 0, question_id, CAST(NULL AS double precision), CAST(NULL AS integer),"
        " COUNT(*), SUM(r_now), SUM(r_week),"
        f" {below('r_now')}, {below('r_week')} FROM cells GROUP BY question_id"
        " UNION ALL SELECT 1, learner_id, NULL, NULL, COUNT(*), NULL, NULL, NULL,"
        f" {below('r_week')} FROM cells GROUP BY learner_id"
        " UNION ALL SELECT 2, question_id, s, days, COUNT(*), NULL, NULL, NULL, NULL"
        " FROM answered GROUP BY question_id, s, days"
        " UNION ALL SELECT 3, learner_id, NULL, NULL, COUNT(*), NULL, NULL, NULL,"
        f" SUM(CASE WHEN days >= CASE WHEN s = {double} THEN %s ELSE %s END THEN 1 ELSE 0 END)"
        " FROM answered GROUP BY learner_id"
    )
    params = [
        *cards_params,
        *now_params,
        *week_params,
        *days_params,  # the whole days come before the standings' FROM
        *standings_params,
        threshold,
        threshold,
        threshold,
        right,
        risk_from[right],
        risk_from[wrong],
    ]
    by_question, by_learner = {}, {}
    factor, decay = shape.factor, shape.decay
    with connection.cursor() as cursor:
        cursor.execute(sql, params)
        rows = cursor.fetchall()
    for kind, pk, stability, days, count, sum_now, sum_week, below_now, below_week in rows:
        if kind == 0:
            by_question[pk] = [count, sum_now, sum_week, below_now, below_week]
        elif kind == 1:
            by_learner[pk] = [count, below_week]
        elif kind == 2:
            # The recall_cells formula, inlined as there; days are never NULL (a
            # standing has its first attempt).
            days = int(days)
            week = days + HORIZON_DAYS
            recall_now = (1 + factor * (days if days > 0 else 0) / stability) ** decay
            recall_week = (1 + factor * (week if week > 0 else 0) / stability) ** decay
            totals = by_question.setdefault(pk, [0, 0.0, 0.0, 0, 0])
            totals[0] += count
            totals[1] += count * recall_now
            totals[2] += count * recall_week
            totals[3] += count if recall_now < threshold else 0
            totals[4] += count if recall_week < threshold else 0
    for kind, pk, _s, _d, count, _n, _w, _b, below_week in rows:
        if kind == 3:
            totals = by_learner.setdefault(pk, [0, 0])
            totals[0] += count
            totals[1] += below_week
    return by_question, by_learner


@dataclass(slots=True)
class QuestionMemory:
    question: Question
    learners: int = 0  # who answered it
    sum_now: float = 0.0
    sum_week: float = 0.0
    below_now: int = 0
    below_week: int = 0

    @property
    def mean_now(self) -> float | None:
        return self.sum_now / self.learners if self.learners else None

    @property
    def mean_week(self) -> float | None:
        return self.sum_week / self.learners if self.learners else None


@dataclass(slots=True)
class LearnerMemory:
    learner_id: int
    username: str
    seen: int = 0
    at_risk: int = 0  # questions below the threshold in a week
    due_today: int = 0  # reviews due by the end of today (overdue included)
    due_week: int = 0  # reviews due within the week
    next_due: datetime | None = None


@dataclass
class CohortMemory:
    cohort: Cohort
    threshold: float
    now: datetime
    phase: Phase | None  # the heat map's phase
    phases: list[Phase]
    questions: list[Question]  # the heat map's columns: the phase's questions
    items: list[QuestionMemory]  # every active question, most at risk first
    learners: list[LearnerMemory]  # by username
    # (learner id, question id) → (recall now, in a week): the heat map's questions and
    # page of learners, filled by memory_heat_cells.
    cells: dict[tuple[int, int], tuple[float, float]] = field(default_factory=dict)


def cohort_memory(
    *, cohort: Cohort, phase: Phase | None = None, now: datetime | None = None
) -> CohortMemory:
    """Every figure over the whole cohort (staff left out) and every active question,
    and the heat map's phase (`phase`, else the first) and questions; its cells, for
    the page of learners shown, come from `memory_heat_cells`."""
    now = now or timezone.now()
    threshold = risk_threshold()
    phases = list(Phase.objects.active().order_by("number"))
    questions = list(
        Question.objects.active()
        .select_related("current_revision", "phase")
        # The titles only: a revision's texts, options and examples are most of its row.
        .only(
            "code",
            "position",
            "phase__number",
            "current_revision__title_en",
            "current_revision__title_es",
        )
        .order_by("phase__number", "position")
    )
    if phase is None and phases:
        phase = phases[0]
    shown = {q.pk for q in questions if phase is not None and q.phase_id == phase.pk}
    learners = {
        pk: LearnerMemory(pk, username)
        for pk, username in cohort.learners.filter(is_staff=False)
        .order_by("username")
        .values_list("id", "username")
    }
    items = {q.pk: QuestionMemory(q) for q in questions}
    # Summed by the database: reading a row per answered pair cost seconds at 10,000
    # learners. Only the heat map's page of learners is computed per cell
    # (`memory_heat_cells`).
    by_question, by_learner = _recall_totals(
        learner_ids=cohort_learner_ids(cohort),
        question_ids=list(items),
        now=now,
        threshold=threshold,
    )
    for question_id, (count, sum_now, sum_week, below_now, below_week) in by_question.items():
        item = items[question_id]
        item.learners, item.sum_now, item.sum_week = count, sum_now, sum_week
        item.below_now, item.below_week = below_now, below_week
    for learner_id, (seen, at_risk) in by_learner.items():
        if learner_id in learners:
            learners[learner_id].seen, learners[learner_id].at_risk = seen, at_risk
    # When reviews fall due: counted by the database, as the results count them.
    for learner_id, due_today, due_week, next_due in (
        # in_review(), its question's state read from the active questions already here.
        ReviewCard.objects.filter(
            learner_id__in=cohort_learner_ids(cohort), question_id__in=list(items)
        )
        .filter(learned_at__isnull=True)
        .order_by()
        .values_list("learner")
        .annotate(
            n_today=Count("id", filter=Q(due__lt=day_end(now))),
            n_week=Count("id", filter=Q(due__lt=now + timedelta(days=HORIZON_DAYS))),
            next_due=Min("due"),
        )
    ):
        if learner_id in learners:
            learner = learners[learner_id]
            learner.due_today, learner.due_week, learner.next_due = due_today, due_week, next_due

    ranked = sorted(
        items.values(),
        key=lambda i: (
            -i.below_week,
            i.mean_week if i.mean_week is not None else 2.0,
            i.question.phase.number,
            i.question.position,
        ),
    )
    return CohortMemory(
        cohort=cohort,
        threshold=threshold,
        now=now,
        phase=phase,
        phases=phases,
        questions=[q for q in questions if q.pk in shown],
        items=ranked,
        learners=list(learners.values()),
    )


def memory_heat_cells(*, memory: CohortMemory, learners: Iterable[LearnerMemory]) -> None:
    """Fill `memory.cells` for these learners (the page shown) and the heat map's
    questions, computed per cell (`recall_cells`). Two queries, none when either is
    empty."""
    learner_ids = [learner.learner_id for learner in learners]
    question_ids = [question.pk for question in memory.questions]
    if not learner_ids or not question_ids:
        memory.cells = {}
        return
    cells = recall_cells(learner_ids=learner_ids, question_ids=question_ids, now=memory.now)
    memory.cells = {
        (learner_id, question_id): (now, week) for learner_id, question_id, now, week, _ in cells
    }


CSV_HEADER = ["learner", "question", "recall_now", "recall_in_7_days", "due"]
CSV_CHUNK = 500  # learners computed at a time, so memory stays flat at any cohort size


def memory_csv_rows(*, cohort: Cohort, now: datetime | None = None) -> Iterator[list]:
    """The CSV's rows (header first): each learner of the cohort (staff left out) and
    answered active question, by learner then question; recall as fractions 0–1, the
    due moment in the current time zone, empty when the question is not in review."""
    now = now or timezone.now()
    learners = list(
        cohort.learners.filter(is_staff=False).order_by("username").values_list("id", "username")
    )
    order = {
        pk: (index, code)
        for index, (pk, code) in enumerate(
            Question.objects.active()
            .order_by("phase__number", "position")
            .values_list("id", "code")
        )
    }
    yield CSV_HEADER
    for start in range(0, len(learners), CSV_CHUNK):
        chunk = learners[start : start + CSV_CHUNK]
        names = dict(chunk)
        rank = {pk: index for index, (pk, _name) in enumerate(chunk)}
        cells = sorted(
            recall_cells(learner_ids=list(names), question_ids=order, now=now, with_due=True),
            key=lambda c: (rank[c[0]], order[c[1]][0]),
        )
        for learner_id, question_id, recall_now, recall_week, due in cells:
            yield [
                csv_safe(names[learner_id]),
                order[question_id][1],
                f"{recall_now:.4f}",
                f"{recall_week:.4f}",
                timezone.localtime(due).isoformat() if due else "",
            ]
