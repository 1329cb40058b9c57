"""Learner pages: a phase's questions, answering with instant feedback, progress.

The rules of answering live in `progress.services`; these views map its outcomes and
typed refusals to responses: the card's fragment for htmx, a page or a redirect without.
"""

from urllib.parse import urlencode

from django.conf import settings
from django.contrib.auth.decorators import login_not_required
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render, resolve_url
from django.urls import reverse
from django.utils.translation import get_language
from django_htmx.http import HttpResponseClientRedirect, replace_url
from django_htmx.middleware import HtmxDetails

from portal.errors import error_response
from portal.http import require_GET, require_POST
from quizzes.models import Question

from .context_processors import reviews_due_forget, reviews_due_reviewed
from .csrf_kept import answer_csrf_kept
from .paging import again_href, page_number, reviews_answered_href
from .phase_selectors import (
    active_phase,
    answered_state,
    phase_overview,
    phase_page,
    question_to_answer,
    question_url,
)
from .review_selectors import review_forecast, review_session, review_summary
from .selectors import (
    QuestionState,
    activity_by_day,
    attempt_history,
    attempt_was_review,
    learner_progress,
    phase_in_progress,
    question_state,
)
from .services import (
    Answered,
    FormOfAnotherAccount,
    FormOfEarlierAnswer,
    FormOutOfDate,
    FormSentAlready,
    SubmissionRefused,
    answer_raw,
    answer_submit,
    answer_too_long,
    draft_from_refused,
    draft_submit,
)
from .tokens import SESSION_KEY as TOKEN_SESSION_KEY
from .tokens import browser_of, token_binding, token_issue, token_learner

CARD = "progress/_question.html"
FORM_ERRORS = "form_errors"  # session key: messages for forms shown again after a redirect


class HtmxHttpRequest(HttpRequest):
    htmx: HtmxDetails


def _show_form(request: HtmxHttpRequest, state: QuestionState, binding: str = "") -> None:
    """Show the question's form, with a fresh submission token for the revision it shows
    and the learner's latest attempt at the question as the page knows it (an answer
    sent from another tab since then is not silently replaced)."""
    state.show_form = True
    state.token = token_issue(
        session=request.session,
        user=request.user,
        question_id=state.question.pk,
        revision_id=state.revision.pk,
        binding=binding or token_binding(request),
        latest=state.latest_seen,
    )


def _show_forms(request: HtmxHttpRequest, states, *, also: str | None = None) -> None:
    """Forms for the unanswered questions, for question `also` and for those answered
    again in a draft not sent yet (an answer deletes its drafts); feedback elsewhere."""
    binding = token_binding(request)
    for state in states:
        waiting = state.draft is not None or state.kept is not None
        if state.latest is None or state.question.code == also or waiting:
            _show_form(request, state, binding)


@require_GET
def home(request: HtmxHttpRequest) -> HttpResponse:
    """The phases: the one to go on with first, then every phase on one line."""
    phases = learner_progress(learner=request.user)
    return render(
        request,
        "portal/home.html",
        {"phases": phases, "current": phase_in_progress(phases=phases)},
    )


@require_GET
def phase_detail(request: HtmxHttpRequest, number: int) -> HttpResponse:
    """One page of a phase's questions (`?page=N`), with the index of them all; with
    `?again=CODE`, the page that holds question CODE, its form shown again."""
    phase = active_phase(number)
    if phase is None:
        raise Http404
    again = request.GET.get("again")
    page = phase_page(
        learner=request.user,
        phase=phase,
        page=page_number(request.GET.get("page")),
        holding=again,
    )
    _show_forms(request, page.states, also=again)
    for state in page.states:
        _form_error_attach(request, state)
        if state.question.code == again:
            _prefill_previous(state)
    return render(
        request, "progress/phase.html", {"phase": phase, "page": page, "states": page.states}
    )


@require_GET
def question_form(request: HtmxHttpRequest, code: str) -> HttpResponse:
    """A fresh form for answering again (HTMX); without JS, the phase page does it."""
    question = get_object_or_404(Question.objects.active().select_related("phase"), code=code)
    if not request.htmx:
        return redirect(again_href(phase_number=question.phase.number, code=code))
    state = question_state(learner=request.user, question=question, with_drafts=True)
    if request.GET.get("context") == "reviews":
        _in_reviews(state)  # answered, it leads on to the next review, not a phase's card
    _show_form(request, state)
    _prefill_previous(state)
    return render(request, f"{CARD}#question-body", {"state": state, "focus": True})


def _prefill_previous(state: QuestionState) -> None:
    """Answering a free question again starts from the previous answer (with htmx and
    without), unless a draft or something kept fills the form."""
    if state.latest is not None and state.latest.text and not state.form_answer:
        state.prefill = {"text": state.latest.text}


def _login_url(question: Question, *, in_reviews: bool = False) -> str:
    """Log in again, then back where the form was: the question on its phase page, or
    on the reviews page, which offers the kept answer too."""
    back = f"{reverse('progress:reviews')}#{question.code}" if in_reviews else None
    query = urlencode({"next": back or question_url(question=question), "reason": "expired"})
    return f"{resolve_url(settings.LOGIN_URL)}?{query}"


