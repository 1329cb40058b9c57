"""The learner's progress per phase, and the phase to go on with."""

from __future__ import annotations

from collections import defaultdict
from dataclasses import dataclass, field

from quizzes.models import Phase, Question

from ..models import (
    LearnerQuestion,
)
from ..paging import page_of, question_href


@dataclass
class PhaseProgress:
    phase: Phase
    total: int = 0
    answered: int = 0
    correct: int = 0  # questions right as they stand: the phase's score
    first_tries: int = 0
    first_try_correct: int = 0
    continue_code: str | None = None
    continue_page: int = 1  # the page of the phase that holds continue_code
    question_codes: list[str] = field(default_factory=list)
    last_attempt_id: int = 0  # the learner's newest answer in the phase, 0 if none

    @property
    def first_try_rate(self) -> float | None:
        return self.first_try_correct / self.first_tries if self.first_tries else None

    @property
    def continue_href(self) -> str:
        return question_href(
            phase_number=self.phase.number, code=self.continue_code, page=self.continue_page
        )

    @property
    def status(self) -> str:
        """ "mastered" (every question answered, and right as it stands), "done" (every
        question answered, some not right), "started" or "new"."""
        if self.total and self.answered == self.total:
            return "mastered" if self.correct == self.total else "done"
        return "started" if self.answered else "new"


def learner_progress(*, learner) -> list[PhaseProgress]:
    """Per active phase: totals, the learner's latest results and first-try results.
    Reads one standing per question answered (regrades included), not every attempt."""
    phases = list(Phase.objects.active().order_by("number"))
    progress = {p.pk: PhaseProgress(phase=p) for p in phases}
    questions = Question.objects.active().filter(phase__in=phases).order_by("phase", "position")
    codes_by_phase: dict[int, list[tuple[int, str]]] = defaultdict(list)
    for question_id, code, phase_id in questions.values_list("id", "code", "phase_id"):
        codes_by_phase[phase_id].append((question_id, code))
        progress[phase_id].question_codes.append(code)
        progress[phase_id].total += 1

    rows = LearnerQuestion.objects.filter(
        learner=learner, question__retired_at__isnull=True
    ).values_list("question_id", "latest_correct", "first_correct", "latest_attempt_id")
    standings = {row[0]: row[1:] for row in rows}
    for phase_id, items in codes_by_phase.items():
        summary = progress[phase_id]
        for ordinal, (question_id, code) in enumerate(items):
            if question_id in standings:
                correct, first_correct, attempt_id = standings[question_id]
                summary.answered += 1
                summary.correct += correct
                summary.first_tries += 1
                summary.first_try_correct += first_correct
                summary.last_attempt_id = max(summary.last_attempt_id, attempt_id)
            elif summary.continue_code is None:
                summary.continue_code = code
                summary.continue_page = page_of(ordinal=ordinal)
    return [progress[p.pk] for p in phases]


def phase_in_progress(*, phases: list[PhaseProgress]) -> PhaseProgress | None:
    """The phase to go on with: the one answered in last, while it has questions left;
    else the next one after it with questions left (from the first, for a newcomer);
    None once every question is answered."""
    left = [p for p in phases if p.continue_code is not None]
    if not left:
        return None
    latest = max(phases, key=lambda p: p.last_attempt_id)
    after = latest.phase.number if latest.last_attempt_id else 0
    if latest.last_attempt_id and latest.continue_code is not None:
        return latest
    return next((p for p in left if p.phase.number > after), left[0])
