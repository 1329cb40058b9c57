"""Cohort results, item analysis, CSV export and the drill-down, in the admin."""

import csv
import io
import re

import pytest
from django.contrib.auth.models import Group

from teaching.models import Cohort
from tests.factories import UserFactory, answer

pytestmark = pytest.mark.django_db

TITLE = '<span class="quiet">Why is bf16 preferred over fp16 for training?</span>'


@pytest.fixture(autouse=True)
def judge_small_cohorts(settings):
    """These fixtures have a handful of learners: judge them anyway (the page's own
    threshold is tested in test_item_statistics.py)."""
    settings.RESULTS_MIN_LEARNERS = 1


@pytest.fixture
def cohort(seeds_imported, instructor):
    cohort = Cohort.objects.create(name="Spring")
    cohort.instructors.add(instructor)
    ana, bea, cy, dot = (UserFactory(username=n) for n in ("ana", "bea", "cy", "dot"))
    cohort.learners.add(ana, bea, cy, dot)
    # ana: strong; bea: half; cy: wrong then right; dot: nothing yet.
    for code, keys in (("q-10-01", "B"), ("q-10-02", "AC"), ("q-10-04", "B"), ("q-10-05", "C")):
        answer(ana, code, keys=list(keys))
    answer(ana, "q-10-03", text="identity")
    answer(bea, "q-10-01", keys=["B"])
    answer(bea, "q-10-02", keys=["A"])
    answer(bea, "q-10-03", text="no idea")
    answer(cy, "q-10-01", keys=["A"])
    answer(cy, "q-10-01", keys=["B"])
    return cohort


def results(client, cohort, query=""):
    response = client.get(f"/admin/teaching/cohort/{cohort.pk}/results/{query}")
    assert response.status_code == 200
    return " ".join(response.content.decode().split())


def test_results_learner_phase_table(client, instructor, cohort):
    client.force_login(instructor)

    html = results(client, cohort, "?phase=10")

    assert ">ana</a></th><td>5 / 5</td>" in html
    assert '<td>5/5 <span class="answered">(5)</span></td>' in html
    assert ">bea</a></th><td>1 / 5</td>" in html
    assert '<td>1/5 <span class="answered">(3)</span></td>' in html
    assert ">cy</a></th><td>1 / 5</td>" in html
    assert ">dot</a></th><td>0 / 5</td>" in html


def test_results_say_what_the_reviews_due_column_counts(client, instructor, cohort):
    # "7 / 5" read as 7 due plus 5 overdue (UX walk 24): the page says the overdue are
    # among the due, in the instructor's language.
    client.force_login(instructor)
    assert "overdue ones included / of those, the ones due before today" in results(client, cohort)

    instructor.profile.language = "es"
    instructor.profile.save()
    client.force_login(instructor)  # the language is the profile's from the login on
    assert "atrasadas incluidas / de ellas, las que vencían antes de hoy" in results(client, cohort)


def test_results_first_attempts_mode_counts_first_tries(client, instructor, cohort):
    client.force_login(instructor)

    html = results(client, cohort, "?phase=10&mode=first")

    assert ">cy</a></th><td>0 / 5</td>" in html


def test_results_sorted_by_total(client, instructor, cohort):
    client.force_login(instructor)

    html = results(client, cohort, "?sort=-total")

    order = [html.index(f">{name}</a></th>") for name in ("ana", "bea", "cy", "dot")]
    assert order[0] < order[1] < order[3]
    assert order[0] < order[2] < order[3]


@pytest.mark.parametrize(
    ("query", "sorted_by", "order"),
    [
        ("", "Learner", "ascending"),
        ("?sort=-learner", "Learner", "descending"),
        ("?sort=-total", "Total right", "descending"),
        ("?sort=total", "Total right", "ascending"),
    ],
)
def test_results_sorted_column_says_its_order_to_a_screen_reader(
    client, instructor, cohort, query, sorted_by, order
):
    """aria-sort on the sorted column's header; the arrow drawn beside its name is hidden
    (read "black up-pointing triangle", it said nothing of the order)."""
    client.force_login(instructor)

    html = results(client, cohort, query)

    sorted_headers = re.findall(r'<th scope="col" aria-sort="(\w+)"><a [^>]*>([^<]*)', html)
    assert [(name.strip(), how) for how, name in sorted_headers] == [(sorted_by, order)]
    arrows = re.findall(r"(.{0,26})[▲▼]", html)
    assert arrows and all(before.endswith('<span aria-hidden="true">') for before in arrows)


