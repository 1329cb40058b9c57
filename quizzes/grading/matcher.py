"""Finding a key's mentions in a free-text answer: words, stems, typos, windows, negation."""

from __future__ import annotations

import bisect
from collections.abc import Iterator, Sequence
from dataclasses import dataclass, field
from functools import lru_cache
from itertools import accumulate

from rapidfuzz.distance import OSA

from portal.languages import LANGUAGE_CODES

from .text import Tokens, is_number, is_symbol, stems, tokenize, words
from .vocabulary import Vocabulary, vocabulary_load

PREFIX_MIN = 5  # an author's word this long also finds longer words it begins ("satur")
TYPO_MIN = 5  # words shorter than this never match by edit distance
TYPO_TWO = 8  # from this length, two edits are forgiven; below it, one
GAP = 3  # content words allowed between the words of one mention
NEGATION_REACH = 1  # content words allowed between a negation cue and what it negates
MAX_SPANS = 20  # highlighted places per mention, so a long answer stays cheap to show


@dataclass(frozen=True)
class Slot:
    """One word of a mention: the phrases (tuples of words) that can stand for it."""

    phrases: tuple[tuple[str, ...], ...]
    plain: bool  # an author's own word, not a vocabulary group: prefixes count
    # Binds to its neighbour: a number ("2 sigma over 3 steps" is not 3 sigma) or a word
    # of degree ("more often … less random" is not "more random").
    number: bool = False


@dataclass(frozen=True)
class Alternative:
    """One phrasing of a mention, read: its slots and whether it is phrased negatively
    ("not recomputed", "no lo ve"), in which case its negation cues are left out of the
    slots and it is found where its words stand negated ("don't have to be recomputed")."""

    slots: tuple[Slot, ...]
    negative: bool = False


@dataclass
class CompiledKey:
    """A key read once: each mention/reject as alternatives."""

    mentions: tuple[tuple[Alternative, ...], ...]
    rejects: tuple[tuple[Alternative, ...], ...]
    languages: tuple[str, ...]
    vocabulary: Vocabulary
    stopwords: frozenset[str]
    negations: frozenset[str]
    clause_breaks: frozenset[str]
    known: frozenset[str]  # words the vocabulary knows: never read as typos
    exact: frozenset[str] = frozenset()
    by_stem: dict[str, set[str]] = field(default_factory=dict)
    prefixable: dict[str, list[str]] = field(default_factory=dict)  # by first 5 letters
    typo_targets: dict[int, list[str]] = field(default_factory=dict)  # by length
    cache: dict[str, dict[str, str]] = field(default_factory=dict)


@dataclass(frozen=True)
class Occurrence:
    first: int  # token indices, inclusive
    last: int
    typos: tuple[tuple[str, str], ...] = ()  # (word as written, expected word)


@dataclass(frozen=True)
class Found:
    """Where one mention (or reject entry) stands in an answer."""

    status: str  # "found" | "missed" | "negated"
    spans: tuple[tuple[int, int], ...] = ()
    typos: tuple[tuple[str, str], ...] = ()
    # Found: through a negatively phrased alternative, by a negation in the answer.
    # Negated: only a negatively phrased alternative was contradicted.
    negative: bool = False


def as_mentions(entries: Sequence) -> tuple[tuple[str, ...], ...]:
    """A key's mentions as tuples of alternatives; a plain string is one alternative."""
    return tuple((e,) if isinstance(e, str) else tuple(str(a) for a in e) for e in entries)


def _phrase_at(ws: Sequence[str], i: int, phrase: tuple[str, ...]) -> bool:
    """Whether the vocabulary phrase stands at ws[i:], word for word or stem for stem
    ("desviaciones estándar" is the group's "desviacion estandar")."""
    if len(ws) - i < len(phrase):
        return False
    return all(
        a == b or (not is_number(a) and stems(a, LANGUAGE_CODES) & stems(b, LANGUAGE_CODES))
        for a, b in zip(ws[i : i + len(phrase)], phrase, strict=True)
    )


