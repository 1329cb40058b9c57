"""Grading of every seed question: right, wrong and tricky answers."""

from pathlib import Path

import pytest

from quizzes.grading import grade_free, grade_multi, grade_single, normalize
from quizzes.loader import load_quiz_set

DATA_DIR = Path(__file__).resolve().parents[2] / "data" / "quizzes"
SEEDS = {q.code: q for q in load_quiz_set([DATA_DIR]).questions}


def single(code, chosen):
    return grade_single(correct_keys=SEEDS[code].correct_keys, chosen=chosen)


def multi(code, chosen):
    return grade_multi(correct_keys=SEEDS[code].correct_keys, chosen=chosen)


def free(code, answer):
    q = SEEDS[code]
    return grade_free(expected=q.expected, pass_mentions=q.pass_mentions, answer=answer)


@pytest.mark.parametrize(
    ("code", "right", "wrong"),
    [
        ("q-10-01", "B", "A"),
        ("q-10-04", "B", "D"),
        ("q-10-05", "C", "B"),
        ("q-19-01", "B", "C"),
        ("q-19-03", "B", "A"),
    ],
)
def test_grade_single_seed_questions(code, right, wrong):
    good, bad = single(code, right), single(code, wrong)

    assert (good.correct, good.score, good.partial) == (True, 1.0, 1.0)
    assert (bad.correct, bad.score, bad.partial) == (False, 0.0, 0.0)
    assert bad.wrong_picks == (wrong,)
    assert bad.missed_keys == (right,)


def test_grade_single_unknown_key_is_wrong():
    result = single("q-10-01", "Z")

    assert (result.correct, result.score) == (False, 0.0)


@pytest.mark.parametrize(
    ("chosen", "correct", "partial", "right", "wrong", "missed"),
    [
        (["A", "C"], True, 1.0, ("A", "C"), (), ()),
        (["C", "A"], True, 1.0, ("A", "C"), (), ()),
        (["A"], False, 0.5, ("A",), (), ("C",)),
        (["A", "C", "D"], False, 0.5, ("A", "C"), ("D",), ()),
        (["A", "B"], False, 0.0, ("A",), ("B",), ("C",)),
        (["B", "D"], False, 0.0, (), ("B", "D"), ("A", "C")),
        ([], False, 0.0, (), (), ("A", "C")),
    ],
)
def test_grade_multi_q_10_02(chosen, correct, partial, right, wrong, missed):
    result = multi("q-10-02", chosen)

    assert result.correct is correct
    assert result.score == (1.0 if correct else 0.0)
    assert result.partial == partial
    assert (result.right_picks, result.wrong_picks, result.missed_keys) == (right, wrong, missed)


@pytest.mark.parametrize(
    ("chosen", "correct", "partial"),
    [
        (["A", "B", "C"], True, 1.0),
        (["A", "B"], False, 0.6667),
        (["A", "B", "C", "D"], False, 0.6667),
        (["D"], False, 0.0),
    ],
)
def test_grade_multi_q_19_04(chosen, correct, partial):
    result = multi("q-19-04", chosen)

    assert (result.correct, result.partial) == (correct, partial)


@pytest.mark.parametrize(
    ("answer", "correct", "found"),
    [
        ("It keeps the identity path", True, (0,)),
        ("IDENTITY", True, (0,)),
        ("the identity, of course", True, (0,)),
        ("El camino de la identidad tiene ganancia unitaria", True, (0,)),
        ("el camino de la IDÉNTIDAD", True, (0,)),
        ("nonidentity is not it", False, ()),
        ("gradients stay finite", False, ()),
        ("", False, ()),
    ],
)
def test_grade_free_q_10_03(answer, correct, found):
    result = free("q-10-03", answer)

    assert (result.correct, result.found) == (correct, found)
    assert result.score == (1.0 if correct else 0.0)


@pytest.mark.parametrize(
    ("answer", "correct", "found", "score"),
    [
        ("3σ above the rolling mean", True, (0, 1), 1.0),
        ("anything beyond 3 sigma", True, (0,), 0.5),
        ("Three  Sigma over the moving average", True, (0, 1), 1.0),
        ("loss 3σ por encima de la media movil", True, (0, 1), 1.0),
        ("tres sigma", True, (0,), 0.5),
        ("above the rolling mean", True, (1,), 0.5),
        ("2σ", False, (), 0.0),
        ("13σ is silly", False, (), 0.0),
    ],
)
def test_grade_free_q_19_02_symbols_and_alternatives(answer, correct, found, score):
    result = free("q-19-02", answer)

    assert (result.correct, result.found, result.score) == (correct, found, score)


def test_grade_free_q_19_05_needs_two_of_three_mentions():
    full = free(
        "q-19-05",
        "The rare token's embedding row gets a large gradient that dominates the global norm.",
    )
    two = free("q-19-05", "Its embedding row dominates the L2 norm.")
    one = free("q-19-05", "The embedding of a rare token.")

    assert (full.correct, full.found, full.score) == (True, (0, 1, 2), 1.0)
    assert (two.correct, two.found, two.missed) == (True, (0, 2), (1,))
    assert (one.correct, one.found, one.missed, one.score) == (False, (0,), (1, 2), 0.3333)


def test_grade_free_spanish_answer_to_q_19_05():
    result = free(
        "q-19-05",
        "La fila de embedding del token raro recibe un gradiente enorme que domina la norma.",
    )

    assert (result.correct, result.found) == (True, (0, 1, 2))


def test_grade_free_ten_thousand_characters():
    answer = ("padding words " * 700) + " identity " + ("more " * 100)

    result = free("q-10-03", answer[:10_000] + " identity")

    assert len(answer) > 10_000
    assert result.correct is True


def test_grade_free_stem_matches_longer_word():
    result = grade_free(expected=[["satur"]], pass_mentions=None, answer="Saturation hits")

    assert result.found == (0,)


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("  Ａｂｃ\tDEF\n\n ghi ", "abc def ghi"),
        ("Identidad ÉXITO", "identidad exito"),
        ("Straße", "strasse"),
        ("ΣΑΣ 3σ", "σασ 3σ"),
        ("ﬁne", "fine"),
    ],
)
def test_normalize(text, expected):
    assert normalize(text) == expected
