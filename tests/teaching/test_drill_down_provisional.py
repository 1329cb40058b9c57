"""The drill-down sends an instructor to To check only for the attempt To check lists:
the learner's latest at the question. An older unsure attempt is provisional, no more."""

import pytest
from django.contrib.auth.models import Group

from teaching.models import Cohort
from tests.factories import UserFactory, answer

NEGATED = "The residual is not the identity."  # unsure: wrong only through a negation


@pytest.fixture
def instructor(db):
    user = UserFactory(username="teach", is_staff=True)
    user.groups.add(Group.objects.get(name="Instructors"))
    return user


def test_only_the_latest_unsure_attempt_is_marked_to_check(seeds_imported, client, instructor):
    cohort = Cohort.objects.create(name="Spring")
    cohort.instructors.add(instructor)
    ana = UserFactory(username="ana")
    cohort.learners.add(ana)
    older = answer(ana, "q-10-03", text=NEGATED)
    newer = answer(ana, "q-10-03", text=NEGATED)
    assert older.provisional() and newer.provisional()
    client.force_login(instructor)

    html = client.get(f"/admin/teaching/cohort/{cohort.pk}/results/learner/{ana.pk}/")
    rows = " ".join(html.content.decode().split()).split('<tr id="attempt-')

    newer_row = next(r for r in rows if r.startswith(f'{newer.pk}"'))
    older_row = next(r for r in rows if r.startswith(f'{older.pk}"'))
    assert "(provisional: to check)" in newer_row
    assert "(provisional)" in older_row and "to check" not in older_row
