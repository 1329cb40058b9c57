"""Grading and storing one submission as an attempt, in the answer's write transaction."""

from __future__ import annotations

from django.db import IntegrityError, router, transaction

from portal import sql
from quizzes.grading import GRADER_VERSION, Grade
from quizzes.models import QuestionRevision

from ..models import Attempt, Draft
from ..reviews import review_card_feed
from ..verdicts import doubts_column
from .standings import standing_add

# The learner's drafts of a question go once an answer is stored (`portal.sql`).
_DRAFTS_DELETE = "DELETE FROM {table} WHERE {table.learner} = %s AND {table.question} = %s"


def answer_pattern(answer: dict, result: Grade) -> str:
    if "value" in answer:  # numeric: the value as read, to count answers alike
        return answer["value"][:64]
    if "keys" in answer:
        return "".join(sorted(answer["keys"]))[:64]
    return ",".join(str(i) for i in result.missed)[:64]


def graded_text(answer: dict) -> str:
    """The text a stored answer is graded by: a numeric answer's reading (plain
    notation, readable whatever the question's unit becomes), else what was typed."""
    return answer.get("value", answer.get("text", ""))


def grade_feedback(result: Grade) -> dict:
    """What a grade found, as stored with an attempt or a regrade."""
    return {
        "right_picks": list(result.right_picks),
        "wrong_picks": list(result.wrong_picks),
        "missed_keys": list(result.missed_keys),
        "found": list(result.found),
        "missed": list(result.missed),
        "negated": list(result.negated),
        # Per mention, what the grader saw, so the feedback can show it in place.
        "mentions": [
            {
                "status": m.status,
                "spans": [list(s) for s in m.spans],
                "typos": list(m.typos),
                # Found as a negative statement ("not recomputed"): the feedback says so.
                **({"negative": True} if m.negative else {}),
                # Found by its words, not by a phrasing: the feedback says so.
                **({"field": True} if m.field else {}),
            }
            for m in result.mentions
        ],
        "rejected": [
            {"alternative": r.alternative, "spans": [list(s) for s in r.spans]}
            for r in result.rejected
        ],
        # Why the grader is unsure (quizzes.grading.DOUBTS): the verdict is provisional.
        "doubts": list(result.doubts),
    }


def attempt_record(
    *, learner, revision: QuestionRevision, nonce: str, answer: dict, language: str
) -> tuple[Attempt, bool]:
    """Grade and store one submission; a repeated nonce returns the stored attempt.

    Returns (attempt, created).
    """
    stored = attempt_store(
        learner=learner, revision=revision, nonce=nonce, answer=answer, language=language
    )
    return stored["attempt"], stored["created"]


def attempt_store(
    *,
    learner,
    revision: QuestionRevision,
    nonce: str,
    answer: dict,
    language: str,
    latest_seen: int | None = None,
) -> dict:
    """`attempt_record`, also returning the standing and review card it wrote (for a
    new attempt): {"attempt", "created", "standing", "card"}. `latest_seen`: the latest
    attempt the form showed; raises standings.AnsweredSince, storing nothing, when
    another has been stored since (a repeated nonce is still the stored attempt)."""
    result = revision.grade(keys=answer.get("keys", ()), text=graded_text(answer))
    attempt = Attempt(
        learner=learner,
        question_id=revision.question_id,
        revision=revision,
        token=nonce,
        answer=answer,
        correct=result.correct,
        score=result.score,
        partial=result.partial,
        feedback=grade_feedback(result),
        pattern=answer_pattern(answer, result),
        language=language,
        grader_version=GRADER_VERSION,
        doubts=doubts_column(result.doubts),
    )
    try:
        with transaction.atomic(using=router.db_for_write(Attempt)):
            attempt.save()
            standing = standing_add(attempt, latest_seen=latest_seen)
            card = review_card_feed(attempt=attempt)
            sql.write(Draft, _DRAFTS_DELETE, [learner.pk, revision.question_id])
    except IntegrityError:
        if (sent := attempt_sent(learner=learner, nonce=nonce)) is None:
            raise
        return sent
    return {"attempt": attempt, "created": True, "standing": standing, "card": card}


def attempt_sent(*, learner, nonce: str) -> dict | None:
    """The attempt a submission token already stored, as `attempt_store` returns a
    repeat of it; None when the token stored none."""
    existing = Attempt.objects.filter(token=nonce, learner=learner).first()
    if existing is None:
        return None
    return {"attempt": existing, "created": False, "standing": None, "card": None}
