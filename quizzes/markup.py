"""Safe rendering of quiz texts: CommonMark for prompts, options and explanations,
inline Markdown for titles, code blocks highlighted by Pygments.

Raw HTML in a quiz file is shown as text, never interpreted; entities such as `&shy;`
become the characters they name (CommonMark's rule), which is safe because the output
escapes every `<`, `>` and `&` again. Links keep only `http`, `https` and `mailto`.
Nothing here emits a `style` attribute: the Content-Security-Policy forbids them, so
table alignment and highlighting are CSS classes from static/css/portal.css.
"""

import hashlib
import re
from functools import lru_cache
from pathlib import Path

import markdown_it
import pygments
from markdown_it import MarkdownIt
from markdown_it.common.utils import escapeHtml
from markdown_it.token import Token
from pygments.formatters import HtmlFormatter
from pygments.lexers import get_lexer_by_name
from pygments.util import ClassNotFound

from portal.caching import cached

# Part of every cache key of rendered texts, so no process serves HTML from an older
# renderer: this module's source (what makes the HTML) and the versions of the two
# libraries, whose upgrades change the output too.
RENDERER_VERSION = "-".join(
    (
        hashlib.blake2b(Path(__file__).read_bytes(), digest_size=8).hexdigest(),
        f"md{markdown_it.__version__}",
        f"py{pygments.__version__}",
    )
)

LINK_REL = "noopener noreferrer nofollow"
_ALLOWED_LINK = re.compile(r"^(?:https?|mailto):", re.IGNORECASE)
_ALIGN = re.compile(r"text-align:(left|right|center)")
PYGMENTS_STYLE = "xcode"  # every colour reaches 4.5:1 on our code background
_FORMATTER = HtmlFormatter(nowrap=True, style=PYGMENTS_STYLE)

# Inside an option's <label> only phrasing content is valid HTML, so there each block
# becomes a <span> (or <code>) that CSS lays out as a block, with the ARIA role the
# block element would have had.
_PHRASING = {
    "p": ("md-p", None),
    "blockquote": ("md-blockquote", None),
    "ul": ("md-ul", "list"),
    "ol": ("md-ol", "list"),
    "li": ("md-li", "listitem"),
    "table": ("md-table", "table"),
    "thead": ("md-thead", "rowgroup"),
    "tbody": ("md-tbody", "rowgroup"),
    "tr": ("md-tr", "row"),
    "th": ("md-th", "columnheader"),
    "td": ("md-td", "cell"),
}


def _validate_link(url: str) -> bool:
    # Anything else (javascript:, data:, relative paths) leaves the link as plain text.
    return bool(_ALLOWED_LINK.match(url))


@lru_cache(maxsize=256)
def _lexer(language: str):
    try:
        return get_lexer_by_name(language)
    except ClassNotFound:
        return None


def highlight(*, code: str, language: str) -> tuple[str, str]:
    """HTML for a code block's text and the name of the language it was highlighted
    as; an unknown or missing language gives escaped plain text and ""."""
    lexer = _lexer(language.lower()) if language else None
    if lexer is None:
        return escapeHtml(code), ""
    return pygments.highlight(code, lexer, _FORMATTER), lexer.aliases[0]


def pygments_css() -> str:
    """The token colours static/css/portal.css must contain (a test compares them):
    Pygments' rules for our style, scoped to `.highlight`, without the ones for line
    numbers, highlighted lines and background, which we do not use or set ourselves."""
    rules = _FORMATTER.get_style_defs(".highlight").splitlines()
    return "\n".join(
        rule for rule in rules if rule.startswith(".highlight .") and " .hll " not in rule
    )


def _code(self, tokens: list[Token], idx: int, options, env: dict) -> str:
    token = tokens[idx]
    language = token.info.strip().split()[0] if token.info.strip() else ""
    html, shown = highlight(code=token.content, language=language)
    classes = f"highlight language-{shown}" if shown else "highlight"
    if env.get("phrasing"):
        return f'<code class="{classes} md-pre">{html}</code>\n'
    # tabindex: a block that scrolls sideways must be reachable by keyboard.
    return f'<pre class="{classes}" tabindex="0"><code>{html}</code></pre>\n'


def _link_open(self, tokens: list[Token], idx: int, options, env: dict) -> str:
    tokens[idx].attrSet("rel", LINK_REL)
    return self.renderToken(tokens, idx, options, env)