def test_results_item_analysis(client, instructor, cohort):
    client.force_login(instructor)

    html = results(client, cohort, "?phase=10")

    # q-10-01: 4 attempts by 3 learners; right first try: ana, bea → 67 %.
    row = html[html.index(">q-10-01</a>") : html.index(">q-10-02</a>")]
    assert "<td>4</td> <td>3</td> <td>67%</td>" in row
    assert "B ✓: 100% (3)" in row  # latest answers: ana B, bea B, cy B
    assert "A: 0% (0)" in row
    # q-10-03 free: bea missed the mention.
    row = html[html.index(">q-10-03</a>") : html.index(">q-10-04</a>")]
    # Named as the feedback names it: a few phrasings in the reader's language.
    assert "missed 50%: identity / unit gain / gain of one / …" in row
    assert "identidad" not in row
    assert "most missed" not in row  # one mention: nothing to single out


def test_results_mark_the_mention_missed_most_in_its_list(client, instructor, cohort):
    """q-19-05 has three mentions: the one missed most is marked where the list names it,
    not repeated on a line of its own."""
    ana, bea = (cohort.learners.get(username=n) for n in ("ana", "bea"))
    answer(ana, "q-19-05", text="The embedding row gets a huge gradient.")
    answer(bea, "q-19-05", text="A huge gradient dominates the norm.")
    client.force_login(instructor)

    html = results(client, cohort, "?phase=19")

    row = html[html.index(">q-19-05</a>") :]

    missed = re.findall(r"<li>(.*?)</li>", row[: row.index("</ul>")])
    assert [re.sub(r"<[^>]+>", "", item).split(": ")[0] for item in missed] == [
        "missed 50%",
        "missed 0%",
        "missed 50%",
    ]
    marked = [item for item in missed if "(most missed)" in item]
    assert len(marked) == 2 and all(item.startswith("<strong>") for item in marked)
    assert "Most missed:" not in row


def test_results_question_nobody_answered_says_so_not_zero_rates(client, instructor, cohort):
    # One answer in phase 19 (with none, the page says so instead of an item analysis).
    answer(cohort.learners.get(username="ana"), "q-19-03", keys=["B"])
    client.force_login(instructor)

    html = results(client, cohort, "?phase=19")

    # Nobody in the cohort answered these questions: no "missed 0%" nor "A: 0% (0)".
    row = html[html.index(">q-19-05</a>") :]
    row = row[: row.index("</tr>")]
    assert "No answers yet." in row
    assert "missed 0%" not in row
    row = html[html.index(">q-19-01</a>") :]
    row = row[: row.index("</tr>")]
    assert "No answers yet." in row
    assert "0% (0)" not in row


def test_results_flag_questions_that_look_broken(client, instructor, cohort):
    ana, bea, cy, dot = (cohort.learners.get(username=n) for n in ("ana", "bea", "cy", "dot"))
    answer(ana, "q-19-01", keys=["B"])
    for learner in (bea, dot, cy):
        answer(learner, "q-19-02", text="3σ above the rolling mean")
        answer(learner, "q-19-05", text="its embedding row gets a large gradient")
    answer(bea, "q-19-03", keys=["A"])
    answer(dot, "q-19-03", keys=["C"])
    answer(cy, "q-19-04", keys=["A", "B", "C"])
    answer(cy, "q-19-01", keys=["A"])
    client.force_login(instructor)

    html = results(client, cohort, "?phase=19")

    # Phase-19 totals: ana 1, bea 2, dot 2, cy 3; a group is floor(4 × 27 %) = 1 learner.
    q1 = html[html.index(">q-19-01</a>") : html.index(">q-19-02</a>")]
    q2 = html[html.index(">q-19-02</a>") : html.index(">q-19-03</a>")]
    q3 = html[html.index(">q-19-03</a>") : html.index(">q-19-04</a>")]
    assert "⚠ negative discrimination" in q1  # the weakest got it right, the strongest not
    assert "<td>2</td> <td>2</td> <td>50%</td> <td>-1.00</td>" in q1
    assert "⚠ low facility" in q3
    assert "<td>2</td> <td>2</td> <td>0%</td>" in q3
    assert "⚠" not in q2
    assert 'class="flagged"' in html


def test_results_pictures_are_inline_svg(client, instructor, cohort):
    client.force_login(instructor)

    html = results(client, cohort)

    assert '<svg role="img" aria-label="Histogram of learners by share of questions right"' in html
    assert '<svg role="img" aria-label="Share of questions answered, by phase"' in html
    assert "<script" not in html[html.index('id="content-main"') :]


