"""New-password links: a learner who forgot their password gets a one-time link from an
instructor of their cohort (or a superuser), chooses a new password on it and is in."""

import re
from datetime import timedelta

import pytest
import time_machine
from django.contrib.auth import get_user_model
from django.test import Client
from django.utils import timezone

from accounts.models import PasswordLink, Profile
from accounts.services import password_link_allowed, password_link_create
from audit.enums import AuditKind
from audit.models import AuditEvent
from teaching.models import Cohort
from tests.factories import PASSWORD, UserFactory
from tests.threads import at_once

pytestmark = pytest.mark.django_db
User = get_user_model()
NEW_PASSWORD = "a-new-Pass-phrase-77"
ADD = "/admin/accounts/passwordlink/add/"


@pytest.fixture
def classes(instructor):
    """ana in the instructor's cohort, bob in another one."""
    ana, bob = UserFactory(username="ana"), UserFactory(username="bob")
    taught, other = Cohort.objects.create(name="Taught"), Cohort.objects.create(name="Other")
    taught.instructors.add(instructor)
    taught.learners.add(ana)
    other.learners.add(bob)
    return {"ana": ana, "bob": bob, "taught": taught}


def link_made(client, learner) -> str:
    response = client.post(ADD, {"user": learner.pk}, follow=True)
    assert response.status_code == 200
    found = re.search(r'data-copy-text="https?://[^/"]+(/password/new/[^"]+/)"', response.text)
    assert found, response.text
    return found.group(1)


def test_an_instructor_gives_their_learner_a_link_that_sets_a_new_password(
    client, instructor, classes
):
    ana = classes["ana"]
    elsewhere = Client()
    elsewhere.force_login(ana)  # her session in another browser, with the old password
    client.force_login(instructor)

    form = client.get(ADD).text
    path = link_made(client, ana)
    page = Client().get(path)
    done = Client().post(path, {"new_password1": NEW_PASSWORD, "new_password2": NEW_PASSWORD})

    assert f'value="{ana.pk}"' in form and f'value="{classes["bob"].pk}"' not in form
    assert page.status_code == 200 and "ana" in page.text
    assert page["Referrer-Policy"] == "same-origin"
    assert done.status_code == 302 and done["Location"] == "/"
    ana.refresh_from_db()
    assert ana.check_password(NEW_PASSWORD) and not ana.check_password(PASSWORD)
    assert elsewhere.get("/").status_code == 302  # her other sessions ended
    assert Client().get(path).status_code == 410  # once
    kinds = list(AuditEvent.objects.order_by("pk").values_list("kind", "user__username"))
    assert (AuditKind.PASSWORD_LINK_CREATED, "teach") in kinds
    assert (AuditKind.PASSWORD_LINK_USED, "ana") in kinds


def test_the_link_logs_the_learner_in_and_says_so(client, instructor, classes):
    client.force_login(instructor)
    path = link_made(client, classes["ana"])
    browser = Client()

    response = browser.post(
        path, {"new_password1": NEW_PASSWORD, "new_password2": NEW_PASSWORD}, follow=True
    )

    assert response.wsgi_request.user.get_username() == "ana"
    assert "Your new password is set" in response.text


def test_a_crafted_post_for_another_cohorts_learner_makes_no_link(client, instructor, classes):
    client.force_login(instructor)

    response = client.post(ADD, {"user": classes["bob"].pk})

    assert response.status_code == 200  # the form again, with its message
    assert "Select a valid choice" in response.text
    assert not PasswordLink.objects.exists()


@pytest.mark.parametrize("target", ["instructor", "superuser", "inactive"])
def test_no_link_is_made_for_a_staff_or_inactive_account(client, instructor, classes, target):
    admin = UserFactory(username="root", is_staff=True, is_superuser=True)
    account = {
        "instructor": instructor,
        "superuser": UserFactory(username="root2", is_staff=True, is_superuser=True),
        "inactive": UserFactory(username="gone", is_active=False),
    }[target]
    client.force_login(admin)

    response = client.post(ADD, {"user": account.pk})

    assert response.status_code == 200
    assert "Select a valid choice" in response.text
    assert not PasswordLink.objects.exists()


