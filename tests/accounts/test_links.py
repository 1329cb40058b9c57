"""Setup link and invites: one-time, expiring, unguessable, with clear pages."""

import re
from datetime import timedelta
from io import StringIO

import pytest
import time_machine
from django.contrib.auth import get_user_model
from django.contrib.auth.models import Group
from django.core.management import CommandError, call_command
from django.test import Client
from django.utils import timezone

from accounts.models import Invite, Profile, SetupLink
from accounts.services import invite_create
from audit.enums import AuditKind
from audit.models import AuditEvent
from teaching.models import Cohort
from tests.factories import UserFactory

pytestmark = pytest.mark.django_db
User = get_user_model()
NEW_PASSWORD = "a-long-Pass-phrase-42"


def link_path(url: str) -> str:
    return re.sub(r"^https?://[^/]+", "", url)


def account_form(username="grace", language="en"):
    return {
        "username": username,
        "password1": NEW_PASSWORD,
        "password2": NEW_PASSWORD,
        "language": language,
    }


def test_setup_link_command_prints_a_link_when_no_account_exists():
    out = StringIO()

    call_command("setup_link", stdout=out)

    url = out.getvalue().splitlines()[-1]
    assert re.fullmatch(r"http://127\.0\.0\.1:8000/setup/[A-Za-z0-9_-]{40,}/", url)
    link = SetupLink.objects.get()
    assert link.expires_at - link.created_at == timedelta(hours=24)
    assert url.rsplit("/", 2)[-2] not in link.token_hash


def test_setup_link_command_refuses_when_accounts_exist():
    UserFactory()

    with pytest.raises(CommandError, match="Accounts already exist"):
        call_command("setup_link", stdout=StringIO())
    out = StringIO()
    call_command("setup_link", "--if-no-accounts", stdout=out)

    assert out.getvalue() == ""
    assert SetupLink.objects.count() == 0


def test_setup_link_uses_portal_base_url(settings):
    settings.PORTAL_BASE_URL = "https://quiz.example.org"
    out = StringIO()

    call_command("setup_link", stdout=out)

    assert out.getvalue().splitlines()[-1].startswith("https://quiz.example.org/setup/")


def test_setup_link_creates_the_instructor_and_logs_in(client):
    out = StringIO()
    call_command("setup_link", stdout=out)
    path = link_path(out.getvalue().splitlines()[-1])

    form = client.get(path)
    response = client.post(path, account_form("grace"))

    user = User.objects.get()
    assert form.status_code == 200
    assert form["Referrer-Policy"] == "same-origin"
    assert (response.status_code, response["Location"]) == (302, "/admin/")
    assert (user.username, user.is_staff, user.is_superuser) == ("grace", True, True)
    assert user.password.startswith("md5$") or user.password.startswith("argon2")
    assert client.get("/").status_code == 200
    assert SetupLink.objects.get().used_at is not None
    assert AuditEvent.objects.filter(kind=AuditKind.SETUP_LINK_USED, user=user).count() == 1


def test_setup_link_works_only_once(client):
    out = StringIO()
    call_command("setup_link", stdout=out)
    path = link_path(out.getvalue().splitlines()[-1])
    client.post(path, account_form("grace"))
    client.logout()

    again = client.post(path, account_form("mallory"))

    assert again.status_code == 410
    assert "An account already exists" in again.content.decode()
    assert list(User.objects.values_list("username", flat=True)) == ["grace"]


def test_setup_link_expires_after_24_hours(client):
    out = StringIO()
    call_command("setup_link", stdout=out)
    path = link_path(out.getvalue().splitlines()[-1])

    with time_machine.travel(timezone.now() + timedelta(hours=24, minutes=1)):
        response = client.post(path, account_form("grace"))

    assert response.status_code == 410
    assert "It has expired." in response.content.decode()
    # Its reader is to be the first instructor: the page says how to get a new one.
    assert "run “manage.py setup_link” there" in response.content.decode()
    assert "Ask your instructor" not in response.content.decode()
    assert User.objects.count() == 0


@pytest.mark.parametrize("kind", ["setup", "invite"])
def test_forged_or_tampered_token_gets_a_clear_page(client, kind):
    _invite, url = invite_create()
    tampered = link_path(url)[:-3] + "xx/"

    for path in (f"/{kind}/not-a-real-token/", tampered):
        response = client.get(path)
        assert response.status_code == 404
        assert "It is not a link this portal made" in response.content.decode()


def test_invite_command_prints_links():
    out = StringIO()

    call_command("invite", "--count", "3", "--note", "cohort A", stdout=out)

    urls = out.getvalue().split()
    assert len(urls) == 3
    assert all(u.startswith("http://127.0.0.1:8000/invite/") for u in urls)
    assert list(Invite.objects.values_list("note", flat=True)) == ["cohort A"] * 3


