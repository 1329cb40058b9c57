"""The limits on the shared grading vocabulary, read with every answer: a vocabulary over
one is refused with the list and the limit, and an import with it writes nothing."""

from io import StringIO

import pytest
from django.core.management import call_command

from quizzes.grading.vocabulary import vocabulary_load, vocabulary_parse

from .cases import db_snapshot, refuse

ENTRIES = 1_000  # groups of equivalents, or entries of any other list
ONE_BY_ONE = 100  # opposites, not_typos, postposed_negations: read entry by entry
PHRASES = 100  # of one group
CHARACTERS = 100  # of one phrase
KIB = 100  # the file


def word(i: int) -> str:
    return "w" + "".join(chr(97 + (i // 26**j) % 26) for j in range(3))


OVER = {
    "groups": (
        {"equivalents": [[word(i), word(i) + "x"] for i in range(ENTRIES + 1)]},
        "'equivalents' has at most 1,000 entries, not 1,001",
    ),
    "a language's list": (
        {"stopwords": {"en": [word(i) for i in range(ENTRIES + 1)]}},
        "'stopwords: en' has at most 1,000 entries, not 1,001",
    ),
    "opposites": (
        {"opposites": [[word(i), word(i) + "x"] for i in range(ONE_BY_ONE + 1)]},
        "'opposites' has at most 100 entries, not 101",
    ),
    "a language's postposed negations": (
        {"postposed_negations": {"es": [word(i) for i in range(ONE_BY_ONE + 1)]}},
        "'postposed_negations: es' has at most 100 entries, not 101",
    ),
    "phrases of a group": (
        {"equivalents": [[word(i) for i in range(PHRASES + 1)]]},
        "group 1 of 'equivalents' has at most 100 phrases, not 101",
    ),
    "characters of a phrase": (
        {"general": ["x" * (CHARACTERS + 1)]},
        f"a phrase has at most 100 characters, not '{'x' * 80}'… (101 characters)",
    ),
}


@pytest.mark.parametrize(("raw", "message"), OVER.values(), ids=OVER)
def test_a_vocabulary_over_a_limit_is_refused_naming_the_list_and_the_limit(raw, message):
    with pytest.raises(ValueError) as refused:
        vocabulary_parse(raw=raw)

    assert str(refused.value) == f"grading vocabulary: {message}"


def test_a_vocabulary_at_every_limit_loads_and_one_phrase_more_is_refused():
    groups = [[word(i), word(i) + "x"] for i in range(ENTRIES - 1)]
    groups.append([word(i) + "y" for i in range(PHRASES - 1)] + ["z" * CHARACTERS])
    stopwords = [word(i) for i in range(ENTRIES)]

    vocabulary = vocabulary_parse(raw={"equivalents": groups, "stopwords": {"en": stopwords}})

    assert len(vocabulary.groups) == ENTRIES
    assert len(vocabulary.groups[-1]) == PHRASES
    groups[-1].append("one more")
    with pytest.raises(ValueError, match="group 1000 of 'equivalents' has at most 100 phrases"):
        vocabulary_parse(raw={"equivalents": groups})


def test_a_vocabulary_file_over_100_kib_is_refused(tmp_path):
    path = tmp_path / "vocabulary.yaml"
    path.write_text("format: 1\n# " + "x" * (KIB * 1024) + "\n", encoding="utf-8")

    with pytest.raises(ValueError, match=r"vocabulary.yaml is 102,413 bytes; the limit is 100 KiB"):
        vocabulary_load(path)


@pytest.mark.django_db
def test_an_import_with_a_vocabulary_over_a_limit_is_refused_writing_nothing(
    write_quiz, monkeypatch, tmp_path
):
    folder = write_quiz()
    call_command("import_quizzes", str(folder), stdout=StringIO())
    before = db_snapshot()
    path = tmp_path / "vocabulary.yaml"
    path.write_text("general: [" + "x" * (CHARACTERS + 1) + "]\n", encoding="utf-8")
    monkeypatch.setattr("quizzes.fileset.vocabulary_load", lambda: vocabulary_load(path))
    # An edit of the real vocabulary changes every file's hash: each is read again.
    quiz = folder / "phase-01-basics.yaml"
    quiz.write_text(quiz.read_text("utf-8") + "# read again\n", "utf-8")

    errors = refuse(folder)

    assert [e.split("vocabulary.yaml:", 1)[1] for e in errors] == [
        f"1: grading vocabulary: a phrase has at most 100 characters, not '{'x' * 80}'… "
        "(101 characters)"
    ]
    assert db_snapshot() == before
