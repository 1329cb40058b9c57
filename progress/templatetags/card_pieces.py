"""Pieces of the question card that depend only on immutable content.

An unanswered choice question's options (the fieldset: keys, texts, inputs) depend on
nothing but the revision and the language, so they are rendered once per revision and
language and kept in Django's cache. Nothing here ever holds learner input, a token or
a CSRF value: with a draft, an error or focus, the fieldset is rendered for the request.
"""

from django import template
from django.core.cache import cache
from django.template.loader import get_template
from django.utils import translation
from django.utils.safestring import mark_safe

from quizzes.markup import RENDERER_VERSION

register = template.Library()

PARTIAL = "progress/_question.html#choices"
VERSION = 1  # bump when the fieldset's markup changes
_local: dict[tuple, str] = {}  # in front of the cache: a per-process map of the same
_LOCAL_MAX = 4096


@register.simple_tag(takes_context=True)
def choices_html(context, state, focus=False):
    """The options fieldset of `state`'s form: cached when it holds nothing but content."""
    if state.form_answer or state.error or focus:
        return get_template(PARTIAL).render({"state": state, "focus": focus})
    revision = state.revision
    language = translation.get_language()
    key = (
        "choices",
        VERSION,
        RENDERER_VERSION,  # the option texts' Markdown, with the libraries' versions
        state.question.code,
        revision.pk,
        revision.content_hash,
        language,
    )
    html = _local.get(key)
    if html is None:
        cache_key = ":".join(str(part) for part in key)
        html = cache.get(cache_key)
        if html is None:
            html = get_template(PARTIAL).render({"state": state, "focus": False})
            cache.set(cache_key, html, None)
        if len(_local) >= _LOCAL_MAX:
            _local.clear()
        _local[key] = html
    return mark_safe(html)  # noqa: S308 - rendered by our template from quiz content
