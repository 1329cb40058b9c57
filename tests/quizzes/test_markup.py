"""Quiz texts as CommonMark: safe HTML, highlighted code, cached once per revision."""

from io import StringIO
from pathlib import Path

import pytest
from django.core.cache import cache
from django.core.management import call_command
from django.template import Context, Template
from django.utils import translation

from portal.caching import front_clear
from quizzes import texts as texts_module
from quizzes.markup import (
    highlight,
    pygments_css,
    render_block,
    render_inline,
    render_phrasing,
)
from quizzes.models import Question
from quizzes.texts import RenderedText, revision_texts

REPO = Path(__file__).resolve().parents[2]
RICH = REPO / "tests" / "quizzes" / "data"
PYTHON = "```python\ndef f(x):\n    return x  # same\n```"
PYTHON_HTML = (
    '<span class="k">def</span><span class="w"> </span><span class="nf">f</span>'
    '<span class="p">(</span><span class="n">x</span><span class="p">):</span>\n'
    '    <span class="k">return</span> <span class="n">x</span>  '
    '<span class="c1"># same</span>\n'
)


def test_render_block_fenced_python_is_highlighted_and_keeps_lines():
    html = render_block(text=PYTHON)

    assert html == (
        f'<pre class="highlight language-python" tabindex="0"><code>{PYTHON_HTML}</code></pre>\n'
    )


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("```nosuchlang\na <b>\n```", "a &lt;b&gt;\n"),
        ("```\nplain <i>\n```", "plain &lt;i&gt;\n"),
        ("    indented\n      more", "indented\n  more\n"),
    ],
)
def test_render_block_unknown_or_no_language_is_plain_escaped_code(text, expected):
    html = render_block(text=text)

    assert html == f'<pre class="highlight" tabindex="0"><code>{expected}</code></pre>\n'


def test_render_block_paragraphs_lists_quotes_and_emphasis():
    html = render_block(text="One *a* `b`.\n\nTwo:\n\n- x\n- y\n\n> quoted")

    assert html == (
        "<p>One <em>a</em> <code>b</code>.</p>\n<p>Two:</p>\n<ul>\n<li>x</li>\n<li>y</li>\n"
        "</ul>\n<blockquote>\n<p>quoted</p>\n</blockquote>\n"
    )


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        (
            "[docs](https://docs.python.org/3/)",
            '<p><a href="https://docs.python.org/3/" rel="noopener noreferrer nofollow">'
            "docs</a></p>\n",
        ),
        (
            "[w](HTTP://example.org)",
            '<p><a href="HTTP://example.org" rel="noopener noreferrer nofollow">w</a></p>\n',
        ),
        (
            "<mailto:a@example.org>",
            '<p><a href="mailto:a@example.org" rel="noopener noreferrer nofollow">'
            "mailto:a@example.org</a></p>\n",
        ),
        ("[x](javascript:alert(1))", "<p>[x](javascript:alert(1))</p>\n"),
        ("[x](data:text/html,hi)", "<p>[x](data:text/html,hi)</p>\n"),
        ("[x](/admin/)", "<p>[x](/admin/)</p>\n"),
        ("[x](ftp://example.org)", "<p>[x](ftp://example.org)</p>\n"),
        (
            "![a chart](https://example.org/c.png)",
            '<p><a href="https://example.org/c.png" rel="noopener noreferrer nofollow">'
            "a chart</a></p>\n",
        ),
    ],
)
def test_render_block_links_only_http_https_mailto(text, expected):
    assert render_block(text=text) == expected


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("<script>alert(1)</script>", "<p>&lt;script&gt;alert(1)&lt;/script&gt;</p>\n"),
        ("<div>\nblock\n</div>", "<p>&lt;div&gt;\nblock\n&lt;/div&gt;</p>\n"),
        ('a <img src=x onerror="x()"> b', "<p>a &lt;img src=x onerror=&quot;x()&quot;&gt; b</p>\n"),
        ("so&shy;ft &lt;b&gt; &amp;", "<p>so\u00adft &lt;b&gt; &amp;</p>\n"),
    ],
)
def test_render_block_raw_html_is_text_and_entities_are_characters(text, expected):
    assert render_block(text=text) == expected


def test_render_block_table_aligns_with_classes_not_styles():
    html = render_block(text="| a | b |\n|:--|--:|\n| 1 | 2 |")

    assert html == (
        '<div class="md-table-wrap" tabindex="0"><table>\n<thead>\n<tr>\n'
        '<th class="md-align-left">a</th>\n<th class="md-align-right">b</th>\n</tr>\n'
        '</thead>\n<tbody>\n<tr>\n<td class="md-align-left">1</td>\n'
        '<td class="md-align-right">2</td>\n</tr>\n</tbody>\n</table></div>\n'
    )


def test_render_block_headings_become_paragraphs_outside_the_outline():
    assert render_block(text="# Big\n\nText") == ('<p class="md-heading">Big</p>\n<p>Text</p>\n')


def test_render_phrasing_single_paragraph_is_bare_inline_html():
    assert render_phrasing(text="It returns *nothing*.") == "It returns <em>nothing</em>."


def test_render_phrasing_code_block_is_a_code_element_valid_in_a_label():
    html = render_phrasing(text=PYTHON)

    assert html == f'<code class="highlight language-python md-pre">{PYTHON_HTML}</code>'


