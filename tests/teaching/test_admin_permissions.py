"""Who may do what in the admin: learners nothing, instructors look and invite, nobody
edits attempts."""

import pytest
from django.contrib.auth.models import Group

from accounts.models import Invite
from accounts.services import invite_create, invite_redeem
from audit.enums import AuditKind
from audit.models import AuditEvent
from progress.models import Attempt
from teaching.models import Cohort
from tests.factories import PASSWORD, UserFactory, answer

pytestmark = pytest.mark.django_db


@pytest.fixture
def attempt(seeds_imported, instructor):
    ana = UserFactory(username="ana")
    cohort = Cohort.objects.create(name="Taught")
    cohort.instructors.add(instructor)
    cohort.learners.add(ana)
    return answer(ana, "q-10-01", keys=["B"])


def test_instructors_group_has_exactly_the_planned_permissions(db):
    codenames = set(
        Group.objects.get(name="Instructors").permissions.values_list("codename", flat=True)
    )

    assert codenames == {
        "view_user",
        "view_invite",
        "add_invite",
        "view_passwordlink",
        "add_passwordlink",
        "view_auditevent",
        "view_cohort",
        "view_attempt",
        "view_regrade",
        "run_regrade",
        "view_phase",
        "view_question",
        "view_questionrevision",
    }


def test_learner_gets_no_admin(client, attempt):
    client.force_login(attempt.learner)

    for url in (
        "/admin/",
        "/admin/progress/attempt/",
        f"/admin/progress/attempt/{attempt.pk}/change/",
    ):
        response = client.get(url)
        assert response.status_code == 302, url
        assert response["Location"].startswith("/admin/login/"), url


@pytest.mark.parametrize("who", ["instructor", "superuser"])
def test_nobody_changes_or_deletes_attempts(client, instructor, admin_user, attempt, who):
    client.force_login(instructor if who == "instructor" else admin_user)
    before = list(Attempt.objects.values())

    view = client.get(f"/admin/progress/attempt/{attempt.pk}/change/")
    post = client.post(f"/admin/progress/attempt/{attempt.pk}/change/", {"correct": "on"})
    delete = client.post(f"/admin/progress/attempt/{attempt.pk}/delete/", {"post": "yes"})

    assert view.status_code == 200
    assert 'name="_save"' not in view.content.decode()
    assert post.status_code == 403
    assert delete.status_code == 403
    assert list(Attempt.objects.values()) == before


def test_instructor_sees_only_their_cohorts(client, instructor):
    mine = Cohort.objects.create(name="Mine")
    mine.instructors.add(instructor)
    Cohort.objects.create(name="Theirs")
    client.force_login(instructor)

    html = client.get("/admin/teaching/cohort/").content.decode()

    assert ">Mine<" in html
    assert ">Theirs<" not in html


def test_instructor_invites_into_their_cohort(client, instructor):
    mine = Cohort.objects.create(name="Mine")
    mine.instructors.add(instructor)
    client.force_login(instructor)

    response = client.post(
        "/admin/accounts/invite/add/", {"note": "x", "cohort": mine.pk}, follow=True
    )

    assert "Invite link (shown only now" in response.content.decode()
    assert Invite.objects.get().cohort == mine


def test_an_instructor_of_one_cohort_finds_it_chosen_on_the_invite_form(client, instructor):
    mine = Cohort.objects.create(name="Mine")
    mine.instructors.add(instructor)
    client.force_login(instructor)

    form = client.get("/admin/accounts/invite/add/").context["adminform"].form
    assert form.initial["cohort"] == mine.pk

    Cohort.objects.create(name="Second").instructors.add(instructor)
    form = client.get("/admin/accounts/invite/add/").context["adminform"].form
    assert "cohort" not in form.initial  # two to choose from: the instructor chooses


def test_an_instructors_invite_names_one_of_their_cohorts(client, admin_client, instructor):
    Cohort.objects.create(name="Mine").instructors.add(instructor)
    client.force_login(instructor)

    response = client.post("/admin/accounts/invite/add/", {"note": "x", "cohort": ""})

    # A learner in no cohort would be in none of the instructor's lists.
    assert "This field is required." in response.content.decode()
    assert not Invite.objects.exists()
    # An administrator may still invite someone into no cohort.
    admin_client.post("/admin/accounts/invite/add/", {"note": "y", "cohort": ""})
    assert Invite.objects.get().cohort is None