@pytest.mark.parametrize(
    ("query", "queries"),
    [("", 13), ("?mode=first", 13), ("?mode=all", 14), ("?phase=10", 14), ("?sort=-total", 13)],
)
@pytest.mark.parametrize("count", [1, 12])
def test_results_runs_fixed_queries(
    client, instructor, cohort, django_assert_num_queries, count, query, queries
):
    for n in range(count):
        learner = UserFactory(username=f"extra{n}")
        cohort.learners.add(learner)
        answer(learner, "q-19-01", keys=["B"])
        answer(learner, "q-10-01", keys=["A" if n % 2 else "B"])
    client.force_login(instructor)

    # 13 whatever the cohort's size (5 or 16 learners here): the learner × phase table
    # reads the kept counts per learner and phase, one scan of the standings
    # (standing_groups) gives every per-question figure, the overrides per question are
    # one more; "all attempts" counts the answers in the attempts, one phase is looked up.
    with django_assert_num_queries(queries):
        response = client.get(f"/admin/teaching/cohort/{cohort.pk}/results/{query}")

    assert response.status_code == 200


def test_results_escape_learner_text(client, instructor, cohort):
    evil = UserFactory(username="<script>alert(1)</script>")
    cohort.learners.add(evil)
    answer(evil, "q-10-03", text="<script>alert('x')</script> identity")
    client.force_login(instructor)

    table = results(client, cohort)
    drill = client.get(
        f"/admin/teaching/cohort/{cohort.pk}/results/learner/{evil.pk}/"
    ).content.decode()
    attempts = client.get("/admin/progress/attempt/").content.decode()

    for html in (table, drill, attempts):
        assert "<script>alert" not in html
    assert "&lt;script&gt;alert(1)&lt;/script&gt;" in table
    assert "&lt;script&gt;alert(&#x27;x&#x27;)&lt;/script&gt; identity" in drill


def test_learner_drill_down_lists_every_attempt(client, instructor, cohort):
    cy = cohort.learners.get(username="cy")
    client.force_login(instructor)

    html = " ".join(
        client.get(f"/admin/teaching/cohort/{cohort.pk}/results/learner/{cy.pk}/")
        .content.decode()
        .split()
    )

    assert "2 attempts" in html
    q = f'<th scope="row">q-10-01 · {TITLE}</th>'
    row = f'{q} <td>r1</td> <td class="answer-cell">B</td> <td>right</td>'
    assert row in html
    row = f'{q} <td>r1</td> <td class="answer-cell">A</td> <td>wrong</td>'
    assert row in html


def test_drill_down_of_a_non_member_is_404(client, instructor, cohort):
    outsider = UserFactory(username="out")
    client.force_login(instructor)

    response = client.get(f"/admin/teaching/cohort/{cohort.pk}/results/learner/{outsider.pk}/")

    assert response.status_code == 404


@pytest.mark.parametrize("count", [1, 5])
def test_csv_export_streams_every_attempt(
    client, instructor, cohort, django_assert_num_queries, count
):
    for n in range(count):
        learner = UserFactory(username=f"extra{n}")
        cohort.learners.add(learner)
        answer(learner, "q-19-02", text="=HYPERLINK(3 sigma)")
    client.force_login(instructor)

    with django_assert_num_queries(10):
        response = client.get(f"/admin/teaching/cohort/{cohort.pk}/results/export.csv")
        body = b"".join(response.streaming_content).decode()

    rows = list(csv.reader(io.StringIO(body)))
    assert response["Content-Type"] == "text/csv; charset=utf-8"
    assert rows[0][:6] == ["learner", "phase", "question", "attempt", "revision", "answer"]
    assert len(rows) == 1 + 10 + count
    cy_rows = [r for r in rows if r[0] == "cy"]
    assert [(r[2], r[3], r[5], r[6]) for r in cy_rows] == [
        ("q-10-01", "1", "A", "0"),
        ("q-10-01", "2", "B", "1"),
    ]
    extra = [r for r in rows if r[0] == "extra0"][0]
    assert extra[5] == "'=HYPERLINK(3 sigma)"
    assert extra[6:9] == ["1", "1.0", "1.0"]


def test_instructor_of_another_cohort_sees_no_results(client, cohort):
    other = UserFactory(username="other-teacher", is_staff=True)
    other.groups.add(Group.objects.get(name="Instructors"))
    client.force_login(other)

    response = client.get(f"/admin/teaching/cohort/{cohort.pk}/results/")

    assert response.status_code == 404


