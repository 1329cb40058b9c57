"""The instructor's list of cohorts: how many verdicts wait in each, and who can be made
an instructor."""

import re

import pytest

from teaching.models import Cohort
from teaching.services import verdict_confirm
from tests.factories import UserFactory, answer

pytestmark = pytest.mark.django_db

TYPO = "the residual keeps an identty path"  # right only through a typo: unsure
SURE = "keeps the identity path"


def counts(html: str) -> dict[str, str]:
    """Cohort name → the To check cell's text, from the changelist."""
    rows = re.findall(r'<tr>.*?<a href="[^"]+/change/">([^<]+)</a>.*?</tr>', html, re.S)
    cells = re.findall(r'/to-check/">To check \((\d+)\)</a>', html)
    return dict(zip(rows, cells, strict=True))


def test_the_cohort_list_counts_the_verdicts_waiting_in_each(client, seeds_imported, instructor):
    spring, autumn = Cohort.objects.create(name="Spring"), Cohort.objects.create(name="Autumn")
    spring.instructors.add(instructor)
    autumn.instructors.add(instructor)
    ana, bea, cy = (UserFactory(username=n) for n in ("ana", "bea", "cy"))
    staff = UserFactory(username="tries", is_staff=True)
    spring.learners.add(ana, bea, staff)
    autumn.learners.add(cy, ana)  # ana is in both
    answer(ana, "q-10-03", text=TYPO)  # waiting, in both cohorts
    answer(bea, "q-10-03", text=TYPO)
    answer(bea, "q-10-03", text=SURE)  # bea's latest is sure: her doubt is moot
    checked = answer(cy, "q-10-03", text=TYPO)
    verdict_confirm(attempt=checked, by=instructor)  # checked already
    answer(staff, "q-10-03", text=TYPO)  # staff are left out
    client.force_login(instructor)

    html = client.get("/admin/teaching/cohort/").content.decode()

    assert counts(html) == {"Autumn": "1", "Spring": "1"}


def test_only_staff_accounts_can_be_made_instructors(client, seeds_imported, instructor):
    UserFactory(username="learner-ana")
    UserFactory(username="staff-bo", is_staff=True)
    cohort = Cohort.objects.create(name="Spring")
    cohort.instructors.add(instructor)
    client.force_login(UserFactory(username="root", is_staff=True, is_superuser=True))

    html = client.get(f"/admin/teaching/cohort/{cohort.pk}/change/").content.decode()

    instructors = html[
        html.index('name="instructors"') : html.index("</select>", html.index('name="instructors"'))
    ]
    assert "staff-bo" in instructors and "teach" in instructors
    assert "learner-ana" not in instructors


@pytest.mark.parametrize("cohorts", [1, 4])
def test_the_cohort_list_runs_fixed_queries(
    client, seeds_imported, instructor, django_assert_num_queries, cohorts
):
    for n in range(cohorts):
        cohort = Cohort.objects.create(name=f"Cohort {n}")
        cohort.instructors.add(instructor)
        learner = UserFactory(username=f"learner{n}")
        cohort.learners.add(learner)
        answer(learner, "q-10-03", text=TYPO)
    client.force_login(instructor)
    client.get("/admin/teaching/cohort/")

    # session, user, the user's permissions, two counts (filtered, total) and the page.
    with django_assert_num_queries(7):
        html = client.get("/admin/teaching/cohort/").content.decode()

    assert len(counts(html)) == cohorts


def test_a_cohorts_own_pages_leave_the_lists_counts_out(client, seeds_imported, instructor):
    """The counts are the list's: a cohort's results or To check page reads the cohort
    alone, not its learners' unsure answers a second time."""
    from django.db import connection
    from django.test.utils import CaptureQueriesContext

    cohort = Cohort.objects.create(name="Spring")
    cohort.instructors.add(instructor)
    client.force_login(instructor)

    with CaptureQueriesContext(connection) as queries:
        client.get(f"/admin/teaching/cohort/{cohort.pk}/results/")

    cohort_reads = [q["sql"] for q in queries if 'FROM "progress_cohort"' in q["sql"]]
    assert cohort_reads and not any("doubts" in sql for sql in cohort_reads)


def test_the_cohort_form_says_an_instructor_needs_the_instructors_group(admin_client):
    html = admin_client.get("/admin/teaching/cohort/add/").content.decode()

    assert "An instructor also needs the Instructors group" in html


def test_the_cohort_list_counts_learners_as_the_results_do(client, seeds_imported, instructor):
    """A staff member among a cohort's learners (an instructor invited to it) is left out
    of the list's count, as of the results' "Learners (n)"."""
    cohort = Cohort.objects.create(name="Spring")
    cohort.instructors.add(instructor)
    cohort.learners.add(UserFactory(username="ana"), UserFactory(username="bea"), instructor)
    client.force_login(instructor)

    listing = client.get("/admin/teaching/cohort/").content.decode()
    results = client.get(f"/admin/teaching/cohort/{cohort.pk}/results/").content.decode()

    assert re.search(r'<td class="field-learner_count">2</td>', listing)
    assert "Learners (2)" in results
