"""Numeric questions in the quiz format: imported with their key, refused with file:line
when the key is bad, examples checked, key changes seen, mirrored in both languages."""

import json
import re
from io import StringIO
from pathlib import Path

import jsonschema
import jsonschema_rs
import pytest
import yaml
from django.core.management import call_command

from quizzes.changes import content_changes, key_changed
from quizzes.models import Question
from quizzes.schema import SCHEMA_PATH, _exponent_hint
from quizzes.yaml_reader import read_document

from .cases import MINIMAL, db_snapshot, refuse

pytestmark = pytest.mark.django_db

NUMERIC_DIR = Path(__file__).resolve().parent / "numeric"
SCHEMA = json.loads(SCHEMA_PATH.read_text(encoding="utf-8"))

NUMERIC = """\
  - id: q-01-04
    kind: numeric
    title: {en: Memory}
    answer: 3.5
    tolerance: 0.05
    unit: {en: GB, es: GB}
    explanation: {en: Two bytes each.}
    examples:
      - {answer: "3,5", right: true}
      - {answer: "7", right: false}
"""
WITH_NUMERIC = MINIMAL + NUMERIC


def test_import_numeric_question_stores_its_key(write_quiz):
    call_command("import_quizzes", str(write_quiz(WITH_NUMERIC)), stdout=StringIO())

    revision = Question.objects.get(code="q-01-04").current_revision
    assert (revision.kind, revision.numeric, revision.options, revision.expected) == (
        "numeric",
        {"answer": 3.5, "tolerance": 0.05, "unit": {"en": "GB", "es": "GB"}},
        [],
        [],
    )
    assert [revision.grade(text=t).correct for t in ("3,45 GB", "3.6", "7")] == [
        True,
        False,
        False,
    ]


def test_import_fixture_phase_accepted_by_both_schema_validators_and_imported():
    data = yaml.safe_load((NUMERIC_DIR / "phase-91-numeric.yaml").read_text("utf-8"))

    assert jsonschema.Draft202012Validator(SCHEMA).is_valid(data)
    assert jsonschema_rs.validator_for(SCHEMA).is_valid(data)
    call_command("import_quizzes", str(NUMERIC_DIR), stdout=StringIO())
    assert Question.objects.get(code="q-91-01").current_revision.numeric == {
        "answer": 14,
        "tolerance": "8%",
        "unit": {"en": "GB", "es": "GB"},
    }


