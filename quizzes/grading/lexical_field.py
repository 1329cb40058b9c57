"""A mention found by its words: when no phrasing of a mention stands in the answer,
words of two or more of its slots (a word of a phrasing, or a vocabulary group), not all
words of one phrasing, in one clause with no negation count as finding it, and the
verdict this gives is provisional. A learner who says "each step jumps clear across
the valley" for a key that lists "jumps past the minimum" and "other side of the valley"
names the idea in the key's words without any one phrasing whole; a teacher confirms or
overrides.

Words the question's prompt already uses do not count (an answer repeating the question
says nothing), nor general words, numbers, stop words or negation cues."""

from __future__ import annotations

from functools import lru_cache

from .answer_words import word_matches
from .keys import MAX_SPANS, CompiledKey, Found
from .text import is_number, stems, words

FIELD_MIN = 2  # words of distinct slots of a mention, in one clause, that stand for it


@lru_cache(maxsize=1024)  # per key and question: pure, and asked for every answer missing one
def mention_fields(key: CompiledKey, prompt: str) -> tuple[dict[str, tuple], ...]:
    """Per mention, the key words that may stand for it, each with the slots (a word of a
    phrasing, or a vocabulary group) and the phrasings it belongs to; the prompt's own
    words left out."""
    echoed = {target for word in set(words(prompt)) for target in word_matches(key, word)}
    fields = []
    for mention in key.mentions:
        slots_of: dict[str, set] = {}
        alternatives_of: dict[str, set] = {}
        for n, alternative in enumerate(mention):
            if alternative.negative:
                continue
            for slot in alternative.slots:
                if slot.number:
                    continue
                # One-word phrases only: a word of "e to the power" or "standard
                # deviation" says nothing alone ("2 to the power" is not "e^x").
                for (word,) in (phrase for phrase in slot.phrases if len(phrase) == 1):
                    if _specific(key, word) and word not in echoed:
                        slots_of.setdefault(word, set()).add(slot.phrases)
                        alternatives_of.setdefault(word, set()).add(n)
        fields.append(
            {w: (frozenset(slots_of[w]), frozenset(alternatives_of[w])) for w in slots_of}
        )
    return tuple(fields)


def _specific(key: CompiledKey, word: str) -> bool:
    return (
        len(word) >= 3
        and word.isalpha()
        and not is_number(word)
        and word not in key.stopwords
        and word not in key.negations
        and word not in key.vocabulary.general_words
    )


def field_found(key: CompiledKey, reading, field: dict[str, tuple]) -> Found | None:
    """The mention found by words of FIELD_MIN of its slots in one clause without a
    negation cue, or None. Two forms of one word (by stem) count once, and so do two
    words of one slot ("standard deviation" is one word of "3 standard deviations").
    Words all of one phrasing do not count: where they stand too far apart for it
    ("rolling over the data … a mean" is no "rolling mean"), the window has spoken."""
    if len(field) < FIELD_MIN:
        return None
    negated = {reading.clauses[cue] for cue in reading.cues}
    by_clause: dict[int, dict[str, tuple[int, frozenset, frozenset]]] = {}
    norms = reading.tokens.norms
    for i, found in enumerate(reading.matches):
        clause = reading.clauses[i]
        if not found or clause in negated or i in reading.fixed:
            continue  # a word of "square root" or "in order to" is not the word alone
        targets = [field[t] for t in found if t in field]
        if targets:
            slots = frozenset().union(*(s for s, _ in targets))
            phrasings = frozenset().union(*(a for _, a in targets))
            canon = min(stems(norms[i], key.languages), default=norms[i])
            by_clause.setdefault(clause, {}).setdefault(canon, (i, slots, phrasings))
    for hits in by_clause.values():
        if len(hits) < FIELD_MIN:
            continue
        covered = frozenset().union(*(slots for _, slots, _ in hits.values()))
        shared = frozenset.intersection(*(phrasings for _, _, phrasings in hits.values()))
        if len(covered) >= FIELD_MIN and not shared:
            starts, ends = reading.tokens.starts, reading.tokens.ends
            spans = tuple(sorted((starts[i], ends[i]) for i, _, _ in hits.values()))
            return Found("found", spans[:MAX_SPANS], field=True)
    return None
