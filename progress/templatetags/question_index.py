"""The index of a phase's questions: one small link per question, with its state.

Built in Python, not with a template loop: at 740 questions the loop's tags cost more
than the rest of the page, and the links must stay a few dozen bytes each.
"""

from django import template
from django.utils.html import escape
from django.utils.safestring import SafeString, mark_safe
from django.utils.translation import gettext

from progress.phase_selectors import OPEN, RIGHT, WRONG, PhasePage

register = template.Library()


@register.simple_tag
def question_index(page: PhasePage) -> SafeString:
    """An `<ol>` of links, one per question: its number in the phase as text, its state
    as a class (colour and a ✓ / ✗ drawn by the stylesheet) and in its accessible name,
    which starts with the number shown, so "click 3" reaches it ("3 (q-10-03): right").
    A link to this page's question is an anchor; to another page's, a relative
    `?page=N#CODE`."""
    names = {OPEN: gettext("unanswered"), RIGHT: gettext("right"), WRONG: gettext("wrong")}
    classes = {OPEN: "", RIGHT: ' class="is-right"', WRONG: ' class="is-wrong"'}
    links = []
    for entry in page.index:
        code = escape(entry.code)
        here = entry.page == page.number
        href = f"#{code}" if here else f"?page={entry.page}#{code}"
        item = '<li class="here">' if here else "<li>"
        links.append(
            f'{item}<a href="{href}"{classes[entry.status]}'
            f' aria-label="{entry.number} ({code}): {escape(names[entry.status])}">'
            f"{entry.number}</a></li>"
        )
    return mark_safe(f'<ol class="question-index">{"".join(links)}</ol>')  # noqa: S308 escaped above
