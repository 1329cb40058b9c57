"""Grading of every seed question: right, wrong and tricky answers."""

from pathlib import Path

import pytest

from quizzes.grading import (
    GRADER_VERSION,
    MentionResult,
    RejectResult,
    grade,
    grade_free,
    grade_multi,
    grade_single,
    highlight_html,
    normalize,
)
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
        # One mention since the key review: the mean alone used to pass (a content bug).
        ("3σ above the rolling mean", True, (0,), 1.0),
        ("anything beyond 3 sigma", True, (0,), 1.0),
        ("Three  Sigma over the moving average", True, (0,), 1.0),
        ("loss 3σ por encima de la media movil", True, (0,), 1.0),
        ("tres sigma", True, (0,), 1.0),
        ("above the rolling mean", False, (), 0.0),
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
    # A right answer scores 1 however many mentions it needed; a wrong one 0, with the
    # share of mentions found as its partial score.
    assert (two.score, two.partial) == (1.0, 0.6667)
    assert (one.correct, one.found, one.missed) == (False, (0,), (1, 2))
    assert (one.score, one.partial) == (0.0, 0.3333)


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


# The matcher's rules (issue 11), one at a time, on plain keys.


def mention(expected, answer, **kwargs):
    return grade_free(expected=[expected], pass_mentions=None, answer=answer, **kwargs)


@pytest.mark.parametrize(
    ("answer", "language"),
    [
        ("gradientes grandes", "es"),
        ("larger gradients", "en"),
        ("Larger gradients", None),
        ("huge grads", None),
        ("un gradiente enorme", None),
    ],
)
def test_grade_free_stems_and_vocabulary_find_large_gradient(answer, language):
    result = mention(["large gradient"], answer, language=language)

    assert (result.correct, result.found) == (True, (0,))


@pytest.mark.parametrize(
    ("answer", "correct", "typos"),
    [
        ("identiy", True, (("identiy", "identity"),)),
        ("indentidad", True, (("indentidad", "identidad"),)),
        ("zebrawrod", True, (("zebrawrod", "zebraword"),)),
        ("zebra word", True, ()),
        ("identify", False, ()),
        ("identical", False, ()),
        ("entity", False, ()),
        ("density", False, ()),
    ],
)
def test_grade_free_typos_are_bounded_and_reported(answer, correct, typos):
    result = mention(["identity", "identidad", "zebraword"], answer)

    assert result.correct is correct
    assert result.mentions[0].typos == typos


@pytest.mark.parametrize(
    ("expected", "answer"),
    [(["row"], "rwo"), (["mean"], "meen"), (["10"], "100"), (["3"], "8"), (["three"], "there")],
)
def test_grade_free_no_typo_on_short_words_or_numbers(expected, answer):
    result = mention(expected, answer)

    assert (result.correct, result.mentions[0].status) == (False, "missed")


@pytest.mark.parametrize(
    ("answer", "correct"),
    [
        ("the mean of the rolling window", True),
        ("rolling mean", True),
        ("a rolling window whose mean", True),
        ("rolling stones and, later, a mean", False),  # another clause
        ("rolling over the data five times then taking a mean", False),  # too far apart
    ],
)
def test_grade_free_words_of_a_mention_in_any_order_within_a_window(answer, correct):
    assert mention(["rolling mean"], answer).correct is correct


@pytest.mark.parametrize(
    ("answer", "status"),
    [
        ("it is not the identity path", "negated"),
        ("it doesn't use the identity", "negated"),
        ("never the identity", "negated"),
        ("non-identity", "negated"),
        ("no es por la identidad", "negated"),
        ("ni la identidad ni nada", "negated"),
        ("sin identidad", "negated"),
        ("not the norm, because the identity path", "found"),
        ("No, it is the identity", "found"),
    ],
)
def test_grade_free_negation_in_the_same_clause_counts_as_not_found(answer, status):
    result = mention(["identity", "identidad"], answer)

    assert result.mentions[0].status == status
    assert result.correct is (status == "found")
    assert result.negated == ((0,) if status == "negated" else ())
    assert result.missed == (() if status == "found" else (0,))


