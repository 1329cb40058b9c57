"""The results' figures against an independent recomputation on a seeded random cohort."""

import math
import random

import pytest

from quizzes.models import Question
from teaching.models import Cohort
from teaching.selectors import cohort_results
from teaching.services import regrade_apply, regrade_plan, verdict_override
from tests.factories import UserFactory, answer
from tests.seeds import move_key_from_b_to_a

from .audit_reference import reference, upper_lower


def free_text(revision, right):
    if not right:
        return "no idea at all"
    return " and ".join(alternatives[0] for alternatives in revision.expected)


@pytest.fixture
def random_cohort(seeds_imported, instructor):
    rng = random.Random(23)
    cohort = Cohort.objects.create(name="Random")
    other = Cohort.objects.create(name="Other")
    questions = list(Question.objects.select_related("current_revision").order_by("code"))
    learners = [UserFactory(username=f"r{i:02d}") for i in range(40)]
    cohort.learners.add(*learners)
    other.learners.add(learners[0], UserFactory(username="outsider"))
    staff = UserFactory(username="staffer", is_staff=True)
    cohort.learners.add(staff)
    firsts = []
    for index, learner in enumerate(learners + [staff]):
        if index in (5, 6):
            continue  # two learners with nothing
        skill = rng.random()
        for q in questions:
            if rng.random() > 0.75:
                continue  # skipped
            revision = q.current_revision
            for n in range(rng.choice((1, 1, 2, 3))):
                good = rng.random() < skill
                if revision.kind == "free":
                    a = answer(learner, q.code, text=free_text(revision, good))
                else:
                    keys = [o["key"] for o in revision.options]
                    pick = rng.sample(keys, rng.choice((1, 2)) if revision.kind == "multi" else 1)
                    if good:
                        pick = [o["key"] for o in revision.options if o.get("correct")]
                    a = answer(learner, q.code, keys=pick)
                if n == 0:
                    firsts.append(a)
    move_key_from_b_to_a(seeds_imported)
    regrade_apply(plan=regrade_plan(questions=Question.objects.filter(code="q-10-01")))
    for a in rng.sample(firsts, 12):
        verdict_override(attempt=a, correct=not a.correct, reason="audit", by=instructor)
    return cohort


def close(a, b):
    if a is None or b is None:
        return a is None and b is None
    return math.isclose(a, b, abs_tol=1e-9)


MODES = ("first", "latest", "all")


def test_random_cohort_figures_match_the_textbook(random_cohort, settings):
    """In each mode, on one random cohort built once for the three (3–5 s a time)."""
    settings.RESULTS_MIN_LEARNERS = 10
    problems = [p for mode in MODES for p in figures_against_the_textbook(random_cohort, mode)]
    assert not problems, problems


def figures_against_the_textbook(random_cohort, mode) -> list:
    ref = reference(random_cohort, mode=mode)
    results = cohort_results(cohort=random_cohort, mode=mode)
    problems = []
    for r in results.reliabilities:
        want = ref["phases"][r.phase.pk]
        if (r.learners, r.questions) != (want["n"], want["k"]) or not close(r.alpha, want["kr20"]):
            problems.append(("kr20", r.phase.number, r.learners, r.alpha, want))
    for item in results.items:
        want = ref["items"][item.question.code]
        got = {
            "learners": item.learners,
            "first_right": item.first_right,
            "attempts": item.attempts,
        }
        for key, value in got.items():
            if value != want[key]:
                problems.append((item.question.code, key, value, want[key]))
        for key in ("facility", "item_rest"):
            if not close(getattr(item, key), want[key]):
                problems.append((item.question.code, key, getattr(item, key), want[key]))
        if not close(item.alpha_if_deleted, want["kr20_without"]):
            problems.append((item.question.code, "kr20-", item.alpha_if_deleted, want))
        if not item.question.current_revision.is_free and item.numeric is None:
            for key, r in want["option_r"].items():
                if not close(item.option_r.get(key), r):
                    problems.append((item.question.code, "opt", key, item.option_r.get(key), r))
            picks = {k: v for k, v in item.picks.items() if v}
            if picks != want["picks"]:
                problems.append((item.question.code, "picks", picks, want["picks"]))
    # Learner totals in the mode.
    for row in results.rows:
        want = ref["totals_mode"][row.learner_id]
        if row.correct != want:
            problems.append(("total", row.username, row.correct, want))
    return [(mode, *problem) for problem in problems]


def test_random_cohort_discrimination(random_cohort):
    """Kelley's upper–lower index on first tries, the same in every mode: the learners
    who answered anything, ranked by first-try total (ties by username), 27 % of them
    rounded to the nearest learner."""
    for mode in MODES:
        discrimination_against_the_textbook(random_cohort, mode)


def discrimination_against_the_textbook(random_cohort, mode):
    ref = reference(random_cohort, mode=mode)
    results = cohort_results(cohort=random_cohort, mode=mode)
    members, first, per = ref["members"], ref["first"], ref["per"]
    took = [lid for lid in members if any(key[0] == lid for key in per)]
    total = {lid: sum(v for (who, _q), v in first.items() if who == lid) for lid in took}
    ranked = sorted(took, key=lambda lid: (total[lid], members[lid]))
    group = int(len(ranked) * 0.27 + 0.5)  # 38 answered: 10.26, so 10
    assert group == 10
    for item in results.items:
        want = upper_lower(ref, item.question.code, ranked_ids=ranked, group=group)
        assert close(item.discrimination, want), (mode, item.question.code)
