"""What a screen reader says after an htmx swap: each swap moves the focus to what it
brought (the verdict's heading, the form's first field, the error), and the focus is
what gets read. A live region around the card's body made it read a second time: the
verdict once as the focused heading, then the whole feedback, explanation included,
again as a polite announcement (the form's every option after "Answer again")."""

import pytest
from playwright.sync_api import expect

from .helpers import create_account

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

# The live regions (explicit or by role) that hold the focused element, innermost first.
LIVE_AROUND_FOCUS = """() => {
  const live = [];
  for (let e = document.activeElement; e; e = e.parentElement) {
    const role = e.getAttribute("role");
    const polite = (e.getAttribute("aria-live") || "off") !== "off";
    if (polite || ["alert", "status", "log"].includes(role))
      live.push(e.tagName + "#" + e.id + " " + (e.getAttribute("aria-live") || role));
  }
  return live;
}"""


@pytest.mark.parametrize("language", ["en", "es"])
def test_each_htmx_swap_is_read_once_through_the_focus(page, site, language):
    create_account(page, site, f"reader-{language}")
    if language == "es":
        page.get_by_role("button", name="Español").click()
        expect(page.locator("html")).to_have_attribute("lang", "es")
    page.goto(site + "/phase/10/")
    card = page.locator("#q-10-01")

    card.locator("input[name=choice]").first.check()
    card.locator("button[type=submit]").click()
    expect(page.locator("#q-10-01-result")).to_be_focused()
    assert page.evaluate(LIVE_AROUND_FOCUS) == []

    card.locator(".feedback .actions a").first.click()  # "Answer again"
    expect(card.locator("input[name=choice]").first).to_be_focused()
    assert page.evaluate(LIVE_AROUND_FOCUS) == []

    # An error is the one thing announced as such: its own alert, nothing around it.
    page.locator("#q-10-03 button[type=submit]").click()
    expect(page.locator("#q-10-03-error")).to_be_focused()
    assert page.evaluate(LIVE_AROUND_FOCUS) == ["P#q-10-03-error alert"]


def test_a_review_card_is_described_by_its_position(page, site):
    """On the reviews page the focus goes to the card (on arrival, after "Next review"),
    which a screen reader reads by its title: "Review 2 of 2" above it, which a sighted
    learner sees, went unsaid. The card is described by it."""
    from datetime import timedelta

    import time_machine
    from django.utils import timezone

    create_account(page, site, "reader-reviews")
    page.goto(site + "/phase/10/")
    for code in ("q-10-01", "q-10-02"):  # the first option of each is wrong
        card = page.locator(f"#{code}")
        card.locator("input[name=choice]").first.check()
        card.locator("button[type=submit]").click()
        card.get_by_role("heading", name="Not quite").wait_for()

    with time_machine.travel(timezone.now() + timedelta(days=1, minutes=1)):
        page.goto(site + "/reviews/")
        card = page.locator("article.question")
        expect(card).to_be_focused()
        expect(card).to_have_accessible_description("Review 1 of 2")

        card.locator("input[name=choice]").first.check()
        card.locator("button[type=submit]").click()
        card.locator(".feedback a[data-next]").click()
        page.get_by_text("Review 2 of 2").wait_for()
        card = page.locator("article.question")
        expect(card).to_be_focused()
        expect(card).to_have_accessible_description("Review 2 of 2")
