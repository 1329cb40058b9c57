"""A numeric key written as a learner may not write it: `answer: 65.504`, a Spanish
author's sixty-five thousand, is the float 65.504 to YAML, while a learner who writes
65.504 is told it reads two ways (quizzes.grading.numeric.number_read, whose rule is
asked here rather than written again). Every answer of 65504 was
graded wrong, and the import said nothing (author walk 5)."""

from __future__ import annotations

import re
from typing import Any

from .documents import Problem
from .grading.numeric import NumberRefused, number_read
from .yaml_reader import LineDict

FIELDS = ("answer", "tolerance")
# The field's whole value as written on its own line, block style, a comment allowed.
# Only digits and a point: what YAML reads as this float is what a learner would type.
_WRITTEN = re.compile(r"[ \t]*(?:answer|tolerance)[ \t]*:[ \t]*([+-]?\d+\.\d+)[ \t]*(?:#.*)?")


def ambiguous_number_problems(raw: bytes, data: Any, shown: str) -> list[tuple[int, Problem]]:
    """(question's position, problem) for each numeric `answer` or `tolerance` written
    so that it reads two ways: the learner's reader (`number_read`) says which."""
    questions = data.get("questions") if isinstance(data, dict) else None
    if not isinstance(questions, list):
        return []
    lines: list[str] | None = None  # read only for a file with a decimal in those fields
    found = []
    for index, question in enumerate(questions):
        if not isinstance(question, LineDict):
            continue
        code = question.get("id") if isinstance(question.get("id"), str) else None
        for field in FIELDS:
            value = question.get(field)
            if isinstance(value, bool) or not isinstance(value, float):
                continue
            if lines is None:
                lines = raw.decode("utf-8", errors="replace").splitlines()
            line = question.line_of(field)
            written = _WRITTEN.fullmatch(lines[line - 1]) if 0 < line <= len(lines) else None
            if written is None or not _reads_two_ways(written[1]):
                continue
            text = written[1]
            sign = text[0] if text[0] in "+-" else ""
            whole, decimals = text.lstrip("+-").split(".")
            message = (
                f"'{field}' {sign}{whole}.{decimals} reads two ways, as a learner's answer "
                "would (a thousands mark in Spanish, a decimal mark in English): write "
                f"{sign}{whole}{decimals}, or {sign}{whole}.{decimals}0 for the decimal"
            )
            found.append((index, Problem(shown, line, code, message)))
    return found


def _reads_two_ways(text: str) -> bool:
    try:
        number_read(text)
    except NumberRefused as refusal:
        return refusal.reason == "ambiguous"
    return False
