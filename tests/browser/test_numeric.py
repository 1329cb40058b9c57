"""Answering a numeric question in a real browser, in English and in Spanish: an
ambiguous number refused with how to write it and the text kept, then the feedback in
the learner's number format."""

import os
import re
from io import StringIO
from pathlib import Path

import pytest
from django.core.management import call_command

from progress.models import Attempt

from .helpers import create_account

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

NUMERIC = Path(__file__).resolve().parents[1] / "quizzes" / "numeric"
SHOTS = os.environ.get("NUMERIC_SHOTS", "")  # a folder: save screenshots there


@pytest.fixture
def site(live_server):
    call_command("import_quizzes", str(NUMERIC), stdout=StringIO())
    return live_server.url


CASES = {
    "en": {
        "field": "Your answer (a number)",
        "check": "Check answer",
        "ambiguous": "“1,000” can be read two ways.",
        "answer": "13,5 GB",
        "verdict": "Right",
        "read": "Read as 13.5 GB.",
        "key": "The right answer: 14 GB ± 8% (from 12.88 GB to 15.12 GB).",
    },
    "es": {
        "field": "Tu respuesta (un número)",
        "check": "Comprobar respuesta",
        "ambiguous": "«1,000» se puede leer de dos maneras.",
        "answer": "2.8e1",
        "verdict": "No exactamente",
        "read": "Leído como 28 GB.",
        "key": "La respuesta correcta: 14 GB ± 8 % (de 12,88 GB a 15,12 GB).",
    },
}


@pytest.mark.parametrize("language", ["en", "es"])
def test_numeric_answer_in_the_browser(page, site, axe_check, language):
    labels = CASES[language]
    create_account(page, site)
    if language == "es":
        page.get_by_role("button", name="Español").click()
        page.locator("html[lang='es']").wait_for()
    page.goto(f"{site}/phase/91/")
    card = page.locator("#q-91-01")
    field = card.get_by_label(labels["field"])
    assert card.locator(".unit").inner_text() == "GB"
    axe_check(page, f"numeric form ({language})")

    field.fill("1,000")
    card.get_by_role("button", name=labels["check"]).click()
    card.get_by_role("alert").wait_for()

    assert labels["ambiguous"] in card.get_by_role("alert").inner_text()
    assert card.get_by_label(labels["field"]).input_value() == "1,000"
    assert card.get_by_label(labels["field"]).get_attribute("aria-invalid") == "true"
    assert Attempt.objects.count() == 0

    card.get_by_label(labels["field"]).fill(labels["answer"])
    card.get_by_role("button", name=labels["check"]).click()
    card.get_by_role("heading", name=labels["verdict"]).wait_for()

    text = " ".join(card.inner_text().split())
    assert labels["read"] in text
    assert labels["key"] in text
    assert Attempt.objects.get().answer["text"] == labels["answer"]
    axe_check(page, f"numeric feedback ({language})")
    if SHOTS:
        page.screenshot(path=str(Path(SHOTS) / f"numeric-{language}.png"), full_page=True)


def test_an_explanation_that_is_a_number_stays_inside_the_card_on_a_phone(
    live_server, page, tmp_path
):
    """Markdown reads a line such as "65504." as a list starting at 65504: its marker
    is wider than a list's indent and used to hang out of the card."""
    (tmp_path / "phase-92-max.yaml").write_text(
        "format: 1\nphase: 92\nslug: max\ntitle: {en: Max}\nquestions:\n"
        "  - id: q-92-01\n    kind: numeric\n    title: {en: fp16 max}\n"
        "    prompt: {en: The largest finite fp16 value?}\n    answer: 65504\n"
        '    explanation: {en: "65504."}\n',
        "utf-8",
    )
    call_command("import_quizzes", str(tmp_path), stdout=StringIO())
    create_account(page, live_server.url)
    page.set_viewport_size({"width": 360, "height": 740})
    page.goto(live_server.url + "/phase/92/")
    card = page.locator("#q-92-01")
    card.locator("input[name=text]").fill("65000")
    card.get_by_role("button", name="Check answer").click()

    listed = card.locator(".explanation ol")
    listed.wait_for()
    inside = listed.evaluate(
        "ol => getComputedStyle(ol).listStylePosition === 'inside' &&"
        " ol.getBoundingClientRect().left >="
        " ol.closest('.feedback').getBoundingClientRect().left"
    )

    assert inside


def huge_number_on_a_phone(page, site):
    """A new learner on a 360 px phone with 38 nines typed into q-91-01: its card."""
    create_account(page, site)
    page.set_viewport_size({"width": 360, "height": 740})
    page.goto(f"{site}/phase/91/")
    card = page.locator("#q-91-01")
    card.get_by_label("Your answer (a number)").fill("9" * 38)
    return card


def test_a_huge_number_read_back_stays_inside_the_card_on_a_phone(page, site):
    """A 38-digit answer is read back as one unbroken run of digits ("Read as
    99999…"): it used to run out of the card and make a phone's page scroll sideways,
    zoomed out, with Answer again no longer where the finger sees it. Every digit typed
    comes back (walk 36: it was rounded to 28, "100 000 000 …")."""
    card = huge_number_on_a_phone(page, site)

    card.get_by_role("button", name="Check answer").click()
    card.get_by_role("heading", name="Not quite").wait_for()

    read = card.locator(".numeric-read")
    assert read.inner_text().replace("\u00a0", "") == f"Read as {'9' * 38}GB."
    assert read.evaluate("p => p.scrollWidth <= p.clientWidth")
    assert page.evaluate("document.documentElement.scrollWidth") == 360


def test_a_huge_answer_that_stands_stays_inside_the_card_on_a_phone(page, site):
    """A refused answer brings the form back with the answer that stands, quoted: a
    long run of digits (or of letters, in a free answer) must wrap there too."""
    card = huge_number_on_a_phone(page, site)
    card.get_by_role("button", name="Check answer").click()
    card.get_by_role("link", name="Answer again").click()

    card.get_by_label("Your answer (a number)").fill("abc")
    card.get_by_role("button", name="Check answer").click()
    card.get_by_role("alert").wait_for()

    assert "9" * 38 in card.inner_text()
    assert page.evaluate("document.documentElement.scrollWidth") == 360


def test_a_numeric_draft_save_logs_no_htmx_error(page, site):
    """The number's box saves a draft as the text area does: without the text area's
    `hx-disabled-elt="unset"` it inherited the form's "find button[type='submit']",
    which finds nothing inside an input, and htmx logged an error on every save."""
    errors = []
    page.on("console", lambda m: errors.append(m.text) if m.type == "error" else None)
    create_account(page, site)
    page.goto(f"{site}/phase/91/")

    with page.expect_response(re.compile(r"/draft/$")) as saved:
        card = page.locator("#q-91-01")
        card.get_by_label("Your answer (a number)").press_sequentially("13,5", delay=20)

    assert saved.value.status == 204
    assert errors == []
