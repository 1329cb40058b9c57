"""Fixtures for the instructors' tests."""

from datetime import UTC, datetime, timedelta

import pytest
import time_machine
from django.contrib.auth.models import Group
from fsrs import Rating

from progress.models import ReviewCard
from quizzes.models import Question
from teaching.models import Cohort
from teaching.services import regrade_apply, regrade_plan, verdict_override
from tests.factories import UserFactory, answer
from tests.seeds import move_key_from_b_to_a

# The memory tests' clock: the world below is built from START, read at NOW.
START = datetime(2027, 3, 1, 9, 0, tzinfo=UTC)
NOW = START + timedelta(days=10, hours=3)
WEEK = timedelta(days=7)


@pytest.fixture
def instructor(db):
    """A staff account in the Instructors group, teaching no cohort yet."""
    user = UserFactory(username="teach", is_staff=True)
    user.groups.add(Group.objects.get(name="Instructors"))
    return user


@pytest.fixture
def cohort(seeds_imported, instructor):
    """Spring, taught by the instructor, no learners yet (files whose cohort holds some
    define their own)."""
    cohort = Cohort.objects.create(name="Spring")
    cohort.instructors.add(instructor)
    return cohort


@pytest.fixture
def world(seeds_imported, instructor):
    """ana right once; bea wrong once (a card); cy's card reviewed three times (wrong,
    then right on two due days: learned); dot right, then her first answer regraded
    wrong after a key change while her latest stays right (no card); eve right twice,
    her first answer overridden wrong (no card); fay right once, overridden wrong (a
    card made for review, never reviewed); gus no answer. Staff left out."""
    cohort = Cohort.objects.create(name="Spring")
    cohort.instructors.add(instructor)
    names = ("ana", "bea", "cy", "dot", "eve", "fay", "gus")
    people = {name: UserFactory(username=name) for name in names}
    staff = UserFactory(username="staffer", is_staff=True)
    cohort.learners.add(*people.values(), staff)
    with time_machine.travel(START, tick=False):
        answer(people["ana"], "q-10-05", keys=["C"])
        answer(people["bea"], "q-10-01", keys=["A"])
        answer(people["cy"], "q-10-04", keys=["A"])
        answer(people["dot"], "q-10-01", keys=["B"])
        eve_first = answer(people["eve"], "q-10-02", keys=["A", "C"])
        fay_only = answer(people["fay"], "q-10-02", keys=["A", "C"])
        answer(staff, "q-10-01", keys=["A"])
    with time_machine.travel(START + timedelta(hours=1), tick=False):
        answer(people["eve"], "q-10-02", keys=["A", "C"])
    cy_reviews = [(Rating.Again, START)]
    with time_machine.travel(START + timedelta(days=1), tick=False):
        answer(people["cy"], "q-10-04", keys=["B"])
        cy_reviews.append((Rating.Good, START + timedelta(days=1)))
    second_due = ReviewCard.objects.get(learner=people["cy"]).due
    with time_machine.travel(second_due, tick=False):
        answer(people["cy"], "q-10-04", keys=["B"])
        cy_reviews.append((Rating.Good, second_due))
    with time_machine.travel(START + timedelta(days=2), tick=False):
        move_key_from_b_to_a(seeds_imported)  # B was right, A is now
        answer(people["dot"], "q-10-01", keys=["A"])  # right under the new key
        regrade_apply(plan=regrade_plan(questions=Question.objects.filter(code="q-10-01")))
        verdict_override(attempt=eve_first, correct=False, reason="copied", by=instructor)
        verdict_override(attempt=fay_only, correct=False, reason="copied", by=instructor)
    return {"cohort": cohort, "people": people, "cy_reviews": cy_reviews}


@pytest.fixture
def edited(seeds_imported):
    """q-10-01's key moved from B to A by an import: ana was right under revision 1 and
    is wrong under 2, bea the other way round; bea's q-10-02 is untouched."""
    ana, bea = UserFactory(username="ana"), UserFactory(username="bea")
    answer(ana, "q-10-01", keys=["B"])  # right under r1, wrong under r2
    answer(bea, "q-10-01", keys=["A"])  # wrong under r1, right under r2
    answer(bea, "q-10-02", keys=["A"])  # another question: untouched
    dry_run = move_key_from_b_to_a(seeds_imported)
    return {"ana": ana, "bea": bea, "dry_run": dry_run}