def test_redeeming_a_cohort_invite_makes_a_member(client, db):
    cohort = Cohort.objects.create(name="Spring")
    _invite, url = invite_create(cohort=cohort)

    client.post(
        url.replace("http://127.0.0.1:8000", ""),
        {"username": "lina", "password1": PASSWORD, "password2": PASSWORD, "language": "en"},
    )

    assert list(cohort.learners.values_list("username", flat=True)) == ["lina"]


def test_instructor_cannot_edit_quiz_content_or_users(client, instructor, seeds_imported):
    client.force_login(instructor)
    learner = UserFactory(username="ana")
    cohort = Cohort.objects.create(name="Taught")
    cohort.instructors.add(instructor)
    cohort.learners.add(learner)

    assert client.get("/admin/quizzes/question/add/").status_code == 403
    assert (
        client.post(f"/admin/auth/user/{learner.pk}/change/", {"username": "x"}).status_code == 403
    )
    assert client.get("/admin/auth/user/").status_code == 200


def test_audit_log_is_read_only_and_filterable(admin_client, db):
    AuditEvent.objects.create(kind=AuditKind.LOGIN, subject="ana")

    listing = admin_client.get("/admin/audit/auditevent/?kind=login")

    assert listing.status_code == 200
    assert "ana" in listing.content.decode()
    assert admin_client.get("/admin/audit/auditevent/add/").status_code == 403
    event = AuditEvent.objects.get(subject="ana")
    event.subject = "changed"
    with pytest.raises(ValueError, match="append-only"):
        event.save()


def test_import_run_is_audited(seeds_imported):
    event = AuditEvent.objects.get(kind=AuditKind.IMPORT_RUN)

    assert event.detail["summary"] == "added: 10, changed: 0, retired: 0, unchanged: 0"


def test_the_learners_picker_offers_learners_and_keeps_a_staff_member_already_in(admin_client):
    cohort = Cohort.objects.create(name="Evening")
    learner = UserFactory(username="lena")
    staff = UserFactory(username="sam-staff", is_staff=True)
    UserFactory(username="tom-staff", is_staff=True)
    cohort.learners.add(staff)

    add = admin_client.get("/admin/teaching/cohort/add/").context["adminform"].form
    change = admin_client.get(f"/admin/teaching/cohort/{cohort.pk}/change/")
    form = change.context["adminform"].form

    assert set(add.fields["learners"].queryset) == {learner}
    assert set(form.fields["learners"].queryset) == {learner, staff}
    assert "created_at" not in form.fields  # shown, not edited
    assert "Learner accounts only" in change.content.decode()


def test_the_instructors_picker_says_what_it_offers_not_how_to_hold_control(admin_client):
    html = admin_client.get("/admin/teaching/cohort/add/").content.decode()

    assert "An instructor also needs the Instructors group" in html
    assert "Hold down" not in html


def test_the_cohort_form_shows_its_creation_time_once_there_is_one(admin_client):
    cohort = Cohort.objects.create(name="Evening")

    add = admin_client.get("/admin/teaching/cohort/add/").content.decode()
    change = admin_client.get(f"/admin/teaching/cohort/{cohort.pk}/change/").content.decode()

    assert "field-created_at" not in add  # nothing to show before it is saved
    assert "field-created_at" in change


def test_an_invite_without_a_note_is_named_in_the_viewers_language(admin_client):
    invite_create()
    admin_client.post("/language/", {"language": "es", "next": "/admin/"})

    html = admin_client.get("/admin/accounts/invite/").content.decode()

    assert "invitación " in html
    assert ">invite " not in html


