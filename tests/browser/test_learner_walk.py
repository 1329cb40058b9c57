"""What a new learner met on a walk round the portal (UX walk 34), in a real browser."""

import re

import pytest
from playwright.sync_api import expect

from .helpers import create_account

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


def test_my_progress_chart_table_fits_a_320px_window_in_spanish(browser, site, axe_check):
    """At 400 % zoom (a 320 CSS px window) the activity chart's table, opened, had its
    Spanish headers ("Respuestas", "Acertadas") side by side: 332 px wide, the page
    scrolled sideways and "Acertadas" was cut at the edge. It stacks as the other
    tables of the page do."""
    context = browser.new_context(viewport={"width": 320, "height": 740})
    page = context.new_page()
    create_account(page, site, "narrow")
    page.get_by_role("button", name="Español").click()
    page.goto(site + "/phase/10/")
    page.locator("#q-10-01 input[name=choice]").first.check()
    page.locator("#q-10-01 button[type=submit]").click()
    page.locator("#q-10-01 .feedback").wait_for()

    page.goto(site + "/progress/")
    page.get_by_text("El gráfico como tabla").click()

    box = page.locator(".activity-text table").bounding_box()
    assert box["x"] + box["width"] <= 320
    assert page.evaluate("document.documentElement.scrollWidth") == 320
    axe_check(page, "/progress/ es at 320 px, the chart's table open")
    context.close()


def test_options_picked_and_not_sent_survive_the_language_switch(page, site):
    """A learner halfway through a multiple-answer question switched to Español: the
    page came back in Spanish with every box unticked, as a typed answer never is."""
    create_account(page, site, "picker")
    page.goto(site + "/phase/10/#q-10-02")
    page.locator("#q-10-01-B").check()
    page.locator("#q-10-02-A").check()
    page.locator("#q-10-02-C").check()

    page.get_by_role("button", name="Español").click()

    expect(page.locator("html")).to_have_attribute("lang", "es")
    expect(page.locator("#q-10-01-B")).to_be_checked()
    expect(page.locator("#q-10-02-A")).to_be_checked()
    expect(page.locator("#q-10-02-C")).to_be_checked()
    expect(page.locator("#q-10-02-B")).not_to_be_checked()
    page.locator("#q-10-02 button[type=submit]").click()
    expect(page.locator("#q-10-02 .options-result .right-pick")).to_have_count(2)


def test_answer_again_then_the_language_switch_keeps_the_form_and_its_picks(page, site):
    """Answer again, a new pick, then Español: the page came back with the earlier
    answer's feedback, the form and the pick gone. The address now names the form
    (?again=, as without JavaScript) until the answer is sent."""
    create_account(page, site, "again-switch")
    page.goto(site + "/phase/10/#q-10-01")
    card = page.locator("#q-10-01")
    page.locator("#q-10-01-A").check()
    card.get_by_role("button", name="Check answer").click()
    card.get_by_role("link", name="Answer again").click()
    page.locator("#q-10-01-B").check()

    page.get_by_role("button", name="Español").click()

    expect(page.locator("html")).to_have_attribute("lang", "es")
    expect(page.locator("#q-10-01-B")).to_be_checked()
    card.get_by_role("button", name="Comprobar respuesta").click()
    expect(card.get_by_role("heading", name=re.compile("Correcto"))).to_be_visible()
    expect(page).to_have_url(re.compile(r"/phase/10/#q-10-01$"))
    page.reload()
    expect(card.get_by_role("heading", name=re.compile("Correcto"))).to_be_visible()
