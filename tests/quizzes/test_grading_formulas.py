"""Matcher: formulas and symbols meet their words (e^x, exp(x), at most, powers, norms)."""

import pytest

from quizzes.grading import grade_free


def read(expected, answer, *, reject=(), pass_mentions=None):
    result = grade_free(
        expected=expected, pass_mentions=pass_mentions, answer=answer, reject=reject
    )
    return result.correct, result.mentions[0].status, result.mentions[0].negative


@pytest.mark.parametrize(
    ("answer", "correct"),
    [
        ("perplexity is e to the power of the loss", True),
        ("PPL = e^(loss)", True),
        ("exp(loss)", True),
        ("e**loss", True),
        ("2 to the power of the loss", False),
    ],
)
def test_formula_spellings_meet(answer, correct):
    assert read([["e^loss", "exp(loss)"]], answer)[0] is correct


@pytest.mark.parametrize(
    ("answer", "correct"),
    [
        ("that row is most of ||g||", True),
        ("la fila es casi toda ‖g‖", True),
        ("that row is most of g", False),
    ],
)
def test_a_norms_bars_read_as_norm(answer, correct):
    assert read([["most of the norm", "casi toda la norma"]], answer)[0] is correct


@pytest.mark.parametrize(
    ("answer", "correct"), [("t <= 5", True), ("at most 5", True), ("a lo sumo 5", True)]
)
def test_at_most_spellings_meet(answer, correct):
    assert read(["≤ 5"], answer)[0] is correct


def test_superscript_is_a_power():
    assert read(["gradient squared"], "the average of gradient²")[0] is True


@pytest.mark.parametrize(
    ("answer", "correct"),
    [("an EMA of g*g", True), ("la media de g · g", True), ("an EMA of g*m", False)],
)
def test_product_of_a_word_with_itself_is_its_square(answer, correct):
    assert read(["g squared"], answer)[0] is correct


def test_a_formulas_closing_bracket_does_not_end_the_clause():
    assert read([["common factor"]], "it removes the common e^(-max) factor")[0] is True
    assert read([["common factor"]], "a common (as an aside) factor")[0] is False


@pytest.mark.parametrize(
    ("answer", "correct"),
    [
        ("output = Σ w·v", True),
        ("output = ∑_i w_i v_i", True),
        ("la salida es Σ pesos × values", True),
        ("output = w·v", False),
    ],
)
def test_a_capital_sigma_alone_is_a_sum(answer, correct):
    assert read([["sum", "suma"]], answer)[0] is correct


@pytest.mark.parametrize("answer", ["Σ 3", "the Σ of the scores"])
def test_a_capital_sigma_alone_is_no_standard_deviation(answer):
    """Casefolded, "Σ" would be "σ", a standard deviation: a summation is not one."""
    assert read([["sigma", "standard deviation"]], answer)[0] is False


def test_a_greek_word_in_capitals_keeps_its_sigma():
    assert read([["σοφια"]], "ΣΟΦΙΑ")[0] is True
