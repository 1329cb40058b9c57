"""Refusals sent by htmx stay inside the question card; an expired session goes to login."""

import re

import pytest

from quizzes.models import Question

from .helpers import PASSWORD, create_account

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

TEXTS = {
    "en": {
        "check": "Check answer",
        "forged": "This form is out of date",
        "retired": "This question has been retired",
        "csrf": "did not accept that form",
        "expired": "Your session expired; what you typed was kept.",
        "login": "Log in",
    },
    "es": {
        "check": "Comprobar respuesta",
        "forged": "Este formulario está desactualizado",
        "retired": "Esta pregunta se ha retirado",
        "csrf": "el portal no aceptó ese formulario",
        "expired": "Tu sesión caducó; lo que escribiste se ha guardado.",
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
@pytest.mark.parametrize("fault", ["forged", "retired", "csrf"])
def test_refusal_by_htmx_leaves_one_message_inside_the_card(page, site, language, fault):
    text = TEXTS[language]
    _open_phase(page, site, language)
    card = page.locator("#q-10-01")
    card.locator("input[type=radio]").first.check()
    if fault == "forged":
        card.locator("input[name=token]").evaluate("input => input.value = 'forged'")
    elif fault == "retired":
        Question.objects.filter(code="q-10-01").update(retired_at="2026-01-01T00:00Z")
    else:  # as after a new login in another tab: the page's CSRF token is stale
        page.locator("body").evaluate(
            "body => body.setAttribute('data-hx-headers', '{\"X-CSRFToken\": \"wrong\"}')"
        )
        card.locator("input[name=csrfmiddlewaretoken]").evaluate("input => input.value = 'x'")

    card.get_by_role("button", name=text["check"]).click()

    _card_shows_only(page, "q-10-01", text[fault])


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
