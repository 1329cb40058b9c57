"""My progress: the activity chart, the reviews to come, and what a new learner sees
before any of it exists, in both languages."""

import re

import pytest

from tests.progress.test_pages import answer


def test_my_progress_draws_the_last_four_weeks_of_activity(seeds_imported, learner_client, learner):
    from datetime import timedelta

    import time_machine
    from django.utils import timezone

    now = timezone.now()
    with time_machine.travel(now - timedelta(days=2), tick=False):
        answer(learner, "q-10-01", keys=["B"])  # right
        answer(learner, "q-10-02", keys=["A"])  # wrong
    with time_machine.travel(now - timedelta(days=40), tick=False):
        answer(learner, "q-10-04", keys=["B"])  # too old to show

    html = " ".join(learner_client.get("/progress/").content.decode().split())

    assert html.count('class="bar-total"') == 1
    assert html.count('class="bar-right"') == 1
    assert '<desc id="activity-desc">2 answers, 1 right.</desc>' in html
    assert ": 2 answers, 1 right</title>" in html


def test_the_activity_chart_reads_as_a_table_of_the_days_answered(
    seeds_imported, learner_client, learner
):
    """The bars' per-day figures show on hover only: a screen reader or the keyboard gets
    them from the table under the chart, one row per day answered, named by its date."""
    from datetime import timedelta

    import time_machine
    from django.utils import timezone, translation
    from django.utils.formats import date_format

    now = timezone.now()
    with time_machine.travel(now - timedelta(days=2), tick=False):
        answer(learner, "q-10-01", keys=["B"])  # right
        answer(learner, "q-10-02", keys=["A"])  # wrong
    with time_machine.travel(now - timedelta(days=9), tick=False):
        answer(learner, "q-10-04", keys=["A"])  # wrong
    day = timezone.localdate(now - timedelta(days=2))
    learner_client.post("/language/", {"language": "es", "next": "/"})

    html = " ".join(learner_client.get("/progress/").content.decode().split())

    table = re.search(r'<details class="activity-text">(.*?)</details>', html).group(1)
    assert "<summary>El gráfico como tabla</summary>" in table
    assert table.count('<tr><th scope="row">') == 2  # the days answered, no empty ones
    with translation.override("es"):
        when = date_format(day, "DATE_FORMAT")
    row = '<td data-label="Respuestas">2</td><td data-label="Acertadas">1</td>'
    assert f'<tr><th scope="row">{when}</th>{row}</tr>' in table


def test_one_answer_is_one_answer_in_the_charts_description(
    seeds_imported, learner_client, learner
):
    answer(learner, "q-10-01", keys=["B"])

    html = " ".join(learner_client.get("/progress/").content.decode().split())
    learner_client.post("/language/", {"language": "es", "next": "/"})
    spanish = " ".join(learner_client.get("/progress/").content.decode().split())
    phase = " ".join(learner_client.get("/phase/10/").content.decode().split())

    assert '<desc id="activity-desc">1 answer, 1 right.</desc>' in html
    assert '<desc id="activity-desc">1 respuesta, correctas: 1.</desc>' in spanish
    assert "1 de 5 respondidas, acertadas: 1" in phase  # not "1 acertadas"


def test_the_activity_legend_agrees_in_number_in_spanish(seeds_imported, learner_client, learner):
    answer(learner, "q-10-01", keys=["B"])
    learner_client.post("/language/", {"language": "es", "next": "/"})

    html = " ".join(learner_client.get("/progress/").content.decode().split())

    assert (
        '<span class="key-right"></span> acertadas · <span class="key-total"></span> no acertadas'
        in html
    )


@pytest.mark.parametrize(
    ("language", "reviews", "forecast", "activity"),
    [
        (
            "en",
            "No questions in review yet.",
            None,  # no reviews at all: no forecast either
            "No answers in the last four weeks yet",
        ),
        (
            "es",
            "Todavía no tienes preguntas en repaso.",
            None,
            "Todavía no hay respuestas en las últimas cuatro semanas",
        ),
    ],
)
def test_a_new_learner_reads_what_will_come_not_empty_charts(
    seeds_imported, learner_client, language, reviews, forecast, activity
):
    learner_client.post("/language/", {"language": language, "next": "/"})

    html = " ".join(learner_client.get("/progress/").content.decode().split())

    assert reviews in html
    assert activity in html
    assert "<svg" not in html
    assert 'class="forecast-day"' not in html
    assert 'class="review-summary"' not in html


def test_reviews_none_coming_up_say_so_instead_of_seven_zeros(
    seeds_imported, learner_client, learner
):
    from progress.models import ReviewCard

    answer(learner, "q-10-02", keys=["A"])  # wrong: a card, due later than a week
    from datetime import timedelta

    from django.utils import timezone

    ReviewCard.objects.update(due=timezone.now() + timedelta(days=30))

    html = " ".join(learner_client.get("/progress/").content.decode().split())

    assert 'class="review-summary"' in html
    assert "None in the next 7 days." in html
    assert 'class="forecast-day"' not in html
    assert "<svg" in html  # an answer today: the chart is drawn


