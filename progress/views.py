"""Learner pages: a phase's questions, answering with instant feedback, progress."""

from urllib.parse import urlencode

from django.conf import settings
from django.contrib.auth.decorators import login_not_required
from django.http import HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render, resolve_url
from django.urls import reverse
from django.utils.translation import get_language
from django.utils.translation import gettext as _
from django.views.decorators.http import require_GET, require_POST
from django_htmx.http import HttpResponseClientRedirect
from django_htmx.middleware import HtmxDetails

from quizzes.models import Phase, Question, QuestionRevision

from .selectors import (
    attempt_history,
    learner_progress,
    next_review_code,
    next_review_due,
    phase_states,
    question_state,
    review_queue,
    review_summary,
)
from .services import MAX_ANSWER_CHARS, AnswerInvalid, answer_parse, attempt_record, draft_save
from .tokens import BadToken, token_issue, token_read

CARD = "progress/_question.html"


class HtmxHttpRequest(HttpRequest):
    htmx: HtmxDetails


def _phase_url(question: Question) -> str:
    return reverse("progress:phase", args=[question.phase.number])


def _problem(request: HtmxHttpRequest, status: int, message: str) -> HttpResponse:
    return render(request, "progress/problem.html", {"message": message}, status=status)


def _raw_answer(request: HtmxHttpRequest) -> dict:
    """What the learner sent, unchecked but bounded, for keeping as a draft."""
    return {
        "keys": request.POST.getlist("choice")[:26],
        "text": request.POST.get("text", "")[:MAX_ANSWER_CHARS].replace("\x00", ""),
    }


def _show_form(request: HtmxHttpRequest, state) -> None:
    """Show the question's form, with a fresh submission token for its current revision."""
    state.show_form = True
    state.token = token_issue(
        learner_id=request.user.pk, revision_id=state.question.current_revision_id
    )


def _show_forms(request: HtmxHttpRequest, states, *, also: str | None = None) -> None:
    """Forms for the unanswered questions, and for question `also`; feedback elsewhere."""
    for state in states:
        if state.latest is None or state.question.code == also:
            _show_form(request, state)


@require_GET
def phase_detail(request: HtmxHttpRequest, number: int) -> HttpResponse:
    phase = get_object_or_404(Phase.objects.active(), number=number)
    states = phase_states(learner=request.user, phase=phase)
    _show_forms(request, states, also=request.GET.get("again"))
    return render(request, "progress/phase.html", {"phase": phase, "states": states})


@require_GET
def question_form(request: HtmxHttpRequest, code: str) -> HttpResponse:
    """A fresh form for answering again (HTMX); without JS, the phase page does it."""
    question = get_object_or_404(Question.objects.active().select_related("phase"), code=code)
    if not request.htmx:
        return redirect(f"{_phase_url(question)}?{urlencode({'again': code})}#{code}")
    state = question_state(learner=request.user, question=question)
    _show_form(request, state)
    return render(request, f"{CARD}#question-body", {"state": state, "focus": True})


@login_not_required  # an expired session is handled here, so the answer is kept
@require_POST
def answer(request: HtmxHttpRequest, code: str) -> HttpResponse:
    question = get_object_or_404(
        Question.objects.select_related("phase", "current_revision"), code=code
    )
    try:
        token = token_read(request.POST.get("token", ""))
    except BadToken:
        return _problem(request, 400, _("This form is out of date. Reload the page to answer."))

    if not request.user.is_authenticated:
        # Keep what the learner typed for the learner the form was made for; after
        # logging in again, the phase page puts it back in the form.
        draft_save(
            learner_id=token.learner_id, question_id=question.pk, answer=_raw_answer(request)
        )
        login_url = f"{resolve_url(settings.LOGIN_URL)}?{urlencode({'next': _phase_url(question)})}"
        if request.htmx:
            return HttpResponseClientRedirect(login_url)
        return redirect(login_url)

    if token.learner_id != request.user.pk:
        return _problem(request, 403, _("This form was made for another account. Reload the page."))
    revision = QuestionRevision.objects.filter(pk=token.revision_id, question=question).first()
    if revision is None:
        return _problem(request, 400, _("This form does not belong to this question."))
    if question.is_retired:
        return _problem(request, 410, _("This question has been retired and takes no answers."))

    raw = _raw_answer(request)
    try:
        parsed = answer_parse(
            revision=revision, keys=raw["keys"], text=request.POST.get("text", "")
        )
    except AnswerInvalid as invalid:
        return _form_again(request, question, revision, request.POST["token"], raw, str(invalid))

    attempt_record(
        learner=request.user,
        revision=revision,
        nonce=token.nonce,
        answer=parsed,
        language=(get_language() or "en")[:2],
    )
    if not request.htmx:
        if request.POST.get("context") == "reviews":
            return redirect(reverse("progress:reviews"))
        return redirect(f"{_phase_url(question)}#{code}")
    state = question_state(learner=request.user, question=question)
    if request.POST.get("context") == "reviews":
        state.next_code = next_review_code(learner=request.user, after=question)
        state.context = "reviews"
    # The swapped-in feedback takes focus (htmx honours autofocus), so keyboard and
    # screen-reader users land on the result.
    return render(request, f"{CARD}#question-body", {"state": state, "focus": True})


def _form_again(request: HtmxHttpRequest, question, revision, token, raw, error) -> HttpResponse:
    """The form again, with the learner's input and what is wrong with it."""
    if request.htmx:
        state = question_state(learner=request.user, question=question)
        state.show_form, state.token, state.draft, state.error = True, token, raw, error
        # The form must show the revision the token names, even if it is no longer current.
        state.question.current_revision = revision
        return render(request, f"{CARD}#question-body", {"state": state}, status=422)
    states = phase_states(learner=request.user, phase=question.phase)
    _show_forms(request, states, also=question.code)
    for state in states:
        if state.question.pk == question.pk:
            state.token, state.draft, state.error = token, raw, error
    return render(
        request, "progress/phase.html", {"phase": question.phase, "states": states}, status=422
    )


@login_not_required  # drafts are kept for the token's learner even after the session ends
@require_POST
def draft(request: HtmxHttpRequest, code: str) -> HttpResponse:
    question = get_object_or_404(Question, code=code)
    try:
        token = token_read(request.POST.get("token", ""))
    except BadToken:
        return HttpResponse(status=400)
    if request.user.is_authenticated and token.learner_id != request.user.pk:
        return HttpResponse(status=403)
    draft_save(learner_id=token.learner_id, question_id=question.pk, answer=_raw_answer(request))
    return HttpResponse(status=204)


@require_GET
def my_progress(request: HtmxHttpRequest) -> HttpResponse:
    return render(
        request,
        "progress/my_progress.html",
        {
            "phases": learner_progress(learner=request.user),
            "history": attempt_history(learner=request.user),
            "cards": review_summary(learner=request.user),
        },
    )


@require_GET
def reviews(request: HtmxHttpRequest) -> HttpResponse:
    """Today's reviews: each due card through the same question card as the phase pages."""
    states = review_queue(learner=request.user)
    for state in states:
        _show_form(request, state)
    next_due = None if states else next_review_due(learner=request.user)
    return render(request, "progress/reviews.html", {"states": states, "next_due": next_due})
