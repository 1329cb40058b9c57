"""Pieces of the question card that depend only on immutable content.

A card's head (its code, title and prompt) and an unanswered choice question's options
(the fieldset: keys, texts, inputs) depend on nothing but the question's code, the
revision and the language, so they are rendered once per revision and language and
kept in Django's cache. Nothing here ever holds learner input, a token or a CSRF
value: with a draft, an error or focus, the fieldset is rendered for the request.
"""

from django import template
from django.core.cache import cache
from django.template.loader import get_template
from django.utils import translation
from django.utils.safestring import mark_safe

from quizzes.markup import RENDERER_VERSION

register = template.Library()

CHOICES = "progress/_question.html#choices"
HEAD = "progress/_question.html#card-head"
VERSION = 3  # bump when a piece's markup changes
_local: dict[tuple, str] = {}  # in front of the cache: a per-process map of the same
_LOCAL_MAX = 4096


def _piece(partial: str, name: str, code: str, revision, context: dict) -> str:
    """`partial` rendered with `context` (content only), once per revision and language."""
    key = (
        name,
        VERSION,
        RENDERER_VERSION,  # the texts' Markdown, with the libraries' versions
        # The pieces print the question's code (heading, ids, labels); the content
        # hash does not cover it, and ids can name other rows in a database made
        # afresh, so both are part of the key.
        code,
        revision.question_id,
        revision.pk,
        revision.content_hash,
        translation.get_language(),
    )
    html = _local.get(key)
    if html is None:
        cache_key = ":".join(str(part) for part in key)
        html = cache.get(cache_key)
        if html is None:
            html = get_template(partial).render(context)
            cache.set(cache_key, html, None)
        if len(_local) >= _LOCAL_MAX:
            _local.clear()
        _local[key] = html
    return mark_safe(html)  # noqa: S308 - rendered by our template from quiz content


@register.simple_tag
def card_head(question):
    """The card's code, title and prompt, of the question's current revision."""
    revision = question.current_revision
    return _piece(
        HEAD, "head", question.code, revision, {"question": question, "revision": revision}
    )


@register.simple_tag
def choices_html(state, focus=False):
    """The options fieldset of `state`'s form: cached when it holds nothing but content."""
    if state.form_answer or state.error or focus:
        return get_template(CHOICES).render({"state": state, "focus": focus})
    return _piece(
        CHOICES, "choices", state.question.code, state.revision, {"state": state, "focus": False}
    )
