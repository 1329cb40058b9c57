"""Selectors for a cohort's results: the learner × phase table and item analysis.

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
27 %) ÷ group size, with learners ranked by their total in the selected mode and a
question not tried counted as not right.
"""

from __future__ import annotations

import math
from collections import defaultdict
from dataclasses import dataclass, field

from django.db import connection
from django.db.models import Count, Q
from django.utils.translation import gettext_lazy as _

from progress.models import Attempt, LearnerPhase, LearnerQuestion, ReviewCard
from progress.reviews import day_end, day_start
from quizzes.enums import QuestionKind
from quizzes.models import Phase, Question

from .answer_groups import override_counts
from .item_analysis import item_statistics, standing_groups
from .models import Cohort
from .numeric_answers import NumericAnswers
from .statistics import Totals

MODES = ("latest", "first", "all")
SORTS = ("learner", "-learner", "total", "-total")
GROUP_SHARE = 0.27
FLAG_FACILITY = 0.20


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

    @property
    def cells(self) -> list[Cell]:
        """One cell per shown phase, made when the row is shown: ten thousand learners ×
        ten phases made up front took ~40 ms, for a page that shows 250 rows."""
        return [Cell(*self.counts.get(i, (0, 0)), total=n) for i, n in enumerate(self.sizes)]


@dataclass
class ItemStats:
    question: Question
    attempts: int = 0
    learners: int = 0
    first_right: int = 0
    discrimination: float | None = None
    picks: dict[str, int] = field(default_factory=dict)
    picked_answers: int = 0
    mention_misses: list[tuple[str, int]] = field(default_factory=list)
    free_answers: int = 0
    # A numeric question's values given (their distribution, the common wrong ones).
    numeric: NumericAnswers | None = None
    # Figures on first tries (item_analysis): None where undefined or not judged.
    judged: bool = False  # enough learners to judge (RESULTS_MIN_LEARNERS)
    item_rest: float | None = None
    option_r: dict[str, float | None] = field(default_factory=dict)
    alpha_if_deleted: float | None = None
    overrides: int = 0  # attempts an instructor overrode

    @property
    def facility(self) -> float | None:
        return self.first_right / self.learners if self.learners else None

    @property
    def flags(self) -> list[str]:
        if not self.judged:
            return []
        flags = []
        if self.facility is not None and self.facility < FLAG_FACILITY:
            flags.append(_("low facility"))
        if (self.discrimination is not None and self.discrimination < 0) or (
            self.item_rest is not None and self.item_rest < 0
        ):
            flags.append(_("negative discrimination"))
        return flags

    @property
    def most_missed(self) -> tuple[str, int, float] | None:
        """The expected mention missed most often (free questions)."""
        misses = [m for m in self.miss_rates if m[1]]
        return max(misses, key=lambda m: m[1]) if misses else None

    @property
    def pick_rates(self) -> list[tuple[str, int, float, bool, float | None]]:
        """(key, picks, share of answers, is correct, point-biserial) per option of the
        current revision."""
        revision = self.question.current_revision
        total = self.picked_answers or 1
        return [
            (
                o["key"],
                self.picks.get(o["key"], 0),
                self.picks.get(o["key"], 0) / total,
                bool(o.get("correct")),
                self.option_r.get(o["key"]),
            )
            for o in revision.options
        ]

    @property
    def miss_rates(self) -> list[tuple[str, int, float]]:
        total = self.free_answers or 1
        return [(label, n, n / total) for label, n in self.mention_misses]


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


def raw_rows(queryset) -> list[tuple]:
    """A values_list queryset's rows, fetched without the ORM's converters."""
    sql, params = queryset.query.sql_with_params()
    with connection.cursor() as cursor:
        cursor.execute(sql, params)
        return cursor.fetchall()


def cohort_learner_ids(cohort: Cohort):
    """The cohort's learner ids as a subquery. Staff accounts (an instructor trying the
    quizzes) are left out of every figure."""
    return Cohort.learners.through.objects.filter(cohort=cohort, user__is_staff=False).values(
        "user_id"
    )


def cohort_attempts(*, cohort: Cohort):
    return Attempt.objects.filter(learner_id__in=cohort_learner_ids(cohort))


