"""The invite list's state column says what the invite's link would answer now."""

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext

from accounts.services import invite_create
from teaching.models import Cohort
from tests.factories import UserFactory

pytestmark = pytest.mark.django_db


def test_an_invite_whose_maker_no_longer_teaches_its_cohort_reads_revoked(client, instructor):
    """Its link answers 410 "revoked" (red team 18), yet the list said "Not used yet" to
    the cohort's other instructors and to an administrator (review of the day's diff)."""
    cohort = Cohort.objects.create(name="Spring")
    cohort.instructors.add(instructor)
    invite_create(created_by=instructor, note="from the one who left", cohort=cohort)
    colleague = UserFactory(username="colleague", is_staff=True)
    colleague.groups.add(*instructor.groups.all())
    cohort.instructors.add(colleague)
    invite_create(created_by=colleague, note="from the one who stays", cohort=cohort)
    cohort.instructors.remove(instructor)
    client.force_login(colleague)

    rows = client.get("/admin/accounts/invite/").content.decode().split("<tr")
    stays = next(row for row in rows if "from the one who stays" in row)
    left = next(row for row in rows if "from the one who left" in row)

    assert "Not used yet" in stays
    assert "Not used yet" not in left
    assert "Revoked" in left


def test_the_list_checks_a_makers_right_once_per_maker_and_cohort(client, instructor):
    """Twenty unused invites of one maker: the rights are read once, not per row."""
    cohort = Cohort.objects.create(name="Spring")
    cohort.instructors.add(instructor)
    client.force_login(instructor)
    invite_create(created_by=instructor, note="one", cohort=cohort)
    with CaptureQueriesContext(connection) as one:
        client.get("/admin/accounts/invite/")
    for n in range(19):
        invite_create(created_by=instructor, note=f"more {n}", cohort=cohort)
    with CaptureQueriesContext(connection) as twenty:
        response = client.get("/admin/accounts/invite/")

    assert response.content.decode().count("Not used yet") == 20
    assert len(twenty.captured_queries) == len(one.captured_queries)
