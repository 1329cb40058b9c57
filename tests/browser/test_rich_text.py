"""Quiz texts with code, links and lists, read in a real browser at phone width."""

import os
import re
from io import StringIO
from pathlib import Path

import pytest
from django.core.management import call_command

from .helpers import create_account

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

RICH = Path(__file__).resolve().parents[1] / "quizzes" / "data"
PHONE = {"width": 375, "height": 800}
SHOTS = os.environ.get("RICH_TEXT_SHOTS", "")  # a folder: save screenshots there


@pytest.fixture
def site(live_server):
    call_command("import_quizzes", str(RICH), stdout=StringIO())
    return live_server.url


def shot(page, name: str) -> None:
    if SHOTS:
        page.screenshot(path=str(Path(SHOTS) / f"{name}.png"), full_page=True)


LABELS = {
    "en": {"check": "Check answer", "right": "Right", "explanation": "Two things to remember:"},
    "es": {
        "check": "Comprobar respuesta",
        "right": "Correcto",
        "explanation": "Dos cosas que recordar:",
    },
}


@pytest.mark.parametrize("language", ["en", "es"])
def test_rich_text_reads_right_on_a_phone(page, site, axe_check, language):
    labels = LABELS[language]
    create_account(page, site)
    if language == "es":
        page.get_by_role("button", name="Español").click()
        page.locator("html[lang='es']").wait_for()
    page.set_viewport_size(PHONE)
    page.goto(f"{site}/phase/90/")
    card = page.locator("#q-90-01")

    # The prompt's code keeps its lines and indentation, highlighted, and scrolls
    # inside its box instead of widening the page.
    prompt_code = card.locator("pre.language-python")
    assert prompt_code.inner_text() == (
        "def scale(xs, factor=2):\n"
        "    # multiply every element\n"
        "    return [x * factor for x in xs]\n"
    )
    assert prompt_code.locator(".k").first.evaluate("e => getComputedStyle(e).color") == (
        "rgb(169, 13, 145)"
    )
    assert page.evaluate("document.documentElement.scrollWidth") == PHONE["width"]
    link = card.get_by_role("link", name=re.compile("Python"))
    assert link.get_attribute("href") == "https://docs.python.org/3/tutorial/"
    assert link.get_attribute("rel") == "noopener noreferrer nofollow"
    # The option that is a code block is one choice: its radio is named by key and code.
    option = card.get_by_role("radio", name=re.compile(r"^A\. \[2, 4\]"))
    assert option.is_visible()
    assert card.get_by_role("radio").count() == 4
    assert card.get_by_text("Two things to remember").count() == 0
    assert card.get_by_text("Dos cosas que recordar").count() == 0
    shot(page, f"rich-{language}-question")
    axe_check(page, f"rich text {language}, unanswered")

    card.locator("code.md-pre").first.click()  # a click on the code picks the option
    assert option.is_checked()
    card.get_by_role("button", name=labels["check"]).click()
    card.get_by_role("heading", name=labels["right"]).wait_for()

    explanation = card.locator(".explanation")
    assert explanation.locator("p").count() == 2
    assert explanation.locator("p").nth(1).inner_text() == labels["explanation"]
    assert explanation.locator("li").count() == 2
    assert explanation.locator("li code").first.inner_text() == "factor"
    assert page.evaluate("document.documentElement.scrollWidth") == PHONE["width"]
    shot(page, f"rich-{language}-answered")
    axe_check(page, f"rich text {language}, answered")
