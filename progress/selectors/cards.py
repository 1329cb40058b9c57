"""Question cards' states read for a learner: standings, regrades, drafts. A fixed
number of queries whatever the counts."""

from __future__ import annotations

from collections import defaultdict

from django.db.models import Count, OuterRef, Subquery

from quizzes.models import Question, QuestionRevision

from ..models import (
    Attempt,
    Draft,
    LearnerQuestion,
    Regrade,
    ReviewCard,
    provisional_from,
    verdict_newest,
)
from ..paging import page_of, question_href
from .state import QuestionState


def drafts_attach(*, learner, states: dict[int, QuestionState]) -> None:
    """One query: each state's draft, and what was kept while logged out."""
    for question_id, answer, logged_out in Draft.objects.filter(
        learner=learner, question__in=list(states)
    ).values_list("question_id", "answer", "logged_out"):
        if logged_out:
            states[question_id].kept = answer
        else:
            states[question_id].draft = answer


def standings_attach(*, states: dict[int, QuestionState], standings) -> None:
    """Each state's tries and latest attempt, the regrade or override standing on it,
    and whether an instructor checked it. A standing keeps the effective grade, so only
    where it differs from the attempt's own grade, or where the grader was unsure, is
    there an entry to read: no query in the common case, one otherwise."""
    differ = {}
    for standing in standings:
        state = states[standing.question_id]
        state.tries, state.latest = standing.attempts, standing.latest_attempt
        attempt = standing.latest_attempt
        # A verdict the grader was unsure of needs its entries too: an instructor's
        # confirmation keeps the grade, so only the entries say it is no longer provisional.
        if attempt.doubts or (standing.latest_correct, standing.latest_score) != (
            attempt.correct,
            attempt.score,
        ):
            differ[attempt.pk] = state
    if differ:
        entries = list(
            Regrade.objects.filter(attempt_id__in=list(differ))
            .select_related("revision")
            .order_by("id")
        )
        by_attempt: dict[int, list[Regrade]] = defaultdict(list)
        for entry in entries:
            by_attempt[entry.attempt_id].append(entry)
        for attempt_id, state in differ.items():
            state.verdict_entry = verdict_newest(by_attempt[attempt_id])
            state.checked = not provisional_from(state.latest, by_attempt[attempt_id])


def question_state(
    *, learner, question: Question, with_card: bool = False, with_drafts: bool = False
) -> QuestionState:
    """One question's state, for the HTMX fragments; `with_card` also reads its review
    card, for the feedback right after an answer; `with_drafts` its drafts, for a form."""
    standing = next(iter(learner_standings(learner=learner, questions=[question])), None)
    # The next question with how many active questions come before it, in one query:
    # when it starts the next page of the phase, "Next question" links to that page.
    before = (
        Question.objects.active()
        .filter(phase_id=OuterRef("phase_id"), position__lt=OuterRef("position"))
        .order_by()
        .values("phase_id")
        .annotate(n=Count("pk"))
        .values("n")
    )
    following = (
        Question.objects.active()
        .filter(phase_id=question.phase_id, position__gt=question.position)
        .order_by("position")
        .annotate(before=Subquery(before))
        .values_list("code", "before")
        .first()
    )
    card = (
        ReviewCard.objects.filter(learner=learner, question=question).first() if with_card else None
    )
    state = QuestionState(question=question, next_code=following and following[0], card=card)
    if following is not None:
        code, ordinal = following
        own = ordinal - 1 if question.retired_at is None else ordinal
        if page_of(ordinal=ordinal) != page_of(ordinal=own):
            state.next_url = question_href(
                phase_number=question.phase.number, code=code, page=page_of(ordinal=ordinal)
            )
    standings_attach(states={question.pk: state}, standings=[standing] if standing else [])
    if with_drafts:
        drafts_attach(learner=learner, states={question.pk: state})
    return state


def learner_standings(*, learner, questions) -> list[LearnerQuestion]:
    """The learner's standings on `questions`, each with its latest attempt and that
    attempt's revision: one row per question answered, not one per attempt. An
    attempt on the question's current revision shares the revision the question
    brought along; only older ones are read, in a second query."""
    by_id = {question.pk: question for question in questions}
    standings = list(
        LearnerQuestion.objects.filter(learner=learner, question__in=list(by_id)).select_related(
            "latest_attempt"
        )
    )
    current = Question._meta.get_field("current_revision")
    older: dict[int, list[Attempt]] = defaultdict(list)
    for standing in standings:
        attempt, question = standing.latest_attempt, by_id[standing.question_id]
        if attempt.revision_id == question.current_revision_id and current.is_cached(question):
            attempt.revision = question.current_revision
        else:
            older[attempt.revision_id].append(attempt)
    if older:
        for revision in QuestionRevision.objects.filter(pk__in=list(older)):
            for attempt in older[revision.pk]:
                attempt.revision = revision
    return standings
