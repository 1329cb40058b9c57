"""Spaced repetition: a failed question comes back on the right days until it is known."""

import re
from datetime import UTC, datetime, timedelta
from html import unescape as html_unescape

import pytest
import time_machine

from progress.models import ReviewCard
from progress.review_selectors import review_summary
from quizzes.models import Question
from tests.factories import answer
from tests.html import form_token

pytestmark = pytest.mark.django_db

START = datetime(2027, 3, 1, 9, 0, tzinfo=UTC)


def get(client, learner, url):
    # Log in at the travelled-to time: a session from the real "now" would have expired.
    client.force_login(learner)
    return client.get(url)


def review_answered(client, learner, headers=None):
    """Two cards due a day after wrong answers (q-10-04 first); the first reviewed
    right on the reviews page. Returns the answer's response and the reviews page that
    follows it, both read on that day."""
    with time_machine.travel(START, tick=False):
        answer(learner, "q-10-04", keys=["A"])
        answer(learner, "q-10-01", keys=["A"])
    with time_machine.travel(START + timedelta(days=1), tick=False):
        page = get(client, learner, "/reviews/").content.decode()
        response = client.post(
            "/question/q-10-04/answer/",
            {"token": form_token(page, "q-10-04"), "choice": ["B"], "context": "reviews"},
            headers=headers,
        )
        landed = client.get(response["Location"]) if response.status_code == 302 else None
        following = client.get("/reviews/").content.decode()
    return response, landed, following


def queue(client, learner) -> list[str]:
    html = get(client, learner, "/reviews/").content.decode()
    return [
        code
        for code in ("q-10-01", "q-10-02", "q-10-03", "q-10-04", "q-10-05")
        if f'<article class="question" id="{code}"' in html
    ]


def test_card_walks_wrong_due_next_day_right_later_learned_and_back(
    seeds_imported, learner_client, learner
):
    with time_machine.travel(START, tick=False):
        answer(learner, "q-10-01", keys=["A"])  # wrong: a card, due tomorrow
        card = ReviewCard.objects.get()
        assert card.due == START + timedelta(days=1)
        assert queue(learner_client, learner) == []

    with time_machine.travel(START + timedelta(days=1, hours=-8), tick=False):
        # Early next morning: due "today" although due at 09:00.
        assert queue(learner_client, learner) == ["q-10-01"]
        answer(learner, "q-10-01", keys=["B"])  # right: Good, due later
        card.refresh_from_db()
        assert card.due - (START + timedelta(days=1, hours=-8)) >= timedelta(days=1)
        assert card.due > START + timedelta(days=1)
        assert (card.streak, card.learned_at) == (1, None)
        assert queue(learner_client, learner) == []

    with time_machine.travel(card.due + timedelta(minutes=1), tick=False):
        assert queue(learner_client, learner) == ["q-10-01"]
        answer(learner, "q-10-01", keys=["B"])  # right again: learned
        card.refresh_from_db()
        assert card.streak == 2
        assert card.learned_at is not None
        assert queue(learner_client, learner) == []
        learned_at = card.learned_at

    with time_machine.travel(learned_at + timedelta(days=30), tick=False):
        assert queue(learner_client, learner) == []
        answer(learner, "q-10-01", keys=["C"])  # wrong again: back in the queue
        card.refresh_from_db()
        assert card.learned_at is None
        assert card.streak == 0
        assert card.due == learned_at + timedelta(days=31)

    with time_machine.travel(learned_at + timedelta(days=31), tick=False):
        assert queue(learner_client, learner) == ["q-10-01"]


def test_right_first_time_makes_no_card(seeds_imported, learner):
    answer(learner, "q-10-01", keys=["B"])

    assert ReviewCard.objects.count() == 0


def test_partly_right_is_rated_hard_and_keeps_the_card_in_review(seeds_imported, learner):
    with time_machine.travel(START, tick=False):
        answer(learner, "q-10-02", keys=["D"])  # wrong: card
    with time_machine.travel(START + timedelta(days=1), tick=False):
        answer(learner, "q-10-02", keys=["A"])  # partial 0.5: Hard
        card = ReviewCard.objects.get()

    assert card.streak == 0
    assert card.learned_at is None
    assert card.reviews == 2
    assert card.fsrs["last_review"].startswith("2027-03-02")