def _slots(*, text: str, vocabulary: Vocabulary, stopwords: frozenset[str]) -> tuple[Slot, ...]:
    """Read an author's phrase into slots: vocabulary phrases become their whole group,
    numbers become every way of writing them, stop words drop out."""
    ws = words(text)
    keep_stopwords = _keeps_stopwords(ws, stopwords)
    slots: list[Slot] = []
    i = 0
    while i < len(ws):
        best: tuple[int, tuple] | None = None
        for group in vocabulary.groups:
            for phrase in group:
                n = len(phrase)
                if n > (best[0] if best else 0) and _phrase_at(ws, i, phrase):
                    best = (n, group)
        for name, digits in vocabulary.number_words.items():
            phrase = tuple(name.split())
            n = len(phrase)
            if n > (best[0] if best else 0) and tuple(ws[i : i + n]) == phrase:
                names = [k for k, v in vocabulary.number_words.items() if v == digits]
                best = (n, tuple(tuple(k.split()) for k in names), True)
        if best:
            slots.append(Slot(phrases=best[1], plain=False, number=len(best) > 2))
            i += best[0]
            continue
        if ws[i] not in stopwords or keep_stopwords:
            number = is_number(ws[i])
            binds = number or ws[i] in vocabulary.degree_words
            slots.append(Slot(phrases=((ws[i],),), plain=not binds, number=binds))
        i += 1
    return tuple(slots)


def _keeps_stopwords(ws: Sequence[str], stopwords: frozenset[str]) -> bool:
    """A phrase that would shrink to nothing, or to one word out of three or more, once
    its stop words are left out keeps them: "e to the power" must not read as "power",
    nor "a lo sumo" as "sumo"."""
    content = sum(w not in stopwords for w in ws)
    return content == 0 or (content == 1 and len(ws) >= 3)


def read_alternatives(
    *, text: str, vocabulary: Vocabulary, stopwords: frozenset[str], negations: frozenset[str]
) -> list[Alternative]:
    """Read one phrasing. A negation cue among its words makes it a negative alternative,
    unless the cue is all there is or belongs to a vocabulary phrase ("no more than").
    A verb that means "keep from" ("prevents overfitting", "evita que diverja") keeps
    its phrasing and adds the negative reading of the rest ("doesn't overfit")."""
    slots = _slots(text=text, vocabulary=vocabulary, stopwords=stopwords)
    kept = tuple(s for s in slots if not (s.plain and s.phrases[0][0] in negations))
    if kept and len(kept) < len(slots):
        return [Alternative(slots=kept, negative=True)]
    found = [Alternative(slots=slots)]
    rest = tuple(s for s in slots if not vocabulary.prevents(s.phrases))
    if rest and len(rest) < len(slots):
        found.append(Alternative(slots=rest, negative=True))
    return found


@lru_cache(maxsize=512)
def compile_key(
    *,
    expected: tuple[tuple[str, ...], ...],
    reject: tuple[tuple[str, ...], ...],
    languages: tuple[str, ...],
) -> CompiledKey:
    vocabulary = vocabulary_load()
    stopwords = vocabulary.for_languages("stopwords", languages)
    negations = vocabulary.for_languages("negations", LANGUAGE_CODES)

    def read(mentions: tuple[tuple[str, ...], ...]) -> tuple:
        return tuple(
            tuple(
                dict.fromkeys(
                    a
                    for text in alternatives
                    for a in read_alternatives(
                        text=text, vocabulary=vocabulary, stopwords=stopwords, negations=negations
                    )
                    if a.slots
                )
            )
            for alternatives in mentions
        )

    numbers = set(vocabulary.number_words)
    known = {w for group in vocabulary.groups for phrase in group for w in phrase}
    for attribute in ("stopwords", "negations", "clause_breaks"):
        known |= vocabulary.for_languages(attribute, LANGUAGE_CODES)
    key = CompiledKey(
        mentions=read(expected),
        rejects=read(reject),
        languages=languages,
        vocabulary=vocabulary,
        stopwords=stopwords,
        negations=vocabulary.for_languages("negations", languages) | {"not"},
        clause_breaks=vocabulary.for_languages("clause_breaks", languages),
        known=frozenset(known | numbers | set(vocabulary.not_typos)),
    )
    targets: dict[str, bool] = {}  # word → prefixable
    for mention in key.mentions + key.rejects:
        for alternative in mention:
            for slot in alternative.slots:
                for phrase in slot.phrases:
                    for word in phrase:
                        targets[word] = targets.get(word, False) or slot.plain
    key.exact = frozenset(targets)
    for word, plain in targets.items():
        if is_number(word) or word in numbers:
            continue  # numbers match only as written: "2" is never "3"
        for stem in stems(word, languages):
            key.by_stem.setdefault(stem, set()).add(word)
        if plain and len(word) >= PREFIX_MIN:
            key.prefixable.setdefault(word[:PREFIX_MIN], []).append(word)
        if len(word) >= TYPO_MIN and word.isalpha():
            key.typo_targets.setdefault(len(word), []).append(word)
    return key


