"""How the admin names an attempt: by its learner, question and moment in the viewer's
time zone, as the rest of its page, never by database ids and a UTC time (UX walk 26)."""

from datetime import UTC, datetime

import pytest
import time_machine

from accounts.models import Profile
from teaching.models import Cohort
from teaching.services import verdict_override
from tests.factories import UserFactory, answer

pytestmark = pytest.mark.django_db

NAME = "ana · q-10-01 · Jan. 6, 2027, 8:30 a.m. JST"  # not the UTC 23:30 of the 5th


@pytest.fixture
def overridden(seeds_imported, instructor):
    ana = UserFactory(username="ana")
    cohort = Cohort.objects.create(name="Taught")
    cohort.instructors.add(instructor)
    cohort.learners.add(ana)
    Profile.objects.filter(user=instructor).update(time_zone="Asia/Tokyo")
    with time_machine.travel(datetime(2027, 1, 5, 23, 30, tzinfo=UTC), tick=False):
        attempt = answer(ana, "q-10-01", keys=["B"])
        return verdict_override(attempt=attempt, correct=False, reason="Say why.", by=instructor)


def test_an_attempts_page_names_it_by_learner_question_and_local_moment(
    client, instructor, overridden
):
    client.force_login(instructor)

    html = client.get(f"/admin/progress/attempt/{overridden.attempt_id}/change/").content

    assert f"<h2>{NAME}</h2>".encode() in html


def test_a_regrades_page_names_its_attempt_the_same_way(client, instructor, overridden):
    client.force_login(instructor)

    html = client.get(f"/admin/progress/regrade/{overridden.pk}/change/").content.decode()

    assert f'/admin/progress/attempt/{overridden.attempt_id}/change/">{NAME}</a>' in html