@pytest.mark.parametrize("who", ["anonymous", "learner"])
def test_results_and_export_need_staff(client, cohort, who):
    if who == "learner":
        client.force_login(cohort.learners.get(username="ana"))

    for url in (
        f"/admin/teaching/cohort/{cohort.pk}/results/",
        f"/admin/teaching/cohort/{cohort.pk}/results/export.csv",
    ):
        response = client.get(url)
        assert response.status_code == 302
        login = "/admin/login/" if who == "learner" else "/login/"
        assert response["Location"].startswith(login)


def test_results_pages_the_learner_table_but_counts_everyone(
    client, instructor, cohort, monkeypatch
):
    monkeypatch.setattr("teaching.admin.LEARNERS_PER_PAGE", 2)
    client.force_login(instructor)

    first = results(client, cohort, "?phase=10&mode=first")
    second = results(client, cohort, "?phase=10&mode=first&page=2")

    assert ">ana</a></th>" in first and ">bea</a></th>" in first
    assert ">cy</a></th>" not in first
    assert ">cy</a></th>" in second and ">dot</a></th>" in second
    assert "Page 1 of 2" in first
    assert 'href="?phase=10&amp;mode=first&amp;page=2"' in first
    assert "<h2>Learners (4)</h2>" in first


@pytest.mark.parametrize("query", ["?phase=abc", "?phase=-1", "?mode=x&sort=y&page=z"])
def test_results_ignore_bad_filter_values(client, instructor, cohort, query):
    client.force_login(instructor)

    html = results(client, cohort, query)

    assert ">ana</a></th><td>5 / 10</td>" in html  # all phases, latest, by learner


def test_results_of_an_empty_cohort_say_so(client, instructor, seeds_imported):
    empty = Cohort.objects.create(name="Empty")
    empty.instructors.add(instructor)
    client.force_login(instructor)

    html = results(client, empty)

    assert "This cohort has no learners yet" in html
    assert '<svg role="img"' not in html


def test_results_of_a_cohort_that_answered_nothing_say_so(client, instructor, seeds_imported):
    """Instructor walk 35: a new cohort's learners, none of whom had answered, got a
    histogram of every learner at 0 %, bars at 0 % and an item analysis of "too few to
    judge" and "No answers yet." on every question: figures of nothing, and no word on
    why. The learners are listed; the page says no answer is in yet, as Memory does."""
    new = Cohort.objects.create(name="New")
    new.instructors.add(instructor)
    new.learners.add(UserFactory(username="nuevo"))
    client.force_login(instructor)

    html = results(client, new)

    assert "No learner of this cohort has answered a question shown here yet" in html
    assert ">nuevo</a>" in html
    assert '<svg role="img"' not in html and "Item analysis" not in html
    instructor.profile.language = "es"
    instructor.profile.save()
    client.force_login(instructor)  # the language is the profile's from the login on
    html = results(client, new, "?phase=10")
    assert "Ningún estudiante de esta cohorte ha respondido aún" in html


def test_results_phase_filter_in_spanish(client, instructor, cohort):
    instructor.profile.language = "es"
    instructor.profile.save()
    client.force_login(instructor)

    html = results(client, cohort, "?phase=10")

    assert (
        '<option value="10" selected>10 · Inicialización, normalización y residuales</option>'
        in html
    )


def test_csv_export_has_titles_and_an_optional_bom(client, instructor, cohort):
    client.force_login(instructor)

    plain = b"".join(
        client.get(f"/admin/teaching/cohort/{cohort.pk}/results/export.csv").streaming_content
    )
    excel = b"".join(
        client.get(f"/admin/teaching/cohort/{cohort.pk}/results/export.csv?bom=1").streaming_content
    )

    rows = list(csv.reader(io.StringIO(plain.decode())))
    assert rows[0][-1] == "question_title"
    assert rows[1][2:3] + rows[1][-1:] == [
        "q-10-01",
        "Why is bf16 preferred over fp16 for training?",
    ]
    assert not plain.startswith(b"\xef\xbb\xbf")
    assert excel == b"\xef\xbb\xbf" + plain


