"""Classical item statistics from sufficient sums, so no learner × item matrix is built.

Every variance is the population variance (divided by n), as KR-20 and the correlations
are usually computed; a figure whose variance is zero is None (undefined, not 0).
Notation, per phase: n learners who answered any of its questions, T a learner's
first-try total in the phase, x an item's 0/1 first-try score, R = T − x the rest.
"""

from __future__ import annotations

import math
from dataclasses import dataclass


@dataclass(frozen=True)
class Totals:
    """The phase totals of n learners: their sum and sum of squares."""

    n: int
    total: float
    squares: float

    @property
    def mean(self) -> float:
        return self.total / self.n

    @property
    def variance(self) -> float:
        return max(0.0, self.squares / self.n - self.mean**2)


def _item_moments(totals: Totals, right: int, right_total: float) -> tuple[float, float, float]:
    """(p, var x, cov(x, T)) of an item that `right` learners got right, whose totals
    add up to `right_total`."""
    p = right / totals.n
    return p, p * (1 - p), right_total / totals.n - p * totals.mean


def item_rest_correlation(*, totals: Totals, right: int, right_total: float) -> float | None:
    """Pearson correlation of the item with the rest of the phase (the corrected
    item-total correlation): does getting it right go with doing well elsewhere?"""
    p, var_x, cov_xt = _item_moments(totals, right, right_total)
    var_rest = totals.variance + var_x - 2 * cov_xt
    if var_x <= 0 or var_rest <= 1e-12:
        return None
    return (cov_xt - var_x) / math.sqrt(var_x * var_rest)


def option_point_biserial(
    *,
    totals: Totals,
    right: int,
    right_total: float,
    picked: int,
    picked_rest: float,
) -> float | None:
    """Correlation of picking an option with the rest score: positive for the right
    option, negative for a working distractor. `picked_rest` is the sum of the rest
    scores (T − x) of the learners who picked it."""
    p, var_x, cov_xt = _item_moments(totals, right, right_total)
    var_rest = totals.variance + var_x - 2 * cov_xt
    q = picked / totals.n
    var_pick = q * (1 - q)
    if var_pick <= 0 or var_rest <= 1e-12:
        return None
    mean_rest = totals.mean - p
    return (picked_rest / totals.n - q * mean_rest) / math.sqrt(var_pick * var_rest)


def kr20(*, totals: Totals, rights: list[int]) -> float | None:
    """Cronbach's alpha for 0/1 items (KR-20): k/(k−1) · (1 − Σ p(1−p) / var T)."""
    k = len(rights)
    if k < 2 or totals.variance <= 1e-12:
        return None
    item_variance = sum((r / totals.n) * (1 - r / totals.n) for r in rights)
    return k / (k - 1) * (1 - item_variance / totals.variance)


def kr20_if_deleted(
    *, totals: Totals, rights: list[int], right_totals: list[float], index: int
) -> float | None:
    """KR-20 of the phase without item `index`: higher than the phase's own means the
    item pulls the phase's consistency down."""
    k = len(rights) - 1
    _p, var_x, cov_xt = _item_moments(totals, rights[index], right_totals[index])
    var_rest = totals.variance + var_x - 2 * cov_xt
    if k < 2 or var_rest <= 1e-12:
        return None
    item_variance = sum(
        (r / totals.n) * (1 - r / totals.n) for i, r in enumerate(rights) if i != index
    )
    return k / (k - 1) * (1 - item_variance / var_rest)