BAD = {
    "negative tolerance": (
        "tolerance: 0.05",
        "tolerance: -1",
        39,
        "'tolerance' must be at least 0, not -1",
    ),
    "tolerance not a number": (
        "tolerance: 0.05",
        "tolerance: wide",
        39,
        "'tolerance' must be a number or a percentage from 0% to 100% such as \"5%\", not 'wide'",
    ),
    "percentage over 100": (
        "tolerance: 0.05",
        'tolerance: "120%"',
        39,
        "not '120%'",
    ),
    "percentage with two spaces": (
        "tolerance: 0.05",
        'tolerance: "8  %"',
        39,
        "not '8  %'",
    ),
    "percentage sign first": ("tolerance: 0.05", 'tolerance: "% 8"', 39, "not '% 8'"),
    "answer not a number": (
        "answer: 3.5",
        "answer: three and a half",
        38,
        "'answer' must be a number, not text",
    ),
    "answer in YAML's unsigned exponent": (
        "answer: 3.5",
        "answer: 2.4e9",
        38,
        "'answer' must be a number, not text (YAML reads 2.4e9 as text: write 2.4e+9)",
    ),
    "answer in YAML's unsigned exponent, capital": (
        "answer: 3.5",
        "answer: -1E5",
        38,
        "(YAML reads -1E5 as text: write -1.0E+5)",
    ),
    "answer with YAML's exponent but no point": (
        "answer: 3.5",
        "answer: 1e+5",
        38,
        "'answer' must be a number, not text (YAML reads 1e+5 as text: write 1.0e+5)",
    ),
    "answer not finite": ("answer: 3.5", "answer: .nan", 38, "'answer' must be a finite number"),
    "no answer": ("    answer: 3.5\n", "", 35, "a numeric question needs an 'answer'"),
    "options on a numeric question": (
        "    answer: 3.5\n",
        "    answer: 3.5\n    options: [{key: A, text: x}, {key: B, text: y}]\n",
        39,
        "a numeric question has no 'options'",
    ),
    "mentions on a numeric question": (
        "    answer: 3.5\n",
        "    answer: 3.5\n    expected: [gigabytes]\n",
        39,
        "a numeric question has no 'expected'",
    ),
    "example graded otherwise": (
        '{answer: "7", right: false}',
        '{answer: "7", right: true}',
        44,
        'example 2 ("7") expected right, graded wrong',
    ),
    "answer no learner can write": (
        "answer: 3.5",
        "answer: 1.0e+120",
        38,
        "'answer' must be between 1e-99 and 1e99 (or 0)",
    ),
    "answer an integer past any float": (
        "answer: 3.5",
        "answer: 1" + "0" * 400,
        38,
        "'answer' must be between 1e-99 and 1e99 (or 0)",
    ),
    "tolerance past any answer": (
        "tolerance: 0.05",
        "tolerance: 1.0e+100",
        39,
        "'tolerance' must be at most 1e99, not 1e+100",
    ),
    "tolerance an integer past any float": (
        "tolerance: 0.05",
        "tolerance: 1" + "0" * 400,
        39,
        "'tolerance' must be at most 1e99, not 10000000000",
    ),
    "example past the magnitudes read": (
        '{answer: "7", right: false}',
        '{answer: "1e400", right: false}',
        44,
        'example 2 ("1e400") is not read as a number (beyond 1e99 or below 1e-99)',
    ),
    "example not read as a number": (
        '{answer: "7", right: false}',
        '{answer: "1,000", right: false}',
        44,
        'example 2 ("1,000") is not read as a number (a point or comma before three '
        "digits may be a thousands mark)",
    ),
    # An example's answer is what a learner types: text, quoted (author walk 1, round 2:
    # `answer: 7` was told "must be text that is not empty").
    "example answer unquoted": (
        '{answer: "7", right: false}',
        "{answer: 7, right: false}",
        44,
        "example 2: 'answer' must be text, not a number (put it in quotes)",
    ),
    "example answer empty": (
        '{answer: "7", right: false}',
        '{answer: " ", right: false}',
        44,
        "example 2: 'answer' is empty",
    ),
    # A refused example is never graded, and the message says so (author walk 1, round 2).
    "example in words": (
        '{answer: "7", right: false}',
        '{answer: "about 7", right: false}',
        44,
        'example 2 ("about 7") is not read as a number (no number written as 3.5, 3,5 or '
        "2.4e9): a learner who sends it is asked to write a number, and nothing is graded",
    ),
    # A numeric example graded otherwise says what was read and the range the key allows,
    # as a free one says the mentions found (author walk 1, round 2).
    "example wrong on the bound": (
        '{answer: "7", right: false}',
        '{answer: "3.55 GB", right: false}',
        44,
        'example 2 ("3.55 GB") expected wrong, graded right: read as 3.55; 3.5 ± 0.05 '
        "allows 3.45 to 3.55, both included",
    ),
    "example right outside a relative tolerance": (
        "tolerance: 0.05\n    unit: {en: GB, es: GB}\n    explanation: {en: Two bytes each.}\n"
        '    examples:\n      - {answer: "3,5", right: true}',
        'tolerance: "2%"\n    unit: {en: GB, es: GB}\n    explanation: {en: Two bytes each.}\n'
        '    examples:\n      - {answer: "3,6", right: true}',
        43,
        'example 1 ("3,6") expected right, graded wrong: read as 3.6; 3.5 ± 2% allows 3.43 '
        "to 3.57, both included",
    ),
    "example right with no tolerance": (
        "    tolerance: 0.05\n    unit: {en: GB, es: GB}\n    explanation: {en: Two bytes each.}\n"
        '    examples:\n      - {answer: "3,5", right: true}',
        "    unit: {en: GB, es: GB}\n    explanation: {en: Two bytes each.}\n"
        '    examples:\n      - {answer: "3,49", right: true}',
        42,
        'example 1 ("3,49") expected right, graded wrong: read as 3.49; with no tolerance '
        "only 3.5 is right",
    ),
}


