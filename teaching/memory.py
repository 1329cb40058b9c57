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
(`Scheduler.review_card`); nothing of the scheduler's rules is copied. The formula and
the per-cell reading live in recall.py; the whole cohort's totals, summed by the
database, in memory_totals.py; this module puts the page and the CSV together.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from dataclasses import dataclass, field
from datetime import datetime, timedelta

from django.db.models import (
    Count,
    Min,
    Q,
)
from django.utils import timezone

from progress.models import ReviewCard
from progress.reviews import day_end, day_start
from quizzes.models import Phase, Question

from .export import csv_safe
from .memory_totals import recall_totals
from .models import Cohort
from .recall import HORIZON_DAYS, Curve, curve, recall_cells, risk_threshold
from .selectors import cohort_learner_ids

__all__ = ["HORIZON_DAYS", "Curve", "curve", "recall_cells", "risk_threshold"]


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
    overdue: bool = False  # the next review was due before today: say so, not just a date


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

    @property
    def answered(self) -> bool:
        """Whether any learner of the cohort has answered a question still asked."""
        return any(item.learners for item in self.items)


def cohort_memory(
    *, cohort: Cohort, phase: Phase | None = None, now: datetime | None = None
) -> CohortMemory:
    """Every figure over the whole cohort (staff left out) and every active question,
    and the heat map's phase (`phase`, else the first the cohort answered in, else the
    first) and questions; its cells, for
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
    learners = {
        pk: LearnerMemory(pk, username)
        for pk, username in cohort.counted_learners()
        .order_by("username")
        .values_list("id", "username")
    }
    items = {q.pk: QuestionMemory(q) for q in questions}
    # Summed by the database: reading a row per answered pair cost seconds at 10,000
    # learners. Only the heat map's page of learners is computed per cell
    # (`memory_heat_cells`).
    by_question, by_learner = recall_totals(
        learner_ids=cohort_learner_ids(cohort),
        question_ids=list(items),
        now=now,
        threshold=threshold,
    )
    for question_id, (count, sum_now, sum_week, below_now, below_week) in by_question.items():
        item = items[question_id]
        item.learners, item.sum_now, item.sum_week = count, sum_now, sum_week
        item.below_now, item.below_week = below_now, below_week
    if phase is None and phases:
        # The first phase the cohort answered in, else the first: a heat map of dashes
        # while the class works on a later phase says nothing (UX walk).
        answered = {q.phase_id for q in questions if items[q.pk].learners}
        phase = next((p for p in phases if p.pk in answered), phases[0])
    shown = {q.pk for q in questions if phase is not None and q.phase_id == phase.pk}
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
            learner.overdue = next_due is not None and next_due < day_start(now)

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
    # Read now, not when the rows are: a streamed response reads them after the time
    # zone middleware has put the server's zone back.
    zone = timezone.get_current_timezone()
    return _memory_csv_rows(cohort=cohort, now=now or timezone.now(), zone=zone)


def _memory_csv_rows(*, cohort: Cohort, now: datetime, zone) -> Iterator[list]:
    learners = list(cohort.counted_learners().order_by("username").values_list("id", "username"))
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
                timezone.localtime(due, zone).isoformat() if due else "",
            ]
