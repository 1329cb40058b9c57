"""An instructor's verdict override: one attempt marked right or wrong with a reason,
stored as a new row, audited, and followed by standings, results and reviews."""

import re
from urllib.parse import quote

import pytest
from django.contrib.auth.models import Group
from django.core.exceptions import ValidationError

from audit.enums import AuditKind
from audit.models import AuditEvent
from progress.models import Attempt, LearnerQuestion, Regrade, ReviewCard
from teaching import admin
from teaching.models import Cohort
from teaching.services import verdict_override
from tests.factories import UserFactory, answer

pytestmark = pytest.mark.django_db


@pytest.fixture
def cohort(seeds_imported, instructor):
    cohort = Cohort.objects.create(name="Spring")
    cohort.instructors.add(instructor)
    cohort.learners.add(UserFactory(username="ana"))
    return cohort


@pytest.fixture
def free_attempt(cohort):
    """ana's free answer that the key misses: a phrasing the matcher does not know."""
    return answer(cohort.learners.get(), "q-10-03", text="the skip path keeps x as is")


def seen_on_drill_down(client, cohort, attempt) -> str:
    """The verdict entry the learner's drill-down shows its override form over."""
    page = client.get(f"/admin/teaching/cohort/{cohort.pk}/results/learner/{attempt.learner_id}/")
    return re.search(r'name="seen" value="(\d+)"', page.content.decode()).group(1)


def assert_second_tab_refused(client, cohort, attempt, seen: str) -> None:
    """A second tab's override, "wrong", sent over `seen` after "right, same idea" was
    recorded: nothing recorded, the page says why and gives the reason back to copy."""
    second = client.post(
        override_url(cohort, attempt),
        {"verdict": "wrong", "seen": seen, "reason": "second tab"},
        follow=True,
    )

    assert "changed since the page was shown (it is now right): nothing was recorded" in (
        second.content.decode()
    )
    assert "What you wrote: “second tab”" in second.content.decode()  # to send again
    assert list(Regrade.objects.values_list("new_correct", "reason")) == [(True, "same idea")]


def override_url(cohort, attempt):
    return (
        f"/admin/teaching/cohort/{cohort.pk}/results/learner/{attempt.learner_id}"
        f"/attempt/{attempt.pk}/override/"
    )


def test_verdict_override_writes_an_entry_and_leaves_the_attempt(free_attempt, instructor):
    entry = verdict_override(
        attempt=free_attempt, correct=True, reason="  same idea,\n in other words ", by=instructor
    )

    free_attempt.refresh_from_db()
    assert (free_attempt.correct, free_attempt.score) == (False, 0.0)
    assert (entry.kind, entry.revision, entry.old_correct, entry.new_correct) == (
        "override",
        None,
        False,
        True,
    )
    assert (entry.new_score, entry.reason, entry.by) == (
        1.0,
        "same idea, in other words",
        instructor,
    )
    verdict = Attempt.objects.get(pk=free_attempt.pk).verdict()
    assert (verdict.correct, verdict.source, verdict.reason) == (
        True,
        "override",
        "same idea, in other words",
    )


def test_verdict_override_updates_standing_and_audits(free_attempt, instructor):
    verdict_override(attempt=free_attempt, correct=True, reason="right idea", by=instructor)

    standing = LearnerQuestion.objects.get(learner=free_attempt.learner, question__code="q-10-03")
    assert (standing.first_correct, standing.latest_correct, standing.ever_correct) == (
        True,
        True,
        True,
    )
    event = AuditEvent.objects.get(kind=AuditKind.VERDICT_OVERRIDDEN)
    assert (event.user, event.subject) == (instructor, "ana")
    assert event.detail == {
        "attempt": free_attempt.pk,
        "question": "q-10-03",
        "old_correct": False,
        "new_correct": True,
        "reason": "right idea",
    }


def test_verdict_override_to_wrong_brings_the_question_back_for_review(cohort, instructor):
    attempt = answer(cohort.learners.get(), "q-10-01", keys=["B"])  # right as answered
    assert not ReviewCard.objects.filter(learner=attempt.learner).exists()

    verdict_override(attempt=attempt, correct=False, reason="copied", by=instructor)

    card = ReviewCard.objects.get(learner=attempt.learner)
    assert (card.question.code, card.learned_at) == ("q-10-01", None)
    standing = LearnerQuestion.objects.get(learner=attempt.learner, question__code="q-10-01")
    assert (standing.latest_correct, standing.latest_score) == (False, 0.0)


@pytest.mark.parametrize("reason", ["", "   \n "])
def test_verdict_override_without_reason_is_refused(free_attempt, instructor, reason):
    with pytest.raises(ValidationError):
        verdict_override(attempt=free_attempt, correct=True, reason=reason, by=instructor)

    assert Regrade.objects.count() == 0
    assert AuditEvent.objects.filter(kind=AuditKind.VERDICT_OVERRIDDEN).count() == 0


