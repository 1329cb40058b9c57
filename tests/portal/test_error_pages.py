"""Our own error pages: 400, 403 (CSRF), 404, 405 and 500, as a page for a browser and
a fragment for htmx, in the reader's language, leading back where the reader was."""

import pytest
from django.test import Client
from django.utils import translation
from django.views.defaults import server_error

from teaching.models import Cohort
from tests.factories import UserFactory, answer

pytestmark = pytest.mark.django_db


@pytest.mark.parametrize(
    ("language", "text"), [("en", "Page not found"), ("es", "Página no encontrada")]
)
def test_404_is_our_page_in_the_learners_language(learner_client, language, text):
    learner_client.post("/language/", {"language": language, "next": "/"})

    response = learner_client.get("/no/such/page/")

    assert response.status_code == 404
    assert f"<h1>{text}</h1>" in response.content.decode()
    assert "Traceback" not in response.content.decode()


@pytest.mark.parametrize("url", ["/no/such/page/", "/phase/99/"])
def test_404_keeps_the_sites_header_for_a_learner(learner_client, url):
    response = learner_client.get(url)

    html = response.content.decode()
    assert response.status_code == 404
    assert '<nav aria-label="Main">' in html
    assert "My progress</a>" in html
    assert "Log out</button>" in html


def test_404_for_a_visitor_offers_the_language_switch_and_no_navigation(client):
    html = client.get("/no/such/page/").content.decode()

    assert "<h1>Page not found</h1>" in html
    assert 'name="language"' in html
    assert '<nav aria-label="Main">' not in html


@pytest.mark.parametrize(
    ("language", "text"), [("en", "Not a page to open"), ("es", "No es una página para abrir")]
)
def test_opening_a_form_only_address_is_our_405_page(
    learner_client, seeds_imported, language, text
):
    learner_client.post("/language/", {"language": language, "next": "/"})

    response = learner_client.get("/question/q-10-03/answer/")

    assert response.status_code == 405
    assert response["Allow"] == "POST"
    assert f"<h1>{text}</h1>" in response.content.decode()


def test_a_405_to_htmx_is_a_fragment(learner_client, seeds_imported):
    response = learner_client.get("/question/q-10-03/answer/", headers={"HX-Request": "true"})

    html = response.content.decode()
    assert response.status_code == 405
    assert "This address takes only what its page sends." in html
    assert "<html" not in html


def test_500_is_our_page_without_a_traceback(rf):
    with translation.override("en"):
        response = server_error(rf.get("/"))

    html = response.content.decode()
    assert response.status_code == 500
    assert "<h1>Something went wrong</h1>" in html
    assert "Traceback" not in html


def test_csrf_failure_is_our_page(learner):
    client = Client(enforce_csrf_checks=True)
    client.force_login(learner)

    # (The language switch and Log out offer their button again: test_header_forms_refused.)
    response = client.post("/time-zone/", {"time_zone": "Europe/Madrid"})

    html = response.content.decode()
    assert response.status_code == 403
    assert "<h1>The form expired</h1>" in html
    # Not an answer's form: the page does not speak of drafts (a login form said so).
    assert "Go back, reload the page and send it again." in html
    assert "draft" not in html


def test_csrf_failure_of_a_forged_answer_post_claims_no_draft(learner):
    """Without JavaScript no draft is saved: a refused answer whose text cannot be shown
    back (a token not this learner's) is told to go back, not that a draft was kept."""
    client = Client(enforce_csrf_checks=True)
    client.force_login(learner)

    response = client.post("/question/q-10-01/answer/", {"token": "t", "text": "my answer"})

    html = response.content.decode()
    assert response.status_code == 403
    assert "Go back, reload the page and send it again." in html
    assert "draft" not in html and "my answer" not in html


