"""Item statistics checked against values worked out by hand on a 5 × 3 matrix.

First tries (1 = right), learners L1…L5, items q-10-01, q-10-02, q-10-04:
    L1 1 1 1 (T 3)   L2 1 1 0 (2)   L3 1 0 0 (1)   L4 0 1 0 (1)   L5 0 0 0 (0)
n 5, mean T 1.4, var T 15/5 − 1.96 = 1.04 (population variances throughout).
Item 1: p .6, var x .24, cov(x, T) 6/5 − .6 · 1.4 = .36; the rest R = T − x has
var 1.04 + .24 − .72 = .56 and cov(x, R) = .36 − .24 = .12, so r = .12 / √(.24 · .56)
= 0.3273. Option A of item 1 (picked by L4 only, rest 1): cov .2 − .2 · .8 = .04,
r = .04 / √(.16 · .56) = 0.1336; option C (L5, rest 0): −.16 / √(.0896) = −0.5345.
KR-20 over the three items: Σpq .24 + .24 + .16 = .64, 3/2 · (1 − .64/1.04) = 0.5769;
without item 3 the totals are 2 2 1 1 0, var .56, Σpq .48: 2 · (1 − .48/.56) = 0.2857.
"""

from io import StringIO

import pytest
from django.contrib.auth.models import Group
from django.core.management import call_command

from quizzes.models import Phase, Question
from teaching.models import Cohort
from teaching.selectors import cohort_results
from teaching.statistics import (
    Totals,
    item_rest_correlation,
    kr20,
    kr20_if_deleted,
    option_point_biserial,
)
from tests.factories import UserFactory, answer

TOTALS = Totals(n=5, total=7, squares=15)
RIGHTS, RIGHT_TOTALS = [3, 3, 1], [6, 6, 3]


def test_item_rest_correlation_matches_hand_computation():
    assert item_rest_correlation(totals=TOTALS, right=3, right_total=6) == pytest.approx(
        0.12 / (0.24 * 0.56) ** 0.5
    )
    assert round(item_rest_correlation(totals=TOTALS, right=3, right_total=6), 4) == 0.3273


def test_option_point_biserial_marks_a_working_distractor_negative():
    def r(picked, rest):
        return option_point_biserial(
            totals=TOTALS, right=3, right_total=6, picked=picked, picked_rest=rest
        )

    assert round(r(1, 1), 4) == 0.1336
    assert round(r(1, 0), 4) == -0.5345
    assert round(r(3, 3), 4) == 0.3273  # the right option: the item-rest r itself


def test_kr20_and_kr20_if_deleted_match_hand_computation():
    assert round(kr20(totals=TOTALS, rights=RIGHTS), 4) == 0.5769
    assert (
        round(kr20_if_deleted(totals=TOTALS, rights=RIGHTS, right_totals=RIGHT_TOTALS, index=2), 4)
        == 0.2857
    )


def test_statistics_are_none_when_undefined():
    everyone = Totals(n=4, total=8, squares=16)  # all four learners scored 2

    assert item_rest_correlation(totals=everyone, right=4, right_total=8) is None
    assert kr20(totals=everyone, rights=[4, 4]) is None


@pytest.fixture
def matrix_cohort(seeds_imported):
    """The matrix above, answered on phase 10 (q-10-03 and q-10-05 left untried)."""
    cohort = Cohort.objects.create(name="Matrix")
    picks = {
        "l1": ("B", "AC", "B"),
        "l2": ("B", "AC", "A"),
        "l3": ("B", "A", "A"),
        "l4": ("A", "AC", "A"),
        "l5": ("C", "A", "A"),
    }
    for name, keys in picks.items():
        learner = UserFactory(username=name)
        cohort.learners.add(learner)
        for code, chosen in zip(("q-10-01", "q-10-02", "q-10-04"), keys, strict=True):
            answer(learner, code, keys=list(chosen))
    staff = UserFactory(username="teacher-trying", is_staff=True)
    cohort.learners.add(staff)
    answer(staff, "q-10-01", keys=["C"])  # staff: left out of every figure
    return cohort


