"""Red team 12: the answer's own CSRF refusal (`progress.views._answer_csrf_refused`)
gives the card its form back with what was sent, for the learner logged in now. On a
shared computer the post may come from a tab of the account logged in before: its text
must not land in the next account's form (to be read, or sent as theirs)."""

from django.test import Client

from progress.models import Attempt, Draft
from tests.factories import UserFactory
from tests.html import form_token_shown

HTMX = {"HX-Request": "true"}


def test_a_csrf_refused_post_of_another_account_is_not_shown_to_the_one_logged_in(
    seeds_imported,
):
    ana, bob = UserFactory(username="ana"), UserFactory(username="bob")
    browser = Client(enforce_csrf_checks=True)
    browser.force_login(ana)
    html = browser.get("/phase/10/").content.decode()
    token, csrf = form_token_shown(html, "q-10-03"), browser.cookies["csrftoken"].value
    # ana's tab stays open; bob logs in on the same browser (a new CSRF secret).
    browser.logout()
    browser.force_login(bob)
    browser.cookies["csrftoken"] = "y" * 32

    response = browser.post(
        "/question/q-10-03/answer/",
        {"token": token, "text": "ana's private answer", "csrfmiddlewaretoken": csrf},
        headers={**HTMX, "X-CSRFToken": csrf},
    )

    assert response.status_code == 403
    html = response.content.decode()
    assert "ana&#x27;s private answer" not in html and "ana's private answer" not in html
    # (UX walk 36) Said to ana, "This form was made for another account" named her own
    # form as someone else's: the message says what happened instead.
    assert "Another account has logged in on this browser since this page was opened" in html
    assert 'name="token"' not in html  # no form of bob's to send ana's text from
    assert Attempt.objects.count() == 0
    assert not Draft.objects.filter(learner=bob).exists()


def test_a_csrf_refused_post_of_ones_own_form_still_comes_back_with_its_text(
    seeds_imported, learner
):
    browser = Client(enforce_csrf_checks=True)
    browser.force_login(learner)
    token = form_token_shown(browser.get("/phase/10/").content.decode(), "q-10-03")
    browser.cookies["csrftoken"] = "z" * 32

    response = browser.post(
        "/question/q-10-03/answer/",
        {"token": token, "text": "my own answer"},
        headers={**HTMX, "X-CSRFToken": "stale" * 6 + "ab"},
    )

    assert response.status_code == 403
    assert ">\nmy own answer</textarea>" in response.content.decode()