def test_the_charts_month_labels_are_lowercase_in_spanish(seeds_imported, learner_client, learner):
    import re

    answer(learner, "q-10-01", keys=["B"])
    english = learner_client.get("/progress/").content.decode()
    learner_client.post("/language/", {"language": "es", "next": "/"})
    spanish = learner_client.get("/progress/").content.decode()

    month = r'<text class="tick"[^>]*>\d+ (\w+)</text>'
    assert all(m[0].isupper() for m in re.findall(month, english))
    assert re.findall(month, spanish)
    assert all(m.islower() for m in re.findall(month, spanish))


def test_scores_agree_with_the_verdicts_beside_them(seeds_imported, learner_client, learner):
    # Every mention found, but a reject fired: wrong, and worth nothing (it read 100 %).
    answer(learner, "q-10-03", text="Because the weights are initialized to the identity")
    answer(learner, "q-19-05", text="The embedding row of the rare token dominates.")  # 2 of 3
    answer(learner, "q-10-02", keys=["A", "C"])  # a multiple answer, fully right

    progress = " ".join(learner_client.get("/progress/").content.decode().split())
    phase_10 = " ".join(learner_client.get("/phase/10/").content.decode().split())

    rows = {
        code: progress.split(f"#{code}", 1)[1].split("</tr>", 1)[0]
        for code in ("q-10-03", "q-19-05", "q-10-02")
    }
    assert "Not quite" in rows["q-10-03"] and '<td data-label="Score">0%</td>' in rows["q-10-03"]
    assert "Right" in rows["q-19-05"] and '<td data-label="Score">100%</td>' in rows["q-19-05"]
    assert '<td data-label="Score">100%</td>' in rows["q-10-02"]
    # The phase's score counts the questions right, as the verdicts say: one in phase 10.
    assert '<td data-label="Score">1 / 5</td> <td data-label="Answered">2 / 5</td>' in progress
    assert "Partial score" not in phase_10  # a fully right multiple answer has no partial


@pytest.mark.parametrize(("today", "monday_shown"), [("2026-12-04", False), ("2026-12-05", True)])
def test_a_monday_label_keeps_clear_of_todays(
    seeds_imported, learner_client, learner, today, monday_shown
):
    # On a phone the labels are drawn large: a Monday four days before today's label
    # ran into it ("Nov 30 Dec 4"); from five days before, it keeps clear.
    import time_machine

    with time_machine.travel(f"{today} 12:00Z", tick=False):
        answer(learner, "q-10-01", keys=["B"])
        html = learner_client.get("/progress/").content.decode()

    ticks = re.findall(r'<text class="tick"[^>]*>([^<]+)</text>', html)
    assert ticks[-1] == ("Dec 4" if today.endswith("04") else "Dec 5")
    assert ("Nov 30" in ticks) is monday_shown
    assert "Nov 23" in ticks


def test_the_history_names_each_cell_for_a_phone_to_stack_them(
    seeds_imported, learner_client, learner
):
    """At 360 px the history's rows stack, each cell headed by its column's name (CSS
    reads data-label); the table had scrolled sideways, the verdict out of sight."""
    answer(learner, "q-10-01", keys=["B"])
    learner_client.post("/language/", {"language": "es", "next": "/"})

    html = learner_client.get("/progress/").content.decode()

    assert '<table class="stack-on-phone">' in html
    for label in ("Cuándo", "Pregunta", "Resultado", "Puntuación"):
        assert f'<td data-label="{label}">' in html


def test_percentages_are_written_as_spanish_writes_them(seeds_imported, learner_client, learner):
    """Spanish puts a space before the percent sign, as the numeric key's "± 8 %" already
    did: the scores beside it read "100%" and "0%", two conventions on one screen. The
    space does not break, so the sign never starts a line."""
    answer(learner, "q-10-01", keys=["B"])  # right
    answer(learner, "q-10-02", keys=["A", "D"])  # 1 right − 1 wrong: partly
    learner_client.post("/language/", {"language": "es", "next": "/"})

    # str.split() would split at the no-break space too: squeeze only ASCII whitespace.
    progress = re.sub(r"[ \t\n]+", " ", learner_client.get("/progress/").content.decode())
    phase = re.sub(r"[ \t\n]+", " ", learner_client.get("/phase/10/").content.decode())

    assert '<td data-label="Acertadas al primer intento">50\u00a0%</td>' in progress
    assert '<td data-label="Puntuación">100\u00a0%</td>' in progress
    assert '<td data-label="Puntuación">0\u00a0%</td>' in progress
    assert "Puntuación parcial: 0\u00a0% (1 bien − 1 mal = 0 de 2)" in phase
