"""Finding a key's mentions in a free-text answer: words, stems, typos, windows, negation.
The key is read once by keys.py; this module reads an answer against it."""

from __future__ import annotations

import bisect
from collections.abc import Sequence
from dataclasses import dataclass, field
from itertools import accumulate

from rapidfuzz.distance import OSA

from portal.languages import LANGUAGE_CODES

from .answer_words import typo_bound, word_matches
from .cues import hypothetical, not_negations_found, read_cues
from .keys import (
    LESS,
    MAX_SPANS,
    NEGATION_REACH,
    TYPO_TWO,
    Alternative,
    CompiledKey,
    Found,
    Occurrence,
    Slot,
    as_mentions,
    compile_key,
    read_alternatives,
)
from .lexical_field import field_found, mention_fields
from .text import Tokens, is_number, is_symbol, stems, tokenize
from .vocabulary import Vocabulary
from .windows import windows

__all__ = [
    "Alternative",
    "CompiledKey",
    "Found",
    "Slot",
    "as_mentions",
    "compile_key",
    "find_mentions",
    "read_alternatives",
]


# How many words may stand between a phrasal verb and its particle ("blow the training
# up"); the particles are the vocabulary's.
PARTICLE_REACH = 3
# "identity or not": the word before a bare "no" that makes it an alternative.
ALTERNATIVE_WORDS = frozenset({"or", "o", "u"})


@dataclass
class Reading:
    """An answer read against one key: its words, clauses, what each word matches."""

    text: str
    tokens: Tokens
    clauses: list[int]  # the tokens' clauses, split again at words such as "because"
    content_before: list[int]  # content words among the first i tokens
    matches: list[dict[str, str]]
    cues: list[int]  # token indices of negation cues
    at: dict[str, list[int]]  # key word → token indices that match it
    # Tokens inside a fixed expression ("square root", "in order to") → the expressions:
    # such a token matches a one-word phrasing only where the phrasing is one of them.
    fixed: dict[int, set[tuple[str, ...]]] = field(default_factory=dict)
    # The key's vocabulary: the words of comparison, phrasal verbs' particles and
    # negations that follow what they deny.
    vocabulary: Vocabulary | None = None
    # Token indices of words that open a hypothetical clause ("if", "without", "si").
    hypotheticals: list[int] = field(default_factory=list)
    # The cues with the verbs of keeping from ("prevents looking ahead"): they negate
    # for a negatively phrased mention ("cannot see the future") only. "Evita que
    # diverja" still names divergence, the danger a plain mention "diverge" speaks of.
    keeping_cues: list[int] = field(default_factory=list)
    # The cues of expressions that deny nothing ("not only"), each with the one word
    # they still deny from: a mention that starts there ("not only in training").
    affirming: dict[int, int] = field(default_factory=dict)
    # Tokens that may be the first half of a split word ("zebra word" for "zebraword"),
    # by their first three letters: three letters or more, the next token in their clause.
    joinable: dict[str, list[int]] = field(default_factory=dict)
    # Each slot's occurrences, once found (occurrences()): phrasings repeat slots.
    slot_occurrences: dict[Slot, list[Occurrence]] = field(default_factory=dict)


