"""A misspelt word stands for at most ten of the key's words, the nearest (grader 12): a key
of near-identical words cannot make every word of an answer a typo of all of them."""

from quizzes.grading.answer_words import MAX_TYPO_TARGETS, word_matches
from quizzes.grading.keys import as_mentions, compile_key

CENTRE = "bcdfghjk"  # no word the vocabulary knows


def near(count: int) -> list[str]:
    """`count` words of 8 letters, each two edits from CENTRE: its first two letters
    replaced."""
    pairs = [a + b for a in "lmnpqrst" for b in "lmnpqrst"]
    return [pair + CENTRE[2:] for pair in pairs[:count]]


def test_a_misspelt_word_stands_for_at_most_ten_key_words_the_nearest():
    far = near(12)  # two edits from the answer's word
    close = ["bcdfghjz"]  # one edit
    key = compile_key(expected=as_mentions([far + close]), reject=(), languages=("en",))

    found = word_matches(key, CENTRE)

    assert len(far) == 12 and set(found.values()) == {"typo"}
    assert len(found) == MAX_TYPO_TARGETS == 10
    assert "bcdfghjz" in found  # the nearest is never the one left out
    assert list(found) == [w for w in far + close if w in found]  # in the key's order


def test_under_the_bound_every_typo_target_is_kept():
    words = near(6)
    key = compile_key(expected=as_mentions([words]), reject=(), languages=("en",))

    assert set(word_matches(key, CENTRE)) == set(words)