def test_reviews_page_orders_oldest_due_first_and_says_when_next(
    seeds_imported, learner_client, learner
):
    with time_machine.travel(START, tick=False):
        answer(learner, "q-10-04", keys=["A"])
    with time_machine.travel(START + timedelta(hours=2), tick=False):
        answer(learner, "q-10-01", keys=["A"])
        html = get(learner_client, learner, "/reviews/").content.decode()
        assert "Nothing is due today. The next review is due tomorrow, March 2, 2027." in html

    with time_machine.travel(START + timedelta(days=1, hours=3), tick=False):
        html = get(learner_client, learner, "/reviews/").content.decode()

    assert 'id="q-10-04"' in html  # oldest due first, one card at a time
    assert 'id="q-10-01"' not in html
    assert 'name="context" value="reviews"' in html
    assert "Review 1 of 2" in html


def test_review_session_answer_says_when_next_updates_badge_and_moves_on(
    seeds_imported, learner_client, learner
):
    response, _, second = review_answered(learner_client, learner, headers={"HX-Request": "true"})
    html = " ".join(response.content.decode().split())

    card = ReviewCard.objects.get(question__code="q-10-04")
    days = (card.due.date() - (START + timedelta(days=1)).date()).days
    assert f"Next review in {days} days." in html
    assert 'id="reviews-badge" data-hx-swap-oob="true"><span class="badge">' in html
    assert "1 due</span>" in html
    assert ">Next review</a>" in html
    assert "Review 2 of 2" in second
    assert 'id="q-10-01"' in second


def test_a_review_answered_with_htmx_puts_its_feedbacks_address_in_the_bar(
    seeds_imported, learner_client, learner
):
    """The address is where the answer lands without htmx, so a reload or the language
    switch shows this feedback, not the next review; "Next review" puts /reviews/ back."""
    response, _, _ = review_answered(learner_client, learner, headers={"HX-Request": "true"})
    html = " ".join(response.content.decode().split())

    assert response["HX-Replace-Url"] == "/reviews/?answered=q-10-04"
    assert '<a class="button" href="/reviews/" data-next data-hx-get="/reviews/" ' in html
    assert 'data-hx-replace-url="true"' in html


def test_answering_again_on_the_reviews_page_leads_on_to_the_next_review(
    seeds_imported, learner_client, learner
):
    """(UX walk 36) With htmx, "Answer again" on a review's feedback fetched a phase
    page's form: answered, its feedback offered "Next question", a link to a card the
    reviews page does not hold, which did nothing. The form keeps the reviews context,
    so the feedback leads on to the next review as the first answer's did."""
    hx = {"HX-Request": "true", "HX-Current-URL": "http://testserver/reviews/?answered=q-10-04"}
    response, _, _ = review_answered(learner_client, learner, headers=hx)
    again = re.search(r'data-hx-get="([^"]+)"[^>]*>Answer again<', response.content.decode())

    with time_machine.travel(START + timedelta(days=1), tick=False):
        learner_client.force_login(learner)
        form = learner_client.get(html_unescape(again[1]), headers=hx).content.decode()
        sent = {"token": form_token(form, "q-10-04"), "choice": ["B"]}
        if 'name="context" value="reviews"' in form:
            sent["context"] = "reviews"
        html = learner_client.post("/question/q-10-04/answer/", sent, headers=hx).content.decode()

    assert ">Next review</a>" in html
    assert ">Next question</a>" not in html


def test_an_answer_on_a_phase_page_leaves_its_address_alone(seeds_imported, learner_client):
    page = learner_client.get("/phase/10/").content.decode()

    response = learner_client.post(
        "/question/q-10-01/answer/",
        {"token": form_token(page, "q-10-01"), "choice": ["B"]},
        headers={"HX-Request": "true"},
    )

    assert "<html" not in response.content.decode()
    assert "HX-Replace-Url" not in response
    assert "HX-Push-Url" not in response


def test_a_review_due_later_than_tomorrow_is_named_by_its_date(
    seeds_imported, learner_client, learner
):
    with time_machine.travel(START, tick=False):
        answer(learner, "q-10-01", keys=["A"])  # wrong: due tomorrow
    ReviewCard.objects.update(due=START + timedelta(days=2))
    with time_machine.travel(START + timedelta(hours=2), tick=False):
        html = get(learner_client, learner, "/reviews/").content.decode()

    assert "Nothing is due today. The next review is due on March 3, 2027." in html