def test_another_instructor_in_my_cohort_stays_out_of_my_scope(client, instructor):
    """A staff account among a cohort's learners (promoted, still a member) is left
    out of what the cohort's instructor reads, as it is of every figure: its audit
    trail holds another cohort's overrides and reasons (red team 10)."""
    mine = Cohort.objects.create(name="Mine")
    mine.instructors.add(instructor)
    other = UserFactory(username="otherteach", is_staff=True)
    mine.learners.add(other)
    learner = UserFactory(username="learnb")
    mine.learners.add(learner)
    AuditEvent.objects.create(
        kind=AuditKind.LOGIN, user=other, subject="Secret note about a cohort B learner"
    )
    AuditEvent.objects.create(kind=AuditKind.LOGIN, user=learner, subject="learnb logged in")
    client.force_login(instructor)

    audit = client.get("/admin/audit/auditevent/").content.decode()
    page = client.get(f"/admin/auth/user/{other.pk}/change/")

    assert "learnb logged in" in audit
    assert "Secret note" not in audit
    assert page.status_code == 404
    assert client.get(f"/admin/auth/user/{learner.pk}/change/").status_code == 200


def test_the_attempts_list_shows_the_latest_first(client, instructor, attempt):
    later = answer(attempt.learner, "q-10-02", keys=["A"])
    client.force_login(instructor)

    html = client.get("/admin/progress/attempt/").content.decode()

    assert html.index(f"/admin/progress/attempt/{later.pk}/") < html.index(
        f"/admin/progress/attempt/{attempt.pk}/"
    )


def test_an_instructor_no_longer_teaching_a_cohort_sees_none_of_its_invites(client, instructor):
    """Their own invites into a cohort they have left named its learners (who used them)
    and the cohort, in a list that shows nothing else of it (red team 19)."""
    mine = Cohort.objects.create(name="Mine")
    left = Cohort.objects.create(name="Left")
    mine.instructors.add(instructor)
    left.instructors.add(instructor)
    invite, url = invite_create(created_by=instructor, note="for the left", cohort=left)
    invite_redeem(
        token=url.rstrip("/").rsplit("/", 1)[1], username="lee", password=PASSWORD, language="en"
    )
    left.instructors.remove(instructor)
    client.force_login(instructor)

    listed = client.get("/admin/accounts/invite/").content.decode()
    page = client.get(f"/admin/accounts/invite/{invite.pk}/change/")

    assert "for the left" not in listed
    assert "lee" not in listed
    assert ">Left<" not in listed
    assert page.status_code == 404


def test_a_failed_login_sent_from_a_learners_session_is_nobodys_event(client, instructor):
    """The admin's login form takes posts from a learner already logged in (on a shared
    classroom computer, the session left open): a failed login there was recorded as
    that learner's event, and their cohort's instructor read in the learner's audit
    trail the names typed at the admin's login (another cohort's instructor, the
    superuser, a password typed in the name box) with the address and time (red team 23).
    A failed login is nobody's, whoever's session it came through."""
    mine = Cohort.objects.create(name="Mine")
    mine.instructors.add(instructor)
    learner = UserFactory(username="lena")
    mine.learners.add(learner)
    client.force_login(learner)

    client.post("/admin/login/", {"username": "teachb", "password": "Mistyped-pass-1"})
    client.post("/admin/login/", {"username": "teachb", "password": "Mistyped-pass-2"})

    failed = AuditEvent.objects.filter(kind=AuditKind.LOGIN_FAILED)
    assert failed.count() == 2
    assert list(failed.values_list("user", flat=True)) == [None, None]
    client.force_login(instructor)
    audit = client.get("/admin/audit/auditevent/").content.decode()
    assert "teachb" not in audit


def test_failed_logins_recorded_as_a_learners_before_are_not_shown_to_their_instructor(
    client, instructor
):
    """Failed and refused logins recorded before red team 23 with the learner whose
    session they came through: nobody's events, shown to superusers only."""
    mine = Cohort.objects.create(name="Mine")
    mine.instructors.add(instructor)
    learner = UserFactory(username="lena")
    mine.learners.add(learner)
    for kind in (AuditKind.LOGIN_FAILED, AuditKind.LOGIN_REFUSED):
        AuditEvent.objects.create(kind=kind, user=learner, subject="typedbyanother")
    AuditEvent.objects.create(kind=AuditKind.LOGIN, user=learner, subject="lena")
    client.force_login(instructor)

    audit = client.get("/admin/audit/auditevent/").content.decode()
    event = AuditEvent.objects.filter(subject="typedbyanother").first()

    assert "typedbyanother" not in audit
    assert ">lena<" in audit
    assert client.get(f"/admin/audit/auditevent/{event.pk}/change/").status_code == 404