def read_answer(*, key: CompiledKey, text: str) -> Reading:
    tokens = tokenize(text)
    norms = tokens.norms
    # Each distinct word is looked up once; the rest is list comprehensions over tokens,
    # which keeps a 10,000-character answer in a few milliseconds.
    table = {word: word_matches(key, word) for word in set(norms)}
    matches = [table[word] for word in norms]
    clauses = tokens.clauses
    vocabulary = key.vocabulary
    not_negations = not_negations_found(tokens, vocabulary)
    if key.clause_breaks.intersection(table):
        # A clause word that ends an expression that denies nothing ("sin embargo")
        # breaks, though a cue stands before it.
        ending = set(not_negations.values())
        # "not because", "no porque": the negation is of the reason, which is no new
        # clause ("it is not because of the identity path" denies the identity path).
        # "while training", "while generating": a time, not a clause of its own.
        breaks = [
            word in key.clause_breaks
            and not (i and norms[i - 1] in key.negations and i not in ending)
            and not (word == "while" and _gerund(norms[i + 1 : i + 2]))
            for i, word in enumerate(norms)
        ]
        shift = list(accumulate(breaks))
        clauses = [c + d for c, d in zip(clauses, shift, strict=True)]
    # Stop words and symbols do not count as words between others: "z > 3" is "z 3".
    content_before = list(
        accumulate((w not in key.stopwords and not is_symbol(w) for w in norms), initial=0)
    )
    at: dict[str, list[int]] = {}
    for i, found in enumerate(matches):
        for target in found:
            at.setdefault(target, []).append(i)
    joinable: dict[str, list[int]] = {}
    for i in range(len(norms) - 1):
        if len(norms[i]) >= 3 and clauses[i] == clauses[i + 1]:
            joinable.setdefault(norms[i][:3], []).append(i)
    found_cues = read_cues(
        text=text,
        tokens=tokens,
        clauses=clauses,
        negations=key.negations,
        vocabulary=vocabulary,
        not_negations=not_negations,
    )
    cues = found_cues.negations
    preventing = {w for w in table if stems(w, LANGUAGE_CODES) & vocabulary.preventing}
    fixed: dict[int, set[tuple[str, ...]]] = {}
    starts = vocabulary.fixed_by_first
    for i in [i for i, word in enumerate(norms) if word in starts]:
        for phrase in starts[norms[i]]:
            if tuple(norms[i : i + len(phrase)]) == phrase:
                for j in range(i, i + len(phrase)):
                    fixed.setdefault(j, set()).add(phrase)
    return Reading(
        text,
        tokens,
        clauses,
        content_before,
        matches,
        cues,
        at,
        fixed,
        vocabulary,
        found_cues.hypotheticals,
        sorted(cues + [i for i, word in enumerate(norms) if word in preventing]),
        found_cues.affirming,
        joinable,
    )


def _gerund(following: list[str]) -> bool:
    """Whether the word after "while" is a gerund ("while training"); "while nothing
    changes" and "while during training" open a clause."""
    word = following[0] if following else ""
    return word.endswith("ing") and not word.endswith("thing") and word != "during"


def occurrences(reading: Reading, slot: Slot) -> list[Occurrence]:
    """Every place in the answer where the slot's words stand, in reading order. Found
    once per answer for a slot that several phrasings share."""
    known = reading.slot_occurrences.get(slot)
    if known is None:
        known = reading.slot_occurrences[slot] = _occurrences(reading, slot)
    return known


def _occurrences(reading: Reading, slot: Slot) -> list[Occurrence]:
    found: dict[int, Occurrence] = {}
    tokens, clauses, matches = reading.tokens, reading.clauses, reading.matches
    for phrase in slot.phrases:
        if len(phrase) == 1:
            _one_word_occurrences(reading, slot, phrase[0], found)
            continue
        for first in reading.at.get(phrase[0], ()):
            last = first
            positions = [first]
            for word in phrase[1:]:
                nxt = last + 1
                # An English particle may stand after the verb's object: "blow the
                # training up" is "blow up", "zero them out" is "zero out".
                reach = PARTICLE_REACH if word in reading.vocabulary.particles else 0
                while (
                    nxt < len(matches)
                    and word not in matches[nxt]
                    and nxt < last + 1 + reach
                    and clauses[nxt] == clauses[first]
                ):
                    nxt += 1
                if nxt >= len(matches) or clauses[nxt] != clauses[first]:
                    break
                if word not in matches[nxt]:
                    break
                last = nxt
                positions.append(nxt)
            else:
                if first not in found or found[first].last < last:
                    typos = tuple(
                        (reading.text[tokens.starts[i] : tokens.ends[i]], word)
                        for i, word in zip(positions, phrase, strict=True)
                        if matches[i].get(word) == "typo"
                    )
                    found[first] = Occurrence(first, last, typos)
    word = slot.phrases[0][0]
    if slot.plain and len(word) >= TYPO_TWO:  # "zebra word" for "zebraword"
        norms = tokens.norms
        for i in reading.joinable.get(word[:3], ()):
            a = norms[i]
            if not word.startswith(a):
                continue
            joined = a + norms[i + 1]
            bound = typo_bound(joined, word)
            if joined == word or OSA.distance(joined, word, score_cutoff=bound) <= bound:
                typo = () if joined == word else ((f"{a} {norms[i + 1]}", word),)
                found.setdefault(i, Occurrence(i, i + 1, typo))
    return [found[i] for i in sorted(found)]


