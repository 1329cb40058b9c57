"""What a learner typed and has not sent, kept per question."""

from __future__ import annotations

from ..models import Draft


def draft_save(
    *, learner_id: int, question_id: int, answer: dict, logged_out: bool = False
) -> None:
    Draft.objects.update_or_create(
        learner_id=learner_id,
        question_id=question_id,
        logged_out=logged_out,
        defaults={"answer": answer},
    )
