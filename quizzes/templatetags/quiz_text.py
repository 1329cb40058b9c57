"""Template tags that show quiz content in the reader's language."""

from django import template
from django.utils import translation
from django.utils.html import format_html
from django.utils.safestring import mark_safe

from quizzes.markup import render_inline
from quizzes.models import localized

register = template.Library()


@register.simple_tag
def loc(texts: dict) -> str:
    """A localized text as safe inline HTML; a fallback to English is marked lang="en"
    so screen readers pronounce it right while the page around it stays Spanish."""
    language = translation.get_language() or "en"
    text, shown = localized(texts or {}, language[:2])
    html = mark_safe(render_inline(text))  # noqa: S308 - render_inline escapes all HTML
    if shown != language[:2]:
        return format_html('<span lang="{}">{}</span>', shown, html)
    return html


@register.simple_tag
def loc_plain(texts: dict) -> str:
    """A localized text as plain text (for attributes and titles), autoescaped."""
    language = translation.get_language() or "en"
    return localized(texts or {}, language[:2])[0]


@register.filter
def percent(value: float | None) -> str:
    if value is None:
        return "–"
    return f"{round(value * 100)}%"
