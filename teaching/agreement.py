"""How often the grader gave the verdict an instructor gave: for each question, of a
cohort's learners' attempts that an instructor confirmed or overrode, how many the
instructor's first word on left as the grader had it. Most checked verdicts are ones the
grader was unsure of (To check), so the share is a floor for the grader's agreement on
every answer, and a low one points at a key to mend."""

from __future__ import annotations

from dataclasses import dataclass

from progress.enums import INSTRUCTOR_KINDS, VerdictSource
from progress.models import Regrade
from quizzes.models import Question

from .models import Cohort
from .selectors import cohort_learner_ids


@dataclass
class Agreement:
    question: Question
    checked: int  # attempts an instructor confirmed or overrode
    agreed: int  # of them, those whose first instructor entry left the verdict as it was

    @property
    def share(self) -> float:
        return self.agreed / self.checked


def grader_agreement(*, cohort: Cohort) -> list[Agreement]:
    """Each question with checked attempts of the cohort's learners, in the course's
    order. Two queries: the instructors' entries, the questions with their titles."""
    entries = (
        Regrade.objects.filter(kind__in=INSTRUCTOR_KINDS)
        .filter(attempt__learner_id__in=cohort_learner_ids(cohort))
        .order_by("attempt_id", "id")
        .values_list("attempt_id", "attempt__question_id", "kind", "old_correct", "new_correct")
    )
    first: dict[int, tuple[int, bool]] = {}  # attempt: (question, the grader agreed)
    for attempt_id, question_id, kind, old, new in entries:
        if attempt_id not in first:  # a later entry is a teacher changing their mind
            first[attempt_id] = (question_id, kind == VerdictSource.CONFIRM or old == new)
    counts: dict[int, list[int]] = {}
    for question_id, agreed in first.values():
        tally = counts.setdefault(question_id, [0, 0])
        tally[0] += 1
        tally[1] += agreed
    if not counts:
        return []
    questions = Question.objects.filter(pk__in=counts).select_related("current_revision")
    return [Agreement(q, checked=counts[q.pk][0], agreed=counts[q.pk][1]) for q in questions]
