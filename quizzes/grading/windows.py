"""Where a phrasing's words stand together in an answer: each placement of its slots in
one clause, close enough, numbers bound to the words they count. matcher.py reads what
each placement says (negated, lessened, hypothetical)."""

from __future__ import annotations

import bisect
from collections.abc import Iterator, Sequence
from typing import TYPE_CHECKING

from .keys import GAP, Occurrence, Slot
from .text import is_number

if TYPE_CHECKING:
    from .matcher import Reading


def _bound_numbers(reading: Reading, slots: Sequence[Slot], window: list[Occurrence]) -> bool:
    """A number stands right next to the word it counts (stop words and words of
    comparison aside), on either side: "3σ", "z > 3", "z-score above 3", "three standard
    deviations"; so does a word of degree ("less random", "menos aleatorio")."""
    content, norms = reading.content_before, reading.tokens.norms
    comparing = reading.vocabulary.comparing
    for k, slot in enumerate(slots):
        if slot.number and len(slots) > 1:
            a, b = window[k], window[k + 1 if k + 1 < len(slots) else k - 1]
            left, right = (a, b) if a.first < b.first else (b, a)
            gap = range(left.last + 1, right.first)
            if content[right.first] - content[left.last + 1] > 0 and not (
                # "z above 3": the counted word first, no number of its own before it
                # ("2 sigma over 3 steps" is 2 sigma), only comparison words between.
                right is window[k]
                and not _number_before(reading, left.first)
                and all(content[i + 1] == content[i] or norms[i] in comparing for i in gap)
            ):
                return False
    return True


def _number_before(reading: Reading, i: int) -> bool:
    """Whether the word before token `i`, stop words aside, is a number."""
    content, norms = reading.content_before, reading.tokens.norms
    i -= 1
    while i >= 0 and content[i + 1] == content[i] and not is_number(norms[i]):
        i -= 1
    return i >= 0 and is_number(norms[i])


def windows(
    reading: Reading, slots: Sequence[Slot], per_slot: list[list[Occurrence]]
) -> Iterator[list[Occurrence]]:
    """Each placement of all the slots in one clause, in any order, close together;
    found from every occurrence taken as the leftmost, with the next occurrence of each
    other slot after it."""
    if len(per_slot) == 1:
        return ([o] for o in per_slot[0])
    placing = _pairs if len(per_slot) == 2 else _placements
    return placing(reading, slots, per_slot)


def _placements(
    reading: Reading, slots: Sequence[Slot], per_slot: list[list[Occurrence]]
) -> Iterator[list[Occurrence]]:
    """windows() for any number of slots."""
    starts = [[o.first for o in occs] for occs in per_slot]
    clauses = reading.clauses
    for j, anchors in enumerate(per_slot):
        for anchor in anchors:
            window = [anchor] * len(per_slot)  # in slot order
            clause = clauses[anchor.first]
            for k, occs in enumerate(per_slot):
                if k == j:
                    continue
                n = bisect.bisect_right(starts[k], anchor.last)
                # None after the anchor, or the next one ends in a later clause: no
                # window starts at this anchor (clauses only grow along the answer).
                if n == len(occs) or clauses[occs[n].last] != clause:
                    break
                window[k] = occs[n]
            else:
                last = max(o.last for o in window)
                width = reading.content_before[last + 1] - reading.content_before[anchor.first]
                needed = sum(
                    reading.content_before[o.last + 1] - reading.content_before[o.first]
                    for o in window
                )
                if width <= needed + GAP and _bound_numbers(reading, slots, window):
                    yield window


def _pairs(
    reading: Reading, slots: Sequence[Slot], per_slot: list[list[Occurrence]]
) -> Iterator[list[Occurrence]]:
    """_placements() for two slots, the common case, each step over all of a slot's
    anchors at once (most anchors of a long answer lead nowhere). The other slot's
    occurrence starts after the anchor's last word, so the words the window holds besides
    the two are those between the anchor's end and that start."""
    clauses, content = reading.clauses, reading.content_before
    starts = [[o.first for o in occs] for occs in per_slot]
    for j, k in ((0, 1), (1, 0)):
        anchors, others = per_slot[j], per_slot[k]
        nexts = [bisect.bisect_right(starts[k], o.last) for o in anchors]
        for anchor, n in zip(anchors, nexts, strict=True):
            if (
                n < len(others)
                and clauses[others[n].last] == clauses[anchor.first]
                and content[others[n].first] - content[anchor.last + 1] <= GAP
            ):
                window = [anchor, others[n]] if j == 0 else [others[n], anchor]
                if _bound_numbers(reading, slots, window):
                    yield window