def _one_word_occurrences(
    reading: Reading, slot: Slot, word: str, found: dict[int, Occurrence]
) -> None:
    """A one-word phrasing's occurrences, added where no occurrence starts yet: one token
    long, it is never longer than one found there."""
    tokens, matches, fixed = reading.tokens, reading.matches, reading.fixed
    for first in reading.at.get(word, ()):
        if first in found or (first in fixed and not fixed[first].intersection(slot.phrases)):
            continue  # "square" of "square root" is not "square"
        typos = ()
        if matches[first][word] == "typo":
            typos = ((reading.text[tokens.starts[first] : tokens.ends[first]], word),)
        found[first] = Occurrence(first, first, typos)


def _negated(reading: Reading, window: Sequence[Occurrence], *, keeping: bool = False) -> bool:
    """Whether a negation cue of the window's clause denies it; with `keeping`, a verb of
    keeping from counts as a cue."""
    cues = reading.keeping_cues if keeping else reading.cues
    first = min(o.first for o in window)
    last = max(o.last for o in window)
    clause = reading.clauses[first]
    if first - 1 in reading.affirming:
        return True  # "not only in training" for "only in training"
    # Only the cues of this clause up to the window's end can negate it: walk back.
    n = bisect.bisect_right(cues, last)
    # A cue that qualifies what stands before it ("generalises poorly", "funciona mal",
    # "has nothing to do with it", "no tiene nada que ver").
    norms, postposed = reading.tokens.norms, reading.vocabulary.postposed_negations
    for cue in cues[n:]:
        between = reading.content_before[cue] - reading.content_before[last + 1]
        if reading.clauses[cue] != clause or between > NEGATION_REACH:
            break
        if any(tuple(norms[cue : cue + len(p)]) == p for p in postposed):
            return True
        # "la identidad no, la norma": a bare "no" right after the words, closing their
        # clause, denies them; not a question tag ("es la identidad, ¿no?", "..., no?")
        # nor the other half of an alternative ("identity or not").
        closes = cue + 1 == len(norms) or reading.clauses[cue + 1] != clause
        if between == 0 and closes and norms[cue] in ("no", "not"):
            after = reading.text[reading.tokens.ends[cue] :].lstrip()
            if not after.startswith("?") and norms[cue - 1] not in ALTERNATIVE_WORDS:
                return True
    while n > 0:
        n -= 1
        cue = cues[n]
        if reading.clauses[cue] != clause:
            return False
        if any(o.first <= cue <= o.last for o in window):
            continue  # a cue that is part of the mention itself
        between = reading.content_before[first] - reading.content_before[cue + 1]
        return cue > first or between <= NEGATION_REACH
    return False


# "less peaked" is no "more peaked": a word of "less" right before a phrasing denies it
# where the mention is about a direction (below).
LESSENING = frozenset(phrase[0] for phrase in LESS.phrases)


def _of_degree(alternative: Alternative) -> bool:
    """Whether a phrasing holds a word of degree ("more peaked", "menos aleatorio")."""
    return any(s.number and not is_number(s.phrases[0][0]) for s in alternative.slots)


def _lessened(reading: Reading, window: Sequence[Occurrence]) -> bool:
    """Whether a word of "less" stands right before the window, in its clause."""
    first = min(o.first for o in window)
    return (
        first > 0
        and reading.tokens.norms[first - 1] in LESSENING
        and reading.clauses[first - 1] == reading.clauses[first]
    )


