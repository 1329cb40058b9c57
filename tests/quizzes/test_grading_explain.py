"""import_quizzes --explain: each mention as the matcher reads it, and the warnings an
author gets for phrasings that will not hold."""

import pytest

from quizzes.grading.explain import key_explain
from quizzes.grading.vocabulary import vocabulary_parse


def test_explain_shows_negative_reading_and_warns():
    explained = key_explain(expected=[["not recomputed"], ["to disk"]], reject=[["z"]])

    negative, shrunk, letter = explained
    assert negative.phrasings[0].readings[0].startswith("negative: not ")
    assert negative.warnings == (
        "phrased negatively: found only where the answer negates its words",
    )
    assert shrunk.phrasings[0].warnings == (
        "shrinks to one word, 'disk', once the stop words (to) are left out: any answer"
        " with that word finds it; add a word that names the claim",
    )
    assert letter.phrasings[0].warnings[0].startswith("one letter")


@pytest.mark.parametrize("text", ["not recomputed", "sin cambios"])
def test_a_negative_phrasing_is_not_said_to_shrink_to_one_word(text):
    """Instructor walk 32: the key change page proposed "sin cambios", and the import then
    warned "'sin cambios' shrinks to one word, 'cambios', once the stop words () are left
    out", though the cue is read ("negative: not cambios") and no word is left out."""
    [explained] = key_explain(expected=[[text]])

    assert explained.phrasings[0].readings[0].startswith("negative: not ")
    assert not any("shrinks" in w for w in explained.phrasings[0].warnings)


def test_explain_warns_when_vocabulary_widens_to_a_general_word(monkeypatch):
    vocabulary = vocabulary_parse(
        raw={"equivalents": [["explodes", "big"]], "general": ["big", "large"]}
    )
    monkeypatch.setattr("quizzes.grading.explain.vocabulary_load", lambda: vocabulary)

    [specific] = key_explain(expected=[["explodes"]])
    [general] = key_explain(expected=[["big"]])

    # With what to do about it (author walk 4: a warning that names no fix).
    assert specific.phrasings[0].warnings == (
        "the vocabulary widens it to general words: big (an answer saying those finds it"
        " too: try one in examples:)",
    )
    assert general.phrasings[0].warnings == ()


def test_explain_mixed_polarity_is_warned():
    [explained] = key_explain(expected=[["not recomputed", "recomputed"]])

    assert "side by side" in explained.warnings[0]


def test_the_mixed_polarity_warning_names_the_phrasings_and_what_to_do():
    """Author walk 4: "negative and positive phrasings side by side" named none of a
    mention's five, so the author could not tell which the import meant nor what to do."""
    [explained] = key_explain(expected=[["turned off", "not applied", "disabled", "no se aplica"]])

    assert explained.warnings == (
        "negative and positive phrasings side by side ('not applied', 'no se aplica' beside"
        " 'turned off', 'disabled'): a positive one is found in the answers that say the"
        " opposite; if it says the opposite of the negative ones, take it out (or move it to"
        " reject:)",
    )


def test_vocabulary_refuses_a_bare_yaml_boolean():
    with pytest.raises(ValueError, match="False is not a word"):
        vocabulary_parse(raw={"negations": {"en": [False]}})


def test_explain_shows_a_vocabulary_phrase_also_read_word_by_word():
    [explained] = key_explain(expected=[["weighted sum of values"]])

    whole, split = explained.phrasings[0].readings
    assert whole.startswith("[weighted sum / ") and " + " in whole
    assert split.startswith("[weight / ") and split.count(" + ") == 2


def test_explain_shows_readings_alike_once():
    """ "3σ" is read as the vocabulary's group and word by word; shown, both are the same
    line, and an author should not read it twice (author walk)."""
    [mention] = key_explain(expected=[["3σ"]])
    [phrasing] = mention.phrasings

    assert len(phrasing.readings) == 1
    assert phrasing.readings[0].startswith("[3 / three")


@pytest.mark.parametrize("text", ["the", "de la"])
def test_explain_warns_of_a_phrasing_of_stop_words_alone(text):
    """A reject of "the" rejects nearly every English answer: its author is told."""
    [mention] = key_explain(expected=[["residual path"]], reject=[[text]])[1:]

    assert any("only stop words" in w for w in mention.phrasings[0].warnings)


def test_a_general_word_written_in_another_form_is_not_news():
    """Author walk 4: 'puntuaciones grandes' was warned that the vocabulary widens it to
    general words (big, grande, large…), though "grandes" is one of them, in the plural:
    widening is news only when the author's own words were specific."""
    [explained] = key_explain(expected=[["puntuaciones grandes", "large scores"]])

    assert [p.warnings for p in explained.phrasings] == [(), ()]
