"""Pieces of the question card that depend only on immutable content.

A card's head (its code, title and prompt), an unanswered choice question's options
(the fieldset: keys, texts, inputs) and an untouched answer form depend on nothing but
the question's code, the revision and the language, so they are rendered once per
revision and language and kept in Django's cache. A choice answer's feedback list
depends besides only on the grading key and the picked option keys, and is kept per
those too. Nothing kept ever holds free text a learner typed, a token or a CSRF value:
the form is kept with markers where its submission token and CSRF value go, filled in
for each request; with a draft, an error or focus it is rendered for the request.
"""

import hashlib
from copy import copy

from django import template
from django.core.cache import cache
from django.template.loader import get_template
from django.utils import translation
from django.utils.html import escape
from django.utils.safestring import mark_safe

from quizzes.markup import RENDERER_VERSION

register = template.Library()

CHOICES = "progress/_question.html#choices"
CHOICE_RESULT = "progress/_question.html#choice-result"
FORM = "progress/_question.html#question-form"
HEAD = "progress/_question.html#card-head"
VERSION = 5  # bump when a piece's markup changes
# Where a kept form's token and CSRF value go. With NULs, which no imported text can
# hold (the importer refuses them), so content never matches them; the same in every
# process, so a form kept in a cache that processes share is filled in by any of them.
_TOKEN = "\x00token\x00"  # noqa: S105 - a marker, not a secret
_CSRF = "\x00csrf\x00"
_local: dict[tuple, str] = {}  # in front of the cache: a per-process map of the same
_LOCAL_MAX = 4096


def _piece(partial: str, name: str, code: str, revision, context: dict, *extra) -> str:
    """`partial` rendered with `context` (content only), once per revision and language
    (and `extra`, more of what the piece shows)."""
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
        *extra,
    )
    html = _local.get(key)
    if html is None:
        # A digest: the parts hold what a cache backend may refuse in a key (spaces).
        cache_key = f"card-piece:{hashlib.blake2b(repr(key).encode(), digest_size=16).hexdigest()}"
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


@register.simple_tag(takes_context=True)
def answer_form(context, state, focus=False):
    """`state`'s answer form. The form reads `state`, `focus` and `csrf_token` only.
    Untouched (no learner input, error, note or focus) it is the kept piece of its
    revision, language, tries and context, with this request's token and CSRF value
    put in; on a phase page of five questions that spares ~0.7 ms of template work."""
    csrf = context.get("csrf_token")
    plain = not (state.form_answer or state.error or focus)  # form_answer: kept, draft
    if not plain or not csrf or str(csrf) == "NOTPROVIDED":
        return get_template(FORM).render({"state": state, "focus": focus, "csrf_token": csrf})
    marked = copy(state)
    marked.token = _TOKEN
    html = _piece(
        FORM,
        "form",
        state.question.code,
        state.revision,
        {"state": marked, "focus": False, "csrf_token": _CSRF},
        state.tries,
        state.context,
    )
    return mark_safe(  # noqa: S308 - the kept form, and two escaped values
        html.replace(_TOKEN, escape(state.token)).replace(_CSRF, escape(str(csrf)))
    )


@register.simple_tag
def choice_result(state):
    """A choice question's feedback list (each option with its text, whether it was
    picked and whether it is right) and a multiple-answer question's partial score.
    They follow from the revision answered, the key that graded it and the picked keys
    (option keys of that revision, never free text), so they are kept per those and
    the language: ~0.25 ms of template work a card."""
    attempt, graded, parts = state.latest, state.graded_revision, state.partial_parts
    return _piece(
        CHOICE_RESULT,
        "result",
        state.question.code,
        attempt.revision,
        {"state": state, "revision": attempt.revision},
        graded.pk,
        graded.content_hash,
        tuple(attempt.keys),
        state.partial,
        parts["right"],
        parts["wrong"],
    )


@register.simple_tag
def numeric_unit(revision) -> str:
    """A numeric question's unit in the active language, or ""."""
    return revision.unit(translation.get_language() or "en")