def test_override_form_records_and_the_drill_down_shows_it(
    client, cohort, free_attempt, instructor
):
    client.force_login(instructor)

    response = client.post(
        override_url(cohort, free_attempt),
        {"verdict": "right", "seen": "0", "reason": "same idea"},
        follow=True,
    )

    html = " ".join(response.content.decode().split())
    assert "Attempt by ana at q-10-03 of " in html and " marked right.</li>" in html
    # Back at the row, which says so (the message above may be scrolled out of view).
    assert response.redirect_chain[-1][0].endswith(
        f"?done={free_attempt.pk}#attempt-{free_attempt.pk}"
    )
    assert (
        '<td class="verdict-now"> <p class="done" role="status">'
        "Your verdict is recorded.</p> <strong>right</strong> (marked by an instructor)"
    ) in html
    assert "right (instructor&#x27;s override, " in html and ": <bdi>same idea</bdi>)" in html
    assert list(Regrade.objects.values_list("kind", "new_correct", "by__username")) == [
        ("override", True, "teach")
    ]


def test_an_override_from_a_page_shown_before_another_verdict_records_nothing(
    client, cohort, free_attempt, instructor
):
    """Two tabs of the drill-down: the first marks the answer right; the second, shown
    before that, must not replace it unseen with its own verdict and reason."""
    client.force_login(instructor)
    seen = seen_on_drill_down(client, cohort, free_attempt)
    first = {"verdict": "right", "seen": seen, "reason": "same idea"}
    client.post(override_url(cohort, free_attempt), first)

    assert_second_tab_refused(client, cohort, free_attempt, seen)


def test_two_overrides_sent_at_once_from_one_page_record_one(
    client, cohort, free_attempt, instructor, monkeypatch
):
    """(Red team 13) Four posts of one page's forms at once (a double click, two tabs
    sent together) all passed the page's `seen` check before any was written, and all
    four were recorded, the last replacing the others unseen. Here the other post is
    written between this one's check and its write; the check under the attempt's lock
    refuses this one."""
    client.force_login(instructor)
    seen = seen_on_drill_down(client, cohort, free_attempt)

    def another_post_first(**kwargs):
        verdict_override(attempt=free_attempt, correct=True, reason="same idea", by=instructor)
        return verdict_override(**kwargs)

    monkeypatch.setattr(admin, "verdict_override", another_post_first)

    assert_second_tab_refused(client, cohort, free_attempt, seen)

    assert AuditEvent.objects.filter(kind=AuditKind.VERDICT_OVERRIDDEN).count() == 1


def test_override_form_without_reason_records_nothing(client, cohort, free_attempt, instructor):
    client.force_login(instructor)

    response = client.post(
        override_url(cohort, free_attempt),
        {"verdict": "right", "seen": "0", "reason": ""},
        follow=True,
    )

    assert "This field is required." in response.content.decode()
    assert Regrade.objects.count() == 0


def test_override_of_another_cohorts_learner_is_404(client, cohort, instructor):
    other = Cohort.objects.create(name="Autumn")
    bea = UserFactory(username="bea")
    other.learners.add(bea)
    attempt = answer(bea, "q-10-01", keys=["A"])
    client.force_login(instructor)
    data = {"verdict": "right", "seen": "0", "reason": "x"}

    via_own_cohort = client.post(override_url(cohort, attempt), data)
    via_other_cohort = client.post(override_url(other, attempt), data)
    wrong_learner = client.post(
        f"/admin/teaching/cohort/{cohort.pk}/results/learner/"
        f"{cohort.learners.get().pk}/attempt/{attempt.pk}/override/",
        data,
    )

    assert (via_own_cohort.status_code, via_other_cohort.status_code) == (404, 404)
    assert wrong_learner.status_code == 404
    assert Regrade.objects.count() == 0


def test_override_by_get_is_refused(client, cohort, free_attempt, instructor):
    client.force_login(instructor)

    response = client.get(override_url(cohort, free_attempt))

    assert response.status_code == 405
    assert Regrade.objects.count() == 0


def test_override_needs_a_csrf_token(cohort, free_attempt, instructor):
    from django.test import Client

    client = Client(enforce_csrf_checks=True)
    client.force_login(instructor)

    response = client.post(
        override_url(cohort, free_attempt), {"verdict": "right", "seen": "0", "reason": "x"}
    )

    assert response.status_code == 403
    assert Regrade.objects.count() == 0


def test_override_by_staff_without_regrade_permission_is_403(client, cohort, free_attempt):
    helper = UserFactory(username="helper", is_staff=True)
    cohort.instructors.add(helper)
    helper.user_permissions.add(
        *Group.objects.get(name="Instructors").permissions.exclude(codename="run_regrade")
    )
    client.force_login(helper)

    response = client.post(
        override_url(cohort, free_attempt), {"verdict": "right", "seen": "0", "reason": "x"}
    )
    page = client.get(
        f"/admin/teaching/cohort/{cohort.pk}/results/learner/{free_attempt.learner_id}/"
    )

    assert response.status_code == 403
    assert "Override…" not in page.content.decode()
    assert Regrade.objects.count() == 0


