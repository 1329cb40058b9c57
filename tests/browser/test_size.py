"""Big course, small screens: a 740-question phase on a phone, in both languages."""

import re

import pytest
from django.contrib.auth import get_user_model

from tests.factories import answer

from .helpers import create_account

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

WORDS = {
    "en": {"right": "right", "wrong": "wrong", "open": "unanswered", "continue": "Continue"},
    "es": {
        "right": "correcta",
        "wrong": "incorrecta",
        "open": "sin responder",
        "continue": "Continuar",
    },
}


def _in_view(page, code: str) -> bool:
    """The card's top is on screen (where an anchor jump puts it)."""
    return page.evaluate(
        """code => { const box = document.getElementById(code).getBoundingClientRect();
                     return box.top >= -1 && box.top < window.innerHeight; }""",
        code,
    )


@pytest.mark.parametrize("language", ["en", "es"])
def test_phone_learner_continues_and_jumps_through_the_index_of_a_740_question_phase(
    browser, site, make_phase, axe_check, language
):
    codes = make_phase(740, number=30)
    words = WORDS[language]
    context = browser.new_context(viewport={"width": 390, "height": 844})
    page = context.new_page()
    create_account(page, site, f"big-{language}")
    if language == "es":
        page.get_by_role("button", name="Español").click()
    learner = get_user_model().objects.get(username=f"big-{language}")
    for code in codes[:40]:
        answer(learner, code, keys=["A"], text="zebraword")
    answer(learner, codes[39], keys=["B"])  # its latest answer is wrong

    page.goto(site + "/phase/30/")
    page.get_by_role("link", name=re.compile(rf"^{words['continue']}: \w+ 41$")).click()

    page.wait_for_url(re.compile(r"/phase/30/\?page=2#q-30-40$"))
    assert _in_view(page, "q-30-40")
    assert page.locator("#q-30-40 form.answer-form").is_visible()

    page.locator("details.index-box summary").click()
    index = page.get_by_role("navigation", name=re.compile("phase|fase"))
    assert index.get_by_role("link", name=f"1 (q-30-00): {words['right']}").is_visible()
    assert index.get_by_role("link", name=f"40 (q-30-39): {words['wrong']}").is_visible()
    assert page.evaluate("document.documentElement.scrollWidth") == 390
    axe_check(page, f"740-question phase, index open, {language}")
    index.get_by_role("link", name=f"701 (q-30-700): {words['open']}").click()

    page.wait_for_url(re.compile(r"/phase/30/\?page=29#q-30-700$"))
    assert _in_view(page, "q-30-700")
    assert page.locator("article.question").count() == 25
    context.close()


def test_next_question_after_a_pages_last_answer_opens_the_next_page(page, site, make_phase):
    make_phase(30, number=31)
    create_account(page, site, "pager")
    page.goto(site + "/phase/31/#q-31-24")
    card = page.locator("#q-31-24")

    card.get_by_label(re.compile("Alpha")).check()
    card.get_by_role("button", name="Check answer").click()
    card.get_by_role("link", name="Next question").click()

    page.wait_for_url(re.compile(r"/phase/31/\?page=2#q-31-25$"))
    assert _in_view(page, "q-31-25")


@pytest.mark.parametrize("language", ["en", "es"])
def test_home_with_95_phases_fits_one_desktop_screen(
    browser, site, make_phases, axe_check, language
):
    codes = make_phases(95, questions=4)
    context = browser.new_context(viewport={"width": 1280, "height": 900})
    page = context.new_page()
    create_account(page, site, f"many-{language}")
    if language == "es":
        page.get_by_role("button", name="Español").click()
    learner = get_user_model().objects.get(username=f"many-{language}")
    for phase in codes[:30]:
        for code in phase:
            answer(learner, code, keys=["A"], text="zebraword")
    answer(learner, codes[40][0], keys=["A"])

    page.goto(site + "/")

    assert page.evaluate("document.documentElement.scrollHeight") <= 900
    assert page.evaluate("document.documentElement.scrollWidth") == 1280
    last = page.get_by_role("link", name=re.compile(r"^(Phase|Fase) 95: "))
    assert last.bounding_box()["y"] + last.bounding_box()["height"] <= 900
    axe_check(page, f"home with 95 phases, {language}")
    page.get_by_role("link", name=re.compile(rf"^{WORDS[language]['continue']} · ")).click()
    page.wait_for_url(re.compile(r"/phase/41/#q-41-01$"))
    context.close()
