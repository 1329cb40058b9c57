"""Grader 9: what a clause says about a negatively phrased mention. A verb of keeping
from negates for such a mention ("prevents looking ahead" is "cannot see the future"),
and a hypothetical clause ("if you forget the mask, ...") does not contradict it."""

import pytest

from quizzes.grading import GRADER_VERSION, grade_free

CANNOT_SEE = [
    ["only previous tokens", "cannot see future", "solo tokens anteriores", "no ve el futuro"]
]


def read(expected, answer):
    result = grade_free(expected=expected, pass_mentions=None, answer=answer)
    return result.correct, result.mentions[0].status


def test_grader_version_names_these_rules():
    assert GRADER_VERSION == 9


@pytest.mark.parametrize(
    "answer",
    ["it prevents looking ahead", "impide mirar hacia adelante", "avoids seeing the future"],
)
def test_keeping_verb_negates_for_a_negative_mention(answer):
    assert read(CANNOT_SEE, answer) == (True, "found")


@pytest.mark.parametrize("answer", ["it lets tokens look ahead", "it looks ahead"])
def test_without_the_verb_the_same_words_still_contradict(answer):
    assert read(CANNOT_SEE, answer) == (False, "negated")


def test_keeping_verb_does_not_deny_a_plain_mention_of_the_danger():
    # "Warm-up avoids divergence" names divergence as the danger the key speaks of.
    assert read([["diverge"]], "evita que el entrenamiento diverja") == (True, "found")


@pytest.mark.parametrize(
    "answer",
    [
        "only previous tokens. if you forget the mask, the model sees the next token",
        "cada token solo ve los tokens anteriores; si no, ve el token siguiente y copia",
        "only previous tokens; without the mask the model would see the future",
    ],
)
def test_hypothetical_clause_does_not_contradict(answer):
    assert read(CANNOT_SEE, answer) == (True, "found")


def test_hypothetical_clause_alone_finds_nothing():
    # It only keeps a contradiction from counting: it never finds the mention itself.
    assert read(CANNOT_SEE, "if you forget the mask, the model sees the next token") == (
        False,
        "missed",
    )


@pytest.mark.parametrize(
    ("expected", "answer"),
    [
        (["disabled at inference"], "in eval mode it does nothing"),
        (["se desactiva en inferencia"], "en modo eval no hace nada"),
        (["only earlier positions"], "cada posicion solo ve posiciones anteriores"),
        (["e^loss"], "take e to the power of the cross entropy"),
        (["increase gradually"], "it slowly raises the learning rate"),
        (["choosing among 20", "elegir entre 20"], "como adivinar entre 20"),
    ],
)
def test_vocabulary_of_the_new_topics(expected, answer):
    assert read([expected], answer) == (True, "found")


@pytest.mark.parametrize(
    ("answer", "status"),
    [
        ("la identidad no, la norma", "negated"),
        ("identity no, the norm", "negated"),
        ("la identidad, no la norma", "found"),
        ("¿la identidad? no", "found"),
    ],
)
def test_a_bare_no_closing_the_words_clause_denies_them(answer, status):
    assert read([["identity", "identidad"]], answer)[1] == status


def test_stop_halts_and_keeps_from_nothing():
    # "stop training" (early stopping) is not "not training": "the train set" in an
    # answer contradicts nothing ("found, but negated" sent the learner the wrong way).
    assert read([["stop training"]], "it memorizes the train set") == (False, "missed")
    assert read([["stop training"]], "stop training early") == (True, "found")


@pytest.mark.parametrize(
    "answer", ["this penalizes overconfident predictions", "penaliza la sobreconfianza"]
)
def test_penalizing_keeps_from(answer):
    assert read([["not overconfident", "no sobreconfiado"]], answer) == (True, "found")


def test_while_before_a_gerund_is_a_time_not_a_clause():
    expected = [["only in training"]]
    assert read(expected, "it zeroes units only while training") == (True, "found")
    # Before a clause it still ends one: "only" does not reach past it.
    assert read(expected, "it is only noise, while the training goes on")[0] is False
