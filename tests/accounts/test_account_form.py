"""The account form of setup and invite links: each message under the field it is about."""

import re

import pytest

from accounts.services import invite_create

pytestmark = pytest.mark.django_db


def field_block(html: str, name: str) -> str:
    """The form's piece for field `name`: from its label to the next field's label."""
    start = html.index(f'<label for="id_{name}"')
    end = html.find("<label ", start + 1)
    return html[start : end if end != -1 else len(html)]


@pytest.mark.parametrize(
    ("language", "too_short"),
    [("en", "This password is too short."), ("es", "La contraseña es demasiado corta.")],
)
def test_a_too_short_password_is_said_under_the_password_not_the_confirmation(
    client, language, too_short
):
    _invite, url = invite_create(note="form")
    path = re.sub(r"^https?://[^/]+", "", url)
    client.cookies["django_language"] = language

    html = client.post(
        path,
        {"username": "lina", "password1": "x7$", "password2": "x7$", "language": language},
        headers={"accept-language": language},
    ).content.decode()

    assert too_short in field_block(html, "password1")
    assert too_short not in field_block(html, "password2")


def test_a_mismatch_is_still_said_under_the_confirmation(client):
    _invite, url = invite_create(note="form")
    path = re.sub(r"^https?://[^/]+", "", url)
    fields = {"username": "lina", "password1": "a-long-Pass-phrase-42", "language": "en"}

    html = client.post(path, fields | {"password2": "a-long-Pass-phrase-43"}).content.decode()

    assert "didn’t match" in field_block(html, "password2")
    assert "didn’t match" not in field_block(html, "password1")


def test_the_password_page_names_the_old_password_as_its_error_does_in_spanish(learner_client):
    # The label read "Contraseña antigua" (Django's) and the error "La contraseña actual
    # no es correcta" (ours): one password under two names (learner walk 37).
    learner_client.post("/language/", {"language": "es", "next": "/"})

    response = learner_client.post("/password/", {"old_password": "wrong", "new_password1": "x"})

    html = response.content.decode()
    assert "La contraseña actual no es correcta" in html
    assert "Contraseña actual" in html and "Contraseña antigua" not in html
