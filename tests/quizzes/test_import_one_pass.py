"""Every problem of a file in one pass, in line order: an author fixes a file once,
top to bottom, instead of meeting its example and duplicate-id errors in later rounds."""

from pathlib import Path

import pytest

from .cases import MINIMAL, refuse

pytestmark = pytest.mark.django_db

# q-01-03 (lines 29-39 of MINIMAL once this replaces line 33) with an example on line 38
# that its key grades wrong, though stated right.
WRONG_EXAMPLE = """\
      - [identity, identidad]
    reject:
      - [batch norm, batchnorm]
    examples:
      - {answer: It keeps the identity path., right: true}
      - {answer: Nada de nada., right: true, lang: es}
"""
CORECT = "        correct: true\n    explanation: {en: Because B.}"


def where(errors: list[str]) -> list[str]:
    """Each error's `file:line: id` (or `file:line`), the file by its name."""
    located = []
    for error in errors:
        path, line, rest = error.split(":", 2)
        code = rest.split(":", 1)[0].strip()
        located.append(f"{Path(path).name}:{line}: {code if code.startswith('q-') else ''}")
    return located


def test_a_files_examples_are_graded_beside_another_questions_schema_error(write_quiz):
    """An author walk: a file with a typo in one question said nothing of another
    question's example that its key grades otherwise; that came in a second round,
    after the typo was fixed. And a duplicate id came last, after every line-ordered
    problem. Now one pass names all three, by line."""
    text = MINIMAL.replace("      - [identity, identidad]\n", WRONG_EXAMPLE)
    text = text.replace(CORECT, CORECT.replace("correct", "corect"))
    text = text.replace("  - id: q-01-02\n", "  - id: q-01-01\n")
    folder = write_quiz(text)

    errors = refuse(folder)

    assert where(errors) == [
        "phase-01-basics.yaml:14: q-01-01",
        "phase-01-basics.yaml:16: q-01-01",
        "phase-01-basics.yaml:38: q-01-03",
    ], errors
    assert "unknown field 'corect'" in errors[0]
    assert "duplicate question id (first in" in errors[1]
    assert 'example 2 ("Nada de nada.") expected right, graded wrong' in errors[2]


def test_a_files_examples_are_graded_beside_a_rule_the_schema_cannot_say(write_quiz):
    # An option key repeated is the importer's rule, not the schema's: the same holds.
    text = MINIMAL.replace("      - [identity, identidad]\n", WRONG_EXAMPLE)
    text = text.replace(
        "      - key: B\n        text: {en: This one}",
        "      - key: A\n        text: {en: This one}",
    )
    folder = write_quiz(text)

    errors = refuse(folder)

    assert where(errors) == [
        "phase-01-basics.yaml:12: q-01-01",
        "phase-01-basics.yaml:38: q-01-03",
    ], errors
    assert "option key 'A' is repeated" in errors[0]


def test_the_examples_of_a_question_with_its_own_schema_error_wait_for_it(write_quiz):
    # Its key may be what is wrong: graded against it, the examples would say nothing true.
    text = MINIMAL.replace("      - [identity, identidad]\n", WRONG_EXAMPLE)
    text = text.replace("    title: {en: Say identity}\n", "    title: {en: ''}\n")
    folder = write_quiz(text)

    errors = refuse(folder)

    assert where(errors) == ["phase-01-basics.yaml:31: q-01-03"], errors
    assert "'title.en' is empty" in errors[0]


def test_problems_across_files_take_their_place_in_their_file_by_line(write_quiz):
    folder = write_quiz(MINIMAL.replace("title: {en: Say identity}", "title: {en: ''}"))
    other = MINIMAL.replace("phase: 1", "phase: 2").replace("slug: basics", "slug: more")
    other = other.replace("q-01-02", "q-02-02").replace("q-01-03", "q-02-03")
    other = other.replace(CORECT, CORECT.replace("correct", "corect"))
    write_quiz(other, name="phase-02-more.yaml")

    errors = refuse(folder)

    assert where(errors) == [
        "phase-01-basics.yaml:31: q-01-03",
        "phase-02-more.yaml:6: q-01-01",
        "phase-02-more.yaml:14: q-01-01",
    ], errors
    assert "duplicate question id (first in" in errors[1]