def _post_utf16_form(learner, **headers):
    """A form body in UTF-16, as an attacker's tool sends it, with a valid CSRF token."""
    client = Client(enforce_csrf_checks=True)
    client.force_login(learner)
    client.get("/")
    return client.post(
        "/language/",
        "language=es&next=/",
        content_type="application/x-www-form-urlencoded; charset=utf-16",
        HTTP_X_CSRFTOKEN=client.cookies["csrftoken"].value,
        **headers,
    )


def test_form_in_another_charset_is_a_400_with_our_page(learner):
    response = _post_utf16_form(learner)

    assert response.status_code == 400
    assert "<h1>Bad request</h1>" in response.content.decode()
    assert "frame-ancestors 'none'" in response["Content-Security-Policy"]


def test_unreadable_form_sent_by_htmx_is_a_400_fragment(learner):
    response = _post_utf16_form(learner, HTTP_HX_REQUEST="true")

    html = response.content.decode()
    assert response.status_code == 400
    assert "<html" not in html
    assert 'role="alert"' in html


def test_a_404_inside_the_admin_leads_back_to_the_admin(admin_client, learner_client):
    inside = admin_client.get("/admin/teaching/no-such-model/")
    outside = learner_client.get("/no/such/page/")

    assert inside.status_code == outside.status_code == 404
    assert '<a href="/admin/">Back to the admin</a>' in inside.content.decode()
    assert '<a href="/">Back to phases</a>' in outside.content.decode()


def test_a_405_inside_the_admin_promises_no_draft(admin_client, learner_client, seeds_imported):
    # An override's reason is not kept as a draft: the page must not say it is.
    cohort = Cohort.objects.create(name="Spring")
    ana = UserFactory(username="ana")
    cohort.learners.add(ana)
    attempt = answer(ana, "q-10-01", keys=["B"])
    inside = admin_client.get(f"/admin/teaching/cohort/{cohort.pk}/to-check/{attempt.pk}/confirm/")
    outside = learner_client.get("/question/q-10-03/answer/")

    assert inside.status_code == outside.status_code == 405
    assert "kept as a draft" not in inside.content.decode()
    assert '<a href="/admin/">Back to the admin</a>' in inside.content.decode()
    assert "kept as a draft" in outside.content.decode()


@pytest.mark.parametrize("path", ["/language/", "/logout/"])
def test_a_405_away_from_answers_promises_no_draft(learner_client, path):
    """The language switch or the logout opened by address keeps nothing: no draft."""
    response = learner_client.get(path)

    assert response.status_code == 405
    page = response.content.decode()
    assert "This address takes only what its page sends." in page
    assert "kept as a draft" not in page


def test_an_error_page_seen_logged_out_leads_to_the_login(db):
    """An expired login form (cookies cleared, then Log in) said "Back to phases", a
    page that only sends someone logged out to the login (UX walk 34)."""
    from django.test import Client

    browser = Client(enforce_csrf_checks=True)

    refused = browser.post("/login/", {"username": "ana", "password": "x"})
    missing = browser.get("/no/such/page/")

    assert refused.status_code == 403 and missing.status_code == 404
    for response in (refused, missing):
        assert '<a href="/login/">Log in</a>' in response.content.decode()
        assert "Back to phases" not in response.content.decode()


def test_the_500_page_renders_for_someone_logged_out_when_no_address_can_be_reversed(
    rf, monkeypatch
):
    """The error pages reverse their way back inside a guard, so that a 500 caused by the
    URLconf itself still renders; the login link for someone logged out was reversed
    outside it, and the 500 page raised in turn."""
    from django.contrib.auth.models import AnonymousUser
    from django.urls import NoReverseMatch

    from portal import errors

    def broken(*args, **kwargs):
        raise NoReverseMatch("the URLconf failed")

    monkeypatch.setattr(errors, "reverse", broken)
    request = rf.get("/phase/1/")
    request.user = AnonymousUser()

    response = errors.server_error(request)

    assert response.status_code == 500
    assert '<a href="/">Back to phases</a>' in response.content.decode()