def test_a_link_expires_after_a_day(client, instructor, classes):
    client.force_login(instructor)
    path = link_made(client, classes["ana"])

    with time_machine.travel(timezone.now() + timedelta(hours=24, seconds=1)):
        response = Client().get(path)

    assert response.status_code == 410
    assert "It has expired." in response.text


def test_a_link_ends_when_its_maker_no_longer_teaches_the_learner(client, instructor, classes):
    client.force_login(instructor)
    path = link_made(client, classes["ana"])
    classes["taught"].instructors.remove(instructor)

    response = Client().post(path, {"new_password1": NEW_PASSWORD, "new_password2": NEW_PASSWORD})

    assert response.status_code == 410
    assert "can no longer give this account a new password" in response.text
    classes["ana"].refresh_from_db()
    assert classes["ana"].check_password(PASSWORD)
    root = UserFactory(username="root", is_staff=True, is_superuser=True)
    client.force_login(root)
    listing = client.get("/admin/accounts/passwordlink/").text
    assert "Revoked: its maker can no longer give this learner a new password" in listing


def test_a_link_ends_when_its_learner_becomes_staff(instructor, classes):
    ana = classes["ana"]
    _link, url = password_link_create(learner=ana, created_by=instructor)
    User.objects.filter(pk=ana.pk).update(is_staff=True)

    response = Client().get(re.sub(r"^https?://[^/]+", "", url))

    assert response.status_code == 410


def test_a_newer_link_ends_the_older_one(instructor, classes):
    ana = classes["ana"]
    _old, old_url = password_link_create(learner=ana, created_by=instructor)
    _new, new_url = password_link_create(learner=ana, created_by=instructor)

    old = Client().get(re.sub(r"^https?://[^/]+", "", old_url))
    new = Client().get(re.sub(r"^https?://[^/]+", "", new_url))

    assert (old.status_code, new.status_code) == (410, 200)


def test_a_refused_password_says_why_and_leaves_the_link_usable(instructor, classes):
    _link, url = password_link_create(learner=classes["ana"], created_by=instructor)
    path = re.sub(r"^https?://[^/]+", "", url)

    refused = Client().post(path, {"new_password1": "ana", "new_password2": "ana"})

    assert refused.status_code == 200
    assert "too short" in str(refused.context["form"].errors["new_password1"])
    assert PasswordLink.objects.get().used_at is None
    assert Client().get(path).status_code == 200


def test_an_instructor_sees_only_their_learners_links(client, instructor, classes):
    root = UserFactory(username="root", is_staff=True, is_superuser=True)
    theirs, _ = password_link_create(learner=classes["ana"], created_by=root)
    other, _ = password_link_create(learner=classes["bob"], created_by=root)
    client.force_login(instructor)

    listing = client.get("/admin/accounts/passwordlink/").text

    assert f"/admin/accounts/passwordlink/{theirs.pk}/change/" in listing
    assert f"/admin/accounts/passwordlink/{other.pk}/change/" not in listing
    assert client.get(f"/admin/accounts/passwordlink/{other.pk}/change/").status_code == 404


@pytest.mark.parametrize(
    "language, words",
    [("en", "Ask your instructor for a new-password link"), ("es", "enlace de contraseña nueva")],
)
def test_the_login_page_says_how_to_get_a_new_password(client, language, words):
    response = client.get("/login/", HTTP_ACCEPT_LANGUAGE=language)

    assert words in response.text


