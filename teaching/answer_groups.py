"""Free answers grouped by their normalised text, for the item analysis: the phrasings a
key misses stand out as big groups marked wrong. Also how many attempts an instructor
overrode per question."""

from __future__ import annotations

from collections import defaultdict
from dataclasses import dataclass, field

from django.db.models import Count, Max
from django.db.models.fields.json import KT, KeyTextTransform

from progress.enums import VerdictSource
from progress.models import Attempt, LearnerQuestion, Regrade
from quizzes.grading import normalize

GROUPS_SHOWN = 20


@dataclass
class AnswerGroup:
    text: str  # the normalised text the answers share
    example: str  # the phrasing given most often, as typed
    right: int = 0
    wrong: int = 0
    # One of the group's answers graded wrong (the newest), for the key change it
    # suggests; None when every answer in the group is right.
    wrong_attempt: int | None = None
    _phrasings: dict[str, int] = field(default_factory=dict, repr=False)

    @property
    def answers(self) -> int:
        return self.right + self.wrong


@dataclass
class QuestionAnswers:
    groups: list[AnswerGroup]  # the biggest GROUPS_SHOWN, biggest first
    more: int  # groups not shown
    answers: int  # answers counted


def answer_groups(*, learner_ids, question_ids: list[int], mode: str) -> dict[int, QuestionAnswers]:
    """{question id: its answers grouped by normalised text} for free questions, each
    answer with its effective verdict (regrades and overrides included). Which answers
    count follows the results' mode: each learner's latest or first answer, or every
    attempt. One query; the database groups identical texts first, so Python only
    normalises distinct ones."""
    if not question_ids:
        return {}
    if mode == "all":
        rows = (
            Attempt.objects.filter(learner_id__in=learner_ids, question__in=question_ids)
            .with_verdict()
            .annotate(text=KT("answer__text"))
            .values_list("question", "text", "verdict_correct")
        )
        attempt = "pk"
    else:
        via = "latest" if mode == "latest" else "first"
        rows = (
            LearnerQuestion.objects.filter(learner_id__in=learner_ids, question__in=question_ids)
            # KT() does not follow a relation; KeyTextTransform over the joined field does.
            .annotate(text=KeyTextTransform("text", f"{via}_attempt__answer"))
            .values_list("question", "text", f"{via}_correct")
        )
        attempt = f"{via}_attempt"
    merged: dict[int, dict[str, AnswerGroup]] = defaultdict(dict)
    grouped = rows.order_by().annotate(n=Count("pk"), last=Max(attempt))
    for question_id, text, right, n, last in grouped:
        text = text or ""
        key = normalize(text)
        group = merged[question_id].setdefault(key, AnswerGroup(text=key, example=text))
        if right:
            group.right += n
        else:
            group.wrong += n
            group.wrong_attempt = max(group.wrong_attempt or 0, last)
        group._phrasings[text] = group._phrasings.get(text, 0) + n
    result = {}
    for question_id, groups in merged.items():
        for group in groups.values():
            group.example = max(group._phrasings.items(), key=lambda p: (p[1], p[0]))[0]
        ordered = sorted(groups.values(), key=lambda g: (-g.answers, g.text))
        result[question_id] = QuestionAnswers(
            groups=ordered[:GROUPS_SHOWN],
            more=max(0, len(ordered) - GROUPS_SHOWN),
            answers=sum(g.answers for g in ordered),
        )
    return result


def override_counts(*, learner_ids, question_ids: list[int]) -> dict[int, int]:
    """{question id: attempts an instructor overrode}, in one query. It starts from the
    overrides (a few, written by hand) and looks their attempts up by key: asked the
    other way round, SQLite walked every attempt of the cohort."""
    overridden = Regrade.objects.filter(kind=VerdictSource.OVERRIDE).values("attempt_id")
    return dict(
        Attempt.objects.filter(
            pk__in=overridden, learner_id__in=learner_ids, question__in=question_ids
        )
        .order_by()
        .values_list("question")
        .annotate(n=Count("id"))
    )
