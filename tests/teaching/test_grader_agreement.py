"""The grader and you: for each question, of the cohort's answers an instructor
confirmed or overrode, how many the grader had as the instructor did first."""

import re

import pytest

from teaching.agreement import grader_agreement
from teaching.models import Cohort
from teaching.services import verdict_confirm, verdict_override
from tests.factories import UserFactory, answer
from tests.teaching.unsure import NEGATED, SHORT, SURE, TYPO, learner_in

pytestmark = pytest.mark.django_db


def figures(cohort):
    return [(a.question.code, a.checked, a.agreed) for a in grader_agreement(cohort=cohort)]


def test_confirms_agree_overrides_do_not_and_a_teacher_changing_their_mind_counts_once(
    cohort, instructor
):
    ana, bea, cy = (learner_in(cohort, n) for n in ("ana", "bea", "cy"))
    verdict_confirm(attempt=answer(ana, "q-10-03", text=TYPO), by=instructor)
    wrongly_rejected = answer(bea, "q-10-03", text=NEGATED)
    verdict_override(attempt=wrongly_rejected, correct=True, reason="Fine", by=instructor)
    # Marked right, then back: the first word was a disagreement; it counts once.
    verdict_override(attempt=wrongly_rejected, correct=False, reason="No", by=instructor)
    # A sure verdict overridden from the drill-down counts too.
    verdict_override(
        attempt=answer(cy, "q-10-03", text=SURE), correct=False, reason="Too short", by=instructor
    )
    short = answer(ana, "q-19-05", text=SHORT)
    verdict_confirm(attempt=short, by=instructor)
    answer(bea, "q-19-05", text=SHORT)  # unchecked: not counted

    assert figures(cohort) == [("q-10-03", 3, 1), ("q-19-05", 1, 1)]


def test_only_the_cohorts_learners_count(cohort, instructor):
    other = Cohort.objects.create(name="Other")
    zed = UserFactory(username="zed")
    other.learners.add(zed)
    verdict_confirm(attempt=answer(zed, "q-10-03", text=TYPO), by=instructor)

    assert figures(cohort) == []
    assert figures(other) == [("q-10-03", 1, 1)]


def test_the_to_check_page_shows_it_even_with_nothing_left_to_check(client, cohort, instructor):
    ana, bea = learner_in(cohort, "ana"), learner_in(cohort, "bea")
    verdict_confirm(attempt=answer(ana, "q-10-03", text=TYPO), by=instructor)
    attempt = answer(bea, "q-10-03", text=NEGATED)
    verdict_override(attempt=attempt, correct=True, reason="Fine", by=instructor)
    client.force_login(instructor)

    html = " ".join(
        client.get(f"/admin/teaching/cohort/{cohort.pk}/to-check/").content.decode().split()
    )

    assert "Nothing to check." in html
    assert '<h2 id="agreement">The grader and you</h2>' in html
    row = re.search(r'<tbody> <tr> <th scope="row">q-10-03 · [^<]+</th> (.*?)</tr>', html)
    assert row and row.group(1) == "<td>2</td> <td>1 (50%)</td> "


def test_with_nothing_checked_there_is_no_table(client, cohort, instructor):
    answer(learner_in(cohort, "ana"), "q-10-03", text=TYPO)
    client.force_login(instructor)

    html = client.get(f"/admin/teaching/cohort/{cohort.pk}/to-check/").content.decode()

    assert "The grader and you" not in html


def test_it_speaks_spanish(client, cohort, instructor):
    verdict_confirm(attempt=answer(learner_in(cohort, "ana"), "q-10-03", text=TYPO), by=instructor)
    client.force_login(instructor)
    client.post("/language/", {"language": "es", "next": "/"})

    html = client.get(f"/admin/teaching/cohort/{cohort.pk}/to-check/").content.decode()

    assert "El corrector y tú" in html and "El corrector coincidió" in html
    assert "1 (100\u00a0%)" in html