def test_the_learners_page_leads_to_a_link_made_for_them(client, instructor, classes):
    ana = classes["ana"]
    client.force_login(instructor)
    page = client.get(f"/admin/teaching/cohort/{classes['taught'].pk}/results/learner/{ana.pk}/")

    found = re.search(r'href="(/admin/accounts/passwordlink/add/\?user=\d+)"', page.text)
    form = client.get(found.group(1)).text

    assert re.search(rf'<option value="{ana.pk}" selected>', form)


@pytest.mark.parametrize("saved", ["es", "en"])
def test_the_message_after_a_new_password_speaks_the_accounts_language(instructor, classes, saved):
    ana = classes["ana"]
    Profile.objects.update_or_create(user=ana, defaults={"language": saved})
    _link, url = password_link_create(learner=ana, created_by=instructor)
    other = {"es": "en", "en": "es"}[saved]

    response = Client(HTTP_ACCEPT_LANGUAGE=other).post(
        re.sub(r"^https?://[^/]+", "", url),
        {"new_password1": NEW_PASSWORD, "new_password2": NEW_PASSWORD},
        follow=True,
    )

    said = {"es": "Tu contraseña nueva está guardada", "en": "Your new password is set"}[saved]
    assert f'<html lang="{saved}">' in response.text
    assert said in response.text


def test_a_links_form_is_held_after_twenty_posts(instructor, classes):
    _link, url = password_link_create(learner=classes["ana"], created_by=instructor)
    path, browser = re.sub(r"^https?://[^/]+", "", url), Client()
    refused = {"new_password1": "x", "new_password2": "y"}

    codes = [browser.post(path, refused).status_code for _ in range(21)]
    held = browser.post(path, {"new_password1": NEW_PASSWORD, "new_password2": NEW_PASSWORD})

    assert codes == [200] * 20 + [429]
    assert held.status_code == 429 and "Too many tries with this link" in held.text
    classes["ana"].refresh_from_db()
    assert classes["ana"].check_password(PASSWORD)


def test_no_link_is_made_for_a_superuser_left_without_staff_status(client, instructor, classes):
    # (red team 24) A superuser account whose "staff status" was unticked, listed among a
    # cohort's learners, passed as a learner: its instructor could set its password, and
    # held a superuser's password once it was staff again.
    root = UserFactory(username="nsroot", is_staff=False, is_superuser=True)
    classes["taught"].learners.add(root)
    client.force_login(instructor)

    response = client.post(ADD, {"user": root.pk})

    assert response.status_code == 200
    assert "Select a valid choice" in response.text
    assert not PasswordLink.objects.exists()


def test_a_link_ends_when_its_learner_becomes_a_superuser(instructor, classes):
    ana = classes["ana"]
    _link, url = password_link_create(learner=ana, created_by=instructor)
    User.objects.filter(pk=ana.pk).update(is_superuser=True)

    response = Client().get(re.sub(r"^https?://[^/]+", "", url))

    assert response.status_code == 410


@pytest.mark.django_db(transaction=True)
def test_four_posts_of_one_link_sent_at_once_set_one_password():
    """(red team 24, held) Four tabs, or four people holding one link, post it at once:
    one password is set and one session made; the others are told the link is used."""
    root = UserFactory(username="root", is_staff=True, is_superuser=True)
    ana = UserFactory(username="ana")
    _link, url = password_link_create(learner=ana, created_by=root)
    path = re.sub(r"^https?://[^/]+", "", url)

    def post(n):
        return lambda: Client().post(
            path, {"new_password1": f"{NEW_PASSWORD}-{n}", "new_password2": f"{NEW_PASSWORD}-{n}"}
        )

    statuses = sorted(r.status_code for r in at_once(*(post(n) for n in range(4))))

    ana.refresh_from_db()
    assert statuses == [302, 410, 410, 410]
    assert sum(ana.check_password(f"{NEW_PASSWORD}-{n}") for n in range(4)) == 1
    assert AuditEvent.objects.filter(kind=AuditKind.PASSWORD_LINK_USED).count() == 1


