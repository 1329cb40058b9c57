"""A regrade records the attempts it graded again and left as they stood, so the
key-changes page stops listing a key change a regrade has already dealt with."""

from io import StringIO

from django.core.management import call_command

from progress.models import Regrade
from teaching.impact import key_changes
from teaching.models import RegradeCheck
from tests.factories import UserFactory, answer
from tests.seeds import move_key_from_b_to_a


def test_a_regrade_that_changes_no_verdict_still_clears_the_key_change(seeds_imported):
    cy = UserFactory(username="cy")
    answer(cy, "q-10-01", keys=["C"])  # wrong under B and under A: the regrade changes nothing
    move_key_from_b_to_a(seeds_imported)
    assert [(c.question.code, c.attempts) for c in key_changes()] == [("q-10-01", 1)]

    call_command("regrade", "q-10-01", stdout=StringIO())

    assert Regrade.objects.count() == 0  # nothing changed, so no new verdict
    assert RegradeCheck.objects.count() == 1
    assert key_changes() == []


def test_a_dry_run_records_no_check_and_a_second_regrade_no_second_one(seeds_imported):
    cy = UserFactory(username="cy")
    answer(cy, "q-10-01", keys=["C"])
    move_key_from_b_to_a(seeds_imported)

    call_command("regrade", "q-10-01", "--dry-run", stdout=StringIO())
    assert RegradeCheck.objects.count() == 0
    assert len(key_changes()) == 1

    call_command("regrade", "q-10-01", stdout=StringIO())
    call_command("regrade", "q-10-01", stdout=StringIO())
    assert RegradeCheck.objects.count() == 1


def test_a_regrade_for_a_new_grader_records_no_check(seeds_imported):
    from progress.models import Attempt

    answer(UserFactory(username="cy"), "q-10-03", text="no idea")
    Attempt.objects.update(grader_version=1)  # graded by an older matcher

    call_command("regrade", "--grader", stdout=StringIO())

    assert RegradeCheck.objects.count() == 0  # against its own key: nothing to check off


def test_an_instructors_confirmation_after_the_check_keeps_the_key_change_cleared(
    seeds_imported,
):
    """A confirmation lets the verdict stand on the key it stood on: it moves no verdict
    to another key, so the regrade's check of the attempt still holds."""
    from progress.enums import VerdictSource
    from progress.models import Attempt

    cy = UserFactory(username="cy")
    answer(cy, "q-10-01", keys=["C"])
    move_key_from_b_to_a(seeds_imported)
    call_command("regrade", "q-10-01", stdout=StringIO())
    attempt = Attempt.objects.get(learner=cy)
    Regrade.objects.create(  # as verdict_confirm writes it: on the key the verdict stood on
        attempt=attempt,
        kind=VerdictSource.CONFIRM,
        revision=attempt.revision,
        old_correct=False,
        old_score=0.0,
        new_correct=False,
        new_score=0.0,
        new_partial=0.0,
    )

    assert key_changes() == []
