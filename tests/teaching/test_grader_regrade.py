"""Re-grading free answers that an older matcher graded: on request, dry run first,
each against the key its verdict stands on, recorded as regrade entries."""

from io import StringIO

import pytest
from django.contrib.auth.models import Group
from django.core.management import CommandError, call_command

from audit.enums import AuditKind
from audit.models import AuditEvent
from progress.models import Attempt, LearnerQuestion, Regrade
from progress.services import learner_question_rebuild
from quizzes.grading import GRADER_VERSION
from quizzes.models import Question
from tests.admin_forms import basis
from tests.factories import CohortFactory, UserFactory, answer

pytestmark = pytest.mark.django_db


@pytest.fixture
def old_grades(seeds_imported):
    """Two free answers as grader 1 left them: "identidades" (plural, Spanish) was
    wrong for the substring matcher and is right for grader 2; a choice answer and a
    free answer graded by grader 2 are not touched."""
    ana, bea = UserFactory(username="ana"), UserFactory(username="bea")
    stale = answer(ana, "q-10-03", text="las identidades")
    Attempt.objects.filter(pk=stale.pk).update(grader_version=1, correct=False, score=0.0)
    same = answer(bea, "q-10-03", text="no idea")
    Attempt.objects.filter(pk=same.pk).update(grader_version=1)
    answer(bea, "q-10-01", keys=["B"])
    Attempt.objects.filter(question__code="q-10-01").update(grader_version=1)
    answer(bea, "q-10-03", text="identity")  # grader 2 already
    learner_question_rebuild()
    return {"ana": ana, "bea": bea, "stale": stale}


def test_grader_regrade_dry_run_prints_the_plan_and_writes_nothing(old_grades):
    out = StringIO()

    call_command("regrade", "--grader", "--dry-run", "--verbosity", "2", stdout=out)

    assert out.getvalue().splitlines() == [
        "dry run: 1 attempt(s) change: 1 wrong → right, 0 right → wrong, 0 score only; "
        "1 unchanged, 0 skipped (options differ by key)",
        f"  q-10-03 attempt {old_grades['stale'].pk} of {old_grades['ana'].username}: "
        f"wrong → right (grader 1 → {GRADER_VERSION})",
    ]
    assert Regrade.objects.count() == 0


def test_grader_regrade_records_entries_on_the_attempts_own_revision(old_grades):
    call_command("regrade", "--grader", stdout=StringIO())

    entry = Regrade.objects.get()
    assert (entry.attempt_id, entry.kind, entry.reason) == (
        old_grades["stale"].pk,
        "regrade",
        f"grader 1 → {GRADER_VERSION}",
    )
    assert entry.revision == old_grades["stale"].revision
    assert (entry.old_correct, entry.new_correct, entry.new_score) == (False, True, 1.0)
    assert Attempt.objects.get(pk=old_grades["stale"].pk).correct is False
    standing = LearnerQuestion.objects.get(learner=old_grades["ana"], question__code="q-10-03")
    assert standing.latest_correct is True
    event = AuditEvent.objects.get(kind=AuditKind.REGRADE_RUN)
    assert (event.detail["grader"], event.detail["changed"]) == (GRADER_VERSION, 1)


def test_grader_regrade_twice_records_nothing_more(old_grades):
    call_command("regrade", "--grader", stdout=StringIO())
    out = StringIO()

    call_command("regrade", "--grader", stdout=out)

    assert out.getvalue().startswith("0 attempt(s) change: 0 wrong → right")
    assert Regrade.objects.count() == 1


def test_grader_regrade_limited_to_named_questions(old_grades):
    out = StringIO()

    call_command("regrade", "q-19-02", "--grader", "--dry-run", stdout=out)

    assert out.getvalue().startswith("dry run: 0 attempt(s) change")


def test_regrade_without_questions_or_grader_is_refused(old_grades):
    with pytest.raises(CommandError, match="Name the questions to regrade, or pass --grader"):
        call_command("regrade", stdout=StringIO())


def test_grader_regrade_admin_action_confirms_then_records(client, old_grades):
    instructor = UserFactory(username="teach", is_staff=True)
    instructor.groups.add(Group.objects.get(name="Instructors"))
    CohortFactory(name="A", learners=[old_grades["ana"]], instructors=[instructor])
    client.force_login(instructor)
    data = {
        "action": "regrade_grader",
        "_selected_action": [Question.objects.get(code="q-10-03").pk],
    }

    confirm = client.post("/admin/quizzes/question/", data)
    done = client.post(
        "/admin/quizzes/question/", data | {"confirm": "yes", "basis": basis(confirm)}, follow=True
    )

    confirm_html = " ".join(confirm.content.decode().split())
    assert f"graded again with the current one (grader {GRADER_VERSION})" in confirm_html
    assert "1 attempt goes from wrong to right" in confirm_html
    assert '<input type="hidden" name="action" value="regrade_grader">' in confirm_html
    assert "1 regrade entry recorded (1 now right, 0 now wrong)." in done.content.decode()
    assert list(Regrade.objects.values_list("reason", "by__username")) == [
        (f"grader 1 → {GRADER_VERSION}", "teach")
    ]


def test_grader_regrade_admin_action_leaves_cohorts_not_taught_alone(client, old_grades):
    instructor = UserFactory(username="teach", is_staff=True)
    instructor.groups.add(Group.objects.get(name="Instructors"))
    CohortFactory(name="A", learners=[old_grades["bea"]], instructors=[instructor])
    CohortFactory(name="B", learners=[old_grades["ana"]])
    client.force_login(instructor)
    data = {
        "action": "regrade_grader",
        "_selected_action": [Question.objects.get(code="q-10-03").pk],
    }

    confirm = client.post("/admin/quizzes/question/", data)
    client.post("/admin/quizzes/question/", data | {"confirm": "yes", "basis": basis(confirm)})

    confirm_html = " ".join(confirm.content.decode().split())
    assert "It touches only the learners of the cohorts you teach: A (1 learner)." in confirm_html
    assert "0 attempts change in all" in confirm_html
    assert Regrade.objects.count() == 0