def _image(self, tokens: list[Token], idx: int, options, env: dict) -> str:
    # No pictures from other sites in a learner's page (the CSP blocks them anyway):
    # an image is shown as a link to it, named by its alt text.
    token = tokens[idx]
    alt = escapeHtml(self.renderInlineAsText(token.children or [], options, env))
    src = escapeHtml(token.attrGet("src") or "")
    return f'<a href="{src}" rel="{LINK_REL}">{alt or src}</a>'


def _hr(self, tokens: list[Token], idx: int, options, env: dict) -> str:
    if env.get("phrasing"):
        return '<span class="md-hr" role="separator"></span>\n'
    return "<hr>\n"


def _table_open(self, tokens: list[Token], idx: int, options, env: dict) -> str:
    if env.get("phrasing"):
        return self.renderToken(tokens, idx, options, env)
    return '<div class="md-table-wrap" tabindex="0"><table>\n'


def _table_close(self, tokens: list[Token], idx: int, options, env: dict) -> str:
    if env.get("phrasing"):
        return self.renderToken(tokens, idx, options, env)
    return "</table></div>\n"


def _list_item_open(self, tokens: list[Token], idx: int, options, env: dict) -> str:
    html = self.renderToken(tokens, idx, options, env)
    token = tokens[idx]
    if env.get("phrasing") and token.info:
        # An ordered list made of spans has no numbers of its own: write them.
        html += f'<span class="md-n">{escapeHtml(token.info + token.markup)}</span> '
    return html


def _build_block() -> MarkdownIt:
    md = MarkdownIt("commonmark", {"html": False, "xhtmlOut": False, "breaks": False})
    md.enable("table")
    md.validateLink = _validate_link
    for name, rule in {
        "fence": _code,
        "code_block": _code,
        "link_open": _link_open,
        "image": _image,
        "hr": _hr,
        "table_open": _table_open,
        "table_close": _table_close,
        "list_item_open": _list_item_open,
    }.items():
        md.add_render_rule(name, rule)
    return md


_block = _build_block()
_inline = MarkdownIt("zero", {"html": False}).enable(["backticks", "emphasis", "escape", "entity"])


def _adapt(tokens: list[Token], *, phrasing: bool) -> list[Token]:
    """Rewrite block tokens in place: no style attributes, headings kept out of the
    page's outline, and (for phrasing) spans instead of block elements."""
    for token in tokens:
        style = token.attrGet("style")
        if style:
            token.attrs.pop("style")
            if match := _ALIGN.search(str(style)):
                token.attrJoin("class", f"md-align-{match[1]}")
        if token.tag in ("h1", "h2", "h3", "h4", "h5", "h6"):
            # A heading inside a question would break the page's heading order.
            token.tag = "span" if phrasing else "p"
            if token.nesting == 1:
                token.attrJoin("class", "md-p md-heading" if phrasing else "md-heading")
        elif phrasing and token.tag in _PHRASING and token.type != "inline":
            css, role = _PHRASING[token.tag]
            token.tag = "span"
            if token.nesting == 1:
                token.attrJoin("class", css)
                if role:
                    token.attrSet("role", role)
                token.attrs.pop("start", None)
    return tokens


def render_block(*, text: str) -> str:
    """HTML block content (paragraphs, lists, code, tables…) for `text`; safe."""
    tokens = _adapt(_block.parse(text, {}), phrasing=False)
    return _block.renderer.render(tokens, _block.options, {})


def render_phrasing(*, text: str) -> str:
    """The same Markdown as `render_block`, as phrasing content that is valid inside a
    <label> (block elements become spans laid out by CSS). A single paragraph comes out
    as its bare inline HTML."""
    env = {"phrasing": True}
    tokens = _block.parse(text, env)
    if [t.type for t in tokens] == ["paragraph_open", "inline", "paragraph_close"]:
        return _block.renderer.render(tokens[1:2], _block.options, env)
    tokens = _adapt(tokens, phrasing=True)
    return _block.renderer.render(tokens, _block.options, env).strip()


def render_inline(*, text: str) -> str:
    """Inline HTML for a title: code spans, emphasis, escapes and entities; safe.
    Titles are quiz content, never learner input: the same few repeat on every page,
    so they are held in Django's cache."""
    return cached("inline", (RENDERER_VERSION, text), lambda: _inline.renderInline(text))
