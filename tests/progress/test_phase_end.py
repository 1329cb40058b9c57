"""The phase's last card: it goes on to the first question never answered, and back to
the phases only once none is left."""

import pytest

from tests.factories import answer
from tests.html import form_token

pytestmark = pytest.mark.django_db


def _actions(html: str, code: str) -> str:
    """The feedback's buttons in `code`'s card (or in an htmx reply: the card's body)."""
    at = html.find(f'id="{code}"')
    card = html[max(at, 0) :]
    start = card.index('<div class="actions">')
    return " ".join(card[start : card.index("</div>", start)].split())


def test_the_last_card_continues_to_the_first_question_left(
    seeds_imported, learner, learner_client
):
    answer(learner, "q-10-01", keys=["B"])
    answer(learner, "q-10-05", keys=["A"])  # the last; q-10-02 is the first one left

    actions = _actions(learner_client.get("/phase/10/").content.decode(), "q-10-05")

    assert 'href="#q-10-02" data-next>Continue: question 2</a>' in actions
    assert "Back to phases" not in actions


def test_the_last_answer_sent_with_htmx_continues_too(seeds_imported, learner, learner_client):
    answer(learner, "q-10-02", keys=["A"])
    token = form_token(learner_client.get("/phase/10/").content.decode(), "q-10-05")

    response = learner_client.post(
        "/question/q-10-05/answer/",
        {"token": token, "choice": ["A"]},
        headers={"HX-Request": "true"},
    )

    assert 'href="#q-10-01" data-next>Continue: question 1</a>' in _actions(
        response.content.decode(), "q-10-05"
    )


def test_the_last_card_goes_back_to_the_phases_once_all_are_answered(
    seeds_imported, learner, learner_client
):
    for code in ("q-10-01", "q-10-02", "q-10-03", "q-10-04", "q-10-05"):
        answer(learner, code, keys=["A"], text="identity")

    actions = _actions(learner_client.get("/phase/10/").content.decode(), "q-10-05")

    assert "Back to phases" in actions
    assert "Continue" not in actions