@pytest.mark.parametrize(("old", "new", "line", "message"), BAD.values(), ids=BAD)
def test_import_bad_numeric_question_refused_with_location(write_quiz, old, new, line, message):
    assert old in NUMERIC
    folder = write_quiz(MINIMAL + NUMERIC.replace(old, new, 1))
    before = db_snapshot()

    errors = refuse(folder)

    where = f"{Path('set') / 'phase-01-basics.yaml'}:{line}: q-01-04: "
    assert [e for e in errors if where in e and message in e], errors
    assert db_snapshot() == before


@pytest.mark.parametrize("written", ["8 %", "8\u00a0%", "8\u202f%"])
def test_import_percentage_with_a_space_before_the_sign_is_that_percentage(write_quiz, written):
    """Spanish writes "8 %": the same 8% to both validators, the key and the grader."""
    text = WITH_NUMERIC.replace("answer: 3.5", "answer: 14").replace(
        "tolerance: 0.05", f"tolerance: {json.dumps(written)}"
    )
    text = text.replace('"3,5", right: true', '"15,12", right: true')
    data = yaml.safe_load(text)
    assert data["questions"][-1]["tolerance"] == written
    assert jsonschema.Draft202012Validator(SCHEMA).is_valid(data)
    assert jsonschema_rs.validator_for(SCHEMA).is_valid(data)

    call_command("import_quizzes", str(write_quiz(text)), stdout=StringIO())

    revision = Question.objects.get(code="q-01-04").current_revision
    assert revision.numeric["tolerance"] == "8%"
    assert [revision.grade(text=t).correct for t in ("12,88", "15.12", "15.2")] == [
        True,
        True,
        False,
    ]


@pytest.mark.parametrize(
    ("new", "kind"), [("answer: three and a half", "text"), ("answer: [1]", "a list")]
)
def test_import_answer_not_a_number_hints_at_the_exponent_only_where_it_is_one(
    write_quiz, new, kind
):
    """The "write 2.4e+9" hint is for a number YAML read as text, not for any value that
    is not a number (author walk 27)."""
    errors = refuse(write_quiz(MINIMAL + NUMERIC.replace("answer: 3.5", new, 1)))

    [error] = [e for e in errors if "'answer'" in e]
    assert error.endswith(f"q-01-04: 'answer' must be a number, not {kind}")


def test_import_answer_on_a_choice_question_refused(write_quiz):
    text = MINIMAL.replace("    kind: single\n", "    kind: single\n    answer: 3\n", 1)

    errors = refuse(write_quiz(text))

    assert any("q-01-01: a single question has no 'answer'" in e for e in errors), errors


def content(**numeric) -> dict:
    return {"kind": "numeric", "options": [], "expected": [], "numeric": numeric}


@pytest.mark.parametrize(
    ("new", "changed", "lines"),
    [
        (content(answer=3.5, tolerance=0.05), False, []),
        (content(answer=3.5, tolerance=0.1), True, ["answer: 3.5 ± 0.05 → 3.5 ± 0.1"]),
        (content(answer=4, tolerance=0.05), True, ["answer: 3.5 ± 0.05 → 4 ± 0.05"]),
        (content(answer=3.5, tolerance="5%"), True, ["answer: 3.5 ± 0.05 → 3.5 ± 5%"]),
        (
            content(answer=3.5, tolerance=0.05, unit={"en": "GiB"}),
            False,
            ["unit (en): — → GiB"],
        ),
        # Each language's unit as it was and is: "unit changed" said neither (author walk
        # 3 of round 3).
        (
            content(answer=3.5, tolerance=0.05, unit={"en": "GB", "es": "GB"}),
            False,
            ["unit (en): — → GB", "unit (es): — → GB"],
        ),
    ],
)
def test_key_changed_numeric_answer_or_tolerance(new, changed, lines):
    old = content(answer=3.5, tolerance=0.05)

    assert key_changed(old, new) is changed
    assert content_changes(old, new) == lines