@pytest.mark.parametrize(
    ("query", "counted", "picks_of_a"),
    [
        # r is a correlation over first tries, whichever answers the picks count: "0% (0)
        # r -0.39" beside "in latest answers" read as an r of no picks (instructor walk).
        ("", "in latest answers; r in first tries", "A: 0%"),
        ("?mode=all", "in all attempts; r in first tries", "A: 25%"),
        ("?mode=first", "in first answers", "A: 33%"),
    ],
)
def test_options_picked_say_which_answers_they_count(
    client, instructor, cohort, query, counted, picks_of_a
):
    client.force_login(instructor)

    html = results(client, cohort, f"{query}{'&' if query else '?'}phase=10")

    header = html[html.index("Options picked (r) / mentions missed") :]
    assert header.startswith(
        f'Options picked (r) / mentions missed <span class="counted">{counted}</span></th>'
    )
    row = html[html.index(">q-10-01</a>") : html.index(">q-10-02</a>")]
    assert f"<li>{picks_of_a} (" in row
    assert "Facility, upper–lower, r and KR-20 use each learner's first try;" in html
    assert "Figures use each learner's first try" not in html


def test_options_picked_say_which_answers_they_count_in_spanish(client, instructor, cohort):
    client.force_login(instructor)
    client.post("/language/", {"language": "es", "next": "/"})

    html = results(client, cohort)

    counted = "en las últimas respuestas; r en los primeros intentos"
    assert f'<span class="counted">{counted}</span>' in html


@pytest.mark.parametrize("language", ["en", "es"])
def test_drill_down_times_are_labelled_with_the_zone_in_one_format(
    client, instructor, cohort, language
):
    import re

    from progress.models import Attempt
    from teaching.services import verdict_override

    cy = cohort.learners.get(username="cy")
    verdict_override(
        attempt=Attempt.objects.filter(learner=cy).first(),
        correct=True,
        reason="same idea",
        by=instructor,
    )
    client.force_login(instructor)
    client.post("/language/", {"language": language, "next": "/"})
    client.cookies["tz"] = "Asia/Tokyo"

    html = client.get(f"/admin/teaching/cohort/{cohort.pk}/results/learner/{cy.pk}/").content
    times = re.findall(r'<time datetime="[^"]+\+0900">([^<]+)</time>', html.decode())

    assert len(times) == 3  # two attempts and the override
    assert all(shown.endswith("\u00a0JST") for shown in times)
    assert len({len(shown.split()) for shown in times}) == 1  # one format


def test_the_two_csv_downloads_have_names_of_their_own(client, instructor, cohort):
    client.force_login(instructor)
    base = f"/admin/teaching/cohort/{cohort.pk}/results/export.csv"

    plain = client.get(base)["Content-Disposition"]
    excel = client.get(f"{base}?bom=1")["Content-Disposition"]

    assert plain == 'attachment; filename="spring-attempts.csv"'
    assert excel == 'attachment; filename="spring-excel-attempts.csv"'


def test_admin_pages_name_the_portals_icon(client, instructor, cohort):
    client.force_login(instructor)

    for url in ("/admin/", f"/admin/teaching/cohort/{cohort.pk}/results/"):
        html = client.get(url).content.decode()
        assert '<link rel="icon" href="/static/favicon.svg" type="image/svg+xml">' in html, url


@pytest.mark.parametrize(
    "page",
    [
        "results/",
        "results/?mode=first",
        "results/learner/{ana}/",
        "results/export.csv",
        "to-check/",
        "memory/",
        "memory/export.csv",
    ],
)
def test_a_cohorts_pages_before_any_quiz_is_imported_answer(client, instructor, db, page):
    """A fresh portal: the instructor's first look came before `import_quizzes`; the
    results' queries over no phases and no questions have no SQL, and were a 500."""
    empty = Cohort.objects.create(name="Fresh")
    empty.instructors.add(instructor)
    ana = UserFactory(username="ana")
    empty.learners.add(ana)
    client.force_login(instructor)

    response = client.get(f"/admin/teaching/cohort/{empty.pk}/" + page.format(ana=ana.pk))

    assert response.status_code == 200
    if page.startswith("results/") and not page.endswith(".csv"):
        assert "ana" in response.text


def test_csv_export_moments_are_in_the_viewers_time_zone(client, instructor, cohort):
    """As the Memory CSV's: the attempts' export said UTC beside it (instructor walk 35),
    the rows read while the response streams, after the zone middleware is done."""
    client.cookies["tz"] = "America/Mexico_City"
    client.force_login(instructor)

    response = client.get(f"/admin/teaching/cohort/{cohort.pk}/results/export.csv")
    rows = list(csv.reader(io.StringIO(b"".join(response.streaming_content).decode())))

    moments = [row[rows[0].index("answered_at")] for row in rows[1:]]
    assert moments and all(re.search(r"-0[56]:00$", m) for m in moments), moments
