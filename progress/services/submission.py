"""Submitting an answer or a draft: every rule about a submission (the token, the
account, the login, the revision, retirement, the answer's shape), refused with a typed
`SubmissionRefused` that the views turn into a response."""

from __future__ import annotations

from dataclasses import dataclass

from django.contrib.auth import get_user_model
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy

from portal.exceptions import AppError
from portal.invisible import visible
from quizzes.changes import key_changed, revision_content
from quizzes.enums import QuestionKind
from quizzes.grading.numeric import NumberRefused, number_read, plain
from quizzes.models import Question, QuestionRevision

from ..models import Attempt, Draft, LearnerQuestion, ReviewCard
from ..tokens import LOGGED_OUT_MAX_AGE, MAX_AGE, BadToken, SubmissionToken, token_read
from .attempts import attempt_sent, attempt_store
from .drafts import draft_overtaken, draft_save
from .pace import answer_pace_give_back, answer_pace_take, answer_pace_within
from .refusals import MAX_KEPT_CHARS, answer_too_long, number_refusal
from .standings import AnsweredSince

MAX_CHOICES = 26  # option keys are letters
MAX_KEY_CHARS = 8


class SubmissionRefused(AppError):
    """A submission that records nothing. `message` is for the learner; `status` is the
    HTTP status a view answers with; `keep` is what the learner sent, to show again;
    `form_again`: the learner gets the form back with it (and it is kept as a draft),
    rather than only the message."""

    status = 400
    form_again = False
    # The form comes back with the answer that stands beside it (another tab's).
    shows_standing = False
    default_message = gettext_lazy("This form is out of date. Reload the page to answer.")

    def __init__(self, message: str | None = None, *, keep: dict | None = None):
        super().__init__(message)
        self.keep = keep
        self.revision: QuestionRevision | None = None  # the revision the form showed


class FormUnusable(SubmissionRefused):
    """Forged, expired, or made for a question or an account that no longer fits."""


class FormUnkeptLoggedOut(FormUnusable):
    """Sent without a login by a form nothing may be kept for (over a day old, made
    before a password change or for another browser): nothing is stored, and what was
    sent is shown back to its sender to copy, as the refusal replaces the form."""

    default_message = gettext_lazy(
        "Your session had ended and this form can no longer keep your answer, so it was "
        "not sent. Log in, then send it again."
    )


class FormOutOfDate(FormUnusable):
    """The logged-in learner's own form, unusable (a token from before a deploy changed
    the secret, or mangled on the way): the form again, with what was sent."""

    form_again = True
    default_message = gettext_lazy(
        "This form was out of date, so your answer was not sent. It is kept below: "
        "check it and send it again."
    )


class FormOfAnotherAccount(SubmissionRefused):
    """Another account logged in on this browser since the form was made (a shared computer):
    what was sent is kept for the form's learner as a logged-out post is, none for the other."""

    status = 403
    default_message = gettext_lazy(
        "Another account has logged in on this browser since this page was opened: this "
        "answer was not sent. Reload the page."
    )
    kept_message = gettext_lazy(
        "Another account has logged in on this browser since this page was opened: this "
        "answer was not sent, but kept for the account that opened it, to check and send "
        "after logging in as it. Reload the page."
    )


class FormOfEndedLogin(SubmissionRefused):
    """The learner logged out or changed the password since the form was made. What was
    sent is kept as the learner's draft and the form is shown again with it."""

    status = 409
    form_again = True
    default_message = gettext_lazy(
        "This form was made before you last logged in or changed your password, so it "
        "was not sent. Your answer is kept below: check it and send it again."
    )


class FormOfChangedQuestion(SubmissionRefused):
    """An import changed the question's key after the form was made: the answer would be
    graded by a key an instructor has corrected. Kept as a draft, shown on the question
    as it is now."""

    status = 409
    form_again = True
    default_message = gettext_lazy(
        "This question was corrected after you opened it, so your answer was not sent. "
        "It is kept below: check it against the question as it is now and send it again."
    )


class FormOfEarlierAnswer(SubmissionRefused):
    """The learner answered the question in another tab or window after this form was
    made: storing this answer would silently replace that one. Kept as a draft."""

    status = 409
    form_again = True
    shows_standing = True
    default_message = gettext_lazy(
        "You answered this question in another tab or window after this form was "
        "opened, so this answer was not sent and the other one stands. Yours is kept "
        "below: send it again to replace it."
    )


class FormSentAlready(SubmissionRefused):
    """This form was sent before with another answer (a resend without JavaScript, a
    second tab on one form): its first answer stands, and this one, which would be lost
    under the first's feedback, is kept as a draft to send again."""

    status = 409
    form_again = True
    shows_standing = True
    default_message = gettext_lazy(
        "This form had already been sent with another answer, which stands. Your new "
        "answer is kept below: send it again to replace it."
    )


