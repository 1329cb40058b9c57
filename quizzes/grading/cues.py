"""The words of an answer that change what its clauses say: negation cues ("not", "sin")
and the words that open a hypothetical clause ("if", "si"). A cue inside an expression
that denies nothing ("not only", "sin duda", "sin embargo") is no cue there."""

from __future__ import annotations

import unicodedata
from collections.abc import Sequence
from dataclasses import dataclass

from .text import Tokens
from .vocabulary import Vocabulary

# Words that may stand before a hypothetical word at the head of its clause: "and if
# you forget the mask", "pero si no".
LEADING = frozenset({"and", "but", "or", "so", "then", "pero", "y", "e", "o", "u", "pues"})


@dataclass(frozen=True)
class Cues:
    negations: list[int]  # token indices of negation cues, in reading order
    hypotheticals: list[int]  # token indices of words that open a hypothetical clause
    # Cues of an expression that denies nothing ("not only"), each with the index of the
    # word after the expression's cue: the cue still denies a mention that starts there
    # ("not only in training" is no "only in training").
    affirming: dict[int, int]


def read_cues(
    *,
    text: str,
    tokens: Tokens,
    clauses: Sequence[int],
    negations: frozenset[str],
    vocabulary: Vocabulary,
) -> Cues:
    norms = tokens.norms
    inside: set[int] = set()  # words of an expression that denies nothing
    affirming: dict[int, int] = {}
    starts = vocabulary.not_negations
    for i in [i for i, word in enumerate(norms) if word in starts]:
        for phrase in starts[norms[i]]:
            if tuple(norms[i : i + len(phrase)]) == phrase:
                inside.update(range(i, i + len(phrase)))
                affirming[i] = i + 1
    # "without it", "sin eso": the cue negates its pronoun, not what the sentence goes on
    # to say ("without it you get NaN" says that NaN comes).
    cues = [
        i
        for i, word in enumerate(norms)
        if word in negations
        and i not in inside
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
        # "if," or "si." opens nothing; "Sí, ve el futuro" is a yes.
        and i + 1 < len(norms)
        and clauses[i + 1] == clauses[i]
        and not _accented(text[tokens.starts[i] : tokens.ends[i]])
    ]
    return Cues(cues, hypotheticals, affirming)


def _accented(word: str) -> bool:
    """Whether a word as written carries an accent ("sí" is "yes", "si" is "if")."""
    return any(unicodedata.combining(c) for c in unicodedata.normalize("NFD", word))


def hypothetical(
    *, norms: Sequence[str], clauses: Sequence[int], hypotheticals: Sequence[int], first: int
) -> bool:
    """Whether the words from `first` on stand in a clause about what would happen ("if
    you forget it, the model sees the next token"; "si no, copia el siguiente"): opened
    by a hypothetical word earlier in the clause, or by one that opens the clause before
    it ("pero si olvidas la máscara, ve el futuro": after a conjunction, too)."""
    clause = clauses[first]
    start = first
    while start > 0 and clauses[start - 1] == clause:
        start -= 1
    previous = clauses[start - 1] if start else None
    for i in hypotheticals:
        if clauses[i] == clause and i < first:
            return True
        if clauses[i] == previous and previous is not None:
            head = i
            if head > 0 and clauses[head - 1] == previous and norms[head - 1] in LEADING:
                head -= 1
            if head == 0 or clauses[head - 1] != previous:
                return True
    return False
