"""Quiz texts with code, links and lists on the learner's pages: shown, valid, no leaks."""

import re
from io import StringIO
from pathlib import Path

import pytest
from django.core.management import call_command

from tests.html import article, vnu_available, vnu_problems

pytestmark = pytest.mark.django_db

RICH = Path(__file__).resolve().parents[1] / "quizzes" / "data"
EXPLANATIONS = ("The comprehension multiplies", "La comprensión multiplica", "Only A.")


@pytest.fixture
def rich(db):
    call_command("import_quizzes", str(RICH), stdout=StringIO())


@pytest.mark.parametrize("language", ["en", "es"])
def test_rich_phase_page_shows_code_but_never_the_explanation(rich, learner_client, language):
    learner_client.post("/language/", {"language": language, "next": "/"})

    html = learner_client.get("/phase/90/").content.decode()

    card = article(html, "q-90-01")
    code = '<pre class="highlight language-python" tabindex="0"><code><span class="k">def</span>'
    assert code in card
    assert re.search(
        r'<label for="q-90-01-A"><span class="key">A\.</span> <span class="md-option"( lang="en")?>'
        r'<code class="highlight language-python md-pre"><span class="p">\[</span>',
        card,
    )
    assert 'href="https://docs.python.org/3/tutorial/" rel="noopener noreferrer nofollow"' in card
    assert "<ul>" not in card
    for text in EXPLANATIONS:
        assert text not in html


@pytest.mark.parametrize(
    ("language", "expected"),
    [
        (
            "en",
            '<div class="md"><p>The comprehension multiplies each element, so '
            "<code>[1, 2]</code> becomes <code>[2, 4]</code>.</p>\n"
            "<p>Two things to remember:</p>\n<ul>\n<li><code>factor</code> defaults to 2;</li>",
        ),
        (
            "es",
            '<div class="md"><p>La comprensión multiplica cada elemento, así que '
            "<code>[1, 2]</code> pasa a <code>[2, 4]</code>.</p>\n"
            "<p>Dos cosas que recordar:</p>\n<ul>\n"
            "<li><code>factor</code> vale 2 por defecto;</li>",
        ),
    ],
)
def test_rich_feedback_shows_explanation_paragraphs_and_list(
    rich, learner_client, post_answer, language, expected
):
    learner_client.post("/language/", {"language": language, "next": "/"})

    html = post_answer("q-90-01", choice=["C"]).content.decode()

    assert "<html" not in html
    assert expected in html
    missed = '<li class="missed-key"><span class="key">A.</span> <span class="md-option'
    assert missed in html


@pytest.mark.skipif(
    not vnu_available(),
    reason="HTML validation skipped: set VNU_JAR to vnu.jar (npm vnu-jar)",
)
def test_rich_pages_are_valid_html(rich, learner_client, post_answer, tmp_path):
    files = []
    for language in ("en", "es"):
        learner_client.post("/language/", {"language": language, "next": "/"})
        before = tmp_path / f"before-{language}.html"
        before.write_bytes(learner_client.get("/phase/90/").content)
        post_answer("q-90-01", choice=["A"], htmx=False)
        post_answer("q-90-02", choice=["B"], htmx=False)
        after = tmp_path / f"after-{language}.html"
        after.write_bytes(learner_client.get("/phase/90/").content)
        files += [str(before), str(after)]
        explanations = re.findall(r'<div class="md"(?: lang="en")?>', after.read_text("utf-8"))
        assert len(explanations) == 2

    assert vnu_problems(files) == []