@login_not_required  # an expired session is handled by the service: the answer is kept
@require_POST
def answer(request: HtmxHttpRequest, code: str) -> HttpResponse:
    """Store an answer; each of the four outcomes has a builder of its own below."""
    question = question_to_answer(code)
    if question is None:
        raise Http404
    try:
        outcome = answer_submit(
            user=request.user,
            session=request.session,
            question=question,
            raw_token=request.POST.get("token", ""),
            post=request.POST,
            language=(get_language() or "en")[:2],
            browser=browser_of(request),
        )
    except SubmissionRefused as refused:
        return _refused_response(request, question, refused)
    if not isinstance(outcome, Answered):
        return _kept_response(request, question)
    in_reviews = request.POST.get("context") == "reviews"
    if not request.htmx:
        return _answered_redirect(request, question, outcome, in_reviews=in_reviews)
    return _answered_fragment(request, question, outcome, in_reviews=in_reviews)


def _answer_csrf_refused(request: HtmxHttpRequest, code: str) -> HttpResponse | None:
    """The answer's htmx post failed the CSRF check (a new login in another tab changed
    the secret): the form again, with what was sent and a fresh token and CSRF field,
    storing nothing. None (the plain 403) for a question that takes no answers."""
    question = question_to_answer(code)
    if question is None or question.is_retired:
        return None
    if TOKEN_SESSION_KEY not in request.session:
        return None  # a token would write a form key into the session: the plain 403
    if token_learner(request.POST.get("token", "")) not in (None, request.user.pk):
        # A tab of the account logged in before (red team 12): not in this one's form.
        return error_response(request, FormOfAnotherAccount())
    return _form_fragment(
        request, question, FormOutOfDate(keep=answer_raw(request.POST)), status=403
    )


answer.csrf_refused = _answer_csrf_refused
answer.csrf_kept = answer_csrf_kept  # without htmx: the text shown back, to copy


def _refused_response(
    request: HtmxHttpRequest, question: Question, refused: SubmissionRefused
) -> HttpResponse:
    """Nothing was recorded: the form again when the learner can fix the answer or send
    it again, else the refusal's message (an error fragment for htmx)."""
    if refused.form_again:
        return _form_again(request, question, refused)
    return error_response(request, refused)


def _kept_response(request: HtmxHttpRequest, question: Question) -> HttpResponse:
    """Kept while logged out: log in to send it (htmx follows a client redirect)."""
    url = _login_url(question, in_reviews=request.POST.get("context") == "reviews")
    if request.htmx:
        return HttpResponseClientRedirect(url)
    return redirect(url)


def _answered_redirect(
    request: HtmxHttpRequest, question: Question, outcome: Answered, *, in_reviews: bool
) -> HttpResponse:
    """Without htmx, post/redirect/get: to the question on its page, or to the reviews
    page, which shows this answer's feedback and then goes on."""
    if outcome.created and attempt_was_review(attempt=outcome.attempt):
        reviews_due_reviewed(request.session)
    if in_reviews:
        return redirect(reviews_answered_href(code=question.code))
    return redirect(question_url(question=question))


def _answered_fragment(
    request: HtmxHttpRequest, question: Question, outcome: Answered, *, in_reviews: bool
) -> HttpResponse:
    """With htmx, the feedback and, out of band, the phase page's status line, Continue
    and index (which also gives the feedback its "Next question") and the header's
    due count after a review."""
    page = None
    if not in_reviews:
        page = phase_overview(learner=request.user, phase=question.phase, holding=question.code)
    if outcome.created and page is not None:
        state = answered_state(question=question, answered=outcome, overview=page)
    else:  # a repeated submission, or the reviews page: read what stands
        state = question_state(learner=request.user, question=question, with_card=True)
    reviewed = outcome.created and state.card is not None
    reviewed = reviewed and state.card.reviewed_by(outcome.attempt)
    if reviewed:
        reviews_due_reviewed(request.session)
    if in_reviews:
        _in_reviews(state)
    # The swapped-in feedback takes focus (htmx honours autofocus), so keyboard and
    # screen-reader users land on the result. One template renders the feedback and
    # the out-of-band pieces.
    response = render(
        request,
        "progress/_answered.html",
        {"state": state, "focus": True, "badge_oob": reviewed, "page": page, "oob": True},
    )
    # As without htmx: a reload or a language switch shows this feedback, not the form
    # "Answer again" put in the address.
    if in_reviews:
        replace_url(response, reviews_answered_href(code=question.code))
    elif "again=" in (request.htmx.current_url or ""):
        replace_url(response, question_url(question=question))
    return response


