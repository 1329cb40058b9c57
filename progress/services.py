"""Writes for progress: recording attempts and keeping drafts."""

from __future__ import annotations

from django.db import IntegrityError, transaction
from django.utils.translation import gettext as _

from quizzes.grading import Grade, grade
from quizzes.models import QuestionRevision

from .models import Attempt, Draft, LearnerQuestion
from .reviews import review_card_feed

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


def answer_pattern(answer: dict, result: Grade) -> str:
    if "keys" in answer:
        return "".join(sorted(answer["keys"]))[:64]
    return ",".join(str(i) for i in result.missed)[:64]


def _feedback(result: Grade) -> dict:
    return {
        "right_picks": list(result.right_picks),
        "wrong_picks": list(result.wrong_picks),
        "missed_keys": list(result.missed_keys),
        "found": list(result.found),
        "missed": list(result.missed),
    }


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
        feedback=_feedback(result),
        pattern=answer_pattern(answer, result),
        language=language,
    )
    try:
        with transaction.atomic():
            attempt.save()
            _standing_add(attempt)
            review_card_feed(attempt=attempt)
            Draft.objects.filter(learner=learner, question_id=revision.question_id).delete()
    except IntegrityError:
        existing = Attempt.objects.filter(token=nonce, learner=learner).first()
        if existing is None:
            raise
        return existing, False
    return attempt, True


def _standing_add(attempt: Attempt) -> None:
    """Fold a new attempt into the learner's standing on its question."""
    standing, created = LearnerQuestion.objects.select_for_update().get_or_create(
        learner_id=attempt.learner_id,
        question_id=attempt.question_id,
        defaults={
            "attempts": 1,
            "first_attempt": attempt,
            "latest_attempt": attempt,
            "first_correct": attempt.correct,
            "latest_correct": attempt.correct,
            "ever_correct": attempt.correct,
            "latest_score": attempt.score,
            "first_pattern": attempt.pattern,
            "latest_pattern": attempt.pattern,
        },
    )
    if created:
        return
    standing.attempts += 1
    standing.latest_attempt = attempt
    standing.latest_correct = attempt.correct
    standing.latest_score = attempt.score
    standing.latest_pattern = attempt.pattern
    standing.ever_correct = standing.ever_correct or attempt.correct
    standing.save(
        update_fields=[
            "attempts",
            "latest_attempt",
            "latest_correct",
            "latest_score",
            "latest_pattern",
            "ever_correct",
        ]
    )


def learner_question_rebuild(*, pairs=None) -> int:
    """Recompute standings from attempts and regrades: for the given (learner_id,
    question_id) pairs, or for everything. Returns how many standings were written."""
    attempts = Attempt.objects.order_by("id").prefetch_related("regrades")
    if pairs is not None:
        pairs = set(pairs)
        attempts = attempts.filter(
            learner_id__in={p[0] for p in pairs}, question_id__in={p[1] for p in pairs}
        )
    grouped: dict[tuple[int, int], list[Attempt]] = {}
    for attempt in attempts:
        key = (attempt.learner_id, attempt.question_id)
        if pairs is None or key in pairs:
            grouped.setdefault(key, []).append(attempt)

    def effective(attempt: Attempt) -> tuple[bool, float]:
        verdict = attempt.verdict()
        return verdict.correct, verdict.score

    with transaction.atomic():
        for (learner_id, question_id), items in grouped.items():
            grades = [effective(a) for a in items]
            LearnerQuestion.objects.update_or_create(
                learner_id=learner_id,
                question_id=question_id,
                defaults={
                    "attempts": len(items),
                    "first_attempt": items[0],
                    "latest_attempt": items[-1],
                    "first_correct": grades[0][0],
                    "latest_correct": grades[-1][0],
                    "ever_correct": any(g[0] for g in grades),
                    "latest_score": grades[-1][1],
                    "first_pattern": items[0].pattern,
                    "latest_pattern": items[-1].pattern,
                },
            )
    return len(grouped)


def draft_save(*, learner_id: int, question_id: int, answer: dict) -> None:
    Draft.objects.update_or_create(
        learner_id=learner_id, question_id=question_id, defaults={"answer": answer}
    )
