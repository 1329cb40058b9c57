"""Checking a parsed quiz file against docs/quiz-format.schema.json, with located messages.

jsonschema (Draft 2020-12) is the judge; this module turns each of its errors into
`file:line: question-id: what is wrong`, in the words the schema's `x-message` keys give,
with "did you mean" hints for unknown fields.
"""

from __future__ import annotations

import difflib
import json
import re
from functools import cache
from pathlib import Path
from typing import Any

import jsonschema
import jsonschema_rs
from jsonschema.exceptions import ValidationError

from portal.languages import LANGUAGE_CODES

from .documents import Problem, quoted, shortened
from .grading.numeric import NumberRefused, number_read, plain
from .yaml_reader import LineDict, LineList

SCHEMA_PATH = Path(__file__).resolve().parent.parent / "docs" / "quiz-format.schema.json"
# The list items whose position names them in messages: "question 3", "option 2"...
COUNTED = {"questions", "options", "expected", "reject", "examples"}
CONTAINS = {"contains", "minContains", "maxContains"}


@cache
def schema() -> dict[str, Any]:
    return json.loads(SCHEMA_PATH.read_text(encoding="utf-8"))


@cache
def _validator() -> jsonschema.protocols.Validator:
    base = jsonschema.Draft202012Validator
    # YAML reads `1.0` as a float, which JSON Schema counts as an integer; a phase number
    # or a count written that way is a slip, so only whole numbers written as such pass.
    checker = base.TYPE_CHECKER.redefine("integer", lambda _checker, value: type(value) is int)
    extended = jsonschema.validators.extend(
        base, validators={"pattern": _pattern}, type_checker=checker
    )
    return extended(schema())


@cache
def ecma_pattern(pattern: str) -> re.Pattern[str]:
    """`pattern` as JSON Schema means it (ECMA 262): `$` matches only at the very end,
    where Python's also matches before a final newline ("q-01\\n" would pass)."""
    return re.compile(re.sub(r"(?<!\\)\$", r"\\Z", pattern))


def _pattern(validator, pattern, instance, _schema):
    if validator.is_type(instance, "string") and not ecma_pattern(pattern).search(instance):
        yield ValidationError(f"{instance!r} does not match {pattern!r}")


@cache
def _fast_validator():
    return jsonschema_rs.validator_for(schema())


def _integers_whole(data: Any) -> bool:
    """The fields the schema calls integers hold Python ints, not floats such as 1.0
    (which JSON Schema, and so jsonschema-rs, counts as integers)."""
    if any(type(data.get(k, 0)) is float for k in ("format", "phase")):
        return False
    questions = data.get("questions")
    return not any(
        isinstance(q, dict) and type(q.get("pass_mentions")) is float for q in questions or ()
    )


def schema_accepts(data: Any) -> bool:
    """A quick yes from jsonschema-rs, some fifty times faster than jsonschema; a no (or a
    value it cannot take, such as a non-text key) sends the file to jsonschema, the judge,
    which also words the messages."""
    try:
        return _fast_validator().is_valid(data) and _integers_whole(data)
    except Exception:  # noqa: BLE001 - any doubt means the full check
        return False


@cache
def _id_pattern() -> tuple[re.Pattern[str], int]:
    spec = schema()["$defs"]["question"]["properties"]["id"]
    return ecma_pattern(spec["pattern"]), spec["maxLength"]


def id_is_valid(value: Any) -> bool:
    pattern, longest = _id_pattern()
    return isinstance(value, str) and len(value) <= longest and bool(pattern.match(value))


@cache
def _mentions_validator() -> jsonschema.protocols.Validator:
    return type(_validator())({"$defs": schema()["$defs"], "$ref": "#/$defs/mentions"})


def mentions_are_valid(value: Any) -> bool:
    """Whether `expected` is as the schema wants it: only then is comparing pass_mentions
    with its number of mentions worth a message ("... mentions (0)" for an `expected`
    that is not a list only repeats its own problem)."""
    return _mentions_validator().is_valid(value)


def type_name(value: Any) -> str:
    if value is None:
        return "nothing"
    if isinstance(value, bool):
        return "true/false"
    if isinstance(value, int | float):
        return "a number"
    if isinstance(value, str):
        return "text"
    if isinstance(value, dict):
        return "a mapping"
    if isinstance(value, list):
        return "a list"
    return type(value).__name__


def _container(data: Any, path: list) -> Any:
    for step in path:
        data = data[step]
    return data


