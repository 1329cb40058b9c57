"""Writes for progress, by concern: submitting (`submission`), storing an attempt
(`attempts`), the standings and counts it moves (`standings`), counting them again
(`recounts`), drafts (`drafts`), and, for submitting, the answer pace (`pace`) and how a
refused answer is told (`refusals`). What the views and the other apps call is
importable from here."""

from .attempts import (
    answer_pattern,
    attempt_record,
    attempt_store,
    grade_feedback,
    graded_text,
)
from .drafts import draft_from_refused, draft_save
from .recounts import RECOUNT_LEARNERS, learner_phase_recount, learner_question_rebuild
from .refusals import MAX_ANSWER_CHARS, answer_too_long
from .standings import phase_first_right_copy, standing_add, standing_locked
from .submission import (
    MAX_CHOICES,
    MAX_KEY_CHARS,
    Answered,
    AnsweringTooFast,
    AnswerInvalid,
    FormOfAnotherAccount,
    FormOfChangedQuestion,
    FormOfEarlierAnswer,
    FormOfEndedLogin,
    FormOutOfDate,
    FormSentAlready,
    FormUnusable,
    KeptWhileLoggedOut,
    QuestionRetired,
    SubmissionRefused,
    answer_parse,
    answer_raw,
    answer_sent_text,
    answer_submit,
    draft_submit,
)

__all__ = [
    "MAX_ANSWER_CHARS",
    "MAX_CHOICES",
    "MAX_KEY_CHARS",
    "RECOUNT_LEARNERS",
    "AnswerInvalid",
    "Answered",
    "AnsweringTooFast",
    "FormOfAnotherAccount",
    "FormOfChangedQuestion",
    "FormOfEarlierAnswer",
    "FormOfEndedLogin",
    "FormOutOfDate",
    "FormSentAlready",
    "FormUnusable",
    "KeptWhileLoggedOut",
    "QuestionRetired",
    "SubmissionRefused",
    "answer_parse",
    "answer_too_long",
    "answer_pattern",
    "answer_raw",
    "answer_sent_text",
    "answer_submit",
    "attempt_record",
    "attempt_store",
    "draft_from_refused",
    "draft_save",
    "draft_submit",
    "grade_feedback",
    "graded_text",
    "learner_phase_recount",
    "learner_question_rebuild",
    "phase_first_right_copy",
    "standing_add",
    "standing_locked",
]
