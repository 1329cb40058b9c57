"""Graders 9 and 10: what a clause says about a negatively phrased mention. A verb of
keeping from negates for such a mention ("prevents looking ahead" is "cannot see the
future"), and a hypothetical clause ("if you forget the mask, ...") does not contradict
it; expressions that start with a negation and deny nothing ("not only", "sin duda")."""

import pytest

from quizzes.grading import GRADER_VERSION, grade_free

CANNOT_SEE = [
    ["only previous tokens", "cannot see future", "solo tokens anteriores", "no ve el futuro"]
]


def read(expected, answer):
    result = grade_free(expected=expected, pass_mentions=None, answer=answer)
    return result.correct, result.mentions[0].status


def test_grader_version_names_these_rules():
    assert GRADER_VERSION == 12


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


# Only the negative phrasing: what the hypothetical clause says is all the answer has,
# so it reads as "missed" where it counts, "negated" where it would contradict.
SEES_NOT = [["cannot see future", "no ve el futuro"]]


@pytest.mark.parametrize(
    "answer",
    [
        "if you forget the mask, the model sees the future",
        "si no, ve el futuro y copia",
        "without the mask the model would see the future",
        # After a conjunction, and past a clause that is only punctuation.
        "pero si olvidas la máscara, ve el futuro",
        "and if you forget the mask, it sees the future",
        "if you forget the mask... it sees the future",
    ],
)
def test_hypothetical_clause_does_not_contradict(answer):
    assert read(SEES_NOT, answer) == (False, "missed")


@pytest.mark.parametrize(
    "answer",
    [
        "it sees the future",
        # "Sí" is yes, "sin embargo" is however: neither opens a hypothetical clause.
        "Sí, ve el futuro",
        "sí ve el futuro",
        "si, ve el futuro",
        "sin embargo, ve el futuro",
        "sin embargo ve el futuro",
    ],
)
def test_a_plain_clause_still_contradicts(answer):
    assert read(SEES_NOT, answer) == (False, "negated")


def test_a_hypothetical_clause_beside_the_mention_keeps_it_found():
    answer = "only previous tokens. if you forget the mask, the model sees the next token"
    assert read(CANNOT_SEE, answer) == (True, "found")


def test_hypothetical_clause_alone_finds_nothing():
    # It only keeps a contradiction from counting: it never finds the mention itself.
    assert read(CANNOT_SEE, "if you forget the mask, the model sees the next token") == (
        False,
        "missed",
    )


@pytest.mark.parametrize(
    "answer",
    [
        "not only the identity path but also the norm",
        "no solo el camino identidad sino la norma",
        "sin duda el camino identidad",
        "no doubt the identity path",
        "no obstante el camino identidad ayuda",
    ],
)
def test_an_expression_that_denies_nothing_is_no_negation(answer):
    assert read([["identity path", "camino identidad"]], answer) == (True, "found")


def test_not_only_still_denies_a_mention_that_starts_with_only():
    assert read([["only in training"]], "it is not only in training") == (False, "negated")
    assert read([["identity path"]], "no identity path") == (False, "negated")


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
        # A question tag or an alternative is no denial.
        ("es la identidad ¿no?", "found"),
        ("it is the identity no?", "found"),
        ("identity or not, it learns", "found"),
        ("la identidad o no, aprende", "found"),
        ("whether identity or not", "found"),
    ],
)
def test_a_bare_no_closing_the_words_clause_denies_them(answer, status):
    assert read([["identity", "identidad"]], answer)[1] == status


def test_stop_halts_and_keeps_from_nothing():
    # "stop training" (early stopping) is not "not training": "the train set" in an
    # answer contradicts nothing ("found, but negated" sent the learner the wrong way).
    assert read([["stop training"]], "it memorizes the train set") == (False, "missed")
    assert read([["stop training"]], "stop training early") == (True, "found")
    # Nor does it make the mention's other phrasings read negatively.
    stopping = [["stop training", "early stopping"]]
    assert read(stopping, "there is no early stopping") == (False, "negated")
    assert read(stopping, "early stopping") == (True, "found")


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


