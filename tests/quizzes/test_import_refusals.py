"""Every bad case of the quiz format is refused with file, line and reason, writing nothing."""

from io import StringIO
from pathlib import Path

import pytest
from django.core.management import CommandError, call_command

from quizzes.models import Phase, Question, QuestionRevision

from .conftest import MINIMAL

pytestmark = pytest.mark.django_db


def db_snapshot():
    return (
        sorted(
            Question.objects.values_list("code", "current_revision__content_hash", "retired_at")
        ),
        sorted(QuestionRevision.objects.values_list("question__code", "number", "content_hash")),
        sorted(Phase.objects.values_list("number", "slug", "title_en", "retired_at")),
    )


@pytest.fixture
def imported(write_quiz, tmp_path):
    """The minimal set, imported, so a refused import has something to leave alone."""
    call_command("import_quizzes", str(write_quiz()), stdout=StringIO())
    return db_snapshot()


def refuse(folder: Path) -> list[str]:
    err = StringIO()
    with pytest.raises(CommandError, match=r"problem\(s\) found; nothing was imported"):
        call_command("import_quizzes", str(folder), stdout=StringIO(), stderr=err)
    return err.getvalue().splitlines()


CASES = {
    "unknown format": ("format: 1", "format: 2", 1, None, "unknown format 2"),
    "mistyped phase": (
        "phase: 1",
        "phase: one",
        2,
        None,
        "'phase' must be a whole number from 0 to 9999",
    ),
    "phase disagrees with file name": (
        "phase: 1",
        "phase: 2",
        2,
        None,
        "phase 2 disagrees with the file name (01)",
    ),
    "slug disagrees with file name": (
        "slug: basics",
        "slug: basic",
        3,
        None,
        "slug 'basic' disagrees with the file name ('basics')",
    ),
    "unknown field (typo)": (
        "        correct: true\n    explanation: {en: Because B.}",
        "        corect: true\n    explanation: {en: Because B.}",
        14,
        "q-01-01",
        "unknown field 'corect'; did you mean 'correct'?",
    ),
    "missing required field": (
        "    explanation: {en: Because B.}\n",
        "",
        6,
        "q-01-01",
        "missing required field 'explanation'",
    ),
    "mistyped kind": (
        "kind: single",
        "kind: singel",
        7,
        "q-01-01",
        "'kind' must be one of single, multi, free, not 'singel'",
    ),
    "single with no correct option": (
        "        text: {en: This one}\n        correct: true\n",
        "        text: {en: This one}\n",
        9,
        "q-01-01",
        "a single question needs exactly one correct option, not 0",
    ),
    "single with two correct options": (
        "        text: {en: Not this}\n",
        "        text: {en: Not this}\n        correct: true\n",
        9,
        "q-01-01",
        "a single question needs exactly one correct option, not 2",
    ),
    "multi with no correct option": (
        "        text: {en: 'Yes'}\n        correct: true\n"
        "      - key: B\n        text: {en: 'No'}\n"
        "      - key: C\n        text: {en: Yes too}\n        correct: true\n",
        "        text: {en: 'Yes'}\n      - key: B\n        text: {en: 'No'}\n"
        "      - key: C\n        text: {en: Yes too}\n",
        19,
        "q-01-02",
        "a multi question needs at least one correct option",
    ),
    "options on a free question": (
        "    kind: free\n",
        "    kind: free\n    options:\n      - key: A\n        text: x\n"
        "      - key: B\n        text: y\n",
        31,
        "q-01-03",
        "a free question has no 'options'",
    ),
    "expected mentions on a choice question": (
        "    kind: single\n",
        "    kind: single\n    expected: [x]\n",
        8,
        "q-01-01",
        "a single question has no 'expected'",
    ),
    "option key repeated": (
        "      - key: B\n        text: {en: This one}",
        "      - key: A\n        text: {en: This one}",
        12,
        "q-01-01",
        "option key 'A' is repeated (first on line 10)",
    ),
    "empty text": ("title: {en: Pick B}", "title: {en: ''}", 8, "q-01-01", "'title.en' is empty"),
    "no English text": (
        "title: {en: Pick B}",
        "title: {es: Elige B}",
        8,
        "q-01-01",
        "'title' needs an English ('en') text",
    ),
    "duplicate id within a file": (
        "id: q-01-02",
        "id: q-01-01",
        16,
        "q-01-01",
        "duplicate question id (first in",
    ),
    "duplicate key": (
        "    kind: single\n",
        "    kind: single\n    kind: multi\n",
        8,
        None,
        "not valid YAML: duplicate key 'kind'",
    ),
    "object-constructing tag": (
        "title: {en: Basics, es: Básicos}",
        "title: !!python/object/apply:os.system ['echo pwned']",
        4,
        None,
        "YAML tags that construct objects are not allowed",
    ),
    "alias": (
        "    title: {en: Say identity}\n",
        "    title: &t {en: Say identity}\n    prompt: *t\n",
        31,  # libyaml resolves the alias to the anchored node, so the anchor's line
        None,
        "anchors and aliases are not allowed in quiz files",
    ),
    "not YAML": ("title: {en: Pick B}", "title: {en: Pick B", 9, None, "not valid YAML"),
    "pass_mentions out of range": (
        "      - [identity, identidad]\n",
        "      - [identity, identidad]\n    pass_mentions: 2\n",
        34,
        "q-01-03",
        "'pass_mentions' must be a whole number from 1 to the number of expected mentions (1)",
    ),
}