def test_review_session_ends_with_a_summary_and_the_next_day(
    seeds_imported, learner_client, learner
):
    with time_machine.travel(START, tick=False):
        answer(learner, "q-10-04", keys=["A"])
    with time_machine.travel(START + timedelta(days=1), tick=False):
        answer(learner, "q-10-04", keys=["B"])
        html = " ".join(get(learner_client, learner, "/reviews/").content.decode().split())

    due = ReviewCard.objects.get().due
    assert "You reviewed 1 question today, 1 right." in html
    assert f"The next review is due on {due:%B} {due.day}, {due.year}." in html


def test_same_day_retry_is_practice_not_a_review(seeds_imported, learner):
    with time_machine.travel(START, tick=False):
        answer(learner, "q-10-01", keys=["A"])  # wrong: card due tomorrow
        answer(learner, "q-10-01", keys=["B"])  # right, minutes later: practice
        answer(learner, "q-10-01", keys=["B"])
        card = ReviewCard.objects.get()

    assert (card.reviews, card.streak, card.learned_at) == (1, 0, None)
    assert card.due == START + timedelta(days=1)


def test_two_right_reviews_on_one_day_do_not_make_it_learned(seeds_imported, learner):
    with time_machine.travel(START, tick=False):
        answer(learner, "q-10-01", keys=["A"])
    with time_machine.travel(START + timedelta(days=1), tick=False):
        answer(learner, "q-10-01", keys=["B"])  # due: rated Good
        answer(learner, "q-10-01", keys=["B"])  # same day: practice
        card = ReviewCard.objects.get()

    assert (card.reviews, card.streak, card.learned_at) == (2, 1, None)


def test_progress_page_shows_the_next_seven_days(seeds_imported, learner_client, learner):
    with time_machine.travel(START, tick=False):
        answer(learner, "q-10-01", keys=["A"])
        answer(learner, "q-10-04", keys=["A"])
        html = " ".join(get(learner_client, learner, "/progress/").content.decode().split())

    assert html.count('class="forecast-day"') == 7
    assert 'data-count="2"' in html


def test_due_badge_is_counted_once_then_read_from_the_session(
    seeds_imported, learner_client, learner, django_assert_num_queries
):
    with time_machine.travel(START, tick=False):
        answer(learner, "q-10-01", keys=["A"])
        answer(learner, "q-10-04", keys=["A"])
    with time_machine.travel(START + timedelta(days=1), tick=False):
        learner_client.force_login(learner)
        learner_client.get("/password/")  # counts, and keeps the count in the session
        with django_assert_num_queries(2):  # session, user: no count
            response = learner_client.get("/password/")

    assert (
        '<span class="badge"><span class="visually-hidden"> (</span><span class="badge-long">2 due'
        in (response.content.decode())
    )


def test_the_header_link_ends_at_its_word_not_a_space_before_the_badge(
    seeds_imported, learner_client, learner
):
    """A line break between "Reviews" and its badge was part of the link: its underline
    ran on under a space before the red count, as if the word were longer."""
    with time_machine.travel(START, tick=False):
        answer(learner, "q-10-01", keys=["A"])
    with time_machine.travel(START + timedelta(days=1), tick=False):
        learner_client.force_login(learner)

        html = learner_client.get("/password/").content.decode()

    assert '<li><a href="/reviews/">Reviews<span id="reviews-badge"><span class="badge">' in html


def test_due_badge_counts_again_when_a_card_falls_due(seeds_imported, learner_client, learner):
    with time_machine.travel(START, tick=False):
        answer(learner, "q-10-01", keys=["A"])  # due tomorrow at 09:00
        learner_client.force_login(learner)
        learner_client.get("/password/")
    with time_machine.travel(START + timedelta(days=1, minutes=1), tick=False):
        html = learner_client.get("/password/").content.decode()

    assert "1 due" in html


def test_retired_question_card_is_suspended_not_deleted(seeds_imported, learner):
    with time_machine.travel(START, tick=False):
        answer(learner, "q-10-01", keys=["A"])
    Question.objects.filter(code="q-10-01").update(retired_at=START)

    with time_machine.travel(START + timedelta(days=2), tick=False):
        summary = review_summary(learner=learner)

    assert ReviewCard.objects.count() == 1
    assert (summary.in_review, summary.due_today, summary.suspended) == (0, 0, 1)


def test_progress_page_shows_cards(seeds_imported, learner_client, learner):
    with time_machine.travel(START, tick=False):
        answer(learner, "q-10-01", keys=["A"])
        answer(learner, "q-10-04", keys=["A"])
    with time_machine.travel(START + timedelta(days=1), tick=False):
        html = " ".join(get(learner_client, learner, "/progress/").content.decode().split())

    assert "<li>2 questions in review</li>" in html
    assert "2 due today</a>" in html
    assert "<li>0 learned</li>" in html


