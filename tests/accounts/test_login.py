"""Login, logout, throttling, language and password change."""

import re
from datetime import timedelta

import pytest
import time_machine
from django.utils import timezone

from accounts.models import Profile
from audit.enums import AuditKind
from audit.models import AuditEvent
from tests.factories import PASSWORD, UserFactory

pytestmark = pytest.mark.django_db


def login(client, username, password=PASSWORD):
    return client.post("/login/", {"username": username, "password": password})


def test_login_with_right_password_redirects_home_and_audits(client):
    user = UserFactory(username="ana")

    response = login(client, "ana")

    assert response.status_code == 302
    assert response["Location"] == "/"
    event = AuditEvent.objects.get(kind=AuditKind.LOGIN)
    assert (event.user, event.subject) == (user, "ana")


def test_login_changes_the_session_key(client):
    UserFactory(username="ana")
    client.get("/login/")
    client.session["probe"] = 1
    before = client.session.session_key

    login(client, "ana")

    assert client.session.session_key != before


def test_login_refuses_open_redirect(client):
    UserFactory(username="ana")

    response = client.post(
        "/login/?next=https://evil.example/", {"username": "ana", "password": PASSWORD}
    )

    assert response["Location"] == "/"


def test_login_throttles_after_five_failures(client):
    UserFactory(username="ana")
    for _ in range(5):
        assert login(client, "ana", "wrong").status_code == 200

    refused = login(client, "ana")

    assert refused.status_code == 200
    assert (
        "Too many failed logins with this username or from this network. Try again in 1 minute."
        in refused.content.decode()
    )
    assert "_auth_user_id" not in client.session
    assert AuditEvent.objects.filter(kind=AuditKind.LOGIN_FAILED).count() == 5
    assert AuditEvent.objects.filter(kind=AuditKind.LOGIN_REFUSED).count() == 1


def test_login_throttle_holds_across_case_variants(client):
    UserFactory(username="ana")
    for username in ("ana", "ANA", "Ana", "aNa", "anA"):
        login(client, username, "wrong")

    refused = login(client, "ana")

    assert "Too many failed logins" in refused.content.decode()


def test_login_throttle_lets_a_typing_learner_in_after_a_minute(client):
    UserFactory(username="ana")
    for _ in range(5):
        login(client, "ana", "wrong")

    with time_machine.travel(timezone.now() + timedelta(seconds=50)):
        still_locked = login(client, "ana")
    with time_machine.travel(timezone.now() + timedelta(minutes=1, seconds=1)):
        allowed = login(client, "ana")

    assert "Too many failed logins" in still_locked.content.decode()
    assert allowed.status_code == 302


def test_login_failures_spread_over_more_than_15_minutes_do_not_lock(client):
    UserFactory(username="ana")
    start = timezone.now()
    for minute in (0, 4, 8, 12, 16):
        with time_machine.travel(start + timedelta(minutes=minute)):
            login(client, "ana", "wrong")

    with time_machine.travel(start + timedelta(minutes=16, seconds=30)):
        response = login(client, "ana")

    assert response.status_code == 302


def test_admin_login_is_throttled_too(client):
    UserFactory(username="boss", is_staff=True, is_superuser=True)
    for _ in range(5):
        client.post("/admin/login/", {"username": "boss", "password": "wrong"})

    response = client.post("/admin/login/", {"username": "boss", "password": PASSWORD})

    assert "Too many failed logins" in response.content.decode()


def test_logout_is_post_only_and_audited(learner_client, learner):
    assert learner_client.get("/logout/").status_code == 405

    response = learner_client.post("/logout/", follow=True)

    assert response.redirect_chain == [("/login/?reason=logged_out", 302)]
    assert "You are logged out." in response.content.decode()  # UX walk 34: it said nothing
    assert AuditEvent.objects.filter(kind=AuditKind.LOGOUT, user=learner).count() == 1
    assert learner_client.get("/").status_code == 302


def test_language_switch_is_saved_on_profile_and_used_at_next_login(client, learner):
    login(client, "ana")

    client.post("/language/", {"language": "es", "next": "/progress/"})
    client.post("/logout/")
    login(client, "ana")

    assert Profile.objects.get(user=learner).language == "es"
    assert '<html lang="es">' in client.get("/").content.decode()


def test_language_switch_refuses_open_redirect(learner_client):
    response = learner_client.post(
        "/language/", {"language": "es", "next": "https://evil.example/"}
    )

    assert response["Location"] == "/"


def test_language_switch_ignores_unknown_language(learner_client, learner):
    learner_client.post("/language/", {"language": "xx", "next": "/"})

    assert Profile.objects.get(user=learner).language == "en"


