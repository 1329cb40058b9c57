"""The values given to a numeric question, for the item analysis: their distribution (a
histogram's bins) and the wrong values given most often ("many answered 7: they forgot
fp16 is 2 bytes"), the numeric counterpart of free answers grouped by text.

The values come as the attempts' answer patterns (each answer's reading in plain
notation), so they need no query of their own; right or wrong is judged against the
question's current key."""

from __future__ import annotations

from dataclasses import dataclass, field
from decimal import Decimal

from quizzes.grading.numeric import NumericKey, numeric_right

WRONG_SHOWN = 5
BINS = 10
# Values further from the answer than ten times its size (a slip of a thousand, a value
# in bytes instead of GB) go into one bar at either end, so that they do not squeeze the
# rest into one bar.
WINDOW = 10


@dataclass(frozen=True)
class Bin:
    low: Decimal
    high: Decimal
    answers: int
    right: bool  # the bin holds (part of) the range of right values
    edge: str = ""  # "below" / "above": the values past the bins in between


@dataclass
class NumericAnswers:
    key: NumericKey
    values: dict[str, int] = field(default_factory=dict)  # plain reading → answers

    def add(self, value: str, n: int) -> None:
        if value:
            self.values[value] = self.values.get(value, 0) + n

    @property
    def answers(self) -> int:
        return sum(self.values.values())

    def _read(self) -> list[tuple[Decimal, int]]:
        read = []
        for text, n in self.values.items():
            try:
                read.append((Decimal(text), n))
            except ArithmeticError:  # a pattern written before numbers were read
                continue
        return sorted(read)

    @property
    def common_wrong(self) -> list[tuple[Decimal, int, float]]:
        """(value, answers, share of answers) of the wrong values given most often."""
        total = self.answers or 1
        wrong = [
            (value, n) for value, n in self._read() if not numeric_right(key=self.key, value=value)
        ]
        wrong.sort(key=lambda item: (-item[1], item[0]))
        return [(value, n, n / total) for value, n in wrong[:WRONG_SHOWN]]

    def bins(self) -> list[Bin]:
        """BINS equal bins over the values within WINDOW times the answer's size of it
        (widened to hold the range of right values), and a bin at either end for the
        values past them when there are any."""
        read = self._read()
        if not read:
            return []
        key = self.key
        right_low, right_high = key.answer - key.margin, key.answer + key.margin
        size = max(abs(key.answer), key.margin) or Decimal(1)
        near = [v for v, _n in read if abs(v - key.answer) <= WINDOW * size]
        low = min([*near, right_low])
        high = max([*near, right_high])
        if low == high:
            low, high = low - size / 10, high + size / 10
        width = (high - low) / BINS
        counts = [0] * BINS
        below = above = 0
        for value, n in read:
            if value < low:
                below += n
            elif value > high:
                above += n
            else:
                counts[min(BINS - 1, int((value - low) / width))] += n
        bins = [
            Bin(
                low + i * width,
                low + (i + 1) * width,
                counts[i],
                right=low + i * width <= right_high and low + (i + 1) * width >= right_low,
            )
            for i in range(BINS)
        ]
        if below:
            bins.insert(0, Bin(read[0][0], low, below, right=False, edge="below"))
        if above:
            bins.append(Bin(high, read[-1][0], above, right=False, edge="above"))
        return bins
