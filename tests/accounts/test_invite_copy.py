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