def test_password_change_works_and_is_audited(learner_client, learner):
    response = learner_client.post(
        "/password/",
        {
            "old_password": PASSWORD,
            "new_password1": "another-Long-pass-77",
            "new_password2": "another-Long-pass-77",
        },
    )

    learner.refresh_from_db()
    assert response["Location"] == "/password/done/"
    assert learner.check_password("another-Long-pass-77")
    assert AuditEvent.objects.filter(kind=AuditKind.PASSWORD_CHANGED, user=learner).count() == 1


def test_two_password_changes_sent_at_once_with_one_old_password_make_one(
    learner_client, learner, monkeypatch
):
    """(Red team 14) Four changes sent at once from tabs holding one old password each
    passed its check before any was saved: all four were made, and the one that stood
    was none the pages could say. The second finds the password changed under a lock."""
    from accounts.forms import ThrottledPasswordChangeForm

    checked = ThrottledPasswordChangeForm.clean_old_password

    def another_tab_saves_meanwhile(form):
        old = checked(form)
        other = type(learner).objects.get(pk=learner.pk)
        other.set_password("first-tab-Long-pass-1")
        other.save()
        return old

    monkeypatch.setattr(
        ThrottledPasswordChangeForm, "clean_old_password", another_tab_saves_meanwhile
    )
    new = "second-tab-Long-pass-2"
    response = learner_client.post(
        "/password/", {"old_password": PASSWORD, "new_password1": new, "new_password2": new}
    )

    learner.refresh_from_db()
    assert response.status_code == 200
    assert "Your password was changed meanwhile" in response.content.decode()
    assert learner.check_password("first-tab-Long-pass-1")
    assert not AuditEvent.objects.filter(kind=AuditKind.PASSWORD_CHANGED).exists()


def test_healthz_needs_no_login(client, db):
    response = client.get("/healthz")

    assert response.json() == {"status": "ok"}


@pytest.mark.parametrize("next_url", ["abc", "javascript:alert(1)", "//evil.example/"])
def test_language_switch_with_a_next_that_is_no_page_goes_home(learner_client, next_url):
    response = learner_client.post("/language/", {"language": "es", "next": next_url})

    assert response.status_code == 302
    assert response["Location"] == "/"


@pytest.mark.parametrize(
    ("next_url", "location"),
    [
        ("/question/q-01-00/answer/", "/"),
        ("/logout/", "/"),
        ("/language/", "/"),
        ("/progress/?page=2", "/progress/?page=2"),
        ("/login/?next=/progress/", "/login/?next=/progress/"),
    ],
)
def test_language_switch_returns_only_to_a_page_that_answers_get(
    learner_client, next_url, location
):
    response = learner_client.post("/language/", {"language": "es", "next": next_url})

    assert response["Location"] == location


def test_login_page_keeps_the_language_after_logout(client):
    UserFactory(username="ana", profile="es")
    login(client, "ana")
    client.get("/")

    client.post("/logout/")
    response = client.get("/login/", HTTP_ACCEPT_LANGUAGE="en")

    assert client.cookies["django_language"].value == "es"
    assert '<html lang="es">' in response.content.decode()


def test_login_page_follows_the_language_cookie_then_accept_language(client, db):
    by_header = client.get("/login/", HTTP_ACCEPT_LANGUAGE="es")
    client.cookies["django_language"] = "en"
    by_cookie = client.get("/login/", HTTP_ACCEPT_LANGUAGE="es")

    assert '<html lang="es">' in by_header.content.decode()
    assert '<html lang="en">' in by_cookie.content.decode()


def test_logged_out_language_switch_makes_no_session(client, db):
    from django.contrib.sessions.models import Session

    response = client.post("/language/", {"language": "es", "next": "/login/"})
    page = client.get("/login/", HTTP_ACCEPT_LANGUAGE="en")

    assert response.status_code == 302
    assert client.cookies["django_language"].value == "es"
    assert '<html lang="es">' in page.content.decode()
    assert Session.objects.count() == 0


def password_change(client, old, path="/password/"):
    new = "another-Long-pass-77"
    return client.post(path, {"old_password": old, "new_password1": new, "new_password2": new})


@pytest.mark.parametrize("path", ["/password/", "/admin/password_change/"])
def test_password_change_old_password_is_throttled_and_ends_the_session(client, path):
    user = UserFactory(username="boss", is_staff=True, is_superuser=True)
    client.force_login(user)
    for _ in range(5):
        assert password_change(client, "wrong", path).status_code == 200

    refused = password_change(client, PASSWORD, path)

    user.refresh_from_db()
    assert (refused.status_code, refused["Location"]) == (302, "/login/")
    assert "_auth_user_id" not in client.session
    assert user.check_password(PASSWORD)
    assert AuditEvent.objects.filter(kind=AuditKind.PASSWORD_CHANGED).count() == 0


def test_password_change_right_old_password_clears_the_count(learner_client, learner):
    for _ in range(4):
        password_change(learner_client, "wrong")

    response = password_change(learner_client, PASSWORD)

    assert response["Location"] == "/password/done/"