class AnsweringTooFast(SubmissionRefused):
    """More answers in a minute than a person sends (services/pace.py). Kept as a draft."""

    status = 429
    form_again = True
    default_message = gettext_lazy(
        "You sent many answers in a short time, so this one was not sent. It is kept "
        "below: wait a minute, then send it again."
    )


class QuestionRetired(SubmissionRefused):
    """Takes no answers, so keeps no draft; `keep` carries what was sent, shown back on
    the refusal to be copied (nothing typed is lost)."""

    status = 410
    default_message = gettext_lazy("This question has been retired and takes no answers.")


class AnswerInvalid(SubmissionRefused):
    """The answer does not fit the question; the form is shown again with it."""

    status = 422
    form_again = True


@dataclass(frozen=True)
class Answered:
    attempt: Attempt
    created: bool
    revision: QuestionRevision
    # When the attempt was just stored: the learner's standing on the question and
    # review card (None: no card) as the answer left them, so the feedback needs no
    # second read. None for a repeated submission.
    standing: LearnerQuestion | None = None
    card: ReviewCard | None = None


@dataclass(frozen=True)
class KeptWhileLoggedOut:
    """The session had expired: the answer was kept apart for the form's learner."""


def answer_raw(post) -> dict:
    """What the learner sent, unchecked but bounded, for keeping as a draft. A text over
    the answer's limit is kept whole up to MAX_KEPT_CHARS, so the refusal that says it is
    too long gives it back to be cut by its writer, not by us."""
    return {
        # No NUL in a key either: PostgreSQL refuses it in the draft's JSON (a 500).
        "keys": [
            key[:MAX_KEY_CHARS].replace("\x00", "") for key in post.getlist("choice")[:MAX_CHOICES]
        ],
        "text": post.get("text", "")[:MAX_KEPT_CHARS].replace("\x00", ""),
    }


def answer_sent_text(*, user, question: Question, post) -> str:
    """The text of an answer Django's CSRF check refused, to show back to be copied
    (without JavaScript nothing kept it): only when its token is this learner's for this
    question, which another site cannot have, so no other site can plant text here."""
    try:
        token = token_read(post.get("token", ""))
    except BadToken:
        return ""
    if token.learner_id != user.pk or token.question_id != question.pk:
        return ""
    text = answer_raw(post)["text"]
    return text if text.strip() else ""


def _token_for(*, question: Question, raw_token: str, max_age=MAX_AGE) -> SubmissionToken:
    try:
        token = token_read(raw_token, max_age=max_age)
    except BadToken:
        raise FormUnusable() from None
    if token.question_id != question.pk:
        raise FormUnusable(_("This form does not belong to this question."))
    return token


def _keep_logged_out(*, raw_token: str, question: Question, post, browser: str) -> None:
    token = _token_for(question=question, raw_token=raw_token, max_age=LOGGED_OUT_MAX_AGE)
    learner = get_user_model().objects.filter(pk=token.learner_id, is_active=True).first()
    if learner is None:
        raise FormUnusable()  # the account is gone: nobody to keep it for
    if not token.of_account(learner, browser=browser):
        # Made before a password change, or for another browser: it writes nothing.
        raise FormUnusable()
    draft_save(
        learner_id=token.learner_id,
        question_id=question.pk,
        answer=answer_raw(post),
        logged_out=True,
    )


def _token_of_this_login(*, user, session, question: Question, raw_token: str, post, browser: str):
    token = _token_for(question=question, raw_token=raw_token)
    if token.learner_id != user.pk:
        try:
            _keep_logged_out(raw_token=raw_token, question=question, post=post, browser=browser)
        except FormUnusable:  # over a day old, or its account changed: kept for nobody
            raise FormOfAnotherAccount() from None
        raise FormOfAnotherAccount(FormOfAnotherAccount.kept_message)
    if not token.bound_to(session=session, user=user):
        kept = answer_raw(post)
        draft_save(learner_id=user.pk, question_id=question.pk, answer=kept)
        raise FormOfEndedLogin(keep=kept)
    return token


