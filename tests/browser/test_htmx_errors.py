"""Refusals sent by htmx stay inside the question card; an expired session goes to login."""

import re

import pytest
from playwright.sync_api import expect

from progress.models import Attempt
from quizzes.models import Question

from .helpers import PASSWORD, create_account

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

TEXTS = {
    "en": {
        "check": "Check answer",
        "out_of_date": "This form was out of date, so your answer was not sent.",
        "retired": "This question (q-10-01) has been retired",
        "expired": "Your session ended; your answer was kept.",
        "login": "Log in",
    },
    "es": {
        "check": "Comprobar respuesta",
        "out_of_date": "Este formulario estaba desactualizado, así que tu respuesta no se envió.",
        "retired": "Esta pregunta (q-10-01) se ha retirado",
        "expired": "Tu sesión terminó; tu respuesta se ha guardado.",
        "login": "Iniciar sesión",
    },
}


def _open_phase(page, site, language):
    create_account(page, site, username=f"err-{language}")
    if language == "es":
        page.get_by_role("button", name="Español").click()
    page.goto(site + "/phase/10/")


def _card_shows_only(page, code, message):
    body = page.locator(f"#{code}-body")
    body.get_by_text(re.compile(re.escape(message))).wait_for()
    assert page.locator("main").count() == 1
    assert page.locator("header").count() == 1
    assert body.locator("form").count() == 0


@pytest.mark.parametrize("language", ["en", "es"])
def test_refusal_by_htmx_leaves_one_message_inside_the_card(page, site, language):
    text = TEXTS[language]
    _open_phase(page, site, language)
    card = page.locator("#q-10-01")
    card.locator("input[type=radio]").first.check()
    Question.objects.filter(code="q-10-01").update(retired_at="2026-01-01T00:00Z")

    card.get_by_role("button", name=text["check"]).click()

    _card_shows_only(page, "q-10-01", text["retired"])


@pytest.mark.parametrize("language", ["en", "es"])
@pytest.mark.parametrize("fault", ["forged", "csrf"])
def test_an_unsendable_form_comes_back_with_the_answer_and_sends_the_second_time(
    page, site, language, fault
):
    text = TEXTS[language]
    _open_phase(page, site, language)
    card = page.locator("#q-10-03")
    card.locator("textarea").fill("an identity path keeps the gradient")
    if fault == "forged":
        card.locator("input[name=token]").evaluate("input => input.value = 'forged'")
    else:  # as after a new login in another tab: the page's CSRF token is stale
        page.locator("body").evaluate(
            "body => body.setAttribute('data-hx-headers', '{\"X-CSRFToken\": \"wrong\"}')"
        )
        card.locator("input[name=csrfmiddlewaretoken]").evaluate("input => input.value = 'x'")

    card.get_by_role("button", name=text["check"]).click()

    card.get_by_text(text["out_of_date"]).wait_for()
    assert card.locator("textarea").input_value() == "an identity path keeps the gradient"
    assert page.locator("main").count() == 1
    card.get_by_role("button", name=text["check"]).click()
    card.locator("section.feedback").wait_for()


@pytest.mark.parametrize("language", ["en", "es"])
def test_expired_session_goes_to_login_and_back_to_the_kept_answer(page, site, language):
    text = TEXTS[language]
    _open_phase(page, site, language)
    card = page.locator("#q-10-03")
    card.locator("textarea").fill("an identity path keeps the gradient")
    page.context.clear_cookies(name="sessionid")

    card.get_by_role("button", name=text["check"]).click()

    page.get_by_text(text["expired"]).wait_for()
    page.locator("input[name=username]").fill(f"err-{language}")
    page.locator("input[name=password]").fill(PASSWORD)
    page.locator("form button[type=submit]").last.click()
    page.wait_for_url(re.compile(r"/phase/10/#q-10-03$"))
    assert page.locator("#q-10-03 textarea").input_value() == (
        "an identity path keeps the gradient"
    )