def test_results_item_statistics_from_the_database(matrix_cohort, settings):
    settings.RESULTS_MIN_LEARNERS = 5

    results = cohort_results(cohort=matrix_cohort, phase=Phase.objects.get(number=10))

    items = {item.question.code: item for item in results.items}
    first = items["q-10-01"]
    assert (first.learners, first.first_right) == (5, 3)
    assert round(first.item_rest, 4) == 0.3273
    assert {key: round(r, 4) for key, r in first.option_r.items() if r is not None} == {
        "A": 0.1336,
        "B": 0.3273,
        "C": -0.5345,
    }
    assert first.option_r["D"] is None  # nobody picked it: no variance
    # Five questions in phase 10, two untried (p = 0): 5/4 · (1 − .64/1.04).
    [phase] = results.reliabilities
    assert (phase.learners, phase.questions, round(phase.alpha, 4)) == (5, 5, 0.4808)
    # Without q-10-04, four questions: 4/3 · (1 − .48/.56).
    assert round(items["q-10-04"].alpha_if_deleted, 4) == 0.1905


def test_results_page_says_too_few_to_judge_under_ten_learners(client, matrix_cohort):
    instructor = UserFactory(username="teach", is_staff=True)
    instructor.groups.add(Group.objects.get(name="Instructors"))
    matrix_cohort.instructors.add(instructor)
    client.force_login(instructor)

    html = " ".join(
        client.get(f"/admin/teaching/cohort/{matrix_cohort.pk}/results/?phase=10")
        .content.decode()
        .split()
    )

    row = html[html.index(">q-10-01</a>") : html.index(">q-10-02</a>")]
    assert '<td>5</td> <td>5</td> <td colspan="4" class="too-few">too few to judge</td>' in row
    assert "r 0." not in row
    assert ">teacher-trying<" not in html
    assert Question.objects.get(code="q-10-01").attempts.count() == 6


def test_item_statistics_leave_out_a_question_an_import_retired(
    matrix_cohort, seeds_imported, settings
):
    # Without q-10-04 the totals are 2 2 1 1 0: mean 1.2, var T 10/5 − 1.44 = .56. Item 1
    # (x 1 1 1 0 0): cov(x, T) 5/5 − .6 · 1.2 = .28, var R .56 + .24 − .56 = .24,
    # cov(x, R) .04, so r = .04 / .24 = 0.1667; KR-20 over the four questions left is
    # q-10-04's KR-20-if-deleted before, 0.1905.
    settings.RESULTS_MIN_LEARNERS = 5
    path = seeds_imported / "phase-10-init-norm-residuals.yaml"
    text = path.read_text()
    path.write_text(
        text[: text.index("  - id: q-10-04")] + text[text.index("  - id: q-10-05") :], "utf-8"
    )
    call_command("import_quizzes", str(seeds_imported), stdout=StringIO())

    results = cohort_results(cohort=matrix_cohort, phase=Phase.objects.get(number=10))

    items = {item.question.code: item for item in results.items}
    assert "q-10-04" not in items
    assert round(items["q-10-01"].item_rest, 4) == 0.1667
    [phase] = results.reliabilities
    assert (phase.learners, phase.questions, round(phase.alpha, 4)) == (5, 4, 0.1905)


def test_mentions_missed_as_often_are_marked_together():
    """Two mentions each missed by every answer: marking one hid the other."""
    from teaching.selectors.item_figures import ItemStats

    stats = ItemStats(
        question=None,
        mention_misses=[("identity", 2), ("large gradient", 4), ("clipping", 4)],
        free_answers=4,
    )

    assert stats.miss_rates == [
        ("identity", 2, 0.5, False),
        ("large gradient", 4, 1.0, True),
        ("clipping", 4, 1.0, True),
    ]
    # One mention, or none missed: nothing to single out.
    one = ItemStats(question=None, mention_misses=[("identity", 2)], free_answers=4)
    assert one.miss_rates == [("identity", 2, 0.5, False)]
    none = ItemStats(question=None, mention_misses=[("a", 0), ("b", 0)], free_answers=4)
    assert [most for *_rest, most in none.miss_rates] == [False, False]