def test_grade_free_negation_inside_a_mention():
    result = mention(["large gradient"], "the gradient is not large")

    assert (result.correct, result.mentions[0].status) == (False, "negated")


@pytest.mark.parametrize(
    ("answer", "correct"),
    [
        ("3σ", True),
        ("3 std above the mean", True),
        ("three standard deviations", True),
        ("tres desviaciones típicas", True),
        ("three-sigma", True),
        ("z > 3", True),
        ("mean + 3*std", True),
        ("2 sigma", False),
        ("13σ", False),
        ("3.5 sigma", False),
        ("2 sigma over 3 steps", False),
        ("the standard deviation", False),
        ("z-score above 3", True),
        ("z score mayor que 3", True),
        ("thrice the standard deviation above average", True),
        ("z above 2, then 3 steps later", False),
        ("3 steps above 2 sigma", False),
    ],
)
def test_grade_free_vocabulary_numbers_and_sigma(answer, correct):
    assert mention(["3 sigma"], answer).correct is correct


def test_grade_free_reject_makes_the_answer_wrong_and_says_why():
    result = grade_free(
        expected=[["3 sigma"]],
        pass_mentions=None,
        answer="2 sigma, or 3 sigma",
        reject=[["2 sigma", "two sigma"]],
    )

    # Every mention found, but a wrong claim: no score, and no partial score either.
    assert (result.correct, result.found, result.score, result.partial) == (False, (0,), 0.0, 0.0)
    assert result.rejected == (
        RejectResult(index=0, alternative="2 sigma", spans=((0, 1), (2, 7)), typos=()),
    )


def test_grade_free_negated_reject_does_not_count():
    result = grade_free(
        expected=[["3 sigma"]],
        pass_mentions=None,
        answer="not 2 sigma but 3 sigma",
        reject=["2 sigma"],
    )

    assert (result.correct, result.rejected) == (True, ())


def test_grade_free_spans_point_into_the_original_text():
    answer = "Pues: la IDÉNTIDAD, claro"

    result = mention(["identidad"], answer)

    assert result.mentions[0] == MentionResult(index=0, status="found", spans=((9, 18),))
    assert answer[9:18] == "IDÉNTIDAD"


@pytest.mark.parametrize(
    ("language", "spanish", "english"),
    [("en", False, True), ("es", True, False), (None, True, True)],
)
def test_grade_free_language_unknown_uses_both_stemmers(language, spanish, english):
    es = mention(["cuantizar"], "activaciones cuantizadas", language=language)
    en = mention(["quantize"], "quantization", language=language)

    assert (es.correct, en.correct) == (spanish, english)


def test_grade_entry_point_passes_reject_and_language():
    result = grade(
        kind="free",
        correct_keys=(),
        expected=[["identity"]],
        pass_mentions=None,
        text="identity matrix init",
        reject=[["identity matrix"]],
        language="en",
    )

    assert (result.correct, [r.index for r in result.rejected]) == (False, [0])
    assert GRADER_VERSION == 12


def test_highlight_html_escapes_everything_but_the_marks():
    text = "<script>alert(1)</script> identity & co"

    html = highlight_html(text=text, spans=[(26, 34), (30, 34), (100, 120)])

    assert html == ("&lt;script&gt;alert(1)&lt;/script&gt; <mark>identity</mark> &amp; co")


def test_grade_free_long_answer_is_linear_not_timed():
    # 10,000 characters with a match in every sentence: the spans are capped, the
    # verdict is right; the timing is the bench's job (bench/grading_bench.py).
    sentence = "the rare token's embedding row gets a huge gradient; "
    answer = (sentence * 200)[:10_000]

    result = grade_free(
        expected=[["embedding row"], ["large gradient"]], pass_mentions=None, answer=answer
    )

    assert result.correct is True
    assert len(result.mentions[0].spans) == 20