def test_invite_command_refuses_bad_count():
    with pytest.raises(CommandError, match="--count must be between 1 and 500"):
        call_command("invite", "--count", "0", stdout=StringIO())


def test_invite_creates_a_learner_with_chosen_language(client):
    invite, url = invite_create(note="x")

    response = client.post(link_path(url), account_form("lina", language="es"))

    user = User.objects.get(username="lina")
    invite.refresh_from_db()
    assert response.status_code == 302
    assert (user.is_staff, user.is_superuser) == (False, False)
    assert Profile.objects.get(user=user).language == "es"
    assert (invite.used_by, invite.used_at is not None) == (user, True)
    assert client.session["language"] == "es"


def test_invite_is_single_use_and_expires_after_7_days(client):
    _invite, url = invite_create()
    _other, later_url = invite_create()
    client.post(link_path(url), account_form("lina"))
    client.logout()

    reused = client.get(link_path(url))
    with time_machine.travel(timezone.now() + timedelta(days=7, seconds=1)):
        expired = client.get(link_path(later_url))

    assert (reused.status_code, expired.status_code) == (410, 410)
    assert "already been used" in reused.content.decode()
    assert "It has expired." in expired.content.decode()
    assert "Ask your instructor for a new link" in expired.content.decode()


def test_used_invite_opened_logged_in_leads_back_to_the_phases(client):
    _invite, url = invite_create()
    client.post(link_path(url), account_form("lina"))  # logs lina in

    html = client.get(link_path(url)).content.decode()

    assert "already been used" in html
    assert "You are logged in as lina: you need no link to go on." in html
    assert "If you are not lina, log out and ask your instructor for a new link." in html
    assert '<a href="/">Back to phases</a>' in html
    assert "log in if you already have an account" not in html


def test_invite_with_invalid_form_shows_errors_and_keeps_the_link(client):
    invite, url = invite_create()
    data = account_form("lina") | {"password2": "different-Pass-99"}

    response = client.post(link_path(url), data)

    invite.refresh_from_db()
    assert response.status_code == 200
    assert "The two password fields didn’t match." in response.content.decode()
    assert invite.used_at is None
    assert User.objects.count() == 0


def test_admin_creates_invite_and_shows_the_link_once(admin_client):
    response = admin_client.post("/admin/accounts/invite/add/", {"note": "spring"}, follow=True)

    html = response.content.decode()
    invite = Invite.objects.get()
    assert "Invite link (shown only now, valid for 7 days): http://testserver/invite/" in html
    assert invite.note == "spring"
    assert invite.created_by.username == "admin"
    assert AuditEvent.objects.filter(kind=AuditKind.INVITE_CREATED).count() == 1


def test_invite_page_in_spanish_speaks_to_the_learner_as_tu(client):
    _invite, url = invite_create()

    html = client.get(link_path(url), HTTP_ACCEPT_LANGUAGE="es").content.decode()

    assert "Tu contraseña no puede ser una contraseña de uso común." in html
    assert "Obligatorio. 150 caracteres como máximo." in html
    assert "Su contraseña" not in html
    assert "carácteres" not in html


def test_login_error_in_spanish_speaks_to_the_learner_as_tu(client):
    UserFactory(username="ana")

    response = client.post(
        "/login/", {"username": "ana", "password": "wrong"}, HTTP_ACCEPT_LANGUAGE="es"
    )

    assert "Escribe un nombre de usuario y una contraseña correctos." in response.content.decode()


def test_the_admins_login_speaks_to_a_learner_as_tu_too(client):
    """A learner who opens /admin/ meets the admin's own login page: Django's Spanish
    spoke to her as usted there ("¿Desea autenticarse…?"), the portal as tú (walk 36)."""
    ana = UserFactory(username="ana")
    UserFactory(username="teacher", is_staff=True)
    client.force_login(ana)
    client.post("/language/", {"language": "es", "next": "/"})

    page = " ".join(client.get("/admin/login/?next=/admin/").content.decode().split())
    refused = client.post(
        "/admin/login/?next=/admin/", {"username": "teacher", "password": "wrong"}
    )
    refused = " ".join(refused.content.decode().split())

    assert "Has entrado como ana, pero esta página no es para tu cuenta." in page
    assert "Desea" not in page and "autorizado" not in page
    assert "Escribe el nombre de usuario y la contraseña correctos de una cuenta" in refused
    assert "Por favor introduzca" not in refused


