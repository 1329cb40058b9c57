"""Every bad case of the quiz format is refused with file, line and reason, writing nothing."""

from io import StringIO
from pathlib import Path

import pytest
from django.core.management import call_command

from .cases import CASES, MINIMAL, ODD_INPUTS, db_snapshot, refuse

pytestmark = pytest.mark.django_db


@pytest.fixture
def imported(write_quiz, tmp_path):
    """The minimal set, imported, so a refused import has something to leave alone."""
    call_command("import_quizzes", str(write_quiz()), stdout=StringIO())
    return db_snapshot()


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

    assert any(
        e.endswith(
            "phase-01-basics.yaml:36: q-01-03: the file is not valid UTF-8 text (byte 0xFF): "
            "save it as UTF-8"
        )
        for e in errors
    ), errors
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


@pytest.mark.parametrize(
    "number", ["\uff10\uff11", "\u0660\u0661", "0\u0661", "\U0001d7ce\U0001d7cf"]
)
def test_import_file_name_with_digits_of_another_script_refused(imported, write_quiz, number):
    """Python's \\d took full-width, Arabic-Indic and mathematical digits, and int()
    read them: "phase-０１-basics.yaml", a look-alike of "phase-01-basics.yaml", was
    imported as phase 1 (red team 21)."""
    (write_quiz() / "phase-01-basics.yaml").unlink()
    folder = write_quiz(name=f"phase-{number}-basics.yaml")

    errors = refuse(folder)

    assert any(
        f"phase-{number}-basics.yaml:1: the file name must look like phase-NN-slug.yaml" in e
        for e in errors
    ), errors
    assert db_snapshot() == imported


def test_import_missing_path_refused(db):
    errors = refuse(Path("/nonexistent/quizzes"))

    assert errors == ["/nonexistent/quizzes:0: no such file or folder"]


@pytest.mark.parametrize("text", ODD_INPUTS.values(), ids=ODD_INPUTS.keys())
def test_import_odd_input_is_refused_with_located_messages(imported, write_quiz, text):
    folder = write_quiz(text)

    errors = refuse(folder)

    assert errors
    assert all("phase-01-basics.yaml:" in e and "Traceback" not in e for e in errors), errors
    assert db_snapshot() == imported


@pytest.mark.parametrize(
    ("old", "new", "line", "question"),
    [
        ("  - id: q-01-02\n", "\t- id: q-01-02\n", 16, "q-01-02"),
        ("    kind: free\n", "    kind: free\n\t  title: x\n", 31, "q-01-03"),
    ],
)
def test_import_tab_indentation_is_named(imported, write_quiz, old, new, line, question):
    """libyaml says "found character that cannot start any token": an author whose
    editor shows a tab as spaces is told it is a tab (author walk 1, round 2)."""
    errors = refuse(write_quiz(MINIMAL.replace(old, new, 1)))

    [error] = errors
    assert f"phase-01-basics.yaml:{line}: {question}: not valid YAML: " in error
    assert error.endswith(" (a tab: indent with spaces)")


@pytest.mark.parametrize("suffix", [".yml", ".YAML", ".Yaml", ".YML"])
def test_import_refuses_a_yml_file_in_the_folder(imported, write_quiz, suffix):
    """An author walk: phase-02-more.yml (or .YAML, as an editor on another system may
    save it) in the folder was skipped without a word, and with the bank folder or
    --prune its phase would be retired."""
    folder = write_quiz()
    write_quiz(MINIMAL.replace("phase: 1", "phase: 2"), name=f"phase-02-more{suffix}")

    errors = refuse(folder)

    said = f"phase-02-more{suffix}:1: quiz files end in .yaml (phase-NN-slug.yaml), not {suffix}"
    assert [e for e in errors if e.endswith(said)], errors
    assert db_snapshot() == imported


FREE_KEY = "    expected:\n      - [identity, identidad]\n"


@pytest.mark.parametrize(
    ("new", "messages"),
    [
        ("    expected: []\n    pass_mentions: 2\n", ["'expected' must be a list of at least"]),
        ("    expected: identity\n    pass_mentions: 2\n", ["'expected' must be a list"]),
        (
            "    expected: [x, y, z, a, b, c, d, e, f, g, h]\n    pass_mentions: 12\n",
            ["'expected' has at most 10 mentions, not 11"],
        ),
        (
            "    expected:\n      - [identity, identidad]\n      - ''\n    pass_mentions: 3\n",
            ["mention 2 has an empty alternative"],
        ),
        # pass_mentions wrong in itself keeps its message, without a count of mentions.
        (
            "    expected: {a: b}\n    pass_mentions: 0\n",
            [
                "'expected' must be a list",
                "'pass_mentions' must be a whole number from 1 to the number of expected mentions",
            ],
        ),
    ],
)
def test_import_pass_mentions_not_compared_with_an_invalid_expected(
    imported, write_quiz, new, messages
):
    """An `expected` with a problem of its own is not counted for pass_mentions: comparing
    with it printed "... the number of expected mentions (0)", a problem that is not one."""
    assert FREE_KEY in MINIMAL
    errors = refuse(write_quiz(MINIMAL.replace(FREE_KEY, new, 1)))

    assert all(any(m in e for e in errors) for m in messages), errors
    assert not [e for e in errors if "expected mentions (" in e], errors
    assert len(errors) == len(messages) + ("''" in new), errors
