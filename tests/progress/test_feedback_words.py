"""Free-text feedback quotes what the learner wrote, not the key's phrasing of it."""

import pytest

from tests.factories import answer
from tests.html import question_card

pytestmark = pytest.mark.django_db


@pytest.mark.parametrize(
    ("language", "says"),
    [
        ("en", "Your answer says “<bdi>2 Sigma</bdi>”, which makes it wrong."),
        ("es", "Tu respuesta dice «<bdi>2 Sigma</bdi>», y eso la hace incorrecta."),
    ],
)
def test_a_rejection_quotes_the_learners_own_words(
    seeds_imported, learner_client, learner, language, says
):
    answer(learner, "q-19-02", text="Flag a spike when the loss is 2 Sigma above its mean")
    learner_client.post("/language/", {"language": language, "next": "/"})

    shown = question_card(learner_client.get("/phase/19/").content.decode(), "q-19-02")

    assert says in shown
    assert "2σ" not in shown


@pytest.mark.parametrize(
    ("language", "says"),
    [
        ("en", "(where your answer says “<bdi>normalization</bdi>”)"),
        ("es", "(donde tu respuesta dice «<bdi>normalization</bdi>»)"),
    ],
)
def test_a_mention_read_as_the_opposite_quotes_the_words_read_so(
    seeds_imported, learner_client, learner, language, says
):
    # The mention's first phrasings ("identity", "unit gain") are not what the learner
    # wrote: the card must point at what was read as saying the opposite.
    answer(learner, "q-10-03", text="Because the normalization shrinks the gradients")
    learner_client.post("/language/", {"language": language, "next": "/"})

    shown = " ".join(
        question_card(learner_client.get("/phase/10/").content.decode(), "q-10-03").split()
    )

    assert says in shown
