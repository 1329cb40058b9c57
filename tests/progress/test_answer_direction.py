"""What a learner wrote is shown in its own writing direction: an answer in Arabic or
Hebrew, or one that ends in such words, is laid out right to left where the page quotes
it, instead of taking the page's left-to-right order ("(3σ)." and the final full stop
landed on the wrong side; learner walk 37)."""

import re

import pytest

from tests.factories import answer
from tests.html import question_card

pytestmark = pytest.mark.django_db

RTL = "ثلاثة انحرافات معيارية فوق المتوسط (3σ). שלוש סטיות תקן."


def test_the_feedback_quotes_the_answer_in_its_own_direction(
    seeds_imported, learner, learner_client
):
    answer(learner, "q-19-02", text=RTL)

    card = question_card(learner_client.get("/phase/19/").content.decode(), "q-19-02")

    quoted = re.search(r'<blockquote class="answer-text"[^>]*>', card)
    assert quoted, card
    assert 'dir="auto"' in quoted.group(0)


def test_the_answer_that_stands_takes_the_texts_direction(
    seeds_imported, learner, learner_client, post_answer
):
    # (Not the answer box: see _question.html, a pasted megabyte made typing crawl.)
    answer(learner, "q-19-02", text=RTL)

    post_answer("q-19-02", text="x" * 10_001)  # refused: the form shows what stands
    card = question_card(learner_client.get("/phase/19/").content.decode(), "q-19-02")

    assert f'<q dir="auto">{RTL}</q>' in card


@pytest.mark.parametrize(
    ("text", "quoted"),
    [
        ("the residual keeps an identty path", "found despite a typo: “<bdi>identty</bdi>”"),
        ("it is not the identity", "where your answer says “<bdi>identity</bdi>”"),
    ],
)
def test_the_learners_words_quoted_in_a_sentence_keep_their_own_direction(
    seeds_imported, learner, learner_client, text, quoted
):
    # Right-to-left words quoted inside the feedback's sentences turned its quote marks
    # and brackets round (learner walk 37): each quote is isolated, whatever its script.
    answer(learner, "q-10-03", text=text)

    card = question_card(learner_client.get("/phase/10/").content.decode(), "q-10-03")

    assert quoted in " ".join(card.split()), card