def test_a_kind_changed_to_or_from_numeric_says_the_answer_is_gone_or_new():
    """A numeric question made free read "answer: 65504 ± 0.1% → None ± 0" in the plan:
    Python's None, and a tolerance nobody wrote (author walk 5)."""
    free = {"kind": "free", "options": [], "expected": [["identity"]], "numeric": None}
    numeric = content(answer=3.5, tolerance=0.05)

    assert "answer: 3.5 ± 0.05 → —" in content_changes(numeric, free)
    assert "answer: — → 3.5 ± 0.05" in content_changes(free, numeric)


def test_export_mirrors_numeric_question_in_both_languages(tmp_path):
    call_command(
        "export_mirrors", "--source", str(NUMERIC_DIR), "--out", str(tmp_path), stdout=StringIO()
    )

    english = (tmp_path / "phase-91-numeric.md").read_text("utf-8")
    spanish = (tmp_path / "phase-91-numeric.es.md").read_text("utf-8")
    assert "## q-91-01 — Weights of a 7B model in fp16 (numeric)" in english
    assert "**Answer: 14 GB ± 8%.** fp16 takes 2 bytes per parameter" in english
    assert "**Answer: 0.0003 ± 0.00001.** 3 × 10⁻⁴ is 0.0003." in english
    assert "## q-91-02 — Una tasa de aprendizaje (numérica)" in spanish
    assert "**Respuesta: 0,0003 ± 0,00001.**" in spanish


def test_every_reason_a_number_is_refused_has_words_for_the_importer():
    """An example refused for a reason the importer could not name was a KeyError."""
    import inspect

    from quizzes.grading import numeric
    from quizzes.rules import NUMBER_REFUSALS

    source = inspect.getsource(numeric)
    reasons = set(re.findall(r'NumberRefused\("(\w+)"', source))

    assert reasons and reasons <= set(NUMBER_REFUSALS)


@pytest.mark.parametrize("text", ["2.4e9", "-1E5", "1e+5", "+3e-2", ".5e9", "-.5e+9", "7.e3"])
def test_import_exponent_hint_names_a_number_yaml_reads_as_one(text):
    """The number the hint says to write is one YAML reads as that number: PyYAML's
    float needs a point and a signed exponent, so "-1E+5" is text too."""
    [written] = re.findall(r"write (\S+)\)", _exponent_hint(text))

    data, _line, problem = read_document(f"answer: {written}\n".encode())

    assert problem is None
    assert data["answer"] == float(text)


@pytest.mark.parametrize(
    ("new", "line", "written"),
    [
        ("answer: 65.504", 38, "write 65504, or 65.5040 for the decimal"),
        ("answer: -1.000  # a thousand", 38, "write -1000, or -1.0000 for the decimal"),
        ("tolerance: 1.500", 39, "write 1500, or 1.5000 for the decimal"),
    ],
)
def test_a_number_a_learner_could_not_write_is_refused_in_the_key(write_quiz, new, line, written):
    """`answer: 65.504` (a Spanish author's sixty-five thousand) was taken as 65.504
    without a word, while a learner who writes 65.504 is told it reads two ways: every
    answer of 65504 was graded wrong (author walk 5)."""
    field = new.split(":")[0]
    old = {"answer": "answer: 3.5", "tolerance": "tolerance: 0.05"}[field]
    number = new.split(":")[1].split("#")[0].strip()

    [error] = refuse(write_quiz(MINIMAL + NUMERIC.replace(old, new, 1)))

    assert error.endswith(
        f"phase-01-basics.yaml:{line}: q-01-04: '{field}' {number} reads two ways, as a "
        "learner's answer would (a thousands mark in Spanish, a decimal mark in English): "
        + written
    ), error


@pytest.mark.parametrize("new", ["answer: 0.125", "answer: 1.2500", "answer: 1000", "answer: 3.5"])
def test_a_number_that_reads_one_way_is_taken(write_quiz, new):
    text = MINIMAL + NUMERIC.replace("answer: 3.5", new, 1).replace(
        '      - {answer: "3,5", right: true}\n', ""
    )

    call_command("import_quizzes", str(write_quiz(text)), stdout=StringIO())

    assert Question.objects.filter(code="q-01-04").exists()