def _form_again(
    request: HtmxHttpRequest, question: Question, refused: SubmissionRefused
) -> HttpResponse:
    """The form again, with the learner's input and what is wrong with it.

    The input is kept as the learner's draft either way (an empty one ends the draft):
    a reload or another tab finds it, not the answer before. Without htmx,
    post/redirect/get, back to the page the form was on (the phase page, or the reviews
    page, whose due card it still is unless this form's first answer ended its review:
    then the phase page): the message waits in the session, and reloading the page
    posts nothing again.
    """
    if refused.keep is not None:
        draft_from_refused(learner_id=request.user.pk, question_id=question.pk, answer=refused.keep)
    if not request.htmx:
        errors = request.session.setdefault(FORM_ERRORS, {})
        errors[question.code] = [refused.message, refused.shows_standing]
        request.session.modified = True
        in_reviews = request.POST.get("context") == "reviews"
        # Another answer since (this form's or another tab's) ended the card's review:
        # the reviews page no longer holds it, its phase page does.
        if in_reviews and not isinstance(refused, FormSentAlready | FormOfEarlierAnswer):
            return redirect("progress:reviews")
        return redirect(again_href(phase_number=question.phase.number, code=question.code))
    return _form_fragment(request, question, refused, status=refused.status)


def _form_fragment(
    request: HtmxHttpRequest, question: Question, refused: SubmissionRefused, *, status: int
) -> HttpResponse:
    """The card's form with what was sent, the refusal's message and a fresh token."""
    state = question_state(learner=request.user, question=question)
    # The form keeps showing the revision its token named, even if an import changed
    # the question meanwhile.
    state.form_revision = refused.revision
    if request.POST.get("context") == "reviews":
        _in_reviews(state)  # sent again, it lands back on the reviews page's feedback
    _show_form(request, state)
    state.draft, state.kept, state.error = refused.keep, None, refused.message
    state.standing_shown = refused.shows_standing
    return render(request, f"{CARD}#question-body", {"state": state, "focus": True}, status=status)


@login_not_required  # drafts are kept for the token's learner even after the session ends
@require_POST
def draft(request: HtmxHttpRequest, code: str) -> HttpResponse:
    question = get_object_or_404(Question, code=code)
    if question.is_retired:  # takes no answers, so keeps no drafts either
        return HttpResponse(status=410)
    try:
        draft_submit(
            user=request.user,
            session=request.session,
            question=question,
            raw_token=request.POST.get("token", ""),
            post=request.POST,
            browser=browser_of(request),
        )
    except SubmissionRefused as refused:
        return HttpResponse(status=refused.status)
    return HttpResponse(status=204)


@require_GET
def my_progress(request: HtmxHttpRequest) -> HttpResponse:
    forecast = review_forecast(learner=request.user)
    return render(
        request,
        "progress/my_progress.html",
        {
            "phases": learner_progress(learner=request.user),
            "history": attempt_history(learner=request.user),
            "cards": review_summary(learner=request.user),
            "forecast": forecast,
            "forecast_total": sum(count for _day, count in forecast),
            "activity": activity_by_day(learner=request.user),
        },
    )


@require_GET
def reviews(request: HtmxHttpRequest) -> HttpResponse:
    """Today's reviews as a session: one due card at a time, then a summary. With
    `?answered=CODE` (where an answer sent without htmx lands), the feedback of the
    learner's latest answer to CODE first, as htmx swaps it in, with "Next review"."""
    answered = _reviewed_state(request, request.GET.get("answered"))
    if answered is not None:  # its feedback, and where it stands among today's reviews
        session = review_session(learner=request.user)
        return render(request, "progress/reviews.html", {"answered": answered, "session": session})
    session = review_session(learner=request.user)
    reviews_due_forget(request.session)  # the header counts what this page shows
    if session.state is not None:
        _show_form(request, session.state)
        _form_error_attach(request, session.state)
    return render(request, "progress/reviews.html", {"session": session})


def _form_error_attach(request: HtmxHttpRequest, state: QuestionState) -> None:
    """The state's form error: the message a refusal without htmx left for it in the
    session (another question's waits for the page that shows it: the phase page and
    the reviews page take only their own cards'), else what is wrong with a kept draft
    too long to send, so a reload does not hide it."""
    errors = request.session.get(FORM_ERRORS)
    if errors and state.question.code in errors:
        message = errors.pop(state.question.code)
        request.session.modified = True
        if isinstance(message, list):  # [message, whether the answer that stands is shown]
            message, state.standing_shown = message
        state.error = message
    elif state.show_form and state.revision.is_free:
        # The text in the box (what was kept while logged out wins). A number's refusal
        # is said when it is sent, not over its half-typed draft.
        state.error = answer_too_long((state.form_answer or {}).get("text") or "")


def _reviewed_state(request: HtmxHttpRequest, code: str | None) -> QuestionState | None:
    if not code:
        return None
    question = Question.objects.active().select_related("phase").filter(code=code).first()
    if question is None:
        return None
    state = question_state(learner=request.user, question=question, with_card=True)
    if state.latest is None:  # never answered: nothing to show, and no key to reveal
        return None
    _in_reviews(state)
    return state


def _in_reviews(state: QuestionState) -> None:
    """Feedback shown on the reviews page: its "next" is the next due card."""
    state.context, state.next_code = "reviews", None
