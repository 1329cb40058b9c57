"""The shared factories make what the tests rely on."""

import pytest

from progress.models import LearnerQuestion
from tests.factories import AttemptFactory, CohortFactory, UserFactory

pytestmark = pytest.mark.django_db


def test_attempt_factory_records_through_the_service(seeds_imported):
    attempt = AttemptFactory(code="q-10-01", keys=["B"])

    assert (attempt.correct, attempt.question.code) == (True, "q-10-01")
    assert LearnerQuestion.objects.get(learner=attempt.learner).latest_attempt == attempt


def test_cohort_factory_takes_members(db):
    ana, teach = UserFactory(username="ana"), UserFactory(username="teach")

    cohort = CohortFactory(learners=[ana], instructors=[teach])

    assert list(cohort.learners.all()) == [ana]
    assert list(cohort.instructors.all()) == [teach]