def test_no_link_for_an_instructor_whose_staff_status_was_unticked(client, instructor, classes):
    """Still listed as teaching cohort C and a learner of A: ticked again, their account
    would be A's instructor's (red team 24)."""
    demoted = UserFactory(username="demoted")
    Cohort.objects.create(name="C").instructors.add(demoted)  # made staff then unticked
    classes["taught"].learners.add(demoted)
    client.force_login(instructor)

    offered = client.get(ADD).text
    posted = client.post(ADD, {"user": demoted.pk})

    assert f'value="{demoted.pk}"' not in offered
    assert posted.status_code == 200 and "Select a valid choice" in posted.text
    assert not password_link_allowed(maker=instructor, learner=demoted)
    assert not PasswordLink.objects.exists()


def test_a_link_is_checked_again_on_the_locked_account(instructor, classes, monkeypatch):
    """On PostgreSQL the lookup and the account's lock run apart: an account made staff
    between them must not take the new password (red team 24's timing gap)."""
    from accounts import services

    ana = classes["ana"]
    _link, url = password_link_create(learner=ana, created_by=instructor)
    real_lookup = services._link_lookup

    calls = []

    def lookup_then_promote(model, raw):
        link = real_lookup(model, raw)
        calls.append(model)
        if len(calls) == 2:  # the redeem's lookup, after the page's
            User.objects.filter(pk=ana.pk).update(is_staff=True)  # another request
        return link

    monkeypatch.setattr(services, "_link_lookup", lookup_then_promote)
    response = Client().post(
        re.sub(r"^https?://[^/]+", "", url),
        {"new_password1": NEW_PASSWORD, "new_password2": NEW_PASSWORD},
    )

    assert response.status_code == 410
    ana.refresh_from_db()
    assert ana.check_password(PASSWORD)


@pytest.mark.parametrize("how", ["own_page", "admin", "set_password"])
def test_a_link_ends_when_the_learners_password_changes_after_it_was_made(
    client, instructor, classes, how
):
    """Made for a learner who then remembered their password and changed it (or had it
    set on their user page): the link, still in a chat or a mail for a day, took the
    account from whoever held it and logged the learner out (red team 25)."""
    ana = classes["ana"]
    _link, url = password_link_create(learner=ana, created_by=instructor)
    path = re.sub(r"^https?://[^/]+", "", url)
    changed = "ana-remembered-Hers-42"
    if how == "own_page":
        own = Client()
        own.force_login(ana)
        own.post(
            "/password/",
            {"old_password": PASSWORD, "new_password1": changed, "new_password2": changed},
        )
    elif how == "admin":
        root = UserFactory(username="root", is_staff=True, is_superuser=True)
        client.force_login(root)
        client.post(
            f"/admin/auth/user/{ana.pk}/password/",
            {"password1": changed, "password2": changed, "usable_password": "true"},
        )
    else:  # manage.py changepassword, a shell
        ana.set_password(changed)
        ana.save()
    ana.refresh_from_db()
    assert ana.check_password(changed)

    page = Client().get(path)
    posted = Client().post(path, {"new_password1": NEW_PASSWORD, "new_password2": NEW_PASSWORD})

    assert page.status_code == posted.status_code == 410
    assert "password was changed after this link was made" in posted.text
    ana.refresh_from_db()
    assert ana.check_password(changed)
    root = User.objects.filter(is_superuser=True).first() or UserFactory(
        username="root", is_staff=True, is_superuser=True
    )
    client.force_login(root)
    listing = client.get("/admin/accounts/passwordlink/").text
    assert "Ended: the password was changed after it was made" in listing


