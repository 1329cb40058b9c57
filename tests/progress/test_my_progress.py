"""My progress: the activity chart, the reviews to come, and what a new learner sees
before any of it exists, in both languages."""

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
