"""The cohort's memory: predicted recall per learner and question, checked against the
fsrs library's own figures, and the page and CSV that show it."""

import csv
import io
from datetime import UTC, datetime, timedelta

import pytest
import time_machine
from django.conf import settings
from fsrs import Card, Rating, Scheduler

from progress.models import ReviewCard
from quizzes.models import Question
from teaching.memory import HORIZON_DAYS, cohort_memory, curve, memory_csv_rows, recall_cells
from teaching.models import Cohort
from teaching.selectors import cohort_learner_ids
from teaching.services import regrade_apply, regrade_plan, verdict_override
from tests.factories import UserFactory, answer
from tests.teaching.test_regrade import move_key_from_b_to_a

pytestmark = pytest.mark.django_db

START = datetime(2027, 3, 1, 9, 0, tzinfo=UTC)
NOW = START + timedelta(days=10, hours=3)
WEEK = timedelta(days=7)


def library(*reviews) -> Card:
    """The card the library makes from (rating, moment) reviews of a new card."""
    scheduler = Scheduler(**settings.REVIEW_SCHEDULER)
    card = Card()
    for rating, at in reviews:
        card, _log = scheduler.review_card(card, rating, at)
    return card


def retrievability(card: Card) -> tuple[float, float]:
    scheduler = Scheduler(**settings.REVIEW_SCHEDULER)
    return (
        scheduler.get_card_retrievability(card, NOW),
        scheduler.get_card_retrievability(card, NOW + WEEK),
    )


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


def recall_of(world) -> dict[tuple[str, str], tuple[float, float]]:
    """Every (learner, question) figure of the CSV, as floats."""
    rows = list(memory_csv_rows(cohort=world["cohort"], now=NOW))
    assert rows[0] == ["learner", "question", "recall_now", "recall_in_7_days", "due"]
    return {(r[0], r[1]): (float(r[2]), float(r[3])) for r in rows[1:]}


def test_formula_equals_the_library_on_hand_picked_cards():
    shape = curve()
    scheduler = Scheduler(**settings.REVIEW_SCHEDULER)
    cards = [
        library((Rating.Good, START)),
        library((Rating.Again, START)),
        library((Rating.Again, START), (Rating.Good, START + timedelta(days=1))),
        library(
            (Rating.Again, START),
            (Rating.Hard, START + timedelta(days=1)),
            (Rating.Good, START + timedelta(days=4)),
            (Rating.Again, START + timedelta(days=30)),
        ),
    ]
    moments = [START, START + timedelta(hours=23), NOW, START + timedelta(days=400)]

    for card in cards:
        for moment in moments:
            days = (moment - card.last_review).days

            assert shape.recall(card.stability, days) == pytest.approx(
                scheduler.get_card_retrievability(card, moment), rel=1e-12
            )
    assert shape.recall(None, 3) == scheduler.get_card_retrievability(Card(), NOW) == 0


def test_first_review_stabilities_are_the_librarys():
    assert curve().first_stability == {
        True: library((Rating.Good, START)).stability,
        False: library((Rating.Again, START)).stability,
    }
    # The default parameters' w2 and w0, as published with FSRS-6.
    assert curve().first_stability == {True: 2.3065, False: 0.212}


def test_recall_right_answer_without_card_as_a_good_first_review(world):
    figures = recall_of(world)

    assert figures["ana", "q-10-05"] == pytest.approx(
        retrievability(library((Rating.Good, START))), abs=5e-5
    )
    # By hand: D = −0.1542, F = 0.9^(1/D) − 1 = 0.98040, S = 2.3065 (w2); 10 whole days:
    # (1 + F·10/S)^D = 5.2506^−0.1542 = 0.7744; 17 days: 8.2260^−0.1542 = 0.7226.
    assert figures["ana", "q-10-05"] == (0.7744, 0.7226)