# Prefixes that turn a word into its opposite: a typo never bridges one, so "instability"
# is not a misspelt "stability", nor "inestabilidad" a misspelt "estabilidad".
NEGATING_PREFIXES = ("in", "im", "il", "ir", "un", "dis", "non", "des", "de", "a", "anti")


def _opposites(key: CompiledKey, word: str, target: str) -> bool:
    """Whether `word` reads as the opposite of `target`: one is the other with a negating
    prefix (give or take the typo), or the vocabulary lists the pair as opposites."""
    for a, b in ((word, target), (target, word)):
        for prefix in NEGATING_PREFIXES:
            if a.startswith(prefix) and not b.startswith(prefix):
                rest = a[len(prefix) :]
                if OSA.distance(rest, b) < OSA.distance(a, b):
                    return True
    return key.vocabulary.opposed(word, target, key.languages)


def _typo_bound(a: str, b: str) -> int:
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
        if not found and word not in key.known and len(word) >= TYPO_MIN and word.isalpha():
            for length in range(len(word) - 2, len(word) + 3):
                for target in key.typo_targets.get(length, ()):
                    bound = _typo_bound(word, target)
                    if (
                        bound
                        and OSA.distance(word, target, score_cutoff=bound) <= bound
                        and not _opposites(key, word, target)
                    ):
                        found.setdefault(target, "typo")
    if len(key.cache) > 50_000:  # a bound, so one key cannot hold on to every word ever seen
        key.cache.clear()
    key.cache[word] = found
    return found


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


def read_answer(*, key: CompiledKey, text: str) -> Reading:
    tokens = tokenize(text)
    norms = tokens.norms
    # Each distinct word is looked up once; the rest is list comprehensions over tokens,
    # which keeps a 10,000-character answer in a few milliseconds.
    table = {word: word_matches(key, word) for word in set(norms)}
    matches = [table[word] for word in norms]
    clauses = tokens.clauses
    if key.clause_breaks.intersection(table):
        shift = list(accumulate(word in key.clause_breaks for word in norms))
        clauses = [c + d for c, d in zip(clauses, shift, strict=True)]
    # Stop words and symbols do not count as words between others: "z > 3" is "z 3".
    content_before = list(
        accumulate((w not in key.stopwords and not is_symbol(w) for w in norms), initial=0)
    )
    at: dict[str, list[int]] = {}
    for target in {t for found in table.values() for t in found}:
        at[target] = [i for i, found in enumerate(matches) if target in found]
    cues = [i for i, word in enumerate(norms) if word in key.negations]
    fixed: dict[int, set[tuple[str, ...]]] = {}
    starts = key.vocabulary.fixed_by_first
    for i in [i for i, word in enumerate(norms) if word in starts]:
        for phrase in starts[norms[i]]:
            if tuple(norms[i : i + len(phrase)]) == phrase:
                for j in range(i, i + len(phrase)):
                    fixed.setdefault(j, set()).add(phrase)
    return Reading(text, tokens, clauses, content_before, matches, cues, at, fixed)


def occurrences(reading: Reading, slot: Slot) -> list[Occurrence]:
    """Every place in the answer where the slot's words stand, in reading order."""
    found: dict[int, Occurrence] = {}
    tokens, clauses, matches = reading.tokens, reading.clauses, reading.matches
    for phrase in slot.phrases:
        for first in reading.at.get(phrase[0], ()):
            if (
                len(phrase) == 1
                and first in reading.fixed
                and not reading.fixed[first].intersection(slot.phrases)
            ):
                continue  # "square" of "square root" is not "square"
            last = first
            for word in phrase[1:]:
                nxt = last + 1
                if nxt >= len(matches) or clauses[nxt] != clauses[first]:
                    break
                if word not in matches[nxt]:
                    break
                last = nxt
            else:
                if first not in found or found[first].last < last:
                    typos = tuple(
                        (reading.text[tokens.starts[i] : tokens.ends[i]], word)
                        for i, word in zip(range(first, last + 1), phrase, strict=True)
                        if matches[i].get(word) == "typo"
                    )
                    found[first] = Occurrence(first, last, typos)
    word = slot.phrases[0][0]
    if slot.plain and len(word) >= TYPO_TWO:  # "zebra word" for "zebraword"
        norms = tokens.norms
        for i in range(len(norms) - 1):
            a = norms[i]
            if len(a) < 3 or not word.startswith(a) or clauses[i] != clauses[i + 1]:
                continue
            joined = a + norms[i + 1]
            bound = _typo_bound(joined, word)
            if joined == word or OSA.distance(joined, word, score_cutoff=bound) <= bound:
                typo = () if joined == word else ((f"{a} {norms[i + 1]}", word),)
                found.setdefault(i, Occurrence(i, i + 1, typo))
    return [found[i] for i in sorted(found)]


