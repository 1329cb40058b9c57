"""The results' learner × phase table: each learner's counts per phase, their review
cards due, and the two pictures drawn from the table (totals, completion)."""

from __future__ import annotations

from collections import defaultdict
from dataclasses import dataclass, field

from django.db.models import Count, Q

from portal.numbers import percent_range_text
from progress.models import LearnerPhase, ReviewCard
from progress.reviews import day_end, day_start
from quizzes.models import Phase

from ..models import Cohort
from .cohort import cohort_learner_ids, raw_rows

MODE_PHASE_RIGHT = {"latest": "latest_right", "first": "first_right", "all": "ever_right"}


@dataclass
class Cell:
    answered: int = 0
    correct: int = 0
    total: int = 0


@dataclass
class LearnerRow:
    learner_id: int
    username: str
    sizes: list[int]  # questions per shown phase, one list shared by every row
    counts: dict[int, tuple[int, int]] = field(default_factory=dict)  # column: answered, right
    correct: int = 0
    answered: int = 0
    due: int = 0  # review cards due today (overdue included)
    overdue: int = 0  # review cards due before today
    first: int = 0  # right on first try in the shown phases (ranks the upper–lower groups)

    @property
    def cells(self) -> list[Cell]:
        """One cell per shown phase, made when the row is shown: a page shows 250 rows,
        and making every learner's cells up front cost more than it shows."""
        return [Cell(*self.counts.get(i, (0, 0)), total=n) for i, n in enumerate(self.sizes)]


@dataclass
class LearnerTable:
    rows: dict[int, LearnerRow]  # by learner id
    # Per phase id: each learner's first-try total (for the item statistics), and the
    # answers given by all learners (for the completion picture).
    first_totals: dict[int, list[int]]
    answered_per_phase: dict[int, int]


def learner_table(
    *, cohort: Cohort, mode: str, phases: list[Phase], per_phase_total: dict[int, int]
) -> LearnerTable:
    """The table for the shown `phases`, read from the running counts per learner and
    phase (LearnerPhase), one narrow row each, instead of grouping every standing."""
    learners = list(cohort.counted_learners().order_by("username").values_list("id", "username"))
    phase_sizes = [per_phase_total[p.pk] for p in phases]
    rows = {
        learner_id: LearnerRow(learner_id, username, phase_sizes)
        for learner_id, username in learners
    }
    column = {p.pk: index for index, p in enumerate(phases)}
    first_totals: dict[int, list[int]] = defaultdict(list)
    answered_per_phase: dict[int, int] = defaultdict(int)
    per_learner_phase = LearnerPhase.objects.filter(
        learner_id__in=cohort_learner_ids(cohort), phase__in=list(column)
    ).values_list("learner", "phase", "answered", MODE_PHASE_RIGHT[mode], "first_right")
    # Read with a plain cursor: ten thousand rows of integers need none of the ORM's
    # per-value converters, a noticeable share of the page's time.
    for learner_id, phase_id, answered, correct, first in raw_rows(per_learner_phase):
        row = rows.get(learner_id)
        if row is None or phase_id not in column:
            continue
        first_totals[phase_id].append(first)
        answered_per_phase[phase_id] += answered
        row.counts[column[phase_id]] = (answered, correct)
        row.answered += answered
        row.correct += correct
        row.first += first
    return LearnerTable(rows, first_totals, answered_per_phase)


def learner_rows_sorted(rows: dict[int, LearnerRow], *, sort: str) -> list[LearnerRow]:
    ordered = sorted(rows.values(), key=lambda r: r.username)
    if sort == "-learner":
        ordered.reverse()
    elif sort in ("total", "-total"):
        sign = -1 if sort == "-total" else 1
        ordered.sort(key=lambda r: (sign * r.correct, r.username))
    return ordered


def reviews_due_attach(*, cohort: Cohort, rows: dict[int, LearnerRow]) -> None:
    """Set each row's review cards due today and overdue, in one query."""
    for learner_id, due, overdue in (
        ReviewCard.objects.in_review()
        .filter(learner_id__in=cohort_learner_ids(cohort))
        .order_by()
        .values_list("learner")
        .annotate(
            n_due=Count("id", filter=Q(due__lt=day_end())),
            n_overdue=Count("id", filter=Q(due__lt=day_start())),
        )
    ):
        if learner_id in rows:
            rows[learner_id].due, rows[learner_id].overdue = due, overdue


def totals_histogram(rows: dict[int, LearnerRow], *, questions: int) -> list[tuple[str, int]]:
    """How many learners have each tenth of the questions right."""
    buckets = [0] * 10
    for row in rows.values():
        share = row.correct / questions if questions else 0
        buckets[min(9, int(share * 10))] += 1
    return [(percent_range_text(low=i * 10, high=i * 10 + 10), n) for i, n in enumerate(buckets)]


def phase_completion(
    table: LearnerTable, *, phases: list[Phase], per_phase_total: dict[int, int]
) -> list[tuple[Phase, float]]:
    """Per phase, the share of its questions × learners answered."""
    completion = []
    for phase in phases:
        possible = per_phase_total[phase.pk] * len(table.rows)
        done = table.answered_per_phase[phase.pk]
        completion.append((phase, done / possible if possible else 0.0))
    return completion