def test_recall_wrong_answer_reads_its_card(world):
    figures = recall_of(world)

    assert figures["bea", "q-10-01"] == pytest.approx(
        retrievability(library((Rating.Again, START))), abs=5e-5
    )
    # By hand: S = 0.212 (w0): 47.245^−0.1542 = 0.5518; 79.617^−0.1542 = 0.5092.
    assert figures["bea", "q-10-01"] == (0.5518, 0.5092)


def test_recall_card_reviewed_several_times(world):
    figures = recall_of(world)
    card = library(*world["cy_reviews"])

    assert figures["cy", "q-10-04"] == pytest.approx(retrievability(card), abs=5e-5)
    assert figures["cy", "q-10-04"][0] > figures["bea", "q-10-01"][0]


def test_recall_regraded_first_answer_uses_the_effective_verdict(world):
    figures = recall_of(world)

    # Right when given, wrong after the key change: predicted as a first review rated
    # Again on the day it was given (the latest answer is right: no card).
    assert not ReviewCard.objects.filter(learner__username="dot").exists()
    assert figures["dot", "q-10-01"] == pytest.approx(
        retrievability(library((Rating.Again, START))), abs=5e-5
    )


def test_recall_overridden_first_answer_uses_the_effective_verdict(world):
    figures = recall_of(world)

    assert figures["eve", "q-10-02"] == pytest.approx(
        retrievability(library((Rating.Again, START))), abs=5e-5
    )
    # fay's only answer overridden wrong: a card due for review, never reviewed; the
    # library gives such a card 0.
    card = Card.from_dict(ReviewCard.objects.get(learner__username="fay").fsrs)
    assert retrievability(card) == (0, 0)
    assert figures["fay", "q-10-02"] == (0.0, 0.0)


def test_csv_lists_answered_questions_of_the_cohorts_learners(world):
    rows = list(memory_csv_rows(cohort=world["cohort"], now=NOW))

    assert [(r[0], r[1]) for r in rows[1:]] == [
        ("ana", "q-10-05"),
        ("bea", "q-10-01"),
        ("cy", "q-10-04"),
        ("dot", "q-10-01"),
        ("eve", "q-10-02"),
        ("fay", "q-10-02"),
    ]
    dues = {r[0]: r[4] for r in rows[1:]}
    bea_due = ReviewCard.objects.get(learner__username="bea").due
    assert dues == {
        "ana": "",  # no card
        "bea": bea_due.isoformat(),
        "cy": "",  # learned: out of the reviews
        "dot": "",
        "eve": "",
        "fay": (START + timedelta(days=2)).isoformat(),
    }


def page(client, user, cohort, query=""):
    # Logged in at the travelled-to time: a session from the real "now" has expired.
    with time_machine.travel(NOW, tick=False):
        client.force_login(user)
        response = client.get(f"/admin/teaching/cohort/{cohort.pk}/memory/{query}")
    assert response.status_code == 200
    return " ".join(response.content.decode().split())


def test_memory_page_lists_questions_most_at_risk_first(client, instructor, world):
    html = page(client, instructor, world["cohort"])

    table = html[html.index("Questions to revisit") : html.index("Heat map")]
    codes = [c for c in ("q-10-02", "q-10-01", "q-10-05", "q-10-04", "q-10-03") if c in table]
    assert sorted(codes, key=table.index) == ["q-10-02", "q-10-01", "q-10-05", "q-10-04", "q-10-03"]
    # q-10-02: eve 0.5518 → 0.5092 (first answer overridden wrong), fay 0 → 0.
    assert (
        "q-10-02</a> RMSNorm vs LayerNorm — what is removed?</th> "
        "<td>2</td> <td>28%</td> <td>25%</td> <td>2</td> <td>2</td>"
    ) in table
    assert "q-10-05</a> Kaiming gain for GELU</th> <td>1</td> <td>77%</td> <td>72%</td>" in table
    assert (
        "q-10-03</a> Why does Pre-LN allow training without warmup?</th> <td>0</td> <td>–</td>"
        in table
    )