def test_admin_password_change_is_audited(client):
    user = UserFactory(username="boss", is_staff=True, is_superuser=True)
    client.force_login(user)

    response = password_change(client, PASSWORD, "/admin/password_change/")

    user.refresh_from_db()
    assert response["Location"] == "/admin/password_change/done/"
    assert user.check_password("another-Long-pass-77")
    event = AuditEvent.objects.get(kind=AuditKind.PASSWORD_CHANGED)
    assert (event.user, event.detail) == (user, {"via": "admin"})


def test_admin_setting_another_users_password_is_audited(admin_client):
    learner = UserFactory(username="lina")
    new = "another-Long-pass-77"

    admin_client.post(
        f"/admin/auth/user/{learner.pk}/password/",
        {"password1": new, "password2": new, "set_usable_password": "true"},
    )

    learner.refresh_from_db()
    event = AuditEvent.objects.get(kind=AuditKind.PASSWORD_CHANGED)
    assert learner.check_password(new)
    assert (event.user.username, event.subject, event.detail) == (
        "admin",
        "lina",
        {"via": "admin user page"},
    )


def test_a_superuser_sets_their_own_password_only_with_the_old_one(admin_client, admin_user):
    """The user page's password form asks no old password: for one's own account it
    leads to the change page that does (red team 10)."""
    new = "another-Long-pass-77"
    url = f"/admin/auth/user/{admin_user.pk}/password/"

    shown = admin_client.get(url)
    sent = admin_client.post(
        url, {"password1": new, "password2": new, "set_usable_password": "true"}
    )

    admin_user.refresh_from_db()
    assert shown.status_code == sent.status_code == 302
    assert shown["Location"] == sent["Location"] == "/admin/password_change/"
    assert not admin_user.check_password(new)
    assert not AuditEvent.objects.filter(kind=AuditKind.PASSWORD_CHANGED).exists()


def test_admin_password_change_page_is_the_admins(admin_client):
    html = admin_client.get("/admin/password_change/").content.decode()

    assert "<title>Password change | LLM from scratch — admin</title>" in html
    assert ">LLM from scratch — admin</a>" in html
    assert 'name="old_password"' in html


def test_login_refusals_of_one_wait_are_logged_once(client):
    """Refused tries cost the sender nothing: a row each would let anyone fill the log."""
    UserFactory(username="noor")
    for _ in range(5):
        login(client, "noor", "wrong")

    for _ in range(20):
        login(client, "noor", "wrong")
    # Another address is not held: its try is a failure, logged as one.
    client.post("/login/", {"username": "noor", "password": "wrong"}, REMOTE_ADDR="203.0.113.9")

    refused = AuditEvent.objects.filter(kind=AuditKind.LOGIN_REFUSED)
    assert sorted(refused.values_list("ip_address", flat=True)) == ["127.0.0.1"]
    assert AuditEvent.objects.filter(kind=AuditKind.LOGIN_FAILED).count() == 6


def test_an_address_held_whatever_the_username_is_logged_once_and_makes_no_rows(client):
    """A client whose address is held, typing a new username each try, once wrote a
    'login refused' row and two throttle rows per try (red team round 7)."""
    from accounts.models import LoginThrottle
    from accounts.throttle import FAILURES_PER_ADDRESS_ANY_ACCOUNT

    for n in range(FAILURES_PER_ADDRESS_ANY_ACCOUNT):
        login(client, f"spray-{n}", "wrong")
    rows = LoginThrottle.objects.count()

    for n in range(20):
        refused = login(client, f"fill-{n}", "wrong")

    assert "Too many failed logins" in refused.content.decode()
    assert AuditEvent.objects.filter(kind=AuditKind.LOGIN_REFUSED).count() == 1
    assert LoginThrottle.objects.count() == rows


@pytest.mark.parametrize(
    ("language", "message"),
    [
        ("en", "Please enter a correct username and password."),
        ("es", "Escribe un nombre de usuario y una contraseña correctos."),
    ],
)
def test_a_refused_login_says_why_in_an_alert_that_takes_the_focus(client, language, message):
    """A screen reader back on the form hears the refusal, not only "Username, ana"."""
    UserFactory(username="ana")
    client.cookies["django_language"] = language

    html = login(client, "ana", "wrong").content.decode()

    alert = re.search(r'<div class="form-errors"[^>]*>(.*?)</div>', html, re.S)
    assert alert, html
    assert 'role="alert"' in alert.group(0) and 'tabindex="-1"' in alert.group(0)
    assert message in alert.group(1)
    # Of two autofocus attributes the browser honours the first: the alert's, not the field's.
    start_tag = alert.group(0)[: alert.group(0).index(">")]
    assert "autofocus" in start_tag
    assert alert.start() < html.index('id="id_username"')
