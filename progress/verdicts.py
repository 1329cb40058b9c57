"""Which verdict stands on an attempt: its own grade, or the newest regrade, override
or confirmation (pure rules over already-read rows; the models import them)."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime
from typing import TYPE_CHECKING

from .enums import INSTRUCTOR_KINDS, VerdictSource

if TYPE_CHECKING:
    from .models import Attempt


@dataclass(frozen=True)
class Verdict:
    """An attempt's effective verdict: its own grade, or the newest regrade's or
    override's, with when, by whom and why (for "regraded on DATE" notes)."""

    correct: bool
    score: float
    source: str  # a VerdictSource
    at: datetime
    by_id: int | None = None
    reason: str = ""

    @property
    def is_regrade(self) -> bool:
        return self.source == VerdictSource.REGRADE

    @property
    def is_override(self) -> bool:
        return self.source == VerdictSource.OVERRIDE

    @property
    def is_confirmed(self) -> bool:
        return self.source == VerdictSource.CONFIRM


def doubts_column(codes) -> str:
    """A grading's doubt codes as `Attempt.doubts` stores them."""
    return ",".join(codes)[:64]


def provisional_from(attempt: Attempt, entries) -> bool:
    """`Attempt.provisional`, given the attempt's regrade entries (all of them): the
    doubts of the grading its verdict stands on (a regrade rewrites them), and no
    person's confirm or override since."""
    return bool(attempt.doubts) and not any(e.kind in INSTRUCTOR_KINDS for e in entries)


def verdict_newest(entries):
    """The rule for which verdict stands: the newest entry, by insertion order (its id;
    two entries may share a timestamp), or None when there is none."""
    return max(entries, key=lambda entry: entry.pk, default=None)