@pytest.mark.parametrize(
    "answer",
    ["it is only noise while nothing in training changes", "only noise while during training"],
)
def test_while_before_a_word_in_ing_that_is_no_gerund_ends_the_clause(answer):
    assert read([["only in training"]], answer) == (False, "missed")


@pytest.mark.parametrize(
    ("expected", "answer", "reading"),
    [
        # An expression that denies nothing is one only within a clause.
        (["only in training", "solo en entrenamiento"], "No, solo en entrenamiento.", "found"),
        (["only in training"], "No. Only in training", "found"),
        (["identidad", "identity"], "la identidad no, solo la norma", "negated"),
        (["identity"], "identity not. Only the norm", "negated"),
        # "Sin embargo" ends a clause, the cue before it notwithstanding.
        (["solo en entrenamiento"], "es solo ruido sin embargo en entrenamiento cambia", "missed"),
        # Both ways is no denial.
        (["identity"], "whether or not identity is used, it learns", "found"),
        (["identity"], "with or without identity, it learns", "found"),
        (["identidad"], "con o sin identidad, aprende", "found"),
        (["identidad"], "sin dudas la identidad", "found"),
        # "¿" opens a clause of its own: the cue before it does not reach into it.
        (["identidad"], "no lo sé ¿identidad?", "found"),
    ],
)
def test_expressions_and_breaks_read_within_their_clause(expected, answer, reading):
    assert read([expected], answer)[1] == reading


@pytest.mark.parametrize(
    "answer",
    [
        "only previous tokens; otherwise, the model sees the future",
        "Otherwise, it would see the future",
        "and then if you forget it, it sees the future",
    ],
)
def test_otherwise_and_conjunctions_open_a_hypothetical_clause(answer):
    assert read(SEES_NOT, answer) == (False, "missed")


def test_the_verb_of_a_negative_phrasing_keeps_nothing_away():
    # "does not prevent overflow" gives the key's "overflow" no negative reading.
    assert read([["overflow", "does not prevent overflow"]], "no overflow") == (False, "negated")
    assert read([["prevent overflow", "overflow"]], "no overflow") == (True, "found")


@pytest.mark.parametrize(("answer", "found"), [("K,V de los tokens", True), ("q,k,v", True)])
def test_a_comma_between_single_letters_is_notation_not_a_clause_break(answer, found):
    assert read([["keys and values", "claves y valores"]], answer)[0] is found


def test_a_comma_between_words_still_ends_a_clause():
    # "K, V" written as two words of a sentence: the comma is punctuation.
    assert read([["keys and values"]], "it keeps the k, v is recomputed")[0] is False


@pytest.mark.parametrize(
    ("answer", "correct"),
    [
        ("each token can only attend to the tokens before it", True),
        ("cada token solo puede mirar los tokens de antes", True),
        ("each token can only attend to the tokens after it", False),
    ],
)
def test_before_and_after_name_earlier_and_later_positions(answer, correct):
    """ "Before it" is "previous", "after it" is "later" (as "later" already was)."""
    assert read([["only previous tokens", "solo tokens anteriores"]], answer)[0] is correct


def test_after_names_a_later_position():
    assert read([["cannot see future tokens"]], "it cannot see the tokens after it")[0] is True


@pytest.mark.parametrize(
    ("answer", "correct"),
    [
        ("the output is the sum of the values weighted by attention", True),
        ("la salida es la suma de los valores ponderada por la atencion", True),
        ("the output is the weighted sum of the values", True),
        ("the output is the sum of the keys weighted by attention", False),
        ("the values are weighted; the output is their mean", False),
    ],
)
def test_a_vocabulary_phrase_is_also_read_word_by_word(answer, correct):
    """The vocabulary makes "weighted sum" one phrase, which stands word for word; the
    author's words for it are still read as any phrasing's are, in any order."""
    expected = [["weighted sum of values", "suma ponderada de valores"]]

    assert read(expected, answer)[0] is correct