def locate(reading: Reading, alternatives: tuple[Alternative, ...]) -> Found:
    """Whether one mention is in the answer, negated, or not there; where; which typos.
    A negative alternative is found where its words stand negated, and reads as the
    opposite ("negated") where they stand unnegated."""
    spans: dict[tuple[int, int], None] = {}
    negated_spans: dict[tuple[int, int], None] = {}
    typos: dict[tuple[str, str], None] = {}
    negative_found = positive_negated = False
    clean = False  # found somewhere without a typo: the typos elsewhere are no doubt
    # Where a plain phrasing stands negated, the words it covers and how many slots it
    # has: a negative phrasing with fewer slots read inside them is that phrasing denied
    # ("does not prevent overflow" is no "not overflow"; "no inf" is still "not inf").
    denied: list[tuple[set[int], int]] = []
    # Plain phrasings first, so that what they deny is known when the negative ones read.
    # A mention with a phrasing of degree is about a direction ("sharper", "more
    # peaked"): its other phrasings read "less" before them as the opposite ("less
    # peaked"). Elsewhere "less" may be the claim: "less memory" is memory saved.
    directional = any(_of_degree(a) for a in alternatives)
    for alternative in sorted(alternatives, key=lambda a: a.negative):
        slots = alternative.slots
        lessenable = directional and not alternative.negative and not _of_degree(alternative)
        per_slot = [occurrences(reading, slot) for slot in slots]
        if not all(per_slot):
            continue
        for window in windows(reading, slots, per_slot):
            if len(spans) >= MAX_SPANS:
                break  # enough to show; a long answer's other places change nothing
            negated = _negated(reading, window, keeping=alternative.negative)
            opposite = negated != alternative.negative
            opposite |= lessenable and _lessened(reading, window)
            if not alternative.negative and opposite:
                covered = {i for o in window for i in range(o.first, o.last + 1)}
                denied.append((covered, len(slots)))
            elif alternative.negative and not opposite:
                opposite = any(
                    n > len(slots) and all(o.first in covered for o in window)
                    for covered, n in denied
                )
            elif alternative.negative and hypothetical(
                norms=reading.tokens.norms,
                clauses=reading.clauses,
                hypotheticals=reading.hypotheticals,
                first=min(o.first for o in window),
            ):
                # "cannot see the future" is not contradicted by what the model would
                # see without the mask: such a window says nothing either way.
                continue
            target = negated_spans if opposite else spans
            for o in sorted(window, key=lambda o: o.first):
                target[(reading.tokens.starts[o.first], reading.tokens.ends[o.last])] = None
                if not opposite:
                    typos.update(dict.fromkeys(o.typos))
            clean |= not opposite and not any(o.typos for o in window)
            negative_found |= alternative.negative and not opposite
            positive_negated |= opposite and not alternative.negative
    if spans:
        # Typos count only when no phrasing stands without one ("identdad, tal cual" is
        # found by "tal cual" as written).
        found_typos = () if clean else tuple(typos)
        return Found(
            "found", tuple(sorted(spans))[:MAX_SPANS], found_typos, negative=negative_found
        )
    if negated_spans:
        # negative=True: only a negative phrasing was contradicted ("they are recomputed"
        # for "not recomputed"), a plain statement of the opposite, not a negation read.
        return Found(
            "negated", tuple(sorted(negated_spans))[:MAX_SPANS], negative=not positive_negated
        )
    return Found("missed")


def find_mentions(
    *,
    expected: Sequence,
    reject: Sequence,
    text: str,
    language: str | None,
    prompt: str = "",
) -> tuple[list[Found], list[Found], int]:
    """Each mention's and each reject entry's place in the answer, and how many content
    words (stop words and symbols aside) the answer has. A mention no phrasing of which
    is there may still be found by its words (lexical_field.py); `prompt`, the question's text
    in every language, says which words an answer only repeats."""
    languages = (language,) if language in LANGUAGE_CODES else LANGUAGE_CODES
    key = compile_key(
        expected=as_mentions(expected), reject=as_mentions(reject), languages=languages
    )
    reading = read_answer(key=key, text=text)
    located = [locate(reading, alternatives) for alternatives in key.mentions]
    if any(found.status == "missed" for found in located):
        fields = mention_fields(key, prompt)
        located = [
            (field_found(key, reading, fields[i]) or found) if found.status == "missed" else found
            for i, found in enumerate(located)
        ]
    return (
        located,
        [locate(reading, alternatives) for alternatives in key.rejects],
        reading.content_before[-1],
    )