def setup_paths(count: int) -> list[str]:
    paths = []
    for _n in range(count):
        out = StringIO()
        call_command("setup_link", stdout=out)
        paths.append(link_path(out.getvalue().splitlines()[-1]))
    return paths


def test_setup_link_redeemed_voids_every_other_setup_link(client):
    first, second = setup_paths(2)
    client.post(first, account_form("grace"))
    client.logout()

    form = client.get(second)
    attempt = client.post(second, account_form("intruder"))

    assert (form.status_code, attempt.status_code) == (410, 410)
    assert "An account already exists" in form.content.decode()
    assert list(User.objects.values_list("username", flat=True)) == ["grace"]
    assert SetupLink.objects.filter(used_at__isnull=True).count() == 0


def test_setup_link_is_void_once_createsuperuser_made_an_account(client):
    (path,) = setup_paths(1)

    call_command(
        "createsuperuser", "--noinput", username="root", email="root@example.org", stdout=StringIO()
    )
    response = client.post(path, account_form("intruder"))

    assert response.status_code == 410
    assert "An account already exists" in response.content.decode()
    assert list(User.objects.values_list("username", flat=True)) == ["root"]
    assert SetupLink.objects.get().used_at is not None


def test_setup_link_refused_when_an_account_exists_without_marking_links(client):
    (path,) = setup_paths(1)
    # An account written without save signals (a bulk load, raw SQL) still voids the link.
    User.objects.bulk_create([User(username="loaded")])

    response = client.get(path)

    assert response.status_code == 410
    assert "An account already exists" in response.content.decode()


def test_an_unusable_link_offers_log_in_only_to_who_is_logged_out(client):
    _invite, url = invite_create()
    client.post(link_path(url), account_form("lina"))  # used, and now logged in

    logged_in = client.get(link_path(url)).content.decode()
    client.logout()
    logged_out = client.get(link_path(url)).content.decode()

    assert ">Log in</a>" not in logged_in
    assert ">Log in</a>" in logged_out


def test_an_invite_into_a_cohort_names_it(client):
    cohort = Cohort.objects.create(name="Spring <2027>")
    _invite, url = invite_create(cohort=cohort)
    _plain, plain_url = invite_create()

    page = client.get(link_path(url)).content.decode()
    plain = client.get(link_path(plain_url)).content.decode()

    assert "You are invited to the class “Spring &lt;2027&gt;”." in page
    assert "You are invited to the class" not in plain


def revoke_inviter(inviter, cohort, how: str) -> None:
    if how == "deactivated":
        User.objects.filter(pk=inviter.pk).update(is_active=False)
    elif how == "not_staff":
        User.objects.filter(pk=inviter.pk).update(is_staff=False)
    elif how == "out_of_the_group":
        inviter.groups.clear()
    elif how == "no_longer_teaching":
        cohort.instructors.remove(inviter)
    else:  # the cohort deleted: the invite's cohort is set to none
        cohort.delete()


@pytest.mark.parametrize(
    "how",
    ["deactivated", "not_staff", "out_of_the_group", "no_longer_teaching", "cohort_deleted"],
)
def test_an_invite_ends_when_its_maker_can_no_longer_invite_into_its_cohort(client, how):
    inviter = UserFactory(username="teacher", is_staff=True)
    inviter.groups.add(Group.objects.get(name="Instructors"))
    cohort = Cohort.objects.create(name="Spring")
    cohort.instructors.add(inviter)
    _invite, url = invite_create(created_by=inviter, cohort=cohort)
    revoke_inviter(inviter, cohort, how)

    shown = client.get(link_path(url))
    posted = client.post(link_path(url), account_form(username="puppet"))

    assert (shown.status_code, posted.status_code) == (410, 410)
    assert "Whoever made it can no longer invite into this class." in posted.content.decode()
    assert not User.objects.filter(username="puppet").exists()
    assert Invite.objects.get().used_at is None


def test_an_invite_of_an_instructor_still_teaching_or_of_the_server_works(client):
    inviter = UserFactory(username="teacher", is_staff=True)
    inviter.groups.add(Group.objects.get(name="Instructors"))
    cohort = Cohort.objects.create(name="Spring")
    cohort.instructors.add(inviter)
    _mine, mine = invite_create(created_by=inviter, cohort=cohort)
    _served, served = invite_create(cohort=cohort)

    first = client.post(link_path(mine), account_form(username="grace"))
    client.logout()
    second = client.post(link_path(served), account_form(username="ada"))

    assert (first.status_code, second.status_code) == (302, 302)
    assert sorted(cohort.learners.values_list("username", flat=True)) == ["ada", "grace"]


