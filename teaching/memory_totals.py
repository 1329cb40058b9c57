"""A cohort's recall totals summed by the database (per question, per learner), with the
formula of teaching/recall.py written in SQL: only the heat map's page of learners is
computed cell by cell in Python."""

from __future__ import annotations

from datetime import UTC, datetime

from django.db import connection
from django.db.models import (
    Case,
    F,
    FloatField,
    Value,
    When,
)
from django.db.models.functions import Cast

from progress.models import LearnerQuestion, ReviewCard

from .recall import HORIZON_DAYS, Curve, curve


def _pairs_sql(*, learner_ids, question_ids: list[int]) -> tuple[tuple[str, list], ...]:
    """Every answered pair as (learner_id, question_id, s, last), the SELECTs of
    `recall_cells` written for the database, (SQL, parameters) each: the cards, with
    their stability and last review; the standings without a card, with the
    first-review stability of the first answer's effective verdict and its moment.
    Both read columns, no JSON: the moments are text on SQLite (as Django stores them:
    UTC, no offset), timestamptz on PostgreSQL."""
    shape = curve()
    cards = (
        ReviewCard.objects.filter(learner_id__in=learner_ids, question_id__in=question_ids)
        .annotate(s=F("stability"), last=F("rated_at"))
        .order_by()
        .values_list("learner_id", "question_id", "s", "last")
    )
    standings = (
        LearnerQuestion.objects.filter(learner_id__in=learner_ids, question_id__in=question_ids)
        .filter(has_card=False)
        .annotate(
            s=Case(
                When(
                    first_correct=True, then=Cast(Value(shape.first_stability[True]), FloatField())
                ),
                default=Cast(Value(shape.first_stability[False]), FloatField()),
            ),
            last=F("first_answered_at"),
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
    no offset)."""
    if connection.vendor == "sqlite":
        utc = now.astimezone(UTC)
        return (
            "(CAST(julianday(%s) - julianday(substr(last, 1, 10)) AS INTEGER)"
            " - (%s < substr(last, 12)))",
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


def _sql(*pieces: str | tuple[str, list]) -> tuple[str, list]:
    """SQL and its parameters put together in order, from text and (SQL, parameters)."""
    sql, params = [], []
    for piece in pieces:
        text, values = (piece, []) if isinstance(piece, str) else piece
        sql.append(text)
        params.extend(values)
    return "".join(sql), params


def recall_totals(
    *, learner_ids, question_ids: list[int], now: datetime, threshold: float
) -> tuple[dict[int, list], dict[int, list]]:
    """The recall of every answered pair summed by the database, in one query: per
    question [learners, sum now, sum in a week, below the threshold now, in a week],
    per learner [questions answered, below the threshold in a week].

    Each card's recall is computed in SQL, once, with the same formula and the same
    operations in the same order on the same doubles as `recall_cells` (POWER is C's
    pow() on both databases, as Python's **), then grouped both ways. A standing
    without a card has one of two stabilities, so the database only counts them per
    question, stability and whole days (a few rows), and their recall is worked out
    here per group; per learner, it counts those past the day from which the recall in
    a week is below the threshold, found here with the same formula. Only the sums add
    in another order than the per-cell path."""
    if not question_ids:
        return {}, {}
    shape = curve()
    cards, standings = _pairs_sql(learner_ids=learner_ids, question_ids=question_ids)
    days = _whole_days_sql(now)
    greatest = "MAX" if connection.vendor == "sqlite" else "GREATEST"
    double = "CAST(%s AS double precision)"

    def recall(horizon: int) -> tuple[str, list]:
        return _sql(
            (
                "CASE WHEN s IS NULL OR s = 0 OR last IS NULL THEN 0.0"
                f" ELSE POWER(1 + ({double} * {greatest}(",
                [shape.factor],
            ),
            days,
            (f" + {horizon}, 0)) / s, {double}) END", [shape.decay]),
        )

    def below(column: str) -> tuple[str, list]:
        return f"SUM(CASE WHEN {column} < {double} THEN 1 ELSE 0 END)", [threshold]

    right, wrong = shape.first_stability[True], shape.first_stability[False]
    # At risk in a week from this many whole days since the first answer on.
    risk_from = {s: _first_day_below(shape, s, threshold) - HORIZON_DAYS for s in (right, wrong)}
    # Every card with its recall now and in a week; every standing without a card with
    # its stability and whole days.
    cells = _sql(
        "SELECT learner_id, question_id, ",
        recall(0),
        " AS r_now, ",
        recall(HORIZON_DAYS),
        " AS r_week FROM (",
        cards,
        ") AS cards",
    )
    answered = _sql(
        "SELECT learner_id, question_id, s, ", days, " AS days FROM (", standings, ") AS standings"
    )
    # Per group: how many, the sums, below the threshold now and in a week (a standing
    # without a card: at risk in a week).
    card_sums = _sql("COUNT(*), SUM(r_now), SUM(r_week), ", below("r_now"), ", ", below("r_week"))
    standing_sums = (
        "COUNT(*), NULL, NULL, NULL,"
        f" SUM(CASE WHEN days >= CASE WHEN s = {double} THEN %s ELSE %s END THEN 1 ELSE 0 END)",
        [right, risk_from[right], risk_from[wrong]],
    )
    # Our own SQL and the ORM's, every value a parameter. Columns: kind (0 cards by
    # question, 1 cards by learner, 2 standings by question, stability and days, 3
    # standings by learner), id, stability, whole days, count, sum now, sum in a week,
    # below now, below in a week.
    if connection.vendor == "postgresql":
        # Each source read once and grouped both ways in one pass (GROUPING SETS, which
        # SQLite lacks). OFFSET 0 keeps PostgreSQL from inlining the subquery into the
        # sums, which would compute each recall once per sum that reads it.
        def grouped(kind: int, source, columns: str, sums, keys: str) -> tuple[str, list]:
            return _sql(
                f"SELECT {kind} + GROUPING(question_id), CASE WHEN GROUPING(question_id) = 0"
                f" THEN question_id ELSE learner_id END, {columns}, ",
                sums,
                " FROM (",
                source,
                f" OFFSET 0) AS pairs GROUP BY GROUPING SETS (({keys}), (learner_id))",
            )

        sql, params = _sql(
            # Typed NULLs: PostgreSQL types a UNION's columns from its first SELECT.
            grouped(
                0,
                cells,
                "CAST(NULL AS double precision), CAST(NULL AS integer)",
                card_sums,
                "question_id",
            ),
            " UNION ALL ",
            grouped(2, answered, "s, days", standing_sums, "question_id, s, days"),
        )
    else:
        sql, params = _sql(
            "WITH cells AS MATERIALIZED (",  # computed once, read twice
            cells,
            "), answered AS MATERIALIZED (",
            answered,
            ") SELECT 0, question_id, NULL, NULL, ",
            card_sums,
            " FROM cells GROUP BY question_id UNION ALL SELECT 1, learner_id, NULL, NULL, ",
            card_sums,
            " FROM cells GROUP BY learner_id UNION ALL SELECT 2, question_id, s, days, ",
            standing_sums,
            " FROM answered GROUP BY question_id, s, days"
            " UNION ALL SELECT 3, learner_id, NULL, NULL, ",
            standing_sums,
            " FROM answered GROUP BY learner_id",
        )
    by_question, by_learner = {}, {}
    factor, decay = shape.factor, shape.decay
    with connection.cursor() as cursor:
        cursor.execute(sql, params)
        rows = cursor.fetchall()
    for kind, pk, stability, days, count, sum_now, sum_week, below_now, below_week in rows:
        if kind == 0:
            totals = by_question.setdefault(pk, [0, 0.0, 0.0, 0, 0])
            for index, value in enumerate((count, sum_now, sum_week, below_now, below_week)):
                totals[index] += value
        elif kind == 1:
            totals = by_learner.setdefault(pk, [0, 0])
            totals[0] += count
            totals[1] += below_week
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
