"""The verdicts an instructor should check: a cohort's free answers the grader was
unsure of (quizzes.grading.DOUBTS), each learner's latest at a question still asked,
that no instructor has confirmed or overridden yet."""

from __future__ import annotations

from dataclasses import dataclass

from django.db.models import Count, Exists, OuterRef, Prefetch, Subquery, Value
from django.db.models.functions import Coalesce
from django.utils.translation import gettext as _
from django.utils.translation import gettext_noop

from progress.enums import INSTRUCTOR_KINDS
from progress.models import Attempt, Regrade, Verdict, verdict_newest
from progress.selectors import QuestionState, checkable
from quizzes.grading import DOUBTS
from quizzes.models import Question

from .models import Cohort
from .selectors import cohort_learner_ids

SHOWN = 100  # newest first; the page says how many more wait

# The grader's own words for its doubts (quizzes.grading.DOUBTS), listed here so the
# Spanish catalogue holds them; a code added later shows its English words until it is
# translated, and an unknown code shows itself.
_WORDS = (
    gettext_noop("one mention short of the number needed"),
    gettext_noop("right only through a word read as a typo"),
    gettext_noop("wrong only because a mention was read as negated"),
    gettext_noop("a developed answer the key does not recognise"),
    gettext_noop("a reject entry found in a negated clause was ignored"),
    gettext_noop("right only through a mention found by its words, not a phrasing"),
)


def doubt_words(code: str) -> str:
    """A doubt code in the viewer's language."""
    return _(DOUBTS[code]) if code in DOUBTS else code


@dataclass
class ToCheck:
    attempt: Attempt
    # The attempt shown as the learner's feedback card shows it: the marked answer,
    # each mention found, missed or negated, the reject entries found.
    state: QuestionState

    @property
    def verdict(self) -> Verdict:
        return self.state.verdict

    @property
    def doubts(self) -> list[str]:
        return [doubt_words(code) for code in self.attempt.doubt_codes]


def _waiting():
    """Latest attempts the grader was unsure of, no person has looked at yet, at
    questions still asked (a retired question's verdicts count for nothing now)."""
    return (
        Attempt.objects.exclude(doubts="")
        .filter(checkable())
        .exclude(Exists(Regrade.objects.filter(attempt=OuterRef("pk"), kind__in=INSTRUCTOR_KINDS)))
    )


def _unsure(cohort: Cohort):
    """The cohort's learners' verdicts waiting for an instructor."""
    return _waiting().filter(learner_id__in=cohort_learner_ids(cohort))


def to_check_counted():
    """An expression for a cohort queryset's `annotate`: how many of the cohort's
    verdicts wait for an instructor (a subquery per row, by the unsure attempts' index;
    annotate no JOIN beside it, which would run it once per joined row)."""
    waiting = _waiting().filter(learner_id__in=cohort_learner_ids(OuterRef(OuterRef("pk"))))
    counted = waiting.order_by().annotate(one=Value(1)).values("one").annotate(n=Count("pk"))
    return Coalesce(Subquery(counted.values("n")), 0)


@dataclass
class Waiting:
    """A question with verdicts waiting for an instructor, and how many."""

    question: Question
    count: int


def to_check_questions(*, cohort: Cohort) -> list[Waiting]:
    """The questions the cohort's provisional verdicts are at, in the course's order,
    each with how many wait: two queries (the counts, the questions and their titles),
    one when none wait."""
    counts = dict(_unsure(cohort).order_by().values_list("question_id").annotate(n=Count("pk")))
    if not counts:
        return []
    questions = Question.objects.filter(pk__in=counts).select_related("current_revision")
    return [Waiting(question=q, count=counts[q.pk]) for q in questions]


def to_check(*, cohort: Cohort, question: str | None = None) -> list[ToCheck]:
    """The cohort's provisional verdicts, newest first (at most SHOWN); with `question`
    (a code), those at that question only (how many wait: `to_check_questions`). Two
    queries whatever their number: the attempts with their learner, question and
    revision, and their regrade entries."""
    unsure = _unsure(cohort)
    if question is not None:
        unsure = unsure.filter(question__code=question)
    attempts = (
        unsure.select_related("learner", "question", "revision")
        .prefetch_related(Prefetch("regrades", queryset=Regrade.objects.select_related("revision")))
        .order_by("-id")[:SHOWN]
    )
    items = []
    for attempt in attempts:
        state = QuestionState(
            question=attempt.question,
            latest=attempt,
            verdict_entry=verdict_newest(attempt.regrades.all()),
        )
        items.append(ToCheck(attempt=attempt, state=state))
    return items
