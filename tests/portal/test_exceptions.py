"""One error base: every refusal of the application's own carries a status and a message."""

import pytest

from accounts.services import LinkUnusable
from portal.exceptions import AppError
from progress.services import (
    AnswerInvalid,
    FormOfAnotherAccount,
    FormOfEndedLogin,
    FormUnusable,
    QuestionRetired,
    SubmissionRefused,
)
from progress.tokens import BadToken
from quizzes.services import ImportRefused


@pytest.mark.parametrize(
    ("error", "status", "message"),
    [
        (FormUnusable(), 400, "This form is out of date. Reload the page to answer."),
        (
            FormOfAnotherAccount(),
            403,
            "Another account has logged in on this browser since this page was opened: "
            "this answer was not sent. Reload the page.",
        ),
        (QuestionRetired(), 410, "This question has been retired and takes no answers."),
        (AnswerInvalid("Pick one option."), 422, "Pick one option."),
        (LinkUnusable("unknown"), 404, "unknown"),
        (LinkUnusable("used"), 410, "used"),
        (LinkUnusable("expired"), 410, "expired"),
        (BadToken("malformed token"), 400, "malformed token"),
        (ImportRefused(["a", "b"]), 422, "2 problem(s) in the quiz files"),
    ],
    ids=lambda v: type(v).__name__ if isinstance(v, Exception) else None,
)
def test_app_error_subclasses_carry_status_and_message(error, status, message):
    assert isinstance(error, AppError)
    assert (error.status, error.message, str(error)) == (status, message, message)


def test_app_error_submission_refused_keeps_what_was_sent():
    error = FormOfEndedLogin(keep={"keys": [], "text": "attention"})

    assert isinstance(error, SubmissionRefused)
    assert (error.status, error.keep) == (409, {"keys": [], "text": "attention"})
