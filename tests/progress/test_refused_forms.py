"""A refused answer (here: an empty one) comes back where it was sent from, and an
empty answer ends the draft rather than bringing back the text the learner cleared."""

from datetime import UTC, datetime, timedelta

import time_machine

from progress.models import Draft
from tests.factories import answer
from tests.html import form_token

START = datetime(2027, 3, 1, 9, 0, tzinfo=UTC)


def test_an_empty_review_answer_without_htmx_comes_back_to_the_review(
    seeds_imported, client, learner
):
    with time_machine.travel(START, tick=False):
        answer(learner, "q-10-03", text="no idea")  # wrong: due tomorrow
    with time_machine.travel(START + timedelta(days=1), tick=False):
        client.force_login(learner)
        page = client.get("/reviews/").content.decode()

        response = client.post(
            "/question/q-10-03/answer/",
            {"token": form_token(page, "q-10-03"), "text": "  ", "context": "reviews"},
        )
        again = client.get(response["Location"]).content.decode()

    assert (response.status_code, response["Location"]) == (302, "/reviews/")
    assert "Write an answer first." in again
    assert 'id="q-10-03"' in again
    assert "no idea</textarea>" not in again  # a review asks to recall, not to reread


def test_an_answer_sent_empty_ends_the_draft_it_cleared(
    seeds_imported, learner_client, learner, phase_token, post_answer
):
    token = phase_token("q-10-03")
    learner_client.post(
        "/question/q-10-03/draft/",
        {"token": token, "text": "draft one"},
        headers={"HX-Request": "true"},
    )
    assert Draft.objects.get(learner=learner).answer["text"] == "draft one"

    response = post_answer("q-10-03", text="", token=token)
    page = learner_client.get("/phase/10/").content.decode()

    assert response.status_code == 422
    assert not Draft.objects.filter(learner=learner).exists()
    assert "draft one" not in page


def test_a_refused_answer_with_text_still_becomes_the_draft(
    seeds_imported, learner_client, learner, phase_token, post_answer
):
    response = post_answer("q-10-03", text="x" * 10_001)

    assert response.status_code == 422
    assert len(Draft.objects.get(learner=learner).answer["text"]) == 10_001


def test_an_answer_too_long_to_keep_whole_says_what_was_kept(
    seeds_imported, learner_client, learner, post_answer
):
    response = post_answer("q-10-03", text="x" * 60_000)

    assert response.status_code == 422
    html = response.content.decode()
    assert "60,000 characters, at most 10,000. Only its first 50,000 characters are kept" in html
    assert len(Draft.objects.get(learner=learner).answer["text"]) == 50_000


def test_the_reviews_page_takes_only_its_cards_form_error(seeds_imported, client, learner):
    """Another question's waiting message stays for its own page, not dropped here."""
    from progress.views import FORM_ERRORS

    with time_machine.travel(START, tick=False):
        answer(learner, "q-10-03", text="no idea")
    with time_machine.travel(START + timedelta(days=1), tick=False):
        client.force_login(learner)
        session = client.session
        session[FORM_ERRORS] = {"q-10-03": "Write an answer first.", "q-19-05": "Other."}
        session.save()

        page = client.get("/reviews/").content.decode()

    assert "Write an answer first." in page
    assert client.session[FORM_ERRORS] == {"q-19-05": "Other."}
