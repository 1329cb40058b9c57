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
