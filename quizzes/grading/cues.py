"""The words of an answer that change what its clauses say: negation cues ("not", "sin")
and the words that open a hypothetical clause ("if", "si"). A cue inside an expression
that denies nothing ("not only", "sin duda", "sin embargo") is no cue there."""

from __future__ import annotations

import unicodedata
from bisect import bisect_left
from collections.abc import Sequence
from dataclasses import dataclass

from .text import Tokens
from .vocabulary import Vocabulary

# Words that may stand before a hypothetical word at the head of its clause: "and if
# you forget the mask", "and then if", "pero si no", "y entonces si".
LEADING = frozenset(
    {"and", "but", "or", "so", "then", "pero", "y", "e", "o", "u", "pues", "entonces", "luego"}
)
# "with or without identity", "con o sin identidad", "whether or not": both ways, so the
# cue after "or" denies nothing.
BOTH_WAYS = frozenset({"with", "whether", "con"})
ALTERNATIVE = frozenset({"or", "o", "u"})


@dataclass(frozen=True)
class Cues:
    negations: list[int]  # token indices of negation cues, in reading order
    hypotheticals: list[int]  # token indices of words that open a hypothetical clause
    # Cues of an expression that denies nothing ("not only"), each with the index of the
    # word after the expression's cue: the cue still denies a mention that starts there
    # ("not only in training" is no "only in training").
    affirming: dict[int, int]


def not_negations_found(tokens: Tokens, vocabulary: Vocabulary) -> dict[int, int]:
    """Where the expressions that deny nothing ("not only", "sin embargo") stand: the
    index of each one's first word, to that of its last. Not across punctuation: "No,
    solo en entrenamiento" is a no, then a claim (the words' own clauses: a clause word
    such as "embargo" may end one)."""
    norms, marks, starts = tokens.norms, tokens.clauses, vocabulary.not_negations
    found: dict[int, int] = {}
    for i in [i for i, word in enumerate(norms) if word in starts]:
        for phrase in starts[norms[i]]:
            end = i + len(phrase) - 1
            if tuple(norms[i : end + 1]) == phrase and marks[end] == marks[i]:
                found[i] = end
    return found


def read_cues(
    *,
    text: str,
    tokens: Tokens,
    clauses: Sequence[int],
    negations: frozenset[str],
    vocabulary: Vocabulary,
    not_negations: dict[int, int],
) -> Cues:
    """The cues and hypothetical words of an answer; `not_negations` is where the
    expressions that deny nothing stand (not_negations_found)."""
    norms = tokens.norms
    # Words of an expression that denies nothing, and each one's cue.
    inside = {i for start, end in not_negations.items() for i in range(start, end + 1)}
    affirming = {start: start + 1 for start in not_negations}
    # "without it", "sin eso": the cue negates its pronoun, not what the sentence goes on
    # to say ("without it you get NaN" says that NaN comes).
    cues = [
        i
        for i, word in enumerate(norms)
        if word in negations
        and i not in inside
        and not (i >= 2 and norms[i - 1] in ALTERNATIVE and norms[i - 2] in BOTH_WAYS)
        and not (
            word in vocabulary.pronoun_negations
            and i + 1 < len(norms)
            and norms[i + 1] in vocabulary.pronouns
        )
    ]
    hypotheticals = [
        i
        for i, word in enumerate(norms)
        if word in vocabulary.hypotheticals
        and i not in inside
        and not (word == "si" and _yes(text, tokens, clauses, i))
    ]
    return Cues(cues, hypotheticals, affirming)


def _yes(text: str, tokens: Tokens, clauses: Sequence[int], i: int) -> bool:
    """Whether the "si" at `i` is a yes: written "sí", or closing its clause ("Si, ve
    el futuro" typed without the accent)."""
    written = text[tokens.starts[i] : tokens.ends[i]]
    if any(unicodedata.combining(c) for c in unicodedata.normalize("NFD", written)):
        return True
    return i + 1 == len(clauses) or clauses[i + 1] != clauses[i]


def hypothetical(
    *, norms: Sequence[str], clauses: Sequence[int], hypotheticals: Sequence[int], first: int
) -> bool:
    """Whether the words from `first` on stand in a clause about what would happen ("if
    you forget it, the model sees the next token"; "si no, copia el siguiente"): opened
    by a hypothetical word earlier in the clause, or by one that opens the clause before
    it ("pero si olvidas la máscara, ve el futuro": after conjunctions, too)."""
    if not hypotheticals:
        return False
    # Clause numbers never fall in reading order: where a clause starts is a bisection.
    start = bisect_left(clauses, clauses[first])
    if start == 0:
        lowest = 0
    else:
        previous = clauses[start - 1]
        lowest = bisect_left(clauses, previous)
    for i in hypotheticals[bisect_left(hypotheticals, lowest) : bisect_left(hypotheticals, first)]:
        if i >= start:
            return True  # earlier in the window's own clause
        head = i
        while head > lowest and norms[head - 1] in LEADING:
            head -= 1
        if head == lowest:
            return True  # it opens the clause before
    return False
