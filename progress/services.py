"""Writes for progress: recording attempts and keeping drafts."""

from __future__ import annotations

from django.db import IntegrityError, transaction
from django.utils.translation import gettext as _

from quizzes.grading import grade
from quizzes.models import QuestionRevision

from .models import Attempt, Draft

MAX_ANSWER_CHARS = 10_000


class AnswerInvalid(Exception):
    """The submitted answer does not fit the question; the message is for the learner."""


def answer_parse(*, revision: QuestionRevision, keys: list[str], text: str) -> dict:
    """Check a submitted answer against the question's shape and return it as stored."""
    if revision.kind == "free":
        if "\x00" in text:
            raise AnswerInvalid(_("The answer contains characters that cannot be stored."))
        if len(text) > MAX_ANSWER_CHARS:
            raise AnswerInvalid(
                _("The answer is too long (at most %(max)d characters).")
                % {"max": MAX_ANSWER_CHARS}
            )
        if not text.strip():
            raise AnswerInvalid(_("Write an answer first."))
        return {"text": text}
    valid = {option["key"] for option in revision.options}
    chosen = list(dict.fromkeys(keys))
    if not chosen:
        raise AnswerInvalid(
            _("Choose an option first.")
            if revision.kind == "single"
            else _("Choose at least one option.")
        )
    if any(key not in valid for key in chosen):
        raise AnswerInvalid(_("That option is not part of this question."))
    if revision.kind == "single" and len(chosen) != 1:
        raise AnswerInvalid(_("Choose only one option."))
    return {"keys": sorted(chosen)}


def attempt_record(
    *, learner, revision: QuestionRevision, nonce: str, answer: dict, language: str
) -> tuple[Attempt, bool]:
    """Grade and store one submission; a repeated nonce returns the stored attempt.

    Returns (attempt, created).
    """
    result = grade(
        kind=revision.kind,
        correct_keys=revision.correct_keys,
        expected=revision.expected,
        pass_mentions=revision.pass_mentions,
        keys=answer.get("keys", ()),
        text=answer.get("text", ""),
    )
    attempt = Attempt(
        learner=learner,
        question_id=revision.question_id,
        revision=revision,
        token=nonce,
        answer=answer,
        correct=result.correct,
        score=result.score,
        partial=result.partial,
        feedback={
            "right_picks": list(result.right_picks),
            "wrong_picks": list(result.wrong_picks),
            "missed_keys": list(result.missed_keys),
            "found": list(result.found),
            "missed": list(result.missed),
        },
        language=language,
    )
    try:
        with transaction.atomic():
            attempt.save()
            Draft.objects.filter(learner=learner, question_id=revision.question_id).delete()
    except IntegrityError:
        existing = Attempt.objects.filter(token=nonce, learner=learner).first()
        if existing is None:
            raise
        return existing, False
    return attempt, True


def draft_save(*, learner_id: int, question_id: int, answer: dict) -> None:
    Draft.objects.update_or_create(
        learner_id=learner_id, question_id=question_id, defaults={"answer": answer}
    )
