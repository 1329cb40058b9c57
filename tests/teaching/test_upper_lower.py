"""The upper–lower index worked out by hand: first tries, the learners who answered,
27 % of them rounded to the nearest learner, ties at the cut broken by username."""

import pytest

from quizzes.models import Phase
from teaching.models import Cohort
from teaching.selectors import cohort_results
from tests.factories import UserFactory, answer

pytestmark = pytest.mark.django_db

# Keys right in the seeds: q-10-01 B, q-10-04 B, q-10-05 C.


def discrimination(cohort, code, mode="latest"):
    results = cohort_results(cohort=cohort, mode=mode, phase=Phase.objects.get(number=10))
    return {i.question.code: i for i in results.items}[code].discrimination


@pytest.fixture
def late_right(seeds_imported, settings):
    """First tries (1 = right) on q-10-01, q-10-04, q-10-05, and latest:
    ana 1 1 1 (first total 3, latest 3); bea 0 0 0 then right at all three (0, 3);
    cy 1 0 0 (1, 1); dot 0 1 0 (1, 1). Four learners: a group of round(1.08) = 1."""
    settings.RESULTS_MIN_LEARNERS = 1
    cohort = Cohort.objects.create(name="Late")
    people = {n: UserFactory(username=n) for n in ("ana", "bea", "cy", "dot")}
    cohort.learners.add(*people.values())
    for name, keys in (("ana", "BBC"), ("bea", "AAA"), ("cy", "BAA"), ("dot", "ABA")):
        for code, key in zip(("q-10-01", "q-10-04", "q-10-05"), keys, strict=True):
            answer(people[name], code, keys=[key])
    for code, key in (("q-10-01", "B"), ("q-10-04", "B"), ("q-10-05", "C")):
        answer(people["bea"], code, keys=[key])
    return cohort


@pytest.mark.parametrize("mode", ["latest", "first", "all"])
def test_upper_lower_ranks_by_first_try_totals_in_every_mode(late_right, mode):
    # By first-try totals (bea 0, cy 1, dot 1, ana 3) the bottom learner is bea, the
    # top ana: q-10-01 is right for ana, wrong for bea's first try, so (1 − 0) / 1 = 1.
    # Ranked by latest totals (cy 1, dot 1, ana 3, bea 3) the top was bea and the bottom
    # cy: (0 − 1) / 1 = −1, a "negative discrimination" the first tries do not show.
    assert discrimination(late_right, "q-10-01", mode) == 1.0


def test_upper_lower_leaves_out_learners_who_answered_nothing(seeds_imported, settings):
    # ana answers q-10-01 and q-10-04 right (total 2); bea, cy and dot q-10-01 right and
    # q-10-04 wrong (1 each); eve answered nothing. Among the four who answered, a group
    # of round(4 · .27) = 1: top ana, bottom bea (ties by username), both right at
    # q-10-01: (1 − 1) / 1 = 0, as for any question everyone got right. Counting eve,
    # who did not try it, as the bottom group made it 1.
    settings.RESULTS_MIN_LEARNERS = 1
    cohort = Cohort.objects.create(name="Quiet")
    people = {n: UserFactory(username=n) for n in ("ana", "bea", "cy", "dot", "eve")}
    cohort.learners.add(*people.values())
    for name in ("ana", "bea", "cy", "dot"):
        answer(people[name], "q-10-01", keys=["B"])
        answer(people[name], "q-10-04", keys=["B" if name == "ana" else "A"])

    assert discrimination(cohort, "q-10-01") == 0.0


def test_upper_lower_groups_are_27_percent_rounded_to_the_nearest(seeds_imported, settings):
    # Ten learners: 27 % is 2.7, so groups of 3 (2, by rounding down, is 20 %).
    # First tries on q-10-01, q-10-04: l0–l2 wrong, wrong (total 0); l3–l7 wrong, right
    # (1); l8, l9 right, right (2). Bottom 3: l0, l1, l2 (q-10-01: 0 right); top 3: l8,
    # l9 and, of the five tied at 1, the last by username, l7 (q-10-01 wrong): 2 right.
    # (2 − 0) / 3 = 0.6667; groups of 2 gave (2 − 0) / 2 = 1.
    settings.RESULTS_MIN_LEARNERS = 1
    cohort = Cohort.objects.create(name="Ten")
    for i in range(10):
        learner = UserFactory(username=f"l{i}")
        cohort.learners.add(learner)
        answer(learner, "q-10-01", keys=["B" if i >= 8 else "A"])
        answer(learner, "q-10-04", keys=["B" if i >= 3 else "A"])

    assert discrimination(cohort, "q-10-01") == pytest.approx(2 / 3)
