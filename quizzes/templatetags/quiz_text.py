"""Template tags that show quiz content in the reader's language."""

from django import template
from django.utils import translation
from django.utils.html import format_html
from django.utils.safestring import SafeString, mark_safe
from django.utils.translation import gettext as _

from portal.numbers import percent_text
from quizzes.markup import render_inline
from quizzes.models import QuestionRevision, localized, localized_now
from quizzes.texts import RenderedText, revision_texts

register = template.Library()


@register.simple_tag
def loc(texts: dict) -> str:
    """A localized text as safe inline HTML; a fallback to English is marked lang="en"
    so screen readers pronounce it right while the page around it stays Spanish."""
    language = translation.get_language() or "en"
    text, shown = localized(texts or {}, language[:2])
    html = mark_safe(render_inline(text=text))  # noqa: S308 - render_inline escapes all HTML
    if shown != language[:2]:
        return format_html('<span lang="{}">{}</span>', shown, html)
    return html


@register.simple_tag
def loc_plain(texts: dict) -> str:
    """A localized text as plain text (for attributes and titles), autoescaped."""
    return localized_now(texts or {})


def _flag(*, in_label: bool) -> SafeString:
    # Visible "EN" next to a text not translated yet. Inside an option's label it is
    # hidden from screen readers: lang="en" already switches their voice, and repeating
    # a sentence in every option's name would drown the options.
    if in_label:
        return mark_safe('<span class="lang-flag" aria-hidden="true">EN</span>')  # noqa: S308
    return format_html(
        '<span class="lang-flag"><span aria-hidden="true">EN</span>'
        '<span class="visually-hidden">{}</span></span>',
        _("(in English: not translated yet)"),
    )


def _shown(text: RenderedText, *, element: str, css: str, in_label: bool = False) -> str:
    html = mark_safe(text.html)  # noqa: S308 - quizzes.markup escapes all HTML
    lang = format_html(' lang="{}"', text.language) if text.fallback else ""
    wrapped = format_html('<{} class="{}"{}>{}</{}>', element, css, lang, html, element)
    if not text.fallback:
        return wrapped
    if element == "div":
        # Above a block text, where it reads as its label, not after its last line.
        return format_html("{}{}", _flag(in_label=in_label), wrapped)
    return format_html("{} {}", wrapped, _flag(in_label=in_label))


@register.simple_tag
def quiz_text(revision: QuestionRevision, field: str, key: str = "") -> str:
    """One rendered text of `revision` in the reader's language: "title" (inline),
    "prompt" or "explanation" (block HTML in a div), or "option" with its key (phrasing
    HTML, valid inside a label). A text shown in English on a Spanish page is marked
    lang="en" with a small visible EN flag. Rendered once per revision and language."""
    texts = revision_texts(revision=revision, language=translation.get_language() or "en")
    if field == "title":
        return _shown(texts.title, element="span", css="q-title")
    if field == "option":
        option = texts.option(key)
        if option is None:
            return ""
        return _shown(option, element="span", css="md-option", in_label=True)
    if field == "prompt":
        return _shown(texts.prompt, element="div", css="md prompt") if texts.prompt else ""
    if field == "explanation":
        return _shown(texts.explanation, element="div", css="md")
    raise template.TemplateSyntaxError(f"quiz_text: no text field {field!r}")


@register.filter
def percent(value: float | None) -> str:
    """A share as a whole percentage in the reader's way, halves rounded up (12.5 % is
    "13%", not the "12%" of round()'s halves to even)."""
    if value is None:
        return "–"
    return percent_text(share=value)