def _line(data: Any, path: list) -> int:
    if not path:
        return getattr(data, "line", 1) or 1
    parent = _container(data, path[:-1])
    if isinstance(parent, LineDict | LineList):
        return parent.line_of(path[-1])
    return 1


def question_label(data: Any, path: list) -> str | None:
    """The question an error is in: its id when valid, else "question N"."""
    if len(path) < 2 or path[0] != "questions" or not isinstance(path[1], int):
        return None
    question = data["questions"][path[1]]
    code = question.get("id") if isinstance(question, dict) else None
    return code if id_is_valid(code) else f"question {path[1] + 1}"


def _leaves(error: ValidationError) -> list[ValidationError]:
    """The errors to explain: for anyOf, those of the branch of the value's own type."""
    if error.validator != "anyOf" or not error.context:
        return [error]
    by_branch: dict[int, list[ValidationError]] = {}
    for sub in error.context:
        by_branch.setdefault(sub.relative_schema_path[0], []).append(sub)
    fitting = [
        errors
        for errors in by_branch.values()
        if not any(e.validator == "type" and not e.relative_path for e in errors)
    ]
    if len(fitting) != 1:
        return [error]
    return [leaf for sub in fitting[0] for leaf in _leaves(sub)]


class _Quoted:
    """A value in a message template: `{value!r}` quotes it, shortened (documents.quoted)."""

    def __init__(self, value: Any):
        self.value = value

    def __repr__(self) -> str:
        return quoted(self.value)

    def __str__(self) -> str:
        return shortened(str(self.value))


def _variables(data: Any, error: ValidationError, path: list) -> dict[str, Any]:
    value = error.instance
    keys = [step for step in path if isinstance(step, str)]
    key = keys[-1] if keys else ""
    name = key
    if len(path) >= 2 and isinstance(path[-2], str) and path[-1] in LANGUAGE_CODES:
        name = f"{path[-2]}.{path[-1]}"
    n = None
    for previous, step in zip(path, path[1:], strict=False):
        if isinstance(step, int) and previous in COUNTED:
            n = step + 1
    question = data["questions"][path[1]] if question_label(data, path) else {}
    expected = question.get("expected") if isinstance(question, dict) else None
    return {
        "value": _Quoted(value),
        "type": type_name(value),
        "key": key,
        "name": name,
        "n": n,
        "field": "rejected mention" if "reject" in keys else "mention",
        "count": len(value) if isinstance(value, list) else 0,
        "length": len(value) if isinstance(value, str) else 0,
        "correct": sum(isinstance(o, dict) and o.get("correct") is True for o in value)
        if isinstance(value, list)
        else 0,
        "mentions": len(expected) if isinstance(expected, list) else 0,
        "quote_hint": " (put it in quotes)" if isinstance(value, bool | int | float) else "",
        # An empty Spanish text is one not written yet: leaving it out is how to say so.
        "fallback_hint": _FALLBACK_HINT
        if path[-1:] == ["es"] and (value is None or isinstance(value, str))
        else "",
        "exponent_hint": _exponent_hint(value),
    }


# YAML 1.1 (PyYAML) reads an exponent's number only with a point and a signed exponent:
# 2.4e9, 1e+5 and -.5e+9 are text; 2.4e+9, 1.0e+5 and -0.5e+9 numbers.
_EXPONENT_NUMBER = re.compile(r"([+-]?)(\d+\.?\d*|\.\d+)([eE])([+-]?)(\d+)")


def _exponent_hint(value: Any) -> str:
    """How to write a number YAML read as text for its exponent, its decimal comma or its
    spaces ("0,5", "1 000", as a Spanish author writes them: author walk 3 of round 3);
    "" for a text that is no number."""
    match = _EXPONENT_NUMBER.fullmatch(value.strip()) if isinstance(value, str) else None
    if match is None and isinstance(value, str):
        try:
            written = plain(number_read(value))
        except NumberRefused:
            return ""
        number = value.strip()
        return (
            _QUOTED_NUMBER
            if written == number
            else f" (YAML reads {number} as text: write {written})"
        )
    if match is None:
        return ""
    sign, mantissa, e, exponent_sign, exponent = match.groups()
    mantissa = mantissa if "." in mantissa else mantissa + ".0"
    mantissa = "0" + mantissa if mantissa.startswith(".") else mantissa
    written = f"{sign}{mantissa}{e}{exponent_sign or '+'}{exponent}"
    number = value.strip()
    # Quoted, a number YAML would read is text too: the quotes are the problem there.
    return (
        _QUOTED_NUMBER if written == number else f" (YAML reads {number} as text: write {written})"
    )


