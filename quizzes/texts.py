"""A revision's texts rendered to HTML once per revision and language, then kept in
Django's cache (portal/caching.py)."""

from dataclasses import dataclass

from portal.caching import cached
from portal.languages import LANGUAGE_CODES

from .markup import RENDERER_VERSION, render_block, render_inline, render_phrasing
from .models import QuestionRevision, localized


@dataclass(frozen=True)
class RenderedText:
    html: str  # safe HTML
    language: str  # the language the text is in: the reader's, or "en" as a fallback
    fallback: bool  # True when the reader's language had no text and English is shown


@dataclass(frozen=True)
class RenderedTexts:
    """What a learner reads of a revision. The explanation is here too: templates
    must output it only in the feedback, after an answer."""

    language: str
    title: RenderedText  # inline HTML
    prompt: RenderedText | None  # block HTML; None when the question has no prompt
    options: tuple[tuple[str, RenderedText], ...]  # (key, phrasing HTML), file order
    explanation: RenderedText  # block HTML

    def option(self, key: str) -> RenderedText | None:
        return dict(self.options).get(key)


def _rendered(texts: dict[str, str], language: str, render) -> RenderedText:
    text, shown = localized(texts, language)
    return RenderedText(html=render(text=text), language=shown, fallback=shown != language)


def texts_render(*, revision: QuestionRevision, language: str) -> RenderedTexts:
    """Render every text of `revision` in `language` (no cache)."""
    return RenderedTexts(
        language=language,
        title=_rendered(revision.title_texts, language, render_inline),
        prompt=(
            _rendered(revision.prompt_texts, language, render_block) if revision.prompt_en else None
        ),
        options=tuple(
            (option["key"], _rendered(option["text"], language, render_phrasing))
            for option in revision.options
        ),
        explanation=_rendered(revision.explanation_texts, language, render_block),
    )


def revision_texts(*, revision: QuestionRevision, language: str) -> RenderedTexts:
    """The rendered texts of `revision` in `language` ("en" or "es"; anything else
    reads as English), computed once and then cached in Django's cache by content hash,
    renderer version and language: content never changes under a hash."""
    language = language[:2] if language[:2] in LANGUAGE_CODES else "en"
    if not revision.content_hash:
        # Only the importer writes revisions, always with a hash; without one there is
        # nothing safe to key a shared entry on.
        return texts_render(revision=revision, language=language)
    return cached(
        "quiz-texts",
        (RENDERER_VERSION, revision.content_hash, language),
        lambda: texts_render(revision=revision, language=language),
    )