def test_two_first_wrong_answers_at_once_make_one_card_and_keep_both_attempts(
    seeds_imported, learner
):
    from unittest import mock

    from progress.models import Attempt

    answer(learner, "q-10-01", keys=["A"])  # the other request's card
    unseen = mock.Mock()
    unseen.filter.return_value.first.return_value = None  # as if looked up before it
    with mock.patch.object(ReviewCard.objects, "select_for_update", return_value=unseen):
        answer(learner, "q-10-01", keys=["C"])

    assert Attempt.objects.count() == 2
    assert ReviewCard.objects.count() == 1


def test_a_review_answered_without_javascript_shows_its_feedback_then_goes_on(
    seeds_imported, learner_client, learner
):
    """Without htmx the answer redirects to the reviews page, which shows the verdict
    and when the card comes back, as the htmx swap does, before the next card."""
    response, landed_page, following = review_answered(learner_client, learner)
    landed = " ".join(landed_page.content.decode().split())

    assert response.status_code == 302
    assert response["Location"] == "/reviews/?answered=q-10-04"
    assert 'id="q-10-04"' in landed and 'id="q-10-01"' not in landed
    assert "✓</span> Right </h3>" in landed and "Next review in" in landed
    assert '<a class="button" href="/reviews/" data-next' in landed
    assert 'name="token"' not in landed  # the feedback, not the next form
    assert "Review 1 of 2" in landed  # where it stands, as the htmx page keeps saying
    assert "Review 2 of 2" in following and 'id="q-10-01"' in following


@pytest.mark.parametrize("code", ["q-10-02", "q-nope", ""])
def test_the_reviews_page_shows_no_feedback_for_a_question_never_answered(
    seeds_imported, learner_client, learner, code
):
    html = learner_client.get(f"/reviews/?answered={code}").content.decode()

    assert "feedback" not in html and "Explanation" not in html
    assert "Nothing to review" in html


def test_a_review_regraded_wrong_is_due_again_on_the_reviews_page_and_the_badge(
    seeds_imported, learner_client, learner
):
    from io import StringIO

    from django.core.management import call_command

    from progress.context_processors import reviews_due_count
    from progress.review_selectors import review_session

    with time_machine.travel(START, tick=False):
        answer(learner, "q-10-01", keys=["A"])  # wrong: a card, due tomorrow
    with time_machine.travel(START + timedelta(days=1), tick=False):
        answer(learner, "q-10-01", keys=["B"])  # the day's review, right
        path = seeds_imported / "phase-10-init-norm-residuals.yaml"
        text = path.read_text().replace(
            "equivalente a fp32\n        correct: true\n", "equivalente a fp32\n", 1
        )
        text = text.replace(
            "dando valores de gradiente más precisos\n",
            "dando valores de gradiente más precisos\n        correct: true\n",
            1,
        )
        path.write_text(text, "utf-8")
        call_command("import_quizzes", str(seeds_imported), stdout=StringIO())
        call_command("regrade", "q-10-01", stdout=StringIO())  # B is now wrong

        shown = queue(learner_client, learner)
        session = review_session(learner=learner)
        badge = reviews_due_count(learner=learner, session={})
        summary = review_summary(learner=learner)

    assert shown == ["q-10-01"]
    assert (session.due_now, session.done_today) == (1, 0)
    assert badge == 1
    assert summary.due_today == 1


@pytest.mark.parametrize(
    ("language", "practice", "tomorrow"),
    [
        (
            "en",
            "Practice: this answer does not change the review schedule.",
            "Next review tomorrow.",
        ),
        (
            "es",
            "Práctica: esta respuesta no cambia el calendario de repasos.",
            "Próximo repaso mañana.",
        ),
    ],
)
def test_practice_says_when_the_card_comes_back_as_a_review_does(
    seeds_imported, learner_client, learner, language, practice, tomorrow
):
    """A second answer the same day is practice: its note says so, and when the card
    comes back in the same words a review's note uses ("tomorrow", not a date)."""
    with time_machine.travel(START, tick=False):
        answer(learner, "q-10-01", keys=["A"])  # wrong: a card due tomorrow
    with time_machine.travel(START + timedelta(hours=1), tick=False):
        answer(learner, "q-10-01", keys=["B"])  # the same day: practice
        learner_client.force_login(learner)
        learner_client.post("/language/", {"language": language, "next": "/"})
        html = " ".join(learner_client.get("/phase/10/").content.decode().split())

    start = html.index('id="q-10-01"')
    card = html[start : html.index("</article>", start)]
    assert f"{practice} {tomorrow}" in card


