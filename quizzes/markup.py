"""Safe rendering of the inline Markdown used in quiz texts.

Only code spans, emphasis and backslash escapes are recognised; raw HTML in a quiz file
is shown as text, never interpreted.
"""

from functools import lru_cache

from markdown_it import MarkdownIt

_md = MarkdownIt("zero", {"html": False}).enable(["backticks", "emphasis", "escape"])


@lru_cache(maxsize=8192)
def render_inline(text: str) -> str:
    """HTML for `text`; safe to mark safe. Cached: revisions never change."""
    return _md.renderInline(text)