_FALLBACK_HINT = ": leave 'es' out until it is translated, and the English text is shown"
_QUOTED_NUMBER = " (a number in quotes is text: write it without them)"


def _template(error: ValidationError) -> str | None:
    message = error.schema.get("x-message") if isinstance(error.schema, dict) else None
    if isinstance(message, dict):
        return message.get(error.validator)
    return message


def _explain(data: Any, error: ValidationError) -> list[tuple[list, int, str]]:
    """(path, line, message) for one leaf error; several for several missing or extra keys."""
    path = list(error.absolute_path)
    variables = _variables(data, error, path)
    template = _template(error)
    if error.validator == "additionalProperties":
        known = sorted(error.schema.get("properties", {}))
        result = []
        for extra in (k for k in error.instance if k not in known):
            shown = shortened(str(extra))
            if template:
                message = template.format(**variables, extra=shown)
            elif extra == "correct" and "options" in known:
                # `correct: B` on the question, as other quiz formats write it, was
                # answered "did you mean 'reject'?" (author walk 3 of round 3).
                message = (
                    "unknown field 'correct': a question's right option is marked in "
                    "'options', with 'correct: true' under its key"
                )
            else:
                hint = difflib.get_close_matches(str(extra), known, n=1)
                suffix = f"; did you mean '{hint[0]}'?" if hint else ""
                message = f"unknown field '{shown}'{suffix} (known fields: {', '.join(known)})"
            result.append((path, error.instance.line_of(extra), message))
        return result
    line = 1 if not path and error.validator == "type" else _line(data, path)
    if error.validator == "required":
        missing = [k for k in error.validator_value if k not in error.instance]
        return [
            (
                path,
                line,
                template.format(**variables) if template else f"missing required field '{k}'",
            )
            for k in missing
        ]
    if template and path[-1:] == ["pass_mentions"] and not _expected_valid(data, path):
        template = template.replace(" ({mentions})", "")  # `expected` has its own message
    if template:
        return [(path, line, template.format(**variables))]
    return [(path, line, f"'{variables['key']}': {shortened(error.message)}")]


def _in_option(data: Any, path: list) -> str:
    """ "option B: " before a problem inside an option named by a key, which the message
    alone did not name ("'text' needs an English ('en') text": author walk 3)."""
    if len(path) < 5 or path[0] != "questions" or path[2] != "options":
        return ""
    option = _container(data, path[:4])
    key = option.get("key") if isinstance(option, dict) else None
    return f"option {key}: " if isinstance(key, str) and key.isalnum() and len(key) < 4 else ""


def _expected_valid(data: Any, path: list) -> bool:
    question = _container(data, path[:-1])
    return "expected" not in question or mentions_are_valid(question["expected"])


def schema_problems(data: Any, shown: str) -> list[Problem]:
    """Every way `data` (a parsed file) departs from the schema, located and worded."""
    return schema_report(data, shown)[0]


def schema_report(data: Any, shown: str) -> tuple[list[Problem], set[int]]:
    """`schema_problems`, and the positions of the questions that any of them is in (a
    question at none of them is as the schema wants it, whatever the rest of the file)."""
    if schema_accepts(data):
        return [], set()
    explained: list[tuple[list, int, str, str]] = []
    for error in _validator().iter_errors(data):
        for leaf in _leaves(error):
            for path, line, message in _explain(data, leaf):
                message = _in_option(data, path) + message
                explained.append((path, line, message, leaf.validator))
    if any(path == ["format"] for path, *_ in explained):
        # The rest of a file in an unknown format is not ours to judge.
        explained = [e for e in explained if len(e[0]) <= 1 and e[0] in ([], ["format"])]
    # "needs one correct option" says little while the options themselves are wrong: the
    # places holding another problem, each path with every path above it, found once
    # (comparing each problem with every other ran past 15 minutes, and was killed, on a
    # 1 MiB file of 103,704 problems: docs/security.md, red-team run 21).
    wrong_within = {
        tuple(path[:end])
        for path, _line, _message, keyword in explained
        if keyword not in CONTAINS
        for end in range(len(path) + 1)
    }
    problems: dict[Problem, None] = {}  # in order, each once
    for path, line, message, keyword in explained:
        if keyword in CONTAINS and tuple(path) in wrong_within:
            continue
        problems.setdefault(Problem(shown, line, question_label(data, path), message))
    questions = {
        path[1]
        for path, *_ in explained
        if len(path) >= 2 and path[0] == "questions" and isinstance(path[1], int)
    }
    return sorted(problems, key=lambda p: p.line), questions
