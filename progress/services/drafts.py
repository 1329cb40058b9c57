"""What a learner typed and has not sent, kept per question."""

from __future__ import annotations

from portal.invisible import visible

from ..models import Attempt, Draft


def draft_save(
    *, learner_id: int, question_id: int, answer: dict, logged_out: bool = False
) -> None:
    # One upsert: update_or_create reads, then inserts, and when a parallel request
    # (a repeat refused at the pace limit) inserted first and a stored answer cleared
    # that draft before the read again, it raised its IntegrityError, a 500 with the
    # text lost (red team round 22, PostgreSQL).
    Draft.objects.bulk_create(
        [
            Draft(
                learner_id=learner_id,
                question_id=question_id,
                logged_out=logged_out,
                answer=answer,
            )
        ],
        update_conflicts=True,
        unique_fields=["learner", "question", "logged_out"],
        update_fields=["answer", "updated_at"],
    )


def draft_from_refused(*, learner_id: int, question_id: int, answer: dict) -> None:
    """An answer the portal refused becomes the learner's draft, so a reload or another
    tab finds it; an empty one (the learner cleared the box and sent it) ends the draft
    instead, so the text they cleared does not come back."""
    if answer.get("text", "").strip() or answer.get("keys"):
        draft_save(learner_id=learner_id, question_id=question_id, answer=answer)
    else:
        Draft.objects.filter(
            learner_id=learner_id, question_id=question_id, logged_out=False
        ).delete()


def draft_overtaken(*, learner_id: int, nonce: str, text: str) -> bool:
    """Whether a draft is an earlier state of the answer its form already sent: htmx
    saves a draft 800 ms after the last key, and an answer sent just after it can be
    stored first. Kept, it brought the answered question back as a form saying "Your
    unsent answer was kept", and the learner sent it again. Words written on after the
    form's answer (its reply lost, the form still there) are kept."""
    sent = Attempt.objects.filter(token=nonce, learner_id=learner_id).values("answer").first()
    return sent is not None and sent["answer"].get("text", "").startswith(visible(text))