def test_regrade_leaves_an_overridden_attempt_alone(free_attempt, instructor):
    from teaching.services import grader_regrade_plan

    verdict_override(attempt=free_attempt, correct=True, reason="right idea", by=instructor)
    Attempt.objects.filter(pk=free_attempt.pk).update(grader_version=1)

    plan = grader_regrade_plan()

    assert (len(plan.changes), plan.unchanged, plan.overridden) == (0, 0, 1)


def test_regrade_list_shows_the_override_and_its_reason(client, free_attempt, instructor):
    verdict_override(attempt=free_attempt, correct=True, reason="same idea", by=instructor)
    client.force_login(instructor)

    html = " ".join(client.get("/admin/progress/regrade/").content.decode().split())

    assert '<td class="field-kind">instructor&#x27;s override</td>' in html
    assert '<td class="field-verdict_change">wrong → right</td>' in html
    assert '<td class="field-reason_shown">same idea</td>' in html


@pytest.mark.parametrize("language", ["en", "es"])
def test_override_message_names_the_time_zone(client, cohort, free_attempt, instructor, language):
    client.force_login(instructor)
    client.post("/language/", {"language": language, "next": "/"})
    client.cookies["tz"] = "Asia/Tokyo"

    response = client.post(
        override_url(cohort, free_attempt),
        {"verdict": "right", "seen": "0", "reason": "same idea"},
        follow=True,
    )

    message = (
        response.content.decode()
        .split('<ul class="messagelist" tabindex="-1" autofocus>', 1)[1]
        .split("</ul>")[0]
    )
    assert "q-10-03" in message
    assert " JST " in message


def test_regrade_leaves_a_confirmed_verdict_alone(cohort, instructor):
    from teaching.services import grader_regrade_plan, regrade_apply, verdict_confirm

    # Wrong only through a negation: provisional; the instructor confirms it stands.
    attempt = answer(cohort.learners.get(), "q-10-03", text="it is not the identity")
    verdict_confirm(attempt=attempt, by=instructor)
    Attempt.objects.filter(pk=attempt.pk).update(grader_version=1)
    plan = grader_regrade_plan()

    assert (len(plan.changes), plan.unchanged, plan.confirmed) == (0, 0, 1)
    assert plan.summary().endswith("1 kept (confirmed by an instructor)")
    assert regrade_apply(plan=plan) == 0


def test_a_confirm_written_after_the_plan_is_not_undone_by_applying_it(cohort, instructor):
    from teaching.services import grader_regrade_plan, regrade_apply, verdict_confirm

    attempt = answer(cohort.learners.get(), "q-10-03", text="it is not the identity")
    Attempt.objects.filter(pk=attempt.pk).update(grader_version=1, correct=True, score=1.0)
    plan = grader_regrade_plan()  # would turn the stored "right" back to wrong
    assert len(plan.changes) == 1
    verdict_confirm(attempt=Attempt.objects.get(pk=attempt.pk), by=instructor)

    assert regrade_apply(plan=plan) == 0
    assert Attempt.objects.get(pk=attempt.pk).verdict().source == "confirm"


def test_a_rebuild_that_leaves_a_wrong_verdict_wrong_leaves_its_review_alone(cohort, instructor):
    from datetime import timedelta

    from django.utils import timezone

    from progress.services import learner_question_rebuild

    learner = cohort.learners.get()
    first = answer(learner, "q-10-01", keys=["A"])  # wrong
    answer(learner, "q-10-01", keys=["C"])  # wrong again: the latest
    later = timezone.now() + timedelta(days=3)
    ReviewCard.objects.filter(learner=learner).update(due=later)  # reviewed meanwhile

    # An override of the older attempt: the latest verdict is still wrong.
    verdict_override(attempt=first, correct=True, reason="fine", by=instructor)
    learner_question_rebuild(pairs={(learner.pk, first.question_id)})

    assert ReviewCard.objects.get(learner=learner).due == later


def test_an_override_sent_after_the_session_ended_logs_in_back_to_its_page(
    client, cohort, free_attempt, instructor
):
    drill_down = f"/admin/teaching/cohort/{cohort.pk}/results/learner/{free_attempt.learner_id}/"

    response = client.post(
        override_url(cohort, free_attempt),
        {"verdict": "right", "seen": "0", "reason": "same idea"},
        headers={"Referer": f"http://testserver{drill_down}"},
        follow=True,
    )

    # Not back to the override's address, which takes POSTs only (a 405 after login).
    assert response.redirect_chain[-1][0] == f"/admin/login/?next={quote(drill_down)}"
    assert "that form was not recorded. Send it again." in response.content.decode()
    assert "What you wrote: “same idea”" in response.content.decode()  # not lost
    assert Regrade.objects.count() == 0


def test_a_reason_not_recorded_is_shown_back_visible_and_in_the_readers_language():
    from django.utils import translation

    from portal.http import typed_back

    with translation.override("es"):
        shown = typed_back("  misma\u202e  idea\n")

    assert shown == " Lo que escribiste: «misma idea»"  # no override turning it round
    assert typed_back(" \n ") == ""  # nothing typed, nothing added
