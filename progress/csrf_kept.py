"""What the page of an answer refused by Django's CSRF check shows (portal.errors)."""

from django.utils.translation import gettext as _

from .paging import again_href
from .phase_selectors import question_to_answer
from .services import answer_sent_text


def answer_csrf_kept(request, code: str) -> dict | None:
    """For an answer posted without htmx (no JavaScript, so no draft was saved while
    typing) by a page left open across a new login: the text the learner sent, to copy,
    and the way back to its question. None when there is nothing to show back."""
    question = question_to_answer(code)
    if question is None or question.is_retired:
        return None
    text = answer_sent_text(user=request.user, question=question, post=request.POST)
    if not text:
        return None
    return {
        "kept_text": text,
        "back_url": again_href(phase_number=question.phase.number, code=code),
        "back_label": _("Back to the question"),
    }
