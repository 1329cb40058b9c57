"""A cohort's results: the learner × phase table and item analysis, composed from the
selectors of learner_table.py and item_figures.py.

Every figure comes from a handful of aggregate queries, whatever the cohort's size:
the database groups and counts, Python only arranges the (small) results.

Which attempts count is the `mode`:
- "latest": each learner's latest attempt per question (the default);
- "first": each learner's first attempt per question;
- "all": every attempt; a question counts as right if any attempt was right.
The figures are read from LearnerQuestion, one row per learner and question kept up to
date as attempts and regrades are written, so they include regrades; the options picked
and mentions missed are counted in the answers as given.

Facility and discrimination are classical item analysis and always use first attempts:
facility is the share of learners who got the question right on their first try;
discrimination is the upper-lower index: (right in the top 27 % − right in the bottom
27 %) ÷ group size, among the learners who answered any question shown, ranked by their
first-try total over the phases shown (whatever the mode: the item is scored on first
tries), 27 % of them rounded to the nearest learner, ties at the cut broken by username,
and a question not tried counted as not right. Facility's denominator is the learners
who tried the question; the correlations and KR-20 count, per phase, those who answered
any of its questions (item_analysis.py).
"""

from __future__ import annotations

from collections import defaultdict
from dataclasses import dataclass, field

from quizzes.models import Phase, Question

from ..item_analysis import item_statistics
from ..models import Cohort
from ..statistics import Totals
from .item_figures import ItemStats, answer_patterns_attach, item_groups, overrides_attach
from .learner_table import (
    LearnerRow,
    learner_rows_sorted,
    learner_table,
    phase_completion,
    reviews_due_attach,
    totals_histogram,
)

MODES = ("latest", "first", "all")
SORTS = ("learner", "-learner", "total", "-total")


@dataclass
class CohortResults:
    cohort: Cohort
    mode: str
    sort: str
    phase: Phase | None
    phases: list[Phase]
    questions: list[Question]
    rows: list[LearnerRow]
    items: list[ItemStats]
    histogram: list[tuple[str, int]]
    completion: list[tuple[Phase, float]]
    reliabilities: list = field(default_factory=list)

    @property
    def answered(self) -> int:
        """Questions answered, summed over the learners and the phases shown: none, and
        the page says so instead of charts and an item analysis of nothing."""
        return sum(row.answered for row in self.rows)


def cohort_results(
    *, cohort: Cohort, mode: str = "latest", phase: Phase | None = None, sort: str = "learner"
) -> CohortResults:
    mode = mode if mode in MODES else "latest"
    sort = sort if sort in SORTS else "learner"
    phases = list(Phase.objects.active().order_by("number"))
    questions_qs = Question.objects.active().select_related("current_revision", "phase")
    if phase is not None:
        questions_qs = questions_qs.filter(phase=phase)
    questions = list(questions_qs.order_by("phase__number", "position"))
    shown_phases = [p for p in phases if phase is None or p.pk == phase.pk]
    per_phase_total: dict[int, int] = defaultdict(int)
    for question in questions:
        per_phase_total[question.phase_id] += 1

    table = learner_table(
        cohort=cohort, mode=mode, phases=shown_phases, per_phase_total=per_phase_total
    )
    reviews_due_attach(cohort=cohort, rows=table.rows)
    items = {q.pk: ItemStats(question=q) for q in questions}
    groups = item_groups(cohort=cohort, items=items, rows=table.rows)
    answer_patterns_attach(
        cohort=cohort, mode=mode, questions=questions, items=items, groups=groups
    )
    overrides_attach(cohort=cohort, items=items)
    phase_totals = {
        phase_id: Totals(len(values), sum(values), sum(v * v for v in values))
        for phase_id, values in table.first_totals.items()
    }
    reliabilities = item_statistics(
        groups=groups,
        phases=shown_phases,
        questions=questions,
        items=items,
        phase_totals=phase_totals,
    )

    return CohortResults(
        cohort=cohort,
        mode=mode,
        sort=sort,
        phase=phase,
        phases=shown_phases,
        questions=questions,
        rows=learner_rows_sorted(table.rows, sort=sort),
        items=[items[q.pk] for q in questions],
        histogram=totals_histogram(table.rows, questions=len(questions)),
        completion=phase_completion(table, phases=shown_phases, per_phase_total=per_phase_total),
        reliabilities=reliabilities,
    )