def test_a_refusal_swapped_over_an_element_with_an_empty_style_breaks_no_csp(page, site):
    """An element whose style was set and cleared through the CSSOM carries style="";
    htmx's settle copied it onto the new element with setAttribute, an inline style the
    CSP refuses (the page fixture fails the test on any violation)."""
    _open_phase(page, site, "en")
    card = page.locator("#q-10-03")
    box = card.get_by_role("textbox")
    box.evaluate("el => { el.style.color = 'red'; el.style.color = ''; }")
    assert box.get_attribute("style") == ""

    card.get_by_role("button", name="Check answer").click()  # empty: a 422, swapped in

    card.get_by_text("Write an answer first.").wait_for()


def test_an_answer_too_large_to_read_leaves_its_text_in_the_box(page, site, settings):
    settings.DATA_UPLOAD_MAX_MEMORY_SIZE = 2**20  # 1 MB: a paste of megabytes, smaller
    _open_phase(page, site, "en")
    text = "identity " * 130_000
    box = page.locator("#q-10-03-text")
    box.fill(text)

    page.locator("#q-10-03").get_by_role("button", name="Check answer").click()

    page.get_by_text("What you sent is too large (over 1.0 MB): nothing was recorded.").wait_for()
    assert box.input_value() == text


def test_an_answer_too_large_sent_twice_shows_one_message(page, site, settings):
    """The message goes above the card's body, the text left in its box; a second send
    stacked a second message above the first."""
    settings.DATA_UPLOAD_MAX_MEMORY_SIZE = 2**20
    _open_phase(page, site, "en")
    card = page.locator("#q-10-03")
    card.locator("#q-10-03-text").fill("identity " * 130_000)
    button = card.get_by_role("button", name="Check answer")
    message = card.get_by_text("What you sent is too large (over 1.0 MB): nothing was recorded.")

    button.click()
    message.wait_for()
    expect(button).to_be_enabled()
    with page.expect_response("**/question/q-10-03/answer/"):
        button.click()
    expect(button).to_be_enabled()

    expect(message).to_have_count(1)


@pytest.mark.parametrize("fault", ["reply lost", "offline", "server error"])
def test_an_answer_whose_reply_never_came_says_so_and_sends_once_again(page, site, fault):
    """htmx swaps nothing on a network error or a 5xx: the card stayed as it was, the
    button back, without a word, as if the answer had been taken."""
    _open_phase(page, site, "en")
    card = page.locator("#q-10-03")
    card.locator("textarea").fill("an identity path keeps the gradient")

    def reply_lost(route):
        route.fetch()  # the portal stores the answer; its reply never reaches the page
        route.abort()

    def server_error(route):
        route.fulfill(status=502, body="Bad Gateway")

    if fault == "offline":
        page.context.set_offline(True)
    else:
        handler = reply_lost if fault == "reply lost" else server_error
        page.route("**/question/q-10-03/answer/", handler)
    card.get_by_role("button", name="Check answer").click()

    card.get_by_role("alert").get_by_text(
        "Your answer may not have reached the portal (a network or server problem)."
    ).wait_for()
    assert card.locator("textarea").input_value() == "an identity path keeps the gradient"
    page.context.set_offline(False)
    page.unroute("**/question/q-10-03/answer/")
    card.get_by_role("button", name="Check answer").click()
    card.locator("section.feedback").wait_for()
    assert Attempt.objects.filter(question__code="q-10-03").count() == 1
    assert card.get_by_role("alert").count() == 0


def test_the_answer_that_stands_is_quoted_as_spanish_quotes(page, site):
    """A form from a second tab comes back beside the answer sent from the first, quoted
    by a <q>: Chromium draws Spanish <q> with “ ”, where every Spanish message around it,
    such as the numeric refusal's «1,000», quotes with « »."""
    _open_phase(page, site, "es")
    second = page.context.new_page()
    second.goto(site + "/phase/10/")
    card = page.locator("#q-10-01")
    card.locator("input[type=radio]").first.check()
    card.get_by_role("button", name="Comprobar respuesta").click()
    card.locator("section.feedback").wait_for()

    stale = second.locator("#q-10-01")
    stale.locator("input[type=radio]").nth(1).check()
    stale.get_by_role("button", name="Comprobar respuesta").click()

    quote = stale.locator("p.error q")
    quote.wait_for()
    marks = quote.evaluate("q => getComputedStyle(q).quotes")
    assert marks == '"«" "»" "“" "”"'