def test_memory_page_learner_rows_in_the_viewers_time_zone(client, instructor, world):
    client.cookies["tz"] = "America/Mexico_City"

    html = page(client, instructor, world["cohort"])

    # bea: one question, at risk, its card overdue since 2 March 09:00 UTC (03:00 CST).
    bea = world["people"]["bea"].pk
    assert (
        f'<a href="/admin/teaching/cohort/{world["cohort"].pk}/results/learner/{bea}/">bea</a>'
        "</th> <td>1</td> <td>1</td> <td>1</td> <td>1</td> "
        '<td><time datetime="2027-03-02T03:00:00-0600">March 2, 2027, 3 a.m. CST</time></td>'
    ) in html
    assert ">gus</a></th> <td>0</td> <td>0</td> <td>0</td> <td>0</td> <td>–</td>" in html
    assert "staffer" not in html


def test_memory_heat_map_cells_and_text_alternative(client, instructor, world):
    html = page(client, instructor, world["cohort"])

    heat = html[
        html.index('<svg class="heat"') : html.index("</svg>", html.index('<svg class="heat"'))
    ]
    assert '<a href="/admin/teaching/cohort/' in heat
    assert 'aria-label="bea: 1 at risk in a week"' in heat
    assert (
        '<rect x="151" y="85" width="28" height="18" fill="#ef8a62">'
        "<title>q-10-01: now 55%, in 7 days 51%</title></rect>"
    ) in heat
    assert heat.count("<title>") == 7 * 5  # seven learners × phase 10's five questions
    assert heat.count("not seen</title>") == 7 * 5 - 6
    assert '<tr><th scope="row">ana</th>' in html
    assert "<td>77% → 72%</td>" in html


def test_memory_heat_map_shows_the_phase_asked(client, instructor, world):
    html = page(client, instructor, world["cohort"], "?phase=19")

    assert "Heat map, phase 19" in html
    heat = html[html.index('<svg class="heat"') :]
    assert ">q-19-01</text>" in heat and ">q-10-01</text>" not in heat


@pytest.mark.parametrize("query", ["?phase=x", "?phase=99", "?page=-3", "?phase=%00"])
def test_memory_bad_query_shows_the_first_phase(client, instructor, world, query):
    html = page(client, instructor, world["cohort"], query)

    assert "Heat map, phase 10" in html


@pytest.mark.parametrize("count", [1, 5])
def test_memory_page_runs_fixed_queries(
    client, instructor, world, django_assert_num_queries, count
):
    for n in range(count):
        learner = UserFactory(username=f"extra{n}")
        world["cohort"].learners.add(learner)
        answer(learner, "q-10-01", keys=["A"])
        answer(learner, "q-19-01", keys=["B"])

    # Session, user, cohort, the user's and group's permissions, phases, questions,
    # learners, the recall totals per question and per learner (one query), reviews due
    # per learner, then the heat map page's cards and standings: 12 whatever the
    # cohort's size.
    with time_machine.travel(NOW, tick=False):
        client.force_login(instructor)
        with django_assert_num_queries(12):
            response = client.get(f"/admin/teaching/cohort/{world['cohort'].pk}/memory/")

    assert response.status_code == 200


def test_memory_of_another_cohort_is_a_404(client, world):
    from django.contrib.auth.models import Group

    other = UserFactory(username="teach-b", is_staff=True)
    other.groups.add(Group.objects.get(name="Instructors"))
    Cohort.objects.create(name="Other").instructors.add(other)
    client.force_login(other)
    base = f"/admin/teaching/cohort/{world['cohort'].pk}/memory/"

    assert client.get(base).status_code == 404
    assert client.get(base + "export.csv").status_code == 404