def test_an_invite_ends_when_its_maker_is_deleted(client):
    """Deleting the maker's account sets the invite's maker to none, which is how an
    invite made on the server (`manage.py invite`) reads: it must not come back to life."""
    inviter = UserFactory(username="teacher", is_staff=True)
    inviter.groups.add(Group.objects.get(name="Instructors"))
    cohort = Cohort.objects.create(name="Spring")
    cohort.instructors.add(inviter)
    _invite, url = invite_create(created_by=inviter, cohort=cohort)
    inviter.delete()

    shown = client.get(link_path(url))
    posted = client.post(link_path(url), account_form(username="puppet"))

    assert (shown.status_code, posted.status_code) == (410, 410)
    assert not User.objects.filter(username="puppet").exists()
    assert cohort.learners.count() == 0


def test_invite_command_refuses_a_note_too_long_instead_of_cutting_it():
    with pytest.raises(CommandError, match="--note must be at most 200 characters"):
        call_command("invite", "--note", "n" * 201, stdout=StringIO())

    assert Invite.objects.count() == 0


@pytest.mark.parametrize(
    ("language", "said"),
    [
        ("en", "Invite link (shown only now, valid for 3 days): "),
        ("es", "Enlace de invitación (solo se muestra ahora, válido 3 días): "),
    ],
)
def test_the_invite_link_message_names_the_validity_the_invite_has(
    admin_client, monkeypatch, language, said
):
    """The message wrote "7 days" by hand beside the INVITE_VALID the invite is made
    with: one change of the constant and the admin told another validity."""
    from datetime import timedelta

    from accounts import services

    monkeypatch.setattr(services, "INVITE_VALID", timedelta(days=3))
    admin_client.post("/language/", {"language": language, "next": "/admin/"})

    response = admin_client.post("/admin/accounts/invite/add/", {"note": "x"}, follow=True)

    invite = Invite.objects.get()
    assert said in response.content.decode()
    assert (invite.expires_at - invite.created_at).days == 3


@pytest.mark.parametrize("kind", ["setup", "invite"])
def test_an_error_report_of_a_link_page_shows_no_password_typed_there(client, kind):
    """The password a link's form takes is hidden from Django's error reports, as on the
    login and password-change pages (red team 25): a report of a failure there would
    otherwise print it."""
    from django.views.debug import SafeExceptionReporterFilter

    if kind == "setup":
        out = StringIO()
        call_command("setup_link", stdout=out)
        url = out.getvalue().splitlines()[-1]
    else:
        _invite, url = invite_create()

    form = account_form("grace")
    form["password2"] = "not the same"  # the page again: the request stays to look at
    response = client.post(link_path(url), form)

    shown = SafeExceptionReporterFilter().get_post_parameters(response.wsgi_request)
    assert response.status_code == 200
    assert NEW_PASSWORD not in str(dict(shown)) and "not the same" not in str(dict(shown))


def test_an_instructor_ends_an_invite_of_their_class_from_the_list(client):
    """An invite handed to the wrong person, or leaked, is ended by its class's
    instructor (red team 25: it stayed valid for 7 days unless a superuser deleted it).
    Another class's invite, or a used one, is left as it is."""
    teacher = UserFactory(username="teacher", is_staff=True)
    teacher.groups.add(Group.objects.get(name="Instructors"))
    taught, other = Cohort.objects.create(name="Taught"), Cohort.objects.create(name="Other")
    taught.instructors.add(teacher)
    leaked, leaked_url = invite_create(created_by=teacher, cohort=taught)
    used, used_url = invite_create(created_by=teacher, cohort=taught)
    Client().post(link_path(used_url), account_form("lina"))
    theirs, theirs_url = invite_create(cohort=other)
    client.force_login(teacher)

    listed = client.get("/admin/accounts/invite/").content.decode()
    response = client.post(
        "/admin/accounts/invite/",
        {"action": "end_links", "_selected_action": [leaked.pk, used.pk, theirs.pk]},
        follow=True,
    )

    assert 'value="end_links"' in listed and "End the selected links now" in listed
    assert "1 link ended: it no longer works." in response.content.decode()
    assert "The others were used or had expired already." in response.content.decode()
    gone = Client().get(link_path(leaked_url))
    assert gone.status_code == 410 and "It has expired." in gone.content.decode()
    assert Client().get(link_path(theirs_url)).status_code == 200  # not theirs to end
    assert Invite.objects.get(pk=used.pk).used_by.username == "lina"
    event = AuditEvent.objects.get(kind=AuditKind.INVITE_ENDED)
    assert (event.user, event.detail["invite"], event.detail["cohort"]) == (
        teacher,
        leaked.pk,
        "Taught",
    )
