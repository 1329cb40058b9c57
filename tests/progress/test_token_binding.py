"""What ties an answer form's token to its login and its browser (progress.tokens)."""

from django.contrib.sessions.backends.db import SessionStore
from django.test import Client

from progress.models import Attempt, Draft
from progress.tokens import SESSION_KEY, token_issue, token_read
from tests.factories import PASSWORD, UserFactory
from tests.html import form_token_shown

HTMX = {"HX-Request": "true"}


def test_two_tabs_opened_together_after_a_login_share_its_form_key(seeds_imported, client):
    """Both tabs read the session before either saved it: with the key made by the first
    form, the second save replaced the first tab's key and its answer was refused as made
    before the last login (red team 10, 9 runs in 10)."""
    user = UserFactory(username="ana")
    client.post("/login/", {"username": "ana", "password": PASSWORD})
    key = client.session.session_key
    first, second = SessionStore(key), SessionStore(key)

    tokens = [
        token_issue(session=store, user=user, question_id=1, revision_id=1)
        for store in (first, second)
    ]
    first.save()
    second.save()

    final = SessionStore(key)
    assert SESSION_KEY in final
    assert all(token_read(t).bound_to(session=final, user=user) for t in tokens)


def test_a_token_posted_from_another_browser_keeps_nothing_for_its_learner(seeds_imported):
    """Anyone holding a learner's token could plant the text the learner is then told
    they sent while logged out (red team 10): only the browser the form was made for
    keeps an answer without a login."""
    UserFactory(username="ana")
    mine, theirs = Client(), Client()
    mine.post("/login/", {"username": "ana", "password": PASSWORD})
    token = form_token_shown(mine.get("/phase/10/").content.decode(), "q-10-03")
    mine.post("/logout/")
    theirs.get("/login/")  # a CSRF cookie of its own
    assert theirs.cookies["csrftoken"].value != mine.cookies["csrftoken"].value

    planted = theirs.post(
        "/question/q-10-03/answer/", {"token": token, "text": "PLANTED"}, headers=HTMX
    )
    kept = mine.post("/question/q-10-03/answer/", {"token": token, "text": "my own"}, headers=HTMX)

    assert 400 <= planted.status_code < 500
    assert kept.status_code == 200 and "HX-Redirect" in kept.headers  # to log in
    assert list(Draft.objects.values_list("answer__text", "logged_out")) == [("my own", True)]
    assert Attempt.objects.count() == 0


def test_a_token_made_without_a_browser_is_held_to_its_account_alone(seeds_imported):
    """Tokens made before the browser mark (or before any CSRF cookie) still keep an
    answer sent after the session ended, for a day, under the same password."""
    user = UserFactory(username="ana")
    session = SessionStore()
    token = token_read(token_issue(session=session, user=user, question_id=1, revision_id=1))

    assert token.binding.count(".") == 1
    assert token.of_account(user, browser="any cookie")
    user.set_password("another password 123")
    assert not token.of_account(user, browser="any cookie")
