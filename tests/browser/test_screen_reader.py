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
