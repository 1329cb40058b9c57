"""The home page with a course of many phases: the phase to go on with first, then a
compact list, at a fixed cost."""

import re

import pytest

from tests.factories import answer

pytestmark = pytest.mark.django_db

HOME_BYTES = 40_000  # 95 phases measured 29.4 kB: ~280 bytes a line


def _text(response) -> str:
    return " ".join(response.content.decode().split())


def _current(html: str) -> str:
    match = re.search(r'<section class="current-phase".*?</section>', html, re.S)
    return match.group(0) if match else ""


def test_home_with_95_phases_lists_each_on_one_line_in_fixed_queries(
    make_phases, learner_client, learner, django_assert_num_queries
):
    codes = make_phases(95, questions=4)
    for phase in codes[:30]:
        for code in phase:
            answer(learner, code, keys=["A"], text="zebraword")
    answer(learner, codes[41][0], keys=["B"])
    answer(learner, codes[40][1], keys=["A"])  # the newest answer: phase 41

    learner_client.get("/")  # the first page of a login counts the badge

    with django_assert_num_queries(5):  # session, user, phases, questions, standings
        response = learner_client.get("/")

    html = _text(response)
    assert len(response.content) <= HOME_BYTES, len(response.content)
    assert html.count('<li class="phase-row') == 95
    assert html.index('class="current-phase"') < html.index('class="phase-grid"')
    current = _current(html)
    assert "Phase 41: Generated</h2>" in current
    assert 'href="/phase/41/#q-41-00">Continue' in current
    assert html.count("phase-row is-mastered") == 30  # every answer right
    assert html.count("phase-row is-started") == 2
    assert '<li class="phase-row is-started is-current">' in html
    assert "1 of 4 answered, 0 right" in html  # phase 42's line, for screen readers


def test_home_newcomer_starts_at_the_first_phase(make_phases, learner_client):
    make_phases(3, questions=2)

    current = _current(_text(learner_client.get("/")))

    assert "Next up</span> Phase 1: Generated</h2>" in current
    assert 'href="/phase/1/#q-01-00">Start' in current


def test_home_after_finishing_the_latest_phase_goes_on_with_the_next_one_left(
    make_phases, learner_client, learner
):
    codes = make_phases(4, questions=2)
    answer(learner, codes[3][0], keys=["A"])  # phase 4 begun earlier
    for code in codes[1]:
        answer(learner, code, keys=["A"], text="zebraword")  # phase 2 finished last

    current = _current(_text(learner_client.get("/")))

    assert "Next up</span> Phase 3: Generated</h2>" in current


def test_home_when_only_earlier_phases_are_left_wraps_to_the_first(
    make_phases, learner_client, learner
):
    codes = make_phases(3, questions=1)
    for code in (codes[2][0], codes[1][0]):
        answer(learner, code, keys=["A"], text="zebraword")

    current = _current(_text(learner_client.get("/")))

    assert "Phase 1: Generated</h2>" in current


def test_home_with_every_question_answered_says_so(make_phases, learner_client, learner):
    codes = make_phases(2, questions=1)
    for phase in codes:
        answer(learner, phase[0], keys=["A"])

    html = _text(learner_client.get("/"))

    assert _current(html) == ""
    assert "You have answered every question of every phase." in html


def test_home_with_every_question_answered_points_to_the_reviews_due(
    make_phases, learner_client, learner
):
    """(UX walk 36) Every question answered, the home page said so and stopped there,
    while reviews were due: it now links to them, counted."""
    from django.utils import timezone

    from progress.models import ReviewCard

    codes = make_phases(2, questions=1)
    answer(learner, codes[0][0], keys=["B"])  # wrong: a card
    answer(learner, codes[1][0], keys=["A"])
    ReviewCard.objects.update(due=timezone.now())

    html = _text(learner_client.get("/"))

    assert '<a href="/reviews/">1 review due today</a>' in html


def test_home_continue_opens_the_page_of_the_phase_holding_the_first_unanswered(
    make_phases, learner_client, learner, settings
):
    settings.PHASE_PAGE_SIZE = 10
    codes = make_phases(1, questions=30)
    for code in codes[0][:23]:
        answer(learner, code, keys=["A"], text="zebraword")

    current = _current(_text(learner_client.get("/")))

    assert 'href="/phase/1/?page=3#q-01-23">Continue' in current


def test_a_phase_line_shows_its_whole_title_on_hover(seeds_imported, learner_client):
    """A long title ends in "…" on a 1280 px screen; a pointer over it shows it whole
    (UX walk 34). Screen readers had it in the link's label already."""
    html = learner_client.get("/").content.decode()

    links = re.findall(r'<a href="/phase/(\d+)/" title="([^"]+)" aria-label="[^"]*\2', html)
    assert {number for number, _title in links} == {"10", "19"}
