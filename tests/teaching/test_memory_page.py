"""The cohort's memory page in the admin: what it lists, in which order and time zone,
for whom, in both languages, and what it costs in queries."""

import csv
import io

import pytest
import time_machine

from teaching.memory import memory_csv_rows
from teaching.models import Cohort
from tests.factories import UserFactory, answer
from tests.teaching.conftest import NOW, START

pytestmark = pytest.mark.django_db


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
        '<td>overdue since <time datetime="2027-03-02T03:00:00-0600">March 2, 2027, 3 a.m. CST'
        "</time></td>"
    ) in html
    assert ">gus</a></th> <td>0</td> <td>0</td> <td>0</td> <td>0</td> <td>–</td>" in html
    assert "staffer" not in html


def test_memory_page_next_review_in_the_past_says_overdue_in_spanish(client, instructor, world):
    # A teacher reading "Next review: 2 March" on 11 March took it for a date to come
    # (UX walk 24): a review due before today says it is overdue, in both languages.
    instructor.profile.language = "es"
    instructor.profile.save()

    html = page(client, instructor, world["cohort"])

    assert "atrasado desde <time" in html
    assert "overdue" not in html


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


# A NUL (%00) is refused before any view: tests/portal/test_hostile_queries.py.
@pytest.mark.parametrize(
    "query", ["?phase=x", "?phase=99", "?page=-3", "?phase=²", "?phase=١٠", "?phase=-1"]
)
def test_memory_bad_query_shows_the_first_phase(client, instructor, world, query):
    html = page(client, instructor, world["cohort"], query)

    assert "Heat map, phase 10" in html


def test_memory_heat_map_opens_on_the_first_phase_the_cohort_answered(
    client, instructor, seeds_imported
):
    """A UX walk: a class at work on phase 19 opened the page on phase 10's heat map,
    every cell "not seen". A cohort that answered nothing still opens on the first."""
    cohort = Cohort.objects.create(name="Later")
    cohort.instructors.add(instructor)
    lina = UserFactory(username="lina")
    cohort.learners.add(lina)

    empty = page(client, instructor, cohort)
    with time_machine.travel(START, tick=False):
        answer(lina, "q-19-01", keys=["B"])
    html = page(client, instructor, cohort)

    # Nothing answered: no heat map (it says so), its phase filter on the first phase.
    assert '<option value="10" selected>' in empty
    assert "Heat map, phase 19" in html
    assert '<option value="19" selected>' in html
    assert "Heat map, phase 10" in page(client, instructor, cohort, "?phase=10")


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


def test_memory_csv_due_moments_are_in_the_viewers_time_zone(client, instructor, world):
    """The rows are read while the response streams, after the time zone middleware
    has put the server's zone back: the viewer's zone is read when the view runs."""
    client.cookies["tz"] = "America/Mexico_City"
    with time_machine.travel(NOW, tick=False):
        client.force_login(instructor)
        response = client.get(f"/admin/teaching/cohort/{world['cohort'].pk}/memory/export.csv")
        body = b"".join(response.streaming_content).decode()

    rows = list(csv.reader(io.StringIO(body)))
    assert ["bea", "q-10-01", "0.5518", "0.5092", "2027-03-02T03:00:00-06:00"] in rows


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
        "Por debajo del 70 % en 7 días",  # the page read with its no-break spaces as spaces
        "Mapa de calor, fase 10",
        'aria-label="bea: 1 en riesgo en una semana"',
        "<title>q-10-01: ahora 55 %, en 7 días 51 %</title>",
        "q-10-02: no vista",
        "Repasos en los próximos 7 días",
        "El mapa de calor como tabla",
        "Una respuesta incorrecta también es un repaso",
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


@pytest.mark.parametrize(
    "language, words",
    [
        ("en", "No learner of this cohort has answered a question yet"),
        ("es", "Ningún estudiante de esta cohorte ha respondido aún a una pregunta"),
    ],
)
def test_memory_of_a_cohort_that_answered_nothing_says_so(
    client, instructor, seeds_imported, language, words
):
    """Instructor walk 32: a cohort whose learners had not answered yet showed every
    question with 0 learners and "–" means, and a grey heat map, saying nothing."""
    quiet = Cohort.objects.create(name="Quiet")
    quiet.instructors.add(instructor)
    quiet.learners.add(UserFactory(username="fede"))
    instructor.profile.language = language
    instructor.profile.save()

    html = page(client, instructor, quiet)

    assert words in html
    assert '<svg class="heat"' not in html


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
