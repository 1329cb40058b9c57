"""Regrades and key changes seen by an instructor: only the cohorts they teach; a
superuser's cover everyone."""

from io import StringIO

import pytest
from django.contrib.auth import get_user_model
from django.contrib.auth.models import Group
from django.core.management import call_command

from audit.enums import AuditKind
from audit.models import AuditEvent
from progress.models import Regrade
from quizzes.models import Question
from teaching.impact import key_changes
from teaching.models import Cohort
from teaching.scope import learners_taught
from teaching.services import regrade_plan
from tests.admin_forms import basis
from tests.factories import CohortFactory, UserFactory

pytestmark = pytest.mark.django_db
User = get_user_model()


@pytest.fixture
def two_cohorts(edited):
    """Ana in cohort A, taught by `teach`; Bea in cohort B, which `teach` does not teach."""
    instructor = UserFactory(username="teach", is_staff=True)
    instructor.groups.add(Group.objects.get(name="Instructors"))
    CohortFactory(name="A", learners=[edited["ana"]], instructors=[instructor])
    CohortFactory(name="B", learners=[edited["bea"]])
    return edited | {"teach": instructor}


def test_key_changes_page_counts_only_the_instructors_cohorts(client, two_cohorts):
    client.force_login(two_cohorts["teach"])

    html = " ".join(client.get("/admin/quizzes/question/key-changes/").content.decode().split())

    assert (
        ">q-10-01</a> Why is bf16 preferred over fp16 for training?</th> "
        '<td>B</td> <td>A</td> <td><ul class="plain"><li>correct: B → A</li></ul></td> '
        "<td>1</td> <td>1</td>" in html
    )


def test_regrade_action_of_an_instructor_writes_only_their_cohorts(client, two_cohorts):
    client.force_login(two_cohorts["teach"])
    question = Question.objects.get(code="q-10-01")
    data = {"action": "regrade", "_selected_action": [question.pk]}

    confirm = client.post("/admin/quizzes/question/", data)
    done = client.post(
        "/admin/quizzes/question/", data | {"confirm": "yes", "basis": basis(confirm)}, follow=True
    )

    confirm_html = " ".join(confirm.content.decode().split())
    assert "It touches only the learners of the cohorts you teach: A (1 learner)." in confirm_html
    assert "0 attempts go from wrong to right" in confirm_html
    assert "1 attempt goes from right to wrong" in confirm_html
    assert "1 regrade entry recorded (0 now right, 1 now wrong)." in done.content.decode()
    assert list(Regrade.objects.values_list("attempt__learner__username", "by__username")) == [
        ("ana", "teach")
    ]
    event = AuditEvent.objects.get(kind=AuditKind.REGRADE_RUN)
    assert event.detail["cohorts"] == ["A"]


def test_regrade_action_of_an_instructor_without_cohorts_touches_no_one(client, two_cohorts):
    loner = UserFactory(username="loner", is_staff=True)
    loner.groups.add(Group.objects.get(name="Instructors"))
    client.force_login(loner)
    question = Question.objects.get(code="q-10-01")
    data = {"action": "regrade", "_selected_action": [question.pk], "confirm": "yes"}

    confirm = client.post("/admin/quizzes/question/", data | {"confirm": ""})
    client.post("/admin/quizzes/question/", data)

    assert "You teach no cohort: it touches no one." in confirm.content.decode()
    assert Regrade.objects.count() == 0


def test_regrade_action_of_a_superuser_covers_every_learner(admin_client, two_cohorts):
    question = Question.objects.get(code="q-10-01")
    data = {"action": "regrade", "_selected_action": [question.pk]}

    confirm = admin_client.post("/admin/quizzes/question/", data)
    admin_client.post(
        "/admin/quizzes/question/", data | {"confirm": "yes", "basis": basis(confirm)}
    )

    assert "It touches every learner, in every cohort." in confirm.content.decode()
    assert sorted(Regrade.objects.values_list("attempt__learner__username", flat=True)) == [
        "ana",
        "bea",
    ]


def test_regrade_plan_and_key_changes_of_an_instructor_leave_other_cohorts_out(two_cohorts):
    question = Question.objects.get(code="q-10-01")
    learners = learners_taught(two_cohorts["teach"])

    plan = regrade_plan(questions=[question], learners=learners)
    everyone = regrade_plan(questions=[question], learners=learners_taught(User(is_superuser=True)))
    (change,) = key_changes(questions=[question], learners=learners)

    assert [c.attempt.learner.username for c in plan.changes] == ["ana"]
    assert [c.attempt.learner.username for c in everyone.changes] == ["ana", "bea"]
    assert (change.learners, change.attempts) == (1, 1)


@pytest.mark.parametrize("language", ["en", "es"])
def test_key_changes_page_drops_a_question_once_regraded(client, two_cohorts, language):
    client.force_login(two_cohorts["teach"])
    client.post("/language/", {"language": language, "next": "/"})
    listed_before = (
        ">q-10-01</a>" in client.get("/admin/quizzes/question/key-changes/").content.decode()
    )

    call_command("regrade", "q-10-01", stdout=StringIO())

    html = client.get("/admin/quizzes/question/key-changes/").content.decode()
    assert listed_before is True
    assert ">q-10-01</a>" not in html


def test_an_instructors_regrade_leaves_a_staff_account_among_their_learners_alone(
    client, two_cohorts
):
    """Ana, promoted to teach cohort B, is still listed among A's learners: A's pages
    count her nowhere (staff), so A's instructor may not rewrite her verdicts either."""
    ana = two_cohorts["ana"]
    ana.is_staff = True
    ana.save(update_fields=["is_staff"])
    Cohort.objects.get(name="B").instructors.add(ana)
    client.force_login(two_cohorts["teach"])
    question = Question.objects.get(code="q-10-01")
    data = {"action": "regrade", "_selected_action": [question.pk]}

    changes_html = client.get("/admin/quizzes/question/key-changes/").content.decode()
    revisions = client.get(f"/admin/quizzes/question/{question.pk}/change/")
    confirm = client.post("/admin/quizzes/question/", data)
    client.post("/admin/quizzes/question/", data | {"confirm": "yes", "basis": basis(confirm)})

    confirm_html = " ".join(confirm.content.decode().split())
    revisions_html = " ".join(revisions.content.decode().split())
    assert ">q-10-01</a>" not in changes_html
    assert revisions_html.count('<td class="field-attempt_count"> <p>0</p> </td>') == 2
    assert "It touches only the learners of the cohorts you teach: A (0 learners)." in confirm_html
    assert "1 attempt goes from right to wrong" not in confirm_html
    assert Regrade.objects.count() == 0