def _negated(reading: Reading, window: Sequence[Occurrence]) -> bool:
    first = min(o.first for o in window)
    last = max(o.last for o in window)
    clause = reading.clauses[first]
    # Only the cues of this clause up to the window's end can negate it: walk back.
    n = bisect.bisect_right(reading.cues, last)
    while n > 0:
        n -= 1
        cue = reading.cues[n]
        if reading.clauses[cue] != clause:
            return False
        if any(o.first <= cue <= o.last for o in window):
            continue  # a cue that is part of the mention itself
        between = reading.content_before[first] - reading.content_before[cue + 1]
        return cue > first or between <= NEGATION_REACH
    return False


def _bound_numbers(reading: Reading, slots: Sequence[Slot], window: list[Occurrence]) -> bool:
    """A number stands right next to the word it counts (stop words aside), on
    either side: "3σ", "z > 3", "three standard deviations"; so does a word of degree
    ("less random", "menos aleatorio")."""
    for k, slot in enumerate(slots):
        if slot.number and len(slots) > 1:
            a, b = window[k], window[k + 1 if k + 1 < len(slots) else k - 1]
            left, right = (a, b) if a.first < b.first else (b, a)
            gap = reading.content_before[right.first] - reading.content_before[left.last + 1]
            if gap > 0:
                return False
    return True


def _windows(
    reading: Reading, slots: Sequence[Slot], per_slot: list[list[Occurrence]]
) -> Iterator[list[Occurrence]]:
    """Each placement of all the slots in one clause, in any order, close together;
    found from every occurrence taken as the leftmost."""
    if len(per_slot) == 1:
        yield from ([o] for o in per_slot[0])
        return
    starts = [[o.first for o in occs] for occs in per_slot]
    for j, anchors in enumerate(per_slot):
        for anchor in anchors:
            window = [anchor] * len(per_slot)  # in slot order
            for k, occs in enumerate(per_slot):
                if k == j:
                    continue
                n = bisect.bisect_right(starts[k], anchor.last)
                if n == len(occs):
                    break
                window[k] = occs[n]
            else:
                last = max(o.last for o in window)
                clause = reading.clauses[anchor.first]
                if reading.clauses[last] != clause:
                    continue
                width = reading.content_before[last + 1] - reading.content_before[anchor.first]
                needed = sum(
                    reading.content_before[o.last + 1] - reading.content_before[o.first]
                    for o in window
                )
                if width <= needed + GAP and _bound_numbers(reading, slots, window):
                    yield window


def locate(reading: Reading, alternatives: tuple[Alternative, ...]) -> Found:
    """Whether one mention is in the answer, negated, or not there; where; which typos.
    A negative alternative is found where its words stand negated, and reads as the
    opposite ("negated") where they stand unnegated."""
    spans: dict[tuple[int, int], None] = {}
    negated_spans: dict[tuple[int, int], None] = {}
    typos: dict[tuple[str, str], None] = {}
    negative_found = positive_negated = False
    for alternative in alternatives:
        slots = alternative.slots
        per_slot = [occurrences(reading, slot) for slot in slots]
        if not all(per_slot):
            continue
        for window in _windows(reading, slots, per_slot):
            if len(spans) >= MAX_SPANS:
                break  # enough to show; a long answer's other places change nothing
            opposite = _negated(reading, window) != alternative.negative
            target = negated_spans if opposite else spans
            for o in sorted(window, key=lambda o: o.first):
                target[(reading.tokens.starts[o.first], reading.tokens.ends[o.last])] = None
                if not opposite:
                    typos.update(dict.fromkeys(o.typos))
            negative_found |= alternative.negative and not opposite
            positive_negated |= opposite and not alternative.negative
    if spans:
        return Found(
            "found", tuple(sorted(spans))[:MAX_SPANS], tuple(typos), negative=negative_found
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
) -> tuple[list[Found], list[Found], int]:
    """Each mention's and each reject entry's place in the answer, and how many content
    words (stop words and symbols aside) the answer has."""
    languages = (language,) if language in LANGUAGE_CODES else LANGUAGE_CODES
    key = compile_key(
        expected=as_mentions(expected), reject=as_mentions(reject), languages=languages
    )
    reading = read_answer(key=key, text=text)
    return (
        [locate(reading, alternatives) for alternatives in key.mentions],
        [locate(reading, alternatives) for alternatives in key.rejects],
        reading.content_before[-1],
    )