@pytest.mark.parametrize(
    ("old", "new", "line", "question", "message"), CASES.values(), ids=CASES.keys()
)
def test_import_bad_file_refused_with_location_and_nothing_written(
    imported, write_quiz, tmp_path, old, new, line, question, message
):
    assert old in MINIMAL
    folder = write_quiz(MINIMAL.replace(old, new, 1))

    errors = refuse(folder)

    where = f"{Path('set') / 'phase-01-basics.yaml'}:{line}: "
    expected_start = where + (f"{question}: " if question else "")
    assert [e for e in errors if expected_start in e and message in e], errors
    assert db_snapshot() == imported


def test_import_reports_every_problem_in_the_set_at_once(imported, write_quiz):
    text = MINIMAL.replace("corect", "x").replace(
        "        correct: true\n    explanation: {en: Because B.}",
        "        corect: true\n    explanation: {en: Because B.}",
    )
    text = text.replace("title: {en: Say identity}", "title: {en: ''}")
    folder = write_quiz(text)
    write_quiz(
        MINIMAL.replace("phase: 1", "phase: 2").replace("slug: basics", "slug: more"),
        name="phase-02-more.yaml",
    )

    errors = refuse(folder)

    joined = "\n".join(errors)
    assert "phase-01-basics.yaml:14: q-01-01: unknown field 'corect'" in joined
    assert "phase-01-basics.yaml:31: q-01-03: 'title.en' is empty" in joined
    assert "phase-02-more.yaml:6: q-01-01: duplicate question id (first in" in joined
    assert "phase-02-more.yaml:16: q-01-02: duplicate question id" in joined
    assert db_snapshot() == imported


def test_import_duplicate_phase_numbers_refused(imported, write_quiz):
    folder = write_quiz()
    other = MINIMAL.replace("slug: basics", "slug: other").replace("q-01-", "q-01b-")
    write_quiz(other, name="phase-01-other.yaml")

    errors = refuse(folder)

    assert any("phase-01-other.yaml:1: phase 1 is also in" in e for e in errors), errors
    assert db_snapshot() == imported


def test_import_file_over_one_mebibyte_refused(imported, write_quiz):
    folder = write_quiz(MINIMAL + "# " + "x" * (1024 * 1024) + "\n")

    errors = refuse(folder)

    assert any("phase-01-basics.yaml:1: file is" in e and "the limit is 1 MiB" in e for e in errors)
    assert db_snapshot() == imported


def test_import_invalid_utf8_refused(imported, write_quiz):
    folder = write_quiz()
    (folder / "phase-01-basics.yaml").write_bytes(MINIMAL.encode() + b"\n# \xff\xfe\n")

    errors = refuse(folder)

    assert any("phase-01-basics.yaml:36: the file is not valid UTF-8 text" in e for e in errors), (
        errors
    )
    assert db_snapshot() == imported


@pytest.mark.parametrize(
    ("text", "message"),
    [("", "the file is empty"), ("- a\n- b\n", "the file must be a mapping of fields, not a list")],
)
def test_import_empty_or_wrong_shape_file_refused(imported, write_quiz, text, message):
    folder = write_quiz(text)

    errors = refuse(folder)

    assert any(f"phase-01-basics.yaml:1: {message}" in e for e in errors), errors
    assert db_snapshot() == imported


def test_import_bad_file_name_refused(imported, write_quiz):
    folder = write_quiz(name="basics.yaml")

    errors = refuse(folder)

    assert any(
        "basics.yaml:1: the file name must look like phase-NN-slug.yaml" in e for e in errors
    )
    assert db_snapshot() == imported


def test_import_missing_path_refused(db):
    errors = refuse(Path("/nonexistent/quizzes"))

    assert errors == ["/nonexistent/quizzes:0: no such file or folder"]


ODD_INPUTS = {
    "deep nesting": "questions: " + "[" * 5000 + "]" * 5000 + "\n",
    "questions as a mapping": "format: 1\nphase: 1\nslug: basics\ntitle: x\nquestions: {a: 1}\n",
    "options as text": MINIMAL.replace(
        "    options:\n      - key: A", "    options: abc\n    x:\n      - key: A", 1
    ),
    "mapping as key": "? [a, b]\n: 1\n",
    "two documents": "format: 1\n---\nformat: 1\n",
    "tab indentation": "format: 1\n\tphase: 2\n",
    "huge phase": MINIMAL.replace("phase: 1", "phase: 99999999999999999999999999"),
    "odd mention shapes": MINIMAL.replace(
        "      - [identity, identidad]", "      - []\n      - ['']\n      - [true]"
    ),
    "question not a mapping": "format: 1\nphase: 1\nslug: basics\ntitle: x\nquestions: [1, null]\n",
}


@pytest.mark.parametrize("text", ODD_INPUTS.values(), ids=ODD_INPUTS.keys())
def test_import_odd_input_is_refused_with_located_messages(imported, write_quiz, text):
    folder = write_quiz(text)

    errors = refuse(folder)

    assert errors
    assert all("phase-01-basics.yaml:" in e and "Traceback" not in e for e in errors), errors
    assert db_snapshot() == imported