def test_memory_csv_view_streams_the_rows(client, instructor, world):
    with time_machine.travel(NOW, tick=False):
        client.force_login(instructor)
        response = client.get(f"/admin/teaching/cohort/{world['cohort'].pk}/memory/export.csv")
        body = b"".join(response.streaming_content).decode()

    assert response["Content-Type"] == "text/csv; charset=utf-8"
    assert response["Content-Disposition"] == 'attachment; filename="spring-memory.csv"'
    rows = list(csv.reader(io.StringIO(body)))
    assert rows[:3] == [
        ["learner", "question", "recall_now", "recall_in_7_days", "due"],
        ["ana", "q-10-05", "0.7744", "0.7226", ""],
        ["bea", "q-10-01", "0.5518", "0.5092", "2027-03-02T09:00:00+00:00"],
    ]
    assert len(rows) == 7
    assert "staffer" not in body


def test_memory_linked_from_the_cohort_pages(client, instructor, world):
    client.force_login(instructor)
    url = f"/admin/teaching/cohort/{world['cohort'].pk}/memory/"

    listing = client.get("/admin/teaching/cohort/").content.decode()
    change = client.get(f"/admin/teaching/cohort/{world['cohort'].pk}/change/").content.decode()

    assert f'<a href="{url}">Memory</a>' in listing
    assert f'<a href="{url}">Memory</a>' in change


def test_memory_page_in_spanish(client, instructor, world):
    instructor.profile.language = "es"
    instructor.profile.save()

    html = page(client, instructor, world["cohort"])

    for spanish in (
        "Memoria: Spring",
        "Preguntas para repasar en clase",
        "Recuerdo medio en 7 días",
        "Por debajo del 70% en 7 días",
        "Mapa de calor, fase 10",
        'aria-label="bea: 1 en riesgo en una semana"',
        "<title>q-10-01: ahora 55%, en 7 días 51%</title>",
        "q-10-02: no vista",
        "Repasos en los próximos 7 días",
        "El mapa de calor como tabla",
    ):
        assert spanish in html, spanish
    assert "Heat map" not in html and "not seen" not in html


def test_memory_escapes_names_and_guards_the_csv(client, instructor, world):
    for name in ("<b>bold</b>", "@SUM(A1)", "learner-with-a-long-name-00"):
        learner = UserFactory(username=name)
        world["cohort"].learners.add(learner)
        with time_machine.travel(START, tick=False):
            answer(learner, "q-10-05", keys=["C"])

    html = page(client, instructor, world["cohort"])
    rows = list(memory_csv_rows(cohort=world["cohort"], now=NOW))

    assert "<b>bold</b>" not in html
    assert '<text x="4" y="78" font-size="11">&lt;b&gt;bold&lt;/b&gt;</text>' in html
    # A long name is cut in the middle in the picture, whole in its label.
    assert ">learner-w…ng-name-00</text>" in html
    assert 'aria-label="learner-with-a-long-name-00: 0 at risk in a week"' in html
    assert ["'@SUM(A1)", "q-10-05", "0.7744", "0.7226", ""] in rows


def test_memory_of_an_empty_cohort_says_so(client, instructor, seeds_imported):
    empty = Cohort.objects.create(name="Empty")
    empty.instructors.add(instructor)

    html = page(client, instructor, empty)
    rows = list(memory_csv_rows(cohort=empty, now=NOW))

    assert "This cohort has no learners yet" in html
    assert '<svg class="heat"' not in html
    assert rows == [["learner", "question", "recall_now", "recall_in_7_days", "due"]]


def per_cell_totals(cohort, now, threshold):
    """The page's totals worked out from `recall_cells` (the CSV's per-cell path)."""
    questions = list(Question.objects.active().values_list("pk", flat=True))
    by_question, by_learner = {}, {}
    for learner_id, question_id, recall_now, recall_week, _due in recall_cells(
        learner_ids=cohort_learner_ids(cohort), question_ids=questions, now=now
    ):
        q = by_question.setdefault(question_id, [0, 0.0, 0.0, 0, 0])
        q[0] += 1
        q[1] += recall_now
        q[2] += recall_week
        q[3] += recall_now < threshold
        q[4] += recall_week < threshold
        learner = by_learner.setdefault(learner_id, [0, 0])
        learner[0] += 1
        learner[1] += recall_week < threshold
    return by_question, by_learner


