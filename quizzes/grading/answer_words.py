"""What one word of an answer stands for in a compiled key: the key's words it is, by
exact spelling, stem, prefix or typo."""

from __future__ import annotations

from operator import itemgetter

from rapidfuzz import process
from rapidfuzz.distance import OSA

from .keys import PREFIX_MIN, TYPO_MIN, TYPO_TWO, CompiledKey
from .text import is_number, stems

# A misspelt word stands for one word the learner meant: it is read as a typo of at most
# this many key words, the nearest. It bounds what a key of near-identical words costs
# (every word of an answer a typo of all 200 of them: 0.6 s an answer without it).
MAX_TYPO_TARGETS = 10

# Prefixes that turn a word into its opposite: a typo never bridges one, so "instability"
# is not a misspelt "stability", nor "inestabilidad" a misspelt "estabilidad".
NEGATING_PREFIXES = ("in", "im", "il", "ir", "un", "dis", "non", "des", "de", "a", "anti")
# The same, by their first letter: a word is checked only against the prefixes it may start
# with (typos of misspelt words made this check most of a long answer's word lookups).
_PREFIXES_BY_INITIAL = {
    initial: tuple(p for p in NEGATING_PREFIXES if p[0] == initial)
    for initial in {p[0] for p in NEGATING_PREFIXES}
}


def _opposites(key: CompiledKey, word: str, target: str, distance: int) -> bool:
    """Whether `word` reads as the opposite of `target`, `distance` edits apart: one is the
    other with a negating prefix (give or take the typo), or the vocabulary lists the pair
    as opposites."""
    for a, b in ((word, target), (target, word)):
        for prefix in _PREFIXES_BY_INITIAL.get(a[:1], ()):
            if (
                a.startswith(prefix)
                and not b.startswith(prefix)
                and OSA.distance(a[len(prefix) :], b) < distance
            ):
                return True
    opposed = key.opposed.get(target)
    return bool(opposed) and not opposed.isdisjoint(stems(word, key.languages) | {word})


def typo_bound(a: str, b: str) -> int:
    shorter = min(len(a), len(b))
    return 2 if shorter >= TYPO_TWO else 1 if shorter >= TYPO_MIN else 0


def word_matches(key: CompiledKey, word: str) -> dict[str, str]:
    """The key's words this answer word stands for, each with how: exact, stem, prefix or
    typo. Remembered per key, since answers repeat their words."""
    cached = key.cache.get(word)
    if cached is not None:
        return cached
    found: dict[str, str] = {}
    if word in key.exact:
        found[word] = "exact"
    if not (is_number(word) or key.vocabulary.protected(word)):
        for stem in stems(word, key.languages):
            for target in key.by_stem.get(stem, ()):
                found.setdefault(target, "stem")
        for target in key.prefixable.get(word[:PREFIX_MIN], ()):
            if word.startswith(target):
                found.setdefault(target, "prefix")
        near = key.typo_near.get(len(word))
        if near and not found and word not in key.known and word.isalpha():
            # One pass in rapidfuzz's C loop over the key's words of a near length; the
            # nearest candidates checked against their own bound (at one distance, in the
            # order of typo_near: shorter words first, then the key's order), and those
            # taken kept in that order, as grader 11 listed them.
            # A word under TYPO_TWO letters is forgiven one edit whatever the key word.
            candidates = process.extract(
                word, near, scorer=OSA.distance, score_cutoff=2, limit=None
            )
            taken = []
            for candidate in sorted(candidates, key=itemgetter(1, 2)):
                target, distance, _ = candidate
                bound = typo_bound(word, target)
                if distance <= bound and not _opposites(key, word, target, distance):
                    taken.append(candidate)
                    if len(taken) == MAX_TYPO_TARGETS:
                        break
            for target, _, _ in sorted(taken, key=itemgetter(2)):
                found.setdefault(target, "typo")
    if len(key.cache) > 50_000:  # a bound, so one key cannot hold on to every word ever seen
        key.cache.clear()
    key.cache[word] = found
    return found