def answer_submit(
    *,
    user,
    session,
    question: Question,
    raw_token: str,
    post,
    language: str,
    browser: str = "",
) -> Answered | KeptWhileLoggedOut:
    """Check one posted answer and record it as an attempt. `browser`: the poster's
    CSRF cookie, which an answer kept without a login must match (progress.tokens).

    Raises a `SubmissionRefused`; nothing is recorded then, except what the learner
    typed, kept as a draft where the poster may keep it.
    """
    if question.is_retired:  # before the token: a retired question keeps no draft
        message = _("This question (%(code)s) has been retired and takes no answers.")
        raise QuestionRetired(message % {"code": question.code}, keep=answer_raw(post))
    if not user.is_authenticated:
        try:
            _keep_logged_out(raw_token=raw_token, question=question, post=post, browser=browser)
        except FormUnusable:
            raise FormUnkeptLoggedOut(keep=answer_raw(post)) from None
        return KeptWhileLoggedOut()
    kept = answer_raw(post)
    try:
        token = _token_of_this_login(
            user=user,
            session=session,
            question=question,
            raw_token=raw_token,
            post=post,
            browser=browser,
        )
    except FormUnusable:
        raise FormOutOfDate(keep=kept) from None
    revision = (
        question.current_revision
        if token.revision_id == question.current_revision_id
        else QuestionRevision.objects.filter(pk=token.revision_id, question=question).first()
    )
    if revision is None:
        raise FormOutOfDate(keep=kept)
    # Unless this form's answer was stored before the correction (its reply lost): sent
    # again, it is that answer's feedback, as any repeat.
    if (
        revision.pk != question.current_revision_id
        and key_changed(revision_content(revision), revision_content(question.current_revision))
        and attempt_sent(learner=user, nonce=token.nonce) is None
    ):
        raise FormOfChangedQuestion(keep=kept)
    try:
        answer = answer_parse(revision=revision, keys=kept["keys"], text=post.get("text", ""))
    except AnswerInvalid as invalid:
        invalid.keep, invalid.revision = kept, revision
        raise
    taken = answer_pace_take(user)
    try:
        if not answer_pace_within(taken):
            # A repeat of a stored answer (a double click, a retry after a lost response)
            # stores nothing: "not sent" would have the learner send it twice.
            stored = attempt_sent(learner=user, nonce=token.nonce)
            if stored is None:
                raise AnsweringTooFast(keep=kept)
        else:
            stored = attempt_store(
                learner=user,
                revision=revision,
                nonce=token.nonce,
                answer=answer,
                language=language,
                latest_seen=token.latest,
            )
    except AnsweredSince:
        answer_pace_give_back(user, taken)  # stored nothing, as a repeat
        raise FormOfEarlierAnswer(keep=kept) from None
    if not stored["created"]:
        answer_pace_give_back(user, taken)  # stored nothing
        if stored["attempt"].answer != answer:
            raise FormSentAlready(keep=kept)  # a double click sends the same answer
    return Answered(revision=revision, **stored)


def draft_submit(
    *, user, session, question: Question, raw_token: str, post, browser: str = ""
) -> None:
    """Keep what the learner is typing, for the form's learner."""
    if not user.is_authenticated:
        _keep_logged_out(raw_token=raw_token, question=question, post=post, browser=browser)
        return
    try:
        token = _token_of_this_login(
            user=user,
            session=session,
            question=question,
            raw_token=raw_token,
            post=post,
            browser=browser,
        )
    except FormOfEndedLogin:
        return  # kept as the learner's own draft all the same
    answer = answer_raw(post)
    if draft_overtaken(learner_id=user.pk, nonce=token.nonce, text=answer["text"]):
        return
    draft_save(learner_id=user.pk, question_id=question.pk, answer=answer)
    # The learner typed on from what was kept while logged out (the form showed it):
    # their own draft now holds the newest text, so the kept one must not mask it.
    Draft.objects.filter(learner=user, question=question, logged_out=True).delete()


def answer_parse(*, revision: QuestionRevision, keys: list[str], text: str) -> dict:
    """Check a submitted answer against the question's shape and return it as stored:
    a numeric answer keeps the text as typed (less the characters a reader cannot see:
    portal.invisible) and its reading in plain notation."""
    text = visible(text)
    if revision.kind == QuestionKind.NUMERIC:
        if "\x00" in text:
            raise AnswerInvalid(_("The answer contains characters that cannot be stored."))
        try:
            value = number_read(text, units=revision.numeric_key.units)
        except NumberRefused as refused:
            raise AnswerInvalid(number_refusal(refused, revision)) from None
        return {"text": text, "value": plain(value)}
    if revision.kind == QuestionKind.FREE:
        if "\x00" in text:
            raise AnswerInvalid(_("The answer contains characters that cannot be stored."))
        if too_long := answer_too_long(text):
            raise AnswerInvalid(too_long)
        if not text.strip():
            raise AnswerInvalid(_("Write an answer first."))
        return {"text": text}
    valid = {option["key"] for option in revision.options}
    chosen = list(dict.fromkeys(keys))
    if not chosen:
        raise AnswerInvalid(
            _("Choose an option first.")
            if revision.kind == QuestionKind.SINGLE
            else _("Choose at least one option.")
        )
    if any(key not in valid for key in chosen):
        raise AnswerInvalid(_("That option is not part of this question."))
    if revision.kind == QuestionKind.SINGLE and len(chosen) != 1:
        raise AnswerInvalid(_("Choose only one option."))
    return {"keys": sorted(chosen)}
