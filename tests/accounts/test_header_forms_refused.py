"""The header's Log out and language buttons on a page opened before a new login on the
same browser fail the CSRF check. The refusal said only "Go back, reload the page and send
it again", on a page with no header: a learner who asked to log out stayed logged in with
no button to do it (learner walk 37). It now offers the same button again, with a token
that passes, and says who is still logged in."""

import re

from django.contrib.auth import SESSION_KEY
from django.test import Client

from tests.factories import UserFactory


def _stale_browser(user) -> tuple[Client, str]:
    """A browser logged in as `user` and the CSRF token of a page opened before its
    latest login (the new login changed the browser's CSRF secret)."""
    browser = Client(enforce_csrf_checks=True)
    browser.force_login(user)
    browser.get("/progress/")
    stale = browser.cookies["csrftoken"].value
    browser.cookies["csrftoken"] = "n" * 32  # the secret the new login left
    return browser, stale


def _form(html: str, action: str) -> str:
    match = re.search(rf'<form [^>]*action="{re.escape(action)}".*?</form>', html, re.S)
    assert match, html
    return match.group(0)


def _fields(form: str) -> dict[str, str]:
    return dict(re.findall(r'<input type="hidden" name="([^"]+)" value="([^"]*)"', form))


def test_log_out_from_a_page_older_than_the_login_offers_log_out_again(db):
    ana = UserFactory(username="ana")
    browser, stale = _stale_browser(ana)

    refused = browser.post("/logout/", {"csrfmiddlewaretoken": stale})

    assert refused.status_code == 403
    html = refused.content.decode()
    assert "you are still logged in as ana" in html
    again = _fields(_form(html, "/logout/"))
    assert browser.session.get(SESSION_KEY)  # nothing was done
    response = browser.post("/logout/", again)
    assert response.status_code == 302
    assert SESSION_KEY not in browser.session


def test_the_language_switch_from_a_page_older_than_the_login_offers_it_again(db):
    ana = UserFactory(username="ana", profile="es")
    browser, stale = _stale_browser(ana)
    sent = {"csrfmiddlewaretoken": stale, "language": "en", "next": "/phase/10/?page=2"}

    refused = browser.post("/language/", sent)

    assert refused.status_code == 403
    html = refused.content.decode()
    form = _form(html, "/language/")
    assert '<button type="submit" name="language" value="en" lang="en">English</button>' in form
    again = _fields(form)
    assert again["next"] == "/phase/10/?page=2"
    ana.profile.refresh_from_db()
    assert ana.profile.language == "es"  # nothing was done
    response = browser.post("/language/", {**again, "language": "en"})
    assert response.status_code == 302
    assert response["Location"] == "/phase/10/?page=2"
    ana.profile.refresh_from_db()
    assert ana.profile.language == "en"


def test_a_language_that_is_not_offered_gets_no_button(db):
    browser, stale = _stale_browser(UserFactory(username="ana"))

    refused = browser.post("/language/", {"csrfmiddlewaretoken": stale, "language": "xx"})

    assert refused.status_code == 403
    assert 'action="/language/"' not in refused.content.decode()