def test_the_reviews_page_recounts_the_header_badge(seeds_imported, client, learner):
    """A card made due other than by time (the README's demo, a regrade) was missing from
    a kept count of 0 while the reviews page showed it: the header said nothing due."""
    from progress.models import ReviewCard

    with time_machine.travel(START, tick=False):
        answer(learner, "q-10-03", text="no idea")  # due tomorrow
        client.force_login(learner)
        assert "badge-long" not in client.get("/password/").content.decode()  # 0, kept
        ReviewCard.objects.update(due=START)  # due now, the cache not told

        page = client.get("/reviews/").content.decode()

    assert '<span class="badge-long">1 due' in page


def test_review_form_resent_without_javascript_with_another_answer_shows_it_again(
    seeds_imported, learner_client, learner
):
    # The first answer ended the card's review, so the reviews page no longer holds the
    # card: the refusal lands on the question's phase page, with its message and the
    # new choice kept to send again.
    with time_machine.travel(START, tick=False):
        answer(learner, "q-10-04", keys=["A"])
        answer(learner, "q-10-01", keys=["A"])
    with time_machine.travel(START + timedelta(days=1), tick=False):
        page = get(learner_client, learner, "/reviews/").content.decode()
        sent = {"token": form_token(page, "q-10-04"), "context": "reviews"}
        learner_client.post("/question/q-10-04/answer/", {**sent, "choice": ["B"]})

        again = learner_client.post("/question/q-10-04/answer/", {**sent, "choice": ["C"]})

        assert again.status_code == 302
        landed = learner_client.get(again["Location"]).content.decode()
    assert "This form had already been sent with another answer" in landed
    assert 'value="C" id="q-10-04-C" checked>' in landed


@pytest.mark.parametrize("htmx", [True, False])
def test_review_sent_after_the_session_expired_comes_back_to_the_reviews_page(
    seeds_imported, learner_client, learner, htmx
):
    with time_machine.travel(START, tick=False):
        answer(learner, "q-10-03", text="nothing")  # wrong: a card, due tomorrow
    with time_machine.travel(START + timedelta(days=1), tick=False):
        page = get(learner_client, learner, "/reviews/").content.decode()
        learner_client.logout()
        response = learner_client.post(
            "/question/q-10-03/answer/",
            {
                "token": form_token(page, "q-10-03"),
                "text": "the identity path",
                "context": "reviews",
            },
            headers={"HX-Request": "true"} if htmx else None,
        )
        login = response["HX-Redirect"] if htmx else response["Location"]
        assert login == "/login/?next=%2Freviews%2F%23q-10-03&reason=expired"

        back = get(learner_client, learner, "/reviews/").content.decode()
    assert ">\nthe identity path</textarea>" in back
    assert "when you sent this answer, so it was kept here, not graded" in back


@pytest.mark.parametrize("htmx", [True, False])
def test_a_review_form_overtaken_by_another_tab_is_sent_back_not_stored_over_it(
    seeds_imported, learner_client, learner, htmx
):
    # Two tabs on today's reviews: the first answers the card right; the second, still
    # showing the card's form, must not silently replace that answer with its own.
    with time_machine.travel(START, tick=False):
        answer(learner, "q-10-04", keys=["A"])
    with time_machine.travel(START + timedelta(days=1), tick=False):
        page = get(learner_client, learner, "/reviews/").content.decode()
        sent = {"token": form_token(page, "q-10-04"), "context": "reviews"}
        second_tab = form_token(learner_client.get("/reviews/").content.decode(), "q-10-04")
        learner_client.post("/question/q-10-04/answer/", {**sent, "choice": ["B"]})
        headers = {"HX-Request": "true"} if htmx else {}

        stale = learner_client.post(
            "/question/q-10-04/answer/",
            {"token": second_tab, "context": "reviews", "choice": ["C"]},
            headers=headers,
        )

        if not htmx:
            assert stale.status_code == 302
            stale = learner_client.get(stale["Location"])
    html = stale.content.decode()
    assert stale.status_code == (409 if htmx else 200)
    assert "You answered this question in another tab or window" in html
    assert 'value="C" id="q-10-04-C" checked>' in html
    assert learner.attempts.count() == 2  # the first wrong answer and the right review
    assert learner.attempts.latest("id").answer["keys"] == ["B"]
