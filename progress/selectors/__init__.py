"""Reads for the learner's pages, by concern: a card's state (`state`), cards read
for a learner (`cards`), progress per phase (`overview`), attempts over time
(`history`). A fixed number of queries whatever the counts. Every public name is
importable from here."""

from .cards import drafts_attach, learner_standings, question_state, standings_attach
from .history import (
    HISTORY_LIMIT,
    ActivityDay,
    activity_by_day,
    attempt_counts_for_revisions,
    attempt_history,
    attempt_was_review,
    checkable,
)
from .overview import PhaseProgress, learner_progress, phase_in_progress
from .state import MentionFeedback, OptionFeedback, QuestionState

__all__ = [
    "HISTORY_LIMIT",
    "ActivityDay",
    "MentionFeedback",
    "OptionFeedback",
    "PhaseProgress",
    "QuestionState",
    "activity_by_day",
    "attempt_counts_for_revisions",
    "attempt_history",
    "attempt_was_review",
    "checkable",
    "drafts_attach",
    "learner_progress",
    "learner_standings",
    "phase_in_progress",
    "question_state",
    "standings_attach",
]
