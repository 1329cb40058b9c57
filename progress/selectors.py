"""Reads for the learner's pages: a fixed number of queries whatever the counts."""

from __future__ import annotations

from collections import defaultdict
from dataclasses import dataclass, field

from django.db.models import Count, Q

from quizzes.models import Phase, Question, QuestionRevision

from .models import Attempt, Draft, LearnerQuestion, ReviewCard
from .reviews import day_end


@dataclass(frozen=True)
class OptionFeedback:
    key: str
    text: dict
    picked: bool
    correct: bool


@dataclass(frozen=True)
class MentionFeedback:
    alternatives: list[str]
    found: bool

    @property
    def label(self) -> str:
        return " / ".join(self.alternatives)


@dataclass
class QuestionState:
    question: Question
    tries: int = 0
    latest: Attempt | None = None
    draft: dict | None = None
    # What was sent for this question while the session had expired, kept apart from
    # the learner's own draft until the learner checks it and sends it.
    kept: dict | None = None
    next_code: str | None = None
    # Set by the view for a question whose form is shown.
    token: str = ""
    show_form: bool = False
    error: str = ""
    # The revision the form shows: the current one, unless a form of an older
    # revision is shown again with the learner's input (its token names that one).
    form_revision: QuestionRevision | None = None
    # "reviews" when shown on the reviews page: "next" then means the next due card.
    context: str = ""

    @property
    def revision(self):
        return self.form_revision or self.question.current_revision

    @property
    def form_answer(self) -> dict | None:
        """What the form is filled with: what was kept while logged out (the newest
        typing, shown with a note to check it), else the learner's draft."""
        return self.kept or self.draft

    @property
    def options_feedback(self) -> list[OptionFeedback]:
        """The latest attempt's revision's options, each with whether it was picked."""
        if self.latest is None:
            return []
        picked = set(self.latest.keys)
        return [
            OptionFeedback(o["key"], o["text"], o["key"] in picked, bool(o.get("correct")))
            for o in self.latest.revision.options
        ]

    @property
    def mentions_feedback(self) -> list[MentionFeedback]:
        if self.latest is None:
            return []
        found = set(self.latest.feedback.get("found", []))
        return [
            MentionFeedback(list(alternatives), index in found)
            for index, alternatives in enumerate(self.latest.revision.expected)
        ]

    @property
    def mentions_needed(self) -> int:
        revision = self.latest.revision if self.latest else self.revision
        return revision.pass_mentions or len(revision.expected)


@dataclass
class PhaseProgress:
    phase: Phase
    total: int = 0
    answered: int = 0
    correct: int = 0  # questions whose latest attempt is right
    score: float = 0.0  # sum of latest scores
    first_tries: int = 0
    first_try_correct: int = 0
    continue_code: str | None = None
    question_codes: list[str] = field(default_factory=list)

    @property
    def first_try_rate(self) -> float | None:
        return self.first_try_correct / self.first_tries if self.first_tries else None


def phase_questions(*, phase: Phase) -> list[Question]:
    return list(
        Question.objects.active()
        .for_phase(phase)
        .select_related("current_revision", "phase")
        .order_by("position")
    )


def phase_states(*, learner, phase: Phase) -> list[QuestionState]:
    """Each active question of `phase` with the learner's latest attempt, tries and draft.
    Three queries: questions, standings (with their latest attempts), drafts."""
    questions = phase_questions(phase=phase)
    states = {q.pk: QuestionState(question=q) for q in questions}
    for standing in _standings(learner=learner, questions=questions):
        state = states[standing.question_id]
        state.tries, state.latest = standing.attempts, standing.latest_attempt
    _drafts_attach(learner=learner, states=states)
    ordered = [states[q.pk] for q in questions]
    for state, following in zip(ordered, ordered[1:], strict=False):
        state.next_code = following.question.code
    return ordered


def _drafts_attach(*, learner, states: dict[int, QuestionState]) -> None:
    """One query: each state's draft, and what was kept while logged out."""
    for question_id, answer, logged_out in Draft.objects.filter(
        learner=learner, question__in=list(states)
    ).values_list("question_id", "answer", "logged_out"):
        if logged_out:
            states[question_id].kept = answer
        else:
            states[question_id].draft = answer


