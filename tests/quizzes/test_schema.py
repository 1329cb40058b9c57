"""The published JSON Schema: a valid schema that accepts every good file and refuses
every bad one it can express; the rest are the loader's own rules, listed here."""

import json
from pathlib import Path

import jsonschema
import jsonschema_rs
import pytest
import yaml

from quizzes.loader import load_quiz_set
from quizzes.schema import SCHEMA_PATH
from tests.conftest import DATA_DIR, phase_yaml

from .cases import CASES, MINIMAL, ODD_INPUTS

SCHEMA = json.loads(SCHEMA_PATH.read_text(encoding="utf-8"))
BANK = Path(__file__).resolve().parents[2] / "bench" / "import_bench.py"

# Bad files whose fault is not about one file's shape: the loader refuses them itself.
LOADER_ONLY = {
    "phase disagrees with file name",
    "slug disagrees with file name",
    "duplicate id within a file",
    "option key repeated",
    "pass_mentions out of range",
    "text of characters the grader takes out",  # portal.invisible's table, not the pattern
    "option text of characters the grader takes out",
    "phase title of characters the grader takes out",
    "mention that reads as nothing",  # the words as the matcher reads them
    "rejected mention that reads as nothing",
    "duplicate key",  # plain YAML readers keep the last value silently
    "alias",  # plain YAML readers expand it
    "anchor alone",  # plain YAML readers drop it from the text
}
# Bad files that are not YAML a schema could be applied to.
UNREADABLE = {"object-constructing tag", "not YAML"}


def verdicts(data) -> tuple[bool, bool]:
    """(jsonschema, jsonschema-rs): whether each accepts `data`."""
    return (
        jsonschema.Draft202012Validator(SCHEMA).is_valid(data),
        jsonschema_rs.validator_for(SCHEMA).is_valid(data),
    )


def good_files() -> dict[str, str]:
    from bench.import_bench import question_yaml

    bank = ["format: 1", "phase: 3", "slug: bank", "title: Bank", "questions:"]
    for n in range(1, 7):
        bank += question_yaml(3, n)
    files = {p.name: p.read_text("utf-8") for p in sorted(DATA_DIR.glob("*.yaml"))}
    files.update(
        {
            "minimal": MINIMAL,
            "generated": phase_yaml(6),
            "bench bank": "\n".join(bank) + "\n",
        }
    )
    return files


def test_schema_is_a_valid_draft_2020_12_schema():
    jsonschema.Draft202012Validator.check_schema(SCHEMA)

    assert SCHEMA["$schema"] == "https://json-schema.org/draft/2020-12/schema"


@pytest.mark.parametrize("name", list(good_files()))
def test_schema_good_file_accepted_by_both_validators_and_the_loader(name, tmp_path):
    text = good_files()[name]

    assert verdicts(yaml.safe_load(text)) == (True, True)
    (tmp_path / "phase-03-bank.yaml").write_text(text, "utf-8")
    if name in ("minimal", "generated"):
        (tmp_path / "phase-03-bank.yaml").rename(tmp_path / "phase-01-basics.yaml")
    if name.startswith("phase-"):
        (tmp_path / "phase-03-bank.yaml").rename(tmp_path / name)
    if name == "generated":
        (tmp_path / "phase-01-basics.yaml").rename(tmp_path / "phase-01-generated.yaml")
    assert load_quiz_set([tmp_path]).problems == []


SCHEMA_CASES = {k: v for k, v in CASES.items() if k not in LOADER_ONLY | UNREADABLE}


@pytest.mark.parametrize(("old", "new"), [v[:2] for v in SCHEMA_CASES.values()], ids=SCHEMA_CASES)
def test_schema_bad_file_refused_by_both_validators(old, new):
    data = yaml.safe_load(MINIMAL.replace(old, new, 1))

    assert verdicts(data) == (False, False)


@pytest.mark.parametrize(("old", "new"), [CASES[k][:2] for k in UNREADABLE], ids=UNREADABLE)
def test_schema_unreadable_bad_file_is_not_yaml_to_a_safe_reader(old, new):
    with pytest.raises(yaml.YAMLError):
        yaml.safe_load(MINIMAL.replace(old, new, 1))


@pytest.mark.parametrize(("old", "new"), [CASES[k][:2] for k in LOADER_ONLY], ids=LOADER_ONLY)
def test_schema_loader_only_rules_pass_the_schema_and_are_refused_by_the_loader(
    old, new, write_quiz
):
    data = yaml.safe_load(MINIMAL.replace(old, new, 1))

    assert verdicts(data) == (True, True)
    assert load_quiz_set([write_quiz(MINIMAL.replace(old, new, 1))]).problems != []


ODD_SHAPES = {k: v for k, v in ODD_INPUTS.items() if k not in {"deep nesting", "tab indentation"}}


@pytest.mark.parametrize("text", ODD_SHAPES.values(), ids=ODD_SHAPES)
def test_schema_odd_shapes_refused(text):
    try:
        data = yaml.safe_load(text)
    except (yaml.YAMLError, ValueError):
        return  # not a mapping a schema could judge; the loader's own tests cover it

    assert verdicts(data) == (False, False)


EXTRA_BAD = {
    "uppercase id": ("id: q-01-01", "id: Q-01-01"),
    "underscore in id": ("id: q-01-01", "id: q_01_01"),
    "dot in id": ("id: q-01-01", "id: q.01.01"),
    "id starting with a hyphen": ("id: q-01-01", "id: -q-01-01"),
    "id of 65 characters": ("id: q-01-01", "id: " + "q" * 65),
    "reject on a choice question": ("    kind: single\n", "    kind: single\n    reject: [x]\n"),
    "example without right": (
        "      - [identity, identidad]\n",
        "      - [identity, identidad]\n    examples:\n      - {answer: identity}\n",
    ),
    "example in another language": (
        "      - [identity, identidad]\n",
        "      - [identity, identidad]\n    examples:\n"
        "      - {answer: identity, right: true, lang: fr}\n",
    ),
}


@pytest.mark.parametrize(("old", "new"), EXTRA_BAD.values(), ids=EXTRA_BAD)
def test_schema_new_rules_refused_by_both_validators(old, new):
    assert old in MINIMAL

    assert verdicts(yaml.safe_load(MINIMAL.replace(old, new, 1))) == (False, False)


WITH_REJECT_AND_EXAMPLES = """\
      - [identity, identidad]
    reject:
      - [batch norm, batchnorm]
    examples:
      - {answer: the identity path, right: true}
      - {answer: la identidad, right: true, lang: es}
"""


def test_schema_free_question_with_reject_and_examples_accepted():
    text = MINIMAL.replace("      - [identity, identidad]\n", WITH_REJECT_AND_EXAMPLES)

    assert verdicts(yaml.safe_load(text)) == (True, True)
