"""The grader says when it is unsure, so a teacher can check the verdict."""

import pytest

from quizzes.grading import DOUBTS, grade_free


def doubts(answer, *, expected, pass_mentions=None, reject=()):
    result = grade_free(
        expected=expected, pass_mentions=pass_mentions, answer=answer, reject=reject
    )
    return result.correct, result.doubts


def test_doubts_one_mention_short_of_passing_is_flagged():
    assert doubts(
        "the keys are cached", expected=["keys", "values", "cached"], pass_mentions=3
    ) == (False, ("one_missing",))


def test_doubts_far_from_passing_is_not_flagged():
    assert doubts("the keys", expected=["keys", "values", "cached"]) == (False, ())


def test_doubts_single_mention_key_missed_is_not_flagged():
    assert doubts("no idea", expected=["embedding"]) == (False, ())


def test_doubts_right_only_through_a_typo_is_flagged():
    assert doubts("the embdeding row", expected=["embedding"]) == (True, ("typo",))


def test_doubts_right_without_a_typo_is_sure():
    assert doubts("the embedding row", expected=["embedding"]) == (True, ())


def test_doubts_wrong_only_because_of_a_negation_is_flagged():
    assert doubts("it is not cached", expected=["cached"]) == (False, ("negation",))


def test_doubts_ignored_negated_reject_is_flagged():
    assert doubts(
        "a rolling mean, not batch norm", expected=["rolling mean"], reject=["batch norm"]
    ) == (True, ("reject_negated",))


@pytest.mark.parametrize(
    "code", ["one_missing", "typo", "negation", "unrecognised", "reject_negated"]
)
def test_doubts_every_code_is_described(code):
    assert DOUBTS[code]


def test_doubts_developed_answer_the_key_does_not_recognise_is_flagged():
    answer = (
        "each position only attends to earlier positions, so the model learns to "
        "continue text from what it has read so far"
    )

    assert doubts(answer, expected=["embedding"]) == (False, ("unrecognised",))


def test_doubts_short_unrecognised_answer_is_sure():
    assert doubts("it learns to continue the text", expected=["embedding"]) == (False, ())


def test_doubts_developed_answer_with_a_reject_is_sure():
    answer = "it uses batch norm over the whole window of the training loss values here"

    assert doubts(answer, expected=["rolling mean"], reject=["batch norm"]) == (False, ())
