"""Item statistics for a cohort's results: item–rest correlation, per-option
point-biserials and KR-20 per phase with KR-20-if-deleted, on first tries.

Per phase, the learners counted are the (non-staff) cohort members who answered any of
its questions; a question of the phase they did not try counts as not right. The sums
come from one query over the standings, each carrying its learner's running first-try total
in the question's phase (LearnerQuestion.phase_first_right), grouped by question and
first answer, so the database does the work whatever the cohort's size."""

from __future__ import annotations

from collections import defaultdict
from dataclasses import dataclass
from typing import NamedTuple

from django.conf import settings
from django.db import connection
from django.db.models import Case, IntegerField, Value, When

from quizzes.enums import QuestionKind

from .statistics import (
    item_rest_correlation,
    kr20,
    kr20_if_deleted,
    option_point_biserial,
)


def min_learners() -> int:
    """Below this many learners a figure is shown as "too few to judge"."""
    return getattr(settings, "RESULTS_MIN_LEARNERS", 10)


@dataclass
class PhaseReliability:
    phase: object
    learners: int
    questions: int
    alpha: float | None
    judged: bool


class StandingGroup(NamedTuple):
    """Learners alike on one question: same first answer and verdict (a 0/1 integer),
    same latest answer. A tuple: there are thousands of them."""

    question_id: int
    first_pattern: str
    first_correct: int
    latest_pattern: str
    learners: int
    upper: int  # of them, in the upper 27 % of the cohort
    lower: int  # of them, in the lower 27 %
    phase_total: int  # the sum of their first-try totals in the question's phase
    attempts: int


def standing_groups(standings, *, question_ids, upper, lower) -> list[StandingGroup]:
    """Every per-question figure of the results in one scan of the standings, grouped by
    question, answers and verdict. One pass instead of one per figure is what keeps the
    default results view fast (the standings scan is most of its time). Each standing
    carries its learner's first-try total in the question's phase (a running count,
    updated as answers and regrades are written), so the scan needs no window function
    and no join. The upper and lower 27 % are counted in each group, not grouped by:
    PostgreSQL cannot guess how many groups such a band makes (docs/performance.md)."""
    if not question_ids:  # no quiz imported yet: a query over none has no SQL
        return []
    inner = (
        standings.filter(question__in=question_ids)
        .annotate(
            band=Case(
                When(learner_id__in=upper, then=Value(1)),
                When(learner_id__in=lower, then=Value(2)),
                default=Value(0),
                output_field=IntegerField(),
            ),
        )
        .order_by()
        .values(
            "question_id",
            "first_pattern",
            "first_correct",
            "latest_pattern",
            "band",
            "phase_first_right",
            "attempts",
        )
    )
    sql, params = inner.query.sql_with_params()
    with connection.cursor() as cursor:
        cursor.execute(
            # The inner SQL is the ORM's own, its values passed apart as params.
            "SELECT question_id, first_pattern, first_correct, latest_pattern, COUNT(*), "  # noqa: S608
            "SUM(CASE WHEN band = 1 THEN 1 ELSE 0 END), "
            "SUM(CASE WHEN band = 2 THEN 1 ELSE 0 END), "
            "SUM(phase_first_right), SUM(attempts) "
            f"FROM ({sql}) standings "
            "GROUP BY question_id, first_pattern, first_correct, latest_pattern",
            params,
        )
        # int(): PostgreSQL sums bigints into numerics (Decimal).
        return [
            StandingGroup(q, fp, int(fc), lp, n, int(up), int(low), int(total), int(attempts))
            for q, fp, fc, lp, n, up, low, total, attempts in cursor.fetchall()
        ]


def first_try_groups(groups: list[StandingGroup]) -> dict[int, list[tuple[str, bool, int, int]]]:
    """{question id: [(first answer pattern, right on first try, learners, sum of their
    phase totals)]}."""
    sums: dict[tuple[int, str, int], list[int]] = defaultdict(lambda: [0, 0])
    for g in groups:
        entry = sums[(g.question_id, g.first_pattern, g.first_correct)]
        entry[0] += g.learners
        entry[1] += g.phase_total
    by_question: dict[int, list] = defaultdict(list)
    for (question_id, pattern, right), (n, total) in sums.items():
        by_question[question_id].append((pattern, bool(right), n, total))
    return by_question


def item_statistics(*, groups, phases, questions, items, phase_totals) -> list[PhaseReliability]:
    """Fill each ItemStats' item–rest correlation, option point-biserials and
    KR-20-if-deleted from the standing groups; return each shown phase's KR-20."""
    groups = first_try_groups(groups)
    enough = min_learners()
    by_phase: dict[int, list] = defaultdict(list)
    for question in questions:
        by_phase[question.phase_id].append(question)
    reliabilities = []
    for phase in phases:
        totals = phase_totals.get(phase.pk)
        phase_questions = by_phase.get(phase.pk, [])
        judged = totals is not None and totals.n >= enough
        rights, right_totals = [], []
        for question in phase_questions:
            stats = items[question.pk]
            stats.judged = judged
            rows = groups.get(question.pk, [])
            right = sum(n for _p, ok, n, _t in rows if ok)
            right_total = sum(t for _p, ok, _n, t in rows if ok)
            rights.append(right)
            right_totals.append(right_total)
            if not judged:
                continue
            stats.item_rest = item_rest_correlation(
                totals=totals, right=right, right_total=right_total
            )
            if question.current_revision.kind == QuestionKind.FREE:
                continue
            for option in question.current_revision.options:
                key = option["key"]
                chosen = [(ok, n, t) for pattern, ok, n, t in rows if key in pattern]
                stats.option_r[key] = option_point_biserial(
                    totals=totals,
                    right=right,
                    right_total=right_total,
                    picked=sum(n for _ok, n, _t in chosen),
                    picked_rest=sum(t - (n if ok else 0) for ok, n, t in chosen),
                )
        if judged:
            for index, question in enumerate(phase_questions):
                items[question.pk].alpha_if_deleted = kr20_if_deleted(
                    totals=totals, rights=rights, right_totals=right_totals, index=index
                )
        reliabilities.append(
            PhaseReliability(
                phase=phase,
                learners=totals.n if totals else 0,
                questions=len(phase_questions),
                alpha=kr20(totals=totals, rights=rights) if judged else None,
                judged=judged,
            )
        )
    return reliabilities
