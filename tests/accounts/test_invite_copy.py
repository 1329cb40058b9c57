"""The admin's one-time invite link: plain text to select, and a copy button made by a
static script (no inline script: the CSP forbids it)."""

import re

import pytest

from tests.factories import UserFactory

pytestmark = pytest.mark.django_db


def test_invite_link_message_carries_a_copy_slot_and_the_script(admin_client):
    response = admin_client.post("/admin/accounts/invite/add/", {"note": "spring"}, follow=True)

    html = response.content.decode()
    match = re.search(
        r"Invite link \(shown only now, valid for 7 days\): (http://\S+/invite/\S+/) "
        r'<span class="copy-slot" data-copy-text="([^"]+)" data-copy-label="Copy link" '
        r'data-copied-label="Copied." data-copy-fallback="Selected: press Ctrl\+C \(⌘C\) to copy.">'
        r"</span>",
        html,
    )
    assert match is not None
    assert match.group(1) == match.group(2)
    assert '<script src="/static/js/copy.js"></script>' in html
    assert "<script>" not in html


def test_invite_add_page_loads_the_copy_script(admin_client):
    response = admin_client.get("/admin/accounts/invite/add/")

    assert '<script src="/static/js/copy.js"></script>' in response.content.decode()


def test_a_new_password_link_is_shown_once_with_its_copy_button(admin_client):
    ana = UserFactory(username="ana")

    response = admin_client.post("/admin/accounts/passwordlink/add/", {"user": ana.pk}, follow=True)

    html = response.content.decode()
    match = re.search(
        r"New-password link for ana \(shown only now, valid for 24 hours\): "
        r'(http://\S+/password/new/\S+/) <span class="copy-slot" data-copy-text="([^"]+)"',
        html,
    )
    assert match is not None
    assert match.group(1) == match.group(2)
    assert '<script src="/static/js/copy.js"></script>' in html


@pytest.mark.parametrize(
    "add, data",
    [("/admin/accounts/invite/add/", {"note": "lab"}), ("/admin/accounts/passwordlink/add/", None)],
)
def test_a_link_made_in_the_admin_names_the_address_the_admin_was_reached_at(
    admin_client, settings, add, data
):
    """`make run HOST=0.0.0.0` for a class on one laptop: the learners' machines reach it
    at its network address, not at the 127.0.0.1 of PORTAL_BASE_URL."""
    settings.ALLOWED_HOSTS = [*settings.ALLOWED_HOSTS, "192.168.1.5"]
    data = data or {"user": UserFactory(username="ana").pk}

    response = admin_client.post(add, data, follow=True, HTTP_HOST="192.168.1.5:8000")

    assert re.search(
        r'data-copy-text="http://192\.168\.1\.5:8000/(invite|password/new)/', response.text
    )


@pytest.mark.parametrize(
    "add, data",
    [("/admin/accounts/invite/add/", {"note": "lab"}), ("/admin/accounts/passwordlink/add/", None)],
)
def test_no_header_a_client_or_proxy_adds_names_another_host_in_the_link(admin_client, add, data):
    """(red team 24, held) The link is built from the request's host: X-Forwarded-Host
    (USE_X_FORWARDED_HOST is off) never names it, and a Host outside ALLOWED_HOSTS is a
    400 that makes no link, so no one can have an instructor copy a link to their host."""
    data = data or {"user": UserFactory(username="ana").pk}

    forwarded = admin_client.post(add, data, follow=True, HTTP_X_FORWARDED_HOST="evil.example")
    refused = admin_client.post(add, data, HTTP_HOST="evil.example")

    assert re.search(r'data-copy-text="http://testserver/(invite|password/new)/', forwarded.text)
    assert "evil.example" not in forwarded.text
    assert refused.status_code == 400
    assert len(re.findall("data-copy-text", forwarded.text)) == 1
