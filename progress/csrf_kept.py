"""What the page of an answer refused by Django's CSRF check shows (portal.errors)."""

from django.utils.translation import gettext as _

from quizzes.models import Question

from .paging import again_href
from .services import answer_sent_text


def answer_csrf_kept(request, code: str) -> dict | None:
    """For an answer posted without htmx (no JavaScript, so no draft was saved while
    typing) by a page left open across a new login: the text the learner sent, to copy,
    and the way back to its question. None when there is nothing to show back."""
    question = Question.objects.active().select_related("phase").filter(code=code).first()
    if question is None:
        return None
    text = answer_sent_text(user=request.user, question=question, post=request.POST)
    if not text:
        return None
    return {
        "kept_text": text,
        "back_url": again_href(phase_number=question.phase.number, code=code),
        "back_label": _("Back to the question"),
    }
