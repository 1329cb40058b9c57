"""The limits on a free question's key, which every answer is read against: a file over one
is refused with the question, the field and the limit, and nothing is written; a file at
every limit imports. Red team: a key of 5,000 alternatives imported without a word, and
kept a worker 1.8 s on each answer."""

import json
from io import StringIO
from pathlib import Path

import pytest
from django.core.management import call_command

from quizzes.grading.text import words
from quizzes.loader import load_quiz_set
from quizzes.models import Question

from .cases import MINIMAL, db_snapshot, refuse

pytestmark = pytest.mark.django_db

MENTIONS = 10  # expected, and reject
ALTERNATIVES = 100  # of one mention
CHARACTERS = 100  # of one alternative
WORDS = 20  # of one alternative, as the grader reads them
KEY_WORDS = 200  # of all the alternatives of a question, expected and reject
KEY = "    expected:\n      - [identity, identidad]\n"
SHOWN = Path("set") / "phase-01-basics.yaml"


@pytest.fixture
def imported(write_quiz):
    call_command("import_quizzes", str(write_quiz()), stdout=StringIO())
    return db_snapshot()


def with_key(expected: list, reject: list = ()) -> str:
    """MINIMAL with q-01-03's key replaced: one mention a line, `reject` after `expected`."""
    lines = ["    expected:", *(f"      - {json.dumps(m)}" for m in expected)]
    if reject:
        lines += ["    reject:", *(f"      - {json.dumps(m)}" for m in reject)]
    return MINIMAL.replace(KEY, "\n".join(lines) + "\n")


def line_of(text: str, start: str, after: int = 0) -> int:
    """The line of the first line that starts with `start`, plus `after`."""
    lines = text.splitlines()
    return next(i for i, line in enumerate(lines, start=1) if line.startswith(start)) + after


def letters(n: int) -> list[str]:
    """n distinct words of letters only: "ka", "kb"… "kaa"…"""
    found, size = [], 1
    while len(found) < n:
        found += [
            "k" + "".join(chr(97 + (i // 26**j) % 26) for j in reversed(range(size)))
            for i in range(26**size)
        ]
        size += 1
    return found[:n]


OVER = {
    "expected mentions": (
        [[w] for w in letters(MENTIONS + 1)],
        [],
        ("    expected:", 0),
        "'expected' has at most 10 mentions, not 11",
    ),
    "reject mentions": (
        [["identity"]],
        [[w] for w in letters(MENTIONS + 1)],
        ("    reject:", 0),
        "'reject' has at most 10 mentions, not 11",
    ),
    "alternatives of a mention": (
        [["identity"], letters(ALTERNATIVES + 1)],
        [],
        ("    expected:", 2),
        "mention 2 has at most 100 alternatives, not 101",
    ),
    "alternatives of a rejected mention": (
        [["identity"]],
        [letters(ALTERNATIVES + 1)],
        ("    reject:", 1),
        "rejected mention 1 has at most 100 alternatives, not 101",
    ),
    "characters of an alternative": (
        [["identity", "x" * (CHARACTERS + 1)]],
        [],
        ("    expected:", 1),
        f"mention 1: an alternative has at most 100 characters, not '{'x' * 80}'… (101 characters)",
    ),
    "characters of a mention written as text": (
        ["x" * (CHARACTERS + 1)],
        [],
        ("    expected:", 1),
        f"mention 1: an alternative has at most 100 characters, not '{'x' * 80}'… (101 characters)",
    ),
    "words of an alternative": (
        [["identity"]],
        [["identity", "e^" + " ".join(letters(WORDS - 1))]],  # ^ is a word: 1 + 1 + 19
        ("    reject:", 1),
        "rejected mention 1: an alternative has at most 20 words, not 21 ('e^ka kb kc kd ke "
        "kf kg kh ki kj kk kl km kn ko kp kq kr ks')",
    ),
    "words of the whole key": (
        [[" ".join(letters(WORDS))] * 1 for _ in range(MENTIONS)],
        [[" ".join(letters(1))]],
        ("    expected:", 0),
        "'expected' and 'reject' have at most 200 words in all their alternatives, not 201",
    ),
}


@pytest.mark.parametrize(("expected", "reject", "where", "message"), OVER.values(), ids=OVER)
def test_a_key_over_a_limit_is_refused_naming_question_field_and_limit(
    imported, write_quiz, expected, reject, where, message
):
    text = with_key(expected, reject)

    errors = refuse(write_quiz(text))

    assert [e.split(f"{SHOWN}:", 1)[-1] for e in errors] == [
        f"{line_of(text, *where)}: q-01-03: {message}"
    ]
    assert db_snapshot() == imported


def test_a_key_at_every_limit_imports_and_one_word_more_is_refused(imported, write_quiz):
    """Ten mentions and ten rejected ones, a mention of a hundred alternatives, an
    alternative of a hundred characters and one of twenty words, two hundred words in all."""
    widest = letters(ALTERNATIVES)  # 100 words
    longest = " ".join(letters(WORDS))  # 20 words, 79 characters
    longest += "x" * (CHARACTERS - len(longest))
    expected = [widest, [longest], *([w] for w in letters(MENTIONS - 2))]  # 128 words
    reject = [[" ".join(letters(WORDS))]] * 3 + [[w] for w in letters(MENTIONS - 3)]  # 67
    reject[-1] = [" ".join(letters(6))]  # 6 words, not 1: 200 in all
    alternatives = [a for m in expected + reject for a in m]
    assert (len(expected), len(reject), len(widest)) == (MENTIONS, MENTIONS, ALTERNATIVES)
    assert max(len(a) for a in alternatives) == CHARACTERS
    assert max(len(words(a)) for a in alternatives) == WORDS
    assert sum(len(words(a)) for a in alternatives) == KEY_WORDS
    folder = write_quiz(with_key(expected, reject))

    assert load_quiz_set([folder]).problems == []
    call_command("import_quizzes", str(folder), stdout=StringIO(), stderr=StringIO())
    revision = Question.objects.get(code="q-01-03").current_revision
    assert (len(revision.expected), len(revision.reject)) == (MENTIONS, MENTIONS)

    reject[-1] = [" ".join(letters(7))]
    problems = load_quiz_set([write_quiz(with_key(expected, reject))]).problems

    assert [p.message for p in problems] == [
        "'expected' and 'reject' have at most 200 words in all their alternatives, not 201"
    ]
