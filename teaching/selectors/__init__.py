"""Reads for the instructors' side: a cohort's members and attempts, and its results.

`cohort_results` (results.py) composes the results from selectors of their own: the
learner × phase table (learner_table.py) and the item figures (item_figures.py).
"""

from .cohort import (
    cohort_attempts,
    cohort_learner_ids,
    learner_attempts,
    learners_counted,
    raw_rows,
)
from .item_figures import ItemStats
from .learner_table import Cell, LearnerRow
from .results import MODES, SORTS, CohortResults, cohort_results

__all__ = [
    "MODES",
    "SORTS",
    "Cell",
    "CohortResults",
    "ItemStats",
    "LearnerRow",
    "cohort_attempts",
    "cohort_learner_ids",
    "learners_counted",
    "cohort_results",
    "learner_attempts",
    "raw_rows",
]