def test_a_link_ends_when_the_password_changes_between_the_lookup_and_the_lock(
    instructor, classes, monkeypatch
):
    """The learner's own change sent while the link's form is posted: on the locked
    account, the link sees the password it was made to replace is gone."""
    from accounts import services

    ana = classes["ana"]
    _link, url = password_link_create(learner=ana, created_by=instructor)
    real_lookup = services._link_lookup
    calls = []

    def lookup_then_change(model, raw):
        link = real_lookup(model, raw)
        calls.append(model)
        if len(calls) == 2:  # the redeem's lookup, after the page's
            fresh = User.objects.get(pk=ana.pk)
            fresh.set_password("ana-remembered-Hers-42")
            fresh.save()
        return link

    monkeypatch.setattr(services, "_link_lookup", lookup_then_change)
    response = Client().post(
        re.sub(r"^https?://[^/]+", "", url),
        {"new_password1": NEW_PASSWORD, "new_password2": NEW_PASSWORD},
    )

    assert response.status_code == 410
    ana.refresh_from_db()
    # The stand-in for the other request ran in the refused one's transaction, rolled
    # back with it: the link's password is what must not be there.
    assert not ana.check_password(NEW_PASSWORD)


def test_a_link_ends_when_the_learner_logs_in_after_it_was_made(client, instructor, classes):
    """The learner remembered their password after all and logged in with it: the link,
    still in a chat or a mail, must not take the account for the rest of its day (red
    team 25). Django's own reset links end so too."""
    ana = classes["ana"]
    _link, url = password_link_create(learner=ana, created_by=instructor)
    path = re.sub(r"^https?://[^/]+", "", url)
    with time_machine.travel(timezone.now() + timedelta(minutes=5)):
        logged_in = Client().post("/login/", {"username": "ana", "password": PASSWORD})
        page = Client().get(path)
        posted = Client().post(path, {"new_password1": NEW_PASSWORD, "new_password2": NEW_PASSWORD})
        client.force_login(UserFactory(username="root", is_staff=True, is_superuser=True))
        listing = client.get("/admin/accounts/passwordlink/").text

    assert logged_in.status_code == 302
    assert page.status_code == posted.status_code == 410
    assert "has logged in since this link was made" in posted.text
    ana.refresh_from_db()
    assert ana.check_password(PASSWORD)
    assert "Ended: the learner logged in after it was made" in listing


def test_an_error_report_of_the_link_page_shows_no_password_typed_there(
    client, instructor, classes
):
    """As on the login page: Django's error reports hide the new password (red team 25)."""
    from django.views.debug import SafeExceptionReporterFilter

    client.force_login(instructor)
    path = link_made(client, classes["ana"])
    sent = {"new_password1": NEW_PASSWORD, "new_password2": "not the same"}
    response = Client().post(path, sent)

    shown = SafeExceptionReporterFilter().get_post_parameters(response.wsgi_request)
    assert response.status_code == 200
    assert NEW_PASSWORD not in str(dict(shown)) and "not the same" not in str(dict(shown))


def test_an_instructor_ends_a_link_made_for_their_learner(client, instructor, classes):
    """A link handed to the wrong person is ended from the list at once (red team 25);
    another cohort's learner's link is not theirs to end."""
    client.force_login(instructor)
    path = link_made(client, classes["ana"])
    boss = UserFactory(username="boss", is_staff=True, is_superuser=True)
    bobs, bob_url = password_link_create(learner=classes["bob"], created_by=boss)
    anas = PasswordLink.objects.get(user=classes["ana"])

    response = client.post(
        "/admin/accounts/passwordlink/",
        {"action": "end_links", "_selected_action": [anas.pk, bobs.pk]},
        follow=True,
    )

    assert "1 link ended: it no longer works." in response.text
    assert Client().get(path).status_code == 410
    assert Client().get(re.sub(r"^https?://[^/]+", "", bob_url)).status_code == 200
    event = AuditEvent.objects.get(kind=AuditKind.PASSWORD_LINK_ENDED)
    assert (event.user, event.subject, event.detail["link"]) == (instructor, "ana", anas.pk)