def test_render_phrasing_blocks_become_spans_with_roles():
    html = render_phrasing(text="Pick:\n\n3. one\n4. two\n\n- x\n\n---\n\n| a |\n|--:|\n| 1 |")

    assert html == (
        '<span class="md-p">Pick:</span>\n'
        '<span class="md-ol" role="list">\n'
        '<span class="md-li" role="listitem"><span class="md-n">3.</span> one</span>\n'
        '<span class="md-li" role="listitem"><span class="md-n">4.</span> two</span>\n'
        "</span>\n"
        '<span class="md-ul" role="list">\n<span class="md-li" role="listitem">x</span>\n'
        "</span>\n"
        '<span class="md-hr" role="separator"></span>\n'
        '<span class="md-table" role="table">\n<span class="md-thead" role="rowgroup">\n'
        '<span class="md-tr" role="row">\n'
        '<span class="md-align-right md-th" role="columnheader">a</span>\n</span>\n'
        '</span>\n<span class="md-tbody" role="rowgroup">\n<span class="md-tr" role="row">\n'
        '<span class="md-align-right md-td" role="cell">1</span>\n</span>\n</span>\n</span>'
    )
    for block in ("<p", "<ol", "<ul", "<li", "<hr", "<table", "<tr", "<td", "<pre", "<div"):
        assert block not in html


def test_render_inline_title_keeps_code_and_emphasis_and_escapes_html():
    assert render_inline(text="Why `x` *now* <b> &amp; [l](https://e.org)") == (
        "Why <code>x</code> <em>now</em> &lt;b&gt; &amp; [l](https://e.org)"
    )


def test_highlight_names_the_lexer_it_used():
    assert highlight(code="x = 1\n", language="py")[1] == "python"
    assert highlight(code="x = 1\n", language="Python")[1] == "python"
    assert highlight(code="<x>\n", language="no-such") == ("&lt;x&gt;\n", "")


def test_stylesheet_holds_the_pygments_token_colours():
    css = (REPO / "static" / "css" / "portal.css").read_text("utf-8")

    assert pygments_css().count("\n") == 60
    assert pygments_css() in css


# --- rendered once per revision and language ------------------------------------------


@pytest.fixture
def rich(db):
    cache.clear()
    front_clear()
    call_command("import_quizzes", str(RICH), stdout=StringIO())
    yield {q.code: q.current_revision for q in Question.objects.select_related("current_revision")}
    cache.clear()
    front_clear()


@pytest.fixture
def render_count(monkeypatch):
    calls = []
    real = texts_module.texts_render

    def counting(**kwargs):
        calls.append((kwargs["revision"].question.code, kwargs["language"]))
        return real(**kwargs)

    monkeypatch.setattr(texts_module, "texts_render", counting)
    return calls


def test_revision_texts_spanish_falls_back_per_field(rich):
    texts = revision_texts(revision=rich["q-90-02"], language="es")

    assert texts.title == RenderedText(html="Safe texts", language="en", fallback=True)
    assert texts.prompt.fallback is True
    assert texts.explanation == RenderedText(html="<p>Only A.</p>\n", language="en", fallback=True)
    spanish = revision_texts(revision=rich["q-90-01"], language="es")
    assert spanish.title.fallback is False
    assert [(key, text.fallback) for key, text in spanish.options] == [
        ("A", True),
        ("B", False),
        ("C", True),
        ("D", False),
    ]
    assert spanish.option("D").html == "No devuelve <em>nada</em>."


def test_revision_texts_renders_once_per_revision_and_language(rich, render_count):
    for _ in range(3):
        revision_texts(revision=rich["q-90-01"], language="en")
        revision_texts(revision=rich["q-90-01"], language="es")
    front_clear()  # another process: served from Django's cache
    revision_texts(revision=rich["q-90-01"], language="es-ar")

    assert render_count == [("q-90-01", "en"), ("q-90-01", "es")]


def test_revision_texts_unknown_language_reads_as_english(rich, render_count):
    texts = revision_texts(revision=rich["q-90-01"], language="fr")

    assert texts.language == "en"
    assert texts.title.fallback is False
    assert render_count == [("q-90-01", "en")]


def test_quiz_text_tag_marks_english_fallback_with_lang_and_flag(rich):
    template = Template(
        '{% load quiz_text %}{% quiz_text r "title" %}|{% quiz_text r "option" "A" %}|'
        '{% quiz_text r "option" "B" %}'
    )

    with translation.override("es"):
        html = template.render(Context({"r": rich["q-90-01"]}))

    title, option_a, option_b = html.split("|")
    assert title == '<span class="q-title">¿Qué devuelve <code>scale</code>?</span>'
    assert option_a == (
        '<span class="md-option" lang="en"><code class="highlight language-python md-pre">'
        '<span class="p">[</span><span class="mi">2</span><span class="p">,</span> '
        '<span class="mi">4</span><span class="p">]</span>\n</code></span> '
        '<span class="lang-flag" aria-hidden="true">EN</span>'
    )
    assert option_b == '<span class="md-option"><code>[1, 2, 1, 2]</code>, la lista repetida</span>'


def test_quiz_text_tag_prompt_fallback_flag_speaks_in_spanish(rich):
    template = Template('{% load quiz_text %}{% quiz_text r "prompt" %}')

    with translation.override("es"):
        html = template.render(Context({"r": rich["q-90-02"]}))

    assert html.startswith(
        '<span class="lang-flag"><span aria-hidden="true">EN</span>'
        '<span class="visually-hidden">(en inglés: aún sin traducir)</span></span>'
        '<div class="md prompt" lang="en"><p>Raw &lt;b&gt;HTML&lt;/b&gt;'
    )
    assert html.endswith("indented code block\n</code></pre>\n</div>")