@pytest.mark.parametrize(
    "now",
    [
        START,
        START + timedelta(hours=23, minutes=59),
        NOW,
        START + timedelta(days=30, microseconds=1),
        START + timedelta(days=400),
    ],
)
@pytest.mark.parametrize("threshold", [0.0, 0.55, 0.7, 0.9, 1.01])
def test_database_totals_equal_the_per_cell_path(world, settings, now, threshold):
    settings.MEMORY_RISK_THRESHOLD = threshold
    expected_questions, expected_learners = per_cell_totals(world["cohort"], now, threshold)

    memory = cohort_memory(cohort=world["cohort"], now=now)

    questions = {
        item.question.pk: [
            item.learners,
            item.sum_now,
            item.sum_week,
            item.below_now,
            item.below_week,
        ]
        for item in memory.items
        if item.learners
    }
    # The counts exactly; the sums to rounding (the database adds in another order).
    assert {k: v[:1] + v[3:] for k, v in questions.items()} == {
        k: v[:1] + v[3:] for k, v in expected_questions.items()
    }
    for pk, figures in questions.items():
        assert figures[1:3] == pytest.approx(expected_questions[pk][1:3], rel=1e-12, abs=0)
    learners = {row.learner_id: [row.seen, row.at_risk] for row in memory.learners if row.seen}
    assert learners == expected_learners
    assert sum(v[0] for v in learners.values()) == 6  # six answered pairs, staff left out


@pytest.fixture
def late(seeds_imported):
    """hal answers q-10-05 right (no card) and q-10-01 wrong (a card) at 23:59 UTC."""
    cohort = Cohort.objects.create(name="Late")
    hal = UserFactory(username="hal")
    cohort.learners.add(hal)
    at = datetime(2027, 3, 1, 23, 59, 0, 1, tzinfo=UTC)  # a microsecond past 23:59
    with time_machine.travel(at, tick=False):
        answer(hal, "q-10-05", keys=["C"])
        answer(hal, "q-10-01", keys=["A"])
    return cohort, at


@pytest.mark.parametrize(
    ("after", "days"),
    [
        (timedelta(minutes=2), 0),  # 00:01 the next day: not a whole day yet
        (timedelta(days=1, microseconds=-1), 0),
        (timedelta(days=1), 1),  # exactly 24 hours
        (timedelta(days=1, minutes=2), 1),
        (timedelta(hours=-1), -1),  # a review later than now: no day, 6 in a week
    ],
)
def test_database_counts_whole_days_as_timedelta_does(late, after, days):
    cohort, at = late
    shape = curve()
    now = at + after
    assert (now - at).days == days

    memory = cohort_memory(cohort=cohort, now=now)

    figures = {item.question.code: (item.mean_now, item.mean_week) for item in memory.items}
    for code, right in (("q-10-05", True), ("q-10-01", False)):
        stability = shape.first_stability[right]
        assert figures[code] == (
            shape.recall(stability, days),
            shape.recall(stability, days + HORIZON_DAYS),
        ), code
    cells = {
        c[1]: c[2:4]
        for c in recall_cells(
            learner_ids=[cohort.learners.get().pk],
            question_ids=Question.objects.values_list("pk", flat=True),
            now=now,
        )
    }
    assert sorted(cells.values()) == sorted(figures[c] for c in ("q-10-05", "q-10-01"))


def test_memory_heat_map_cells_of_a_later_page(client, instructor, world, monkeypatch):
    monkeypatch.setattr("teaching.memory_admin.MEMORY_LEARNERS_PER_PAGE", 2)

    html = page(client, instructor, world["cohort"], "?page=2")

    heat = html[
        html.index('<svg class="heat"') : html.index("</svg>", html.index('<svg class="heat"'))
    ]
    # Page 2 is cy and dot (by username): each answered one question of phase 10.
    assert 'aria-label="cy: ' in heat and 'aria-label="dot: ' in heat
    assert "ana" not in heat
    assert heat.count("<title>") == 2 * 5
    assert heat.count("not seen</title>") == 2 * 5 - 2
