"""A page address in a header that no browser sends ("http://[", an unclosed IPv6 host)
is read as no page: the response is the one the request earns (404, 405, 403, a login),
never a 500."""

import pytest
from django.test import Client

pytestmark = pytest.mark.django_db
BROKEN = "http://["


def test_htmx_request_for_a_missing_page_is_a_404(learner_client):
    response = learner_client.get(
        "/phase/999/", headers={"HX-Request": "true", "HX-Current-URL": BROKEN}
    )

    assert response.status_code == 404


def test_htmx_request_with_the_wrong_method_is_a_405(learner_client):
    response = learner_client.get(
        "/language/", headers={"HX-Request": "true", "HX-Current-URL": BROKEN}
    )

    assert response.status_code == 405


def test_csrf_failure_is_a_403(learner):
    client = Client(enforce_csrf_checks=True)
    client.force_login(learner)

    response = client.post(
        "/language/",
        {"language": "es"},
        headers={"HX-Request": "true", "HX-Current-URL": BROKEN, "Referer": BROKEN},
    )

    assert response.status_code == 403


def test_anonymous_htmx_request_is_sent_to_log_in_from_the_home_page(client):
    response = client.get("/progress/", headers={"HX-Request": "true", "HX-Current-URL": BROKEN})

    assert response.status_code == 200
    assert response.headers["HX-Redirect"].endswith("?next=%2F&reason=expired")


def test_admin_form_after_the_session_ended_goes_back_to_the_admin_index(client):
    response = client.post("/admin/auth/user/add/", {"username": "x"}, headers={"Referer": BROKEN})

    assert response.status_code == 302
    assert response.url.endswith("?next=/admin/")


@pytest.mark.parametrize("path", ["//evil.example/x", "/\\evil.example/x", "///evil.example"])
def test_a_page_address_naming_another_site_is_read_as_no_page(learner_client, client, path):
    """A browser reads "//host/…" (and "/\\host/…") as another site: the fragment's reload
    and log-in links must not lead there (red team 17)."""
    headers = {"HX-Request": "true", "HX-Current-URL": f"http://testserver{path}"}

    missing = learner_client.get("/phase/999/", headers=headers).content.decode()
    # The refused answer of a logged-out visitor, whose fragment links to the login.
    logged_out = client.post("/question/q-10-01/answer/", headers=headers).content.decode()

    assert missing.count('href="/"') and "evil.example" not in missing
    assert "evil.example" not in logged_out


@pytest.mark.parametrize("current", [None, "/phase/10/", "http://evil.example/x"])
def test_htmx_request_for_a_host_not_served_is_a_400_fragment(client, current):
    """A Host outside ALLOWED_HOSTS (a scanner, a proxy misconfigured) is a 400; reading
    the page address against that host made the 400 view fail, and the 500 view after
    it: the server's own bare error, not ours."""
    headers = {"HX-Request": "true"} | ({"HX-Current-URL": current} if current else {})

    response = client.get("/", headers=headers, HTTP_HOST="not-served.example")

    html = response.content.decode()
    assert response.status_code == 400
    assert "The portal could not understand that request." in html
    assert "<html" not in html and "evil.example" not in html
