"""The results' figures per question: attempts, facility and discrimination from the
standings, the options picked and mentions missed in the answers, and the overrides."""

from __future__ import annotations

import math
from collections import defaultdict
from dataclasses import dataclass, field

from django.db.models import Count
from django.utils import translation
from django.utils.translation import gettext_lazy as _

from portal.numbers import percent_whole
from progress.models import LearnerQuestion
from quizzes.enums import QuestionKind
from quizzes.grading import mention_label
from quizzes.models import Question

from ..answer_groups import override_counts
from ..item_analysis import StandingGroup, standing_groups
from ..models import Cohort
from ..numeric_answers import NumericAnswers
from .cohort import cohort_attempts, cohort_learner_ids
from .learner_table import LearnerRow

GROUP_SHARE = 0.27
FLAG_FACILITY = 0.20


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
        # Under 20 % as the page shows it, rounded: 19.6 % shows "20%" and is not flagged.
        if self.facility is not None and percent_whole(share=self.facility) < FLAG_FACILITY * 100:
            flags.append(_("low facility"))
        if (self.discrimination is not None and self.discrimination < 0) or (
            self.item_rest is not None and self.item_rest < 0
        ):
            flags.append(_("negative discrimination"))
        return flags

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
    def miss_rates(self) -> list[tuple[str, int, float, bool]]:
        """(label, misses, share of answers, missed most) per expected mention (free
        questions). Mentions missed as often as the most missed are all marked; with one
        mention, or none missed, none is."""
        total = self.free_answers or 1
        most = max((n for _label, n in self.mention_misses), default=0)
        several = len(self.mention_misses) > 1
        return [
            (label, n, n / total, several and n > 0 and n == most)
            for label, n in self.mention_misses
        ]


def item_groups(
    *, cohort: Cohort, items: dict[int, ItemStats], rows: dict[int, LearnerRow]
) -> list[StandingGroup]:
    """One scan of the standings (standing_groups), limited to the questions shown: attempts,
    learners who tried, right on first try, and right on first try in the top and
    bottom 27 % of learners by first-try total (discrimination), added to `items`. The
    groups also carry the answers given and what the item statistics need."""
    # One row per learner and question answered, effective grades included.
    standings = LearnerQuestion.objects.filter(learner_id__in=cohort_learner_ids(cohort))
    # Ranked by first-try total, as the item is scored, whatever the mode shown; among
    # the learners who answered a question shown (one who answered nothing is no
    # examinee); 27 % rounded to the nearest learner; ties at the cut by username.
    ranked = sorted((r for r in rows.values() if r.answered), key=lambda r: (r.first, r.username))
    group = math.floor(len(ranked) * GROUP_SHARE + 0.5)
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
    return groups


def answer_patterns_attach(
    *,
    cohort: Cohort,
    mode: str,
    questions: list[Question],
    items: dict[int, ItemStats],
    groups: list[StandingGroup],
) -> None:
    """Which options were picked and which mentions missed, and a numeric question's
    values, in the answers as given: the latest or first answers from the groups, every
    attempt in "all" mode."""
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
    # Each mention named as the learner's feedback names it: a few phrasings in the
    # reader's language, not the twenty a key may list.
    language = (translation.get_language() or "en")[:2]
    for question in questions:
        if question.pk in free:
            items[question.pk].mention_misses = [
                (mention_label(alternatives, language), misses[question.pk].get(index, 0))
                for index, alternatives in enumerate(question.current_revision.expected)
            ]


def overrides_attach(*, cohort: Cohort, items: dict[int, ItemStats]) -> None:
    """Attempts an instructor overrode, per question. (The free answers grouped by text
    are read when an instructor opens them: answer_groups.)"""
    overridden = override_counts(learner_ids=cohort_learner_ids(cohort), question_ids=list(items))
    for question_id, n in overridden.items():
        items[question_id].overrides = n
