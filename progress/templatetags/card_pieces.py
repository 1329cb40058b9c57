"""Pieces of the question card that depend only on immutable content.

A card's head (its code, title and prompt), an unanswered choice question's options
(the fieldset: keys, texts, inputs) and an untouched answer form's fields depend on
nothing but the question's code, the revision and the language, so they are rendered
once per revision and language and held in Django's cache (portal/caching.py). A
choice answer's feedback list depends besides only on the grading key and the picked
option keys, and is cached per those too. Nothing cached ever holds free text a learner
typed, a token or a CSRF value: the `<form>` with its CSRF and token lines is rendered
for each request around the cached fields; with a draft, an error or focus the fields are
rendered for the request too. The card of an untouched form is so put together by
`{% form_card %}`: its cached start (article, head, form tag), the request's CSRF and
token lines, the cached fields (start and fields are one entry) and the closing tags.
"""

from django import template
from django.template.loader import get_template
from django.urls import get_script_prefix
from django.utils import translation
from django.utils.html import format_html
from django.utils.safestring import mark_safe

from portal.caching import cached, template_hash
from quizzes.markup import RENDERER_VERSION

register = template.Library()

TEMPLATE = "progress/_question.html"
CHOICES = f"{TEMPLATE}#choices"
CHOICE_RESULT = f"{TEMPLATE}#choice-result"
FIELDS = f"{TEMPLATE}#answer-fields"
HEAD = f"{TEMPLATE}#card-head"
CARD_OPEN = f"{TEMPLATE}#form-card-open"


def _piece(partial: str, name: str, code: str, revision, context: dict, *extra) -> str:
    """`partial` rendered with `context` (content only), once per revision and language
    (and `extra`, more of what the piece shows)."""
    parts = _parts(name, code, revision, *extra)
    html = cached("card-piece", parts, lambda: get_template(partial).render(context))
    return mark_safe(html)  # noqa: S308 - rendered by our template from quiz content


def _parts(name: str, code: str, revision, *extra) -> tuple:
    """The key of a piece of `revision`'s card: what it depends on besides `extra`."""
    return (
        name,
        template_hash(TEMPLATE),  # the pieces' markup
        RENDERER_VERSION,  # the texts' Markdown, with the libraries' versions
        # The pieces print the question's code (heading, ids, labels); the content
        # hash does not cover it, and ids can name other rows in a database made
        # afresh, so both are part of the key.
        code,
        revision.question_id,
        revision.pk,
        revision.content_hash,
        translation.get_language(),
        get_script_prefix(),  # the reversed URLs in the pieces (the draft's)
        *extra,
    )


@register.simple_tag
def card_head(question):
    """The card's code, title and prompt, of the question's current revision."""
    revision = question.current_revision
    return _piece(
        HEAD, "head", question.code, revision, {"question": question, "revision": revision}
    )


@register.simple_tag(takes_context=True)
def form_card(context, state) -> str:
    """The card of an unanswered question whose form is untouched (no learner input,
    error, focus or out-of-band badge), as the template's question-card renders it: its
    cached start, this request's CSRF and token lines (escaped, never cached), the cached
    fields and the closing tags. "" when the card is the template's to render. Put
    together here, the five cards of a phase page skip ~0.4 ms of template work."""
    csrf = context.get("csrf_token")
    untouched = state.show_form and state.token and state.form_revision is None
    untouched = untouched and not (state.form_answer or state.error)
    if not untouched or context.get("focus") or context.get("badge_oob"):
        return ""
    if not csrf or csrf == "NOTPROVIDED":  # as {% csrf_token %} would print nothing
        return ""
    code, revision = state.question.code, state.revision
    # The start and the fields in one entry: one key to make and read a card, not two.
    start, fields = cached(
        "card-piece",
        _parts("form-card", code, revision, state.tries),
        lambda: (
            get_template(CARD_OPEN).render({"state": state}),
            get_template(FIELDS).render({"state": state}),
        ),
    )
    lines = format_html(
        '\n  <input type="hidden" name="csrfmiddlewaretoken" value="{}">'
        '\n  <input type="hidden" name="token" value="{}">',
        csrf,
        state.token,
    )
    if state.context:
        lines += format_html('\n  <input type="hidden" name="context" value="{}">', state.context)
    return mark_safe(f"{start}{lines}\n  {fields}\n</form>\n  </div>\n</article>")  # noqa: S308


@register.simple_tag
def choices_html(state, focus=False):
    """The options fieldset of `state`'s form: cached when it holds nothing but content."""
    if state.form_answer or state.error or focus:
        return get_template(CHOICES).render({"state": state, "focus": focus})
    return _piece(
        CHOICES, "choices", state.question.code, state.revision, {"state": state, "focus": False}
    )


@register.simple_tag
def answer_fields(state, focus=False):
    """The fields of `state`'s answer form (inputs, notes, button and tries): the form
    around them, with the token and CSRF value, is the request's. Untouched (no learner
    input, error, note or focus) they are the cached piece of their revision, language and
    tries: on a phase page of five questions that spares ~0.7 ms of template work."""
    if state.form_answer or state.error or focus:  # form_answer: kept, draft, prefill
        return get_template(FIELDS).render({"state": state, "focus": focus})
    return _piece(
        FIELDS, "fields", state.question.code, state.revision, {"state": state}, state.tries
    )


@register.simple_tag
def choice_result(state):
    """A choice question's feedback list (each option with its text, whether it was
    picked and whether it is right) and a multiple-answer question's partial score.
    They follow from the revision answered, the key that graded it (and whether it has
    been replaced since), and the picked keys
    (option keys of that revision, never free text), so they are cached per those and
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
        state.key_now is not None,  # a replaced key marks no option right
        state.partial,
        parts["right"],
        parts["wrong"],
    )


@register.simple_tag
def numeric_unit(revision) -> str:
    """A numeric question's unit in the active language, or ""."""
    return revision.unit(translation.get_language() or "en")


@register.filter
def isolated(text) -> str:
    """A learner's words quoted inside a sentence of ours, in a <bdi>: words in Arabic or
    Hebrew keep their own direction without turning the quote marks and brackets of the
    sentence round them (learner walk 37)."""
    return format_html("<bdi>{}</bdi>", text)


# Quote marks an instructor may already have put round a whole reason («…», “…”, "…",
# ‘…’, „…“, ‹…›): the reason is then shown as written, not quoted a second time.
QUOTE_PAIRS = ("«»", "“”", '""', "‘’", "„“", "‹›")


@register.filter
def self_quoted(text) -> bool:
    """Whether `text` starts and ends with one pair of quote marks."""
    text = str(text or "").strip()
    return len(text) >= 2 and any(text[0] + text[-1] == pair for pair in QUOTE_PAIRS)