MODE_PHASE_RIGHT = {"latest": "latest_right", "first": "first_right", "all": "ever_right"}
MODE_ATTEMPT = {"latest": "latest_attempt", "first": "first_attempt"}


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

    learners = list(
        cohort.learners.filter(is_staff=False).order_by("username").values_list("id", "username")
    )
    phase_sizes = [per_phase_total[p.pk] for p in shown_phases]
    rows = {
        learner_id: LearnerRow(learner_id, username, phase_sizes)
        for learner_id, username in learners
    }
    column = {p.pk: index for index, p in enumerate(shown_phases)}
    items = {q.pk: ItemStats(question=q) for q in questions}

    # Standings: one row per learner and question answered, effective grades included;
    # standing_groups keeps those of the questions shown (active, in the phase asked).
    standings = LearnerQuestion.objects.filter(learner_id__in=cohort_learner_ids(cohort))

    # 1. The learner × phase table, each learner's total, and the first-try totals per
    # phase that the item statistics need: the counts kept per learner and phase
    # (LearnerPhase), one narrow row each, instead of grouping every standing.
    first_totals: dict[int, list[int]] = defaultdict(list)
    answered_per_phase: dict[int, int] = defaultdict(int)
    per_learner_phase = LearnerPhase.objects.filter(
        learner_id__in=cohort_learner_ids(cohort), phase__in=list(column)
    ).values_list("learner", "phase", "answered", MODE_PHASE_RIGHT[mode], "first_right")
    # Read with a plain cursor: ten thousand rows of integers need none of the ORM's
    # per-value converters, which took a tenth of the page's time.
    for learner_id, phase_id, answered, correct, first in raw_rows(per_learner_phase):
        row = rows.get(learner_id)
        if row is None or phase_id not in column:
            continue
        first_totals[phase_id].append(first)
        answered_per_phase[phase_id] += answered
        row.counts[column[phase_id]] = (answered, correct)
        row.answered += answered
        row.correct += correct

    ordered = sorted(rows.values(), key=lambda r: r.username)
    if sort == "-learner":
        ordered.reverse()
    elif sort in ("total", "-total"):
        sign = -1 if sort == "-total" else 1
        ordered.sort(key=lambda r: (sign * r.correct, r.username))

    # Review cards due today and overdue, per learner.
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

    # 2. Item analysis in one scan of the standings (standing_groups): attempts,
    # learners who tried, right on first try, right on first try in the top and bottom
    # 27 % of learners by total (discrimination), the answers given, and what the
    # item statistics need.
    ranked = sorted(rows.values(), key=lambda r: (r.correct, r.username))
    group = math.floor(len(ranked) * GROUP_SHARE)
    lower = [r.learner_id for r in ranked[:group]]
    upper = [r.learner_id for r in ranked[-group:]] if group else []
    groups = standing_groups(standings, question_ids=list(items), upper=upper, lower=lower)
    up: dict[int, int] = defaultdict(int)
    low: dict[int, int] = defaultdict(int)
    for g in groups:
        stats = items[g.question_id]
        stats.attempts += g.attempts
        stats.learners += g.learners
        if g.first_correct:
            stats.first_right += g.learners
            up[g.question_id] += g.upper
            low[g.question_id] += g.lower
    if group:
        for question_id, stats in items.items():
            if stats.learners:
                stats.discrimination = (up[question_id] - low[question_id]) / group

    # 3. Which options were picked and which mentions missed, in the answers as given:
    # the latest or first answers from the groups, every attempt in "all" mode.
    if mode == "all":
        patterns = (
            cohort_attempts(cohort=cohort)
            .filter(question__in=list(items))
            .values_list("question", "pattern")
            .order_by()
            .annotate(n=Count("id"))
        )
    else:
        patterns = [
            (g.question_id, g.latest_pattern if mode == "latest" else g.first_pattern, g.learners)
            for g in groups
        ]
    free = {q.pk for q in questions if q.current_revision.kind == QuestionKind.FREE}
    for question in questions:
        if question.current_revision.numeric_key is not None:
            items[question.pk].numeric = NumericAnswers(key=question.current_revision.numeric_key)
    misses: dict[int, dict[int, int]] = defaultdict(lambda: defaultdict(int))
    for question_id, pattern, n in patterns:
        stats = items[question_id]
        if stats.numeric is not None:  # the pattern is the value as read
            stats.numeric.add(pattern, n)
            continue
        if question_id in free:
            stats.free_answers += n
            for index in filter(None, pattern.split(",")):
                misses[question_id][int(index)] += n
            continue
        stats.picked_answers += n
        for key in pattern:
            stats.picks[key] = stats.picks.get(key, 0) + n
    for question in questions:
        if question.pk in free:
            items[question.pk].mention_misses = [
                (" / ".join(alternatives), misses[question.pk].get(index, 0))
                for index, alternatives in enumerate(question.current_revision.expected)
            ]

    # 4. Overrides per question. (The free answers grouped by text are read when an
    # instructor opens them: answer_groups.)
    overridden = override_counts(learner_ids=cohort_learner_ids(cohort), question_ids=list(items))
    for question_id, n in overridden.items():
        items[question_id].overrides = n

    # 5. Pictures: the distribution of totals and each phase's completion.
    total_questions = len(questions)
    buckets = [0] * 10
    for row in rows.values():
        share = row.correct / total_questions if total_questions else 0
        buckets[min(9, int(share * 10))] += 1
    histogram = [(f"{i * 10}–{i * 10 + 10}%", n) for i, n in enumerate(buckets)]
    completion = []
    for phase_obj in shown_phases:
        possible = per_phase_total[phase_obj.pk] * len(rows)
        done = answered_per_phase[phase_obj.pk]
        completion.append((phase_obj, done / possible if possible else 0.0))

    phase_totals = {
        phase_id: Totals(len(values), sum(values), sum(v * v for v in values))
        for phase_id, values in first_totals.items()
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
        rows=ordered,
        items=[items[q.pk] for q in questions],
        histogram=histogram,
        completion=completion,
        reliabilities=reliabilities,
    )


def learner_attempts(*, cohort: Cohort, learner_id: int) -> list[Attempt]:
    """Every attempt of one cohort member, newest first, with regrades."""
    return list(
        cohort_attempts(cohort=cohort)
        .filter(learner_id=learner_id)
        .select_related("question", "question__phase", "revision")
        .prefetch_related("regrades")
        .order_by("-id")
    )
