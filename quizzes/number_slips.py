"""A numeric key written as a learner may not write it: `answer: 65.504`, a Spanish
author's sixty-five thousand, is the float 65.504 to YAML, while a learner who writes
65.504 is told it reads two ways (quizzes.grading.numeric: a point or comma followed by
exactly three digits, after one to three digits not all zero). Every answer of 65504 was
graded wrong, and the import said nothing (author walk 5)."""

from __future__ import annotations

import re
from typing import Any

from .documents import Problem
from .yaml_reader import LineDict

FIELDS = ("answer", "tolerance")
# The field's whole value as written on its own line, block style, a comment allowed.
_WRITTEN = re.compile(
    r"[ \t]*(?:answer|tolerance)[ \t]*:[ \t]*([+-]?)(\d{1,3})\.(\d{3})[ \t]*(?:#.*)?"
)


def ambiguous_number_problems(raw: bytes, data: Any, shown: str) -> list[tuple[int, Problem]]:
    """(question's position, problem) for each numeric `answer` or `tolerance` written
    so that it reads two ways, as a learner's answer would be refused for."""
    questions = data.get("questions") if isinstance(data, dict) else None
    if not isinstance(questions, list):
        return []
    lines = raw.decode("utf-8", errors="replace").splitlines()
    found = []
    for index, question in enumerate(questions):
        if not isinstance(question, LineDict):
            continue
        code = question.get("id") if isinstance(question.get("id"), str) else None
        for field in FIELDS:
            value = question.get(field)
            if isinstance(value, bool) or not isinstance(value, float):
                continue
            line = question.line_of(field)
            written = _WRITTEN.fullmatch(lines[line - 1]) if 0 < line <= len(lines) else None
            if written is None or not written[2].strip("0"):
                continue  # 0.125 reads one way
            sign, whole, decimals = written.groups()
            message = (
                f"'{field}' {sign}{whole}.{decimals} reads two ways, as a learner's answer "
                "would (a thousands mark in Spanish, a decimal mark in English): write "
                f"{sign}{whole}{decimals}, or {sign}{whole}.{decimals}0 for the decimal"
            )
            found.append((index, Problem(shown, line, code, message)))
    return found
