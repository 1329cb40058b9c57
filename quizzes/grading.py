"""Grading as pure functions: an answer and a key in, a result that explains itself out.

No database here. The progress app calls these with a revision's key; tests call them
with plain values.
"""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from functools import lru_cache


@dataclass(frozen=True)
class Grade:
    correct: bool
    score: float  # 1 or 0 for choice questions; mentions found / mentions for free
    partial: float  # multi: (right - wrong) / correct keys, floored at 0; else = score
    right_picks: tuple[str, ...] = ()  # chosen keys that are correct
    wrong_picks: tuple[str, ...] = ()  # chosen keys that are not
    missed_keys: tuple[str, ...] = ()  # correct keys not chosen
    found: tuple[int, ...] = ()  # indices of expected mentions found (free)
    missed: tuple[int, ...] = field(default=())  # indices of expected mentions missed


def grade_single(*, correct_keys: Sequence[str], chosen: str) -> Grade:
    right = chosen in correct_keys
    return Grade(
        correct=right,
        score=1.0 if right else 0.0,
        partial=1.0 if right else 0.0,
        right_picks=(chosen,) if right else (),
        wrong_picks=() if right else (chosen,),
        missed_keys=() if right else tuple(correct_keys),
    )


def grade_multi(*, correct_keys: Sequence[str], chosen: Iterable[str]) -> Grade:
    chosen_set = set(chosen)
    correct_set = set(correct_keys)
    right = sorted(chosen_set & correct_set)
    wrong = sorted(chosen_set - correct_set)
    partial = max(0.0, (len(right) - len(wrong)) / len(correct_set)) if correct_set else 0.0
    exact = chosen_set == correct_set
    return Grade(
        correct=exact,
        score=1.0 if exact else 0.0,
        partial=round(partial, 4),
        right_picks=tuple(right),
        wrong_picks=tuple(wrong),
        missed_keys=tuple(sorted(correct_set - chosen_set)),
    )


def normalize(text: str) -> str:
    """NFKC, case-folded, accents stripped, runs of white space collapsed."""
    text = unicodedata.normalize("NFKC", text).casefold()
    decomposed = unicodedata.normalize("NFD", text)
    stripped = "".join(ch for ch in decomposed if not unicodedata.combining(ch))
    return " ".join(unicodedata.normalize("NFC", stripped).split())


@lru_cache(maxsize=4096)
def _mention_pattern(alternative: str) -> re.Pattern[str]:
    # A match must start at a word boundary (so "identity" is not found in
    # "nonidentity") but may end anywhere, so a stem such as "satur" works.
    return re.compile(r"(?<!\w)" + re.escape(normalize(alternative)))


def mention_found(normalized_answer: str, alternatives: Sequence[str]) -> bool:
    return any(
        _mention_pattern(alternative).search(normalized_answer) for alternative in alternatives
    )


def grade_free(
    *, expected: Sequence[Sequence[str]], pass_mentions: int | None, answer: str
) -> Grade:
    normalized = normalize(answer)
    found = tuple(i for i, alts in enumerate(expected) if mention_found(normalized, alts))
    missed = tuple(i for i in range(len(expected)) if i not in found)
    needed = pass_mentions or len(expected)
    score = round(len(found) / len(expected), 4) if expected else 0.0
    return Grade(
        correct=len(found) >= needed,
        score=score,
        partial=score,
        found=found,
        missed=missed,
    )


def grade(
    *,
    kind: str,
    correct_keys: Sequence[str],
    expected: Sequence[Sequence[str]],
    pass_mentions: int | None,
    keys: Sequence[str] = (),
    text: str = "",
) -> Grade:
    """Grade one answer against one key, whatever the kind of question."""
    if kind == "single":
        return grade_single(correct_keys=correct_keys, chosen=keys[0] if keys else "")
    if kind == "multi":
        return grade_multi(correct_keys=correct_keys, chosen=keys)
    return grade_free(expected=expected, pass_mentions=pass_mentions, answer=text)
