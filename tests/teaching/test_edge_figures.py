"""Edge cases of the item analysis, worked out by hand."""

import pytest

from quizzes.models import Phase
from teaching.models import Cohort
from teaching.selectors import cohort_results
from tests.factories import UserFactory, answer

pytestmark = pytest.mark.django_db


def phase10(cohort):
    return cohort_results(cohort=cohort, phase=Phase.objects.get(number=10))


@pytest.mark.parametrize("key", ["B", "A"])  # all right, all wrong
def test_zero_variance_leaves_kr20_and_r_undefined(seeds_imported, settings, key):
    # Ten learners, the same first try at q-10-01 and q-10-04: every total is equal
    # (var T = 0), so KR-20, item–rest r and KR-20 without it are undefined (None, "–");
    # facility is 1 or 0, upper–lower (groups of round(2.7) = 3) is 0.
    settings.RESULTS_MIN_LEARNERS = 10
    cohort = Cohort.objects.create(name="Same")
    for i in range(10):
        learner = UserFactory(username=f"s{i}")
        cohort.learners.add(learner)
        answer(learner, "q-10-01", keys=[key])
        answer(learner, "q-10-04", keys=[key])
    results = phase10(cohort)
    [phase] = results.reliabilities
    assert (phase.judged, phase.learners, phase.alpha) == (True, 10, None)
    item = {i.question.code: i for i in results.items}["q-10-01"]
    assert item.facility == (1.0 if key == "B" else 0.0)
    assert (item.item_rest, item.alpha_if_deleted, item.discrimination) == (None, None, 0.0)


def test_one_learner(seeds_imported, settings):
    # One learner: no upper–lower group (round(.27) = 0), no variance.
    settings.RESULTS_MIN_LEARNERS = 1
    cohort = Cohort.objects.create(name="One")
    learner = UserFactory(username="solo")
    cohort.learners.add(learner)
    answer(learner, "q-10-01", keys=["B"])
    results = phase10(cohort)
    item = {i.question.code: i for i in results.items}["q-10-01"]
    assert (item.facility, item.discrimination, item.item_rest) == (1.0, None, None)
    assert results.reliabilities[0].alpha is None


@pytest.mark.parametrize(
    ("share", "shown"),
    [
        (0.125, "13%"),
        (0.195, "20%"),
        (0.5, "50%"),
        (23 / 40, "58%"),
        (29 / 200, "15%"),
        (None, "–"),
    ],
)
def test_a_share_shows_as_a_percentage_rounded_half_up(share, shown):
    # round() takes halves to the even number: 12.5 % would show "12%". 23 of 40 is
    # 57.5 %, though 23 / 40 * 100 is 57.49999999999999 as a float.
    from quizzes.templatetags.quiz_text import percent

    assert percent(share) == shown


@pytest.mark.parametrize(("right", "flagged"), [(39, False), (38, True)])
def test_low_facility_is_flagged_as_the_page_shows_it(right, flagged):
    # 39 of 200 is 19.5 %, shown "20%": not "under 20%"; 38 of 200, 19 %, is.
    from teaching.selectors.item_figures import ItemStats

    item = ItemStats(question=None, first_right=right, learners=200, judged=True)

    assert ("low facility" in item.flags) is flagged