def question_state(*, learner, question: Question) -> QuestionState:
    """One question's state, for the HTMX fragments."""
    standing = next(iter(_standings(learner=learner, questions=[question])), None)
    following = (
        Question.objects.active()
        .filter(phase_id=question.phase_id, position__gt=question.position)
        .order_by("position")
        .values_list("code", flat=True)
        .first()
    )
    return QuestionState(
        question=question,
        tries=standing.attempts if standing else 0,
        latest=standing.latest_attempt if standing else None,
        next_code=following,
    )


def _standings(*, learner, questions):
    """The learner's standings on `questions`, each with its latest attempt and that
    attempt's revision: one row per question answered, not one per attempt."""
    return LearnerQuestion.objects.filter(learner=learner, question__in=questions).select_related(
        "latest_attempt__revision"
    )


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
    ).values_list("question_id", "latest_correct", "latest_score", "first_correct")
    standings = {row[0]: row[1:] for row in rows}
    for phase_id, items in codes_by_phase.items():
        summary = progress[phase_id]
        for question_id, code in items:
            if question_id in standings:
                correct, score, first_correct = standings[question_id]
                summary.answered += 1
                summary.correct += correct
                summary.score += score
                summary.first_tries += 1
                summary.first_try_correct += first_correct
            elif summary.continue_code is None:
                summary.continue_code = code
    return [progress[p.pk] for p in phases]


HISTORY_LIMIT = 200


def attempt_history(*, learner, limit: int = HISTORY_LIMIT) -> list[Attempt]:
    return list(
        Attempt.objects.for_learner(learner)
        .select_related("question", "revision", "question__phase")
        .order_by("-created_at", "-id")[:limit]
    )


def attempt_counts_for_revisions(revision_ids) -> dict[int, int]:
    """Attempts per revision; the importer's dry run shows what an edit touches."""
    return dict(
        Attempt.objects.filter(revision_id__in=list(revision_ids))
        .order_by()
        .values("revision")
        .annotate(n=Count("id"))
        .values_list("revision", "n")
    )


@dataclass
class ReviewSummary:
    in_review: int = 0
    due_today: int = 0
    learned: int = 0
    suspended: int = 0


def review_summary(*, learner) -> ReviewSummary:
    """The learner's cards: in review, due today, learned, suspended (question retired)."""
    active = Q(learned_at__isnull=True, question__retired_at__isnull=True)
    counts = ReviewCard.objects.filter(learner=learner).aggregate(
        in_review=Count("id", filter=active),
        due_today=Count("id", filter=active & Q(due__lt=day_end())),
        learned=Count("id", filter=Q(learned_at__isnull=False)),
        suspended=Count(
            "id", filter=Q(learned_at__isnull=True, question__retired_at__isnull=False)
        ),
    )
    return ReviewSummary(**counts)


def review_queue(*, learner) -> list[QuestionState]:
    """Today's due cards as question states, oldest due first, with any drafts."""
    cards = list(
        ReviewCard.objects.due_before(day_end())
        .filter(learner=learner)
        .select_related("question__current_revision", "question__phase")
        .order_by("due", "id")
    )
    states = [QuestionState(question=card.question, context="reviews") for card in cards]
    if states:
        _drafts_attach(learner=learner, states={s.question.pk: s for s in states})
    for state, following in zip(states, [*states[1:], None], strict=False):
        state.next_code = following.question.code if following else None
    return states


def next_review_due(*, learner):
    return (
        ReviewCard.objects.in_review()
        .filter(learner=learner)
        .order_by("due")
        .values_list("due", flat=True)
        .first()
    )


def next_review_code(*, learner, after) -> str | None:
    """The next due card's question after answering `after` on the reviews page."""
    return (
        ReviewCard.objects.due_before(day_end())
        .filter(learner=learner)
        .exclude(question=after)
        .order_by("due", "id")
        .values_list("question__code", flat=True)
        .first()
    )
