"""A key read once for the matcher: its mentions as slots and alternatives, and the
tables answer_words.py reads to say what an answer word stands for against it."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from functools import lru_cache
from typing import NamedTuple

from portal.languages import LANGUAGE_CODES

from .text import is_number, stems, words
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


# eq=False: a compiled key is known by identity (compile_key keeps one per key), so what
# is worked out from it can be cached by it.
@dataclass(eq=False)
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
    # The words a typo may stand for, by the length of the answer word: those at most two
    # letters longer or shorter, in the order of their lengths.
    typo_near: dict[int, tuple[str, ...]] = field(default_factory=dict)
    # Each of those words' opposites in the vocabulary (words and stems).
    opposed: dict[str, frozenset[str]] = field(default_factory=dict)
    cache: dict[str, dict[str, str]] = field(default_factory=dict)


# A named tuple, not a dataclass: an answer may hold a few hundred thousand of them (every
# word a typo of every word of a hostile key), and a tuple is made several times faster.
class Occurrence(NamedTuple):
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
    # Found by its words, not by a phrasing of it (lexical_field.py): a provisional verdict.
    field: bool = False


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


def _slots(
    *, text: str, vocabulary: Vocabulary, stopwords: frozenset[str], whole: bool = True
) -> tuple[Slot, ...]:
    """Read an author's phrase into slots: vocabulary phrases become their whole group,
    numbers become every way of writing them, stop words drop out. Without `whole`,
    only the vocabulary's one-word phrases are read as groups."""
    ws = words(text)
    keep_stopwords = _keeps_stopwords(ws, stopwords)
    slots: list[Slot] = []
    i = 0
    while i < len(ws):
        best: tuple[int, tuple] | None = None
        # Only the phrases whose first word is this word, or shares a stem with it: the
        # vocabulary indexes them, in the order of the file (the first longest wins).
        starts = vocabulary.group_starts
        forms = (ws[i], *stems(ws[i], LANGUAGE_CODES)) if not is_number(ws[i]) else (ws[i],)
        for g, phrase in sorted({c for form in forms for c in starts.get(form, ())}):
            n = len(phrase)
            if n > (best[0] if best else 0) and (whole or n == 1) and _phrase_at(ws, i, phrase):
                best = (n, vocabulary.groups[g])
        for name, digits in vocabulary.number_words.items():
            phrase = tuple(name.split())
            n = len(phrase)
            if n > (best[0] if best else 0) and tuple(ws[i : i + n]) == phrase:
                names = [k for k, v in vocabulary.number_words.items() if v == digits]
                best = (n, tuple(tuple(k.split()) for k in names), True)
        if best:
            phrases = best[1] if len(best) > 2 else _nested(best[1], vocabulary)
            # The author's own words stay one of the slot's phrases: a group met by stem
            # ("probable" meets "probability" in English) must not lose them for an
            # answer read in the other language only.
            own = tuple(ws[i : i + best[0]])
            if own not in phrases:
                phrases = (*phrases, own)
            slots.append(Slot(phrases=phrases, plain=False, number=len(best) > 2))
            i += best[0]
            continue
        if ws[i] not in stopwords or keep_stopwords:
            number = is_number(ws[i])
            binds = number or ws[i] in vocabulary.degree_words
            slots.append(Slot(phrases=((ws[i],),), plain=not binds, number=binds))
        i += 1
    return tuple(slots)


NESTED_MAX = 12  # variants of one phrase through its words' synonyms


@lru_cache(maxsize=4096)
def _synonyms(word: str, vocabulary: Vocabulary) -> tuple[str, ...]:
    """The one-word phrases of every group where `word` is a one-word phrase."""
    return tuple(
        dict.fromkeys(
            other[0]
            for group in vocabulary.groups
            if (word,) in group
            for other in group
            if len(other) == 1 and other[0] != word
        )
    )


@lru_cache(maxsize=4096)
def _nested(
    group: tuple[tuple[str, ...], ...], vocabulary: Vocabulary
) -> tuple[tuple[str, ...], ...]:
    """A group's phrases, and each of its phrases of several words with one word swapped
    for a synonym from another group: "same probability" also reads "same prob"."""
    variants = list(group)
    for phrase in group:
        if len(phrase) < 2:
            continue
        added = 0
        for i, word in enumerate(phrase):
            for synonym in _synonyms(word, vocabulary):
                if added < NESTED_MAX:
                    variants.append((*phrase[:i], synonym, *phrase[i + 1 :]))
                    added += 1
    return tuple(dict.fromkeys(variants))


def _keeps_stopwords(ws: Sequence[str], stopwords: frozenset[str]) -> bool:
    """A phrase that would shrink to nothing, or to one word out of three or more, once
    its stop words are left out keeps them: "e to the power" must not read as "power",
    nor "a lo sumo" as "sumo"."""
    content = sum(w not in stopwords for w in ws)
    return content == 0 or (content == 1 and len(ws) >= 3)


@lru_cache(maxsize=8192)  # pure: the key's compiling and the importer's explaining share it
def read_alternatives(
    *, text: str, vocabulary: Vocabulary, stopwords: frozenset[str], negations: frozenset[str]
) -> tuple[Alternative, ...]:
    """Read one phrasing. A negation cue among its words makes it a negative alternative,
    unless the cue is all there is or belongs to a vocabulary phrase ("no more than").
    A verb that means "keep from" ("prevents overfitting", "evita que diverja") keeps
    its phrasing and adds the negative reading of the rest ("doesn't overfit")."""
    slots = _slots(text=text, vocabulary=vocabulary, stopwords=stopwords)
    kept = tuple(s for s in slots if not (s.plain and s.phrases[0][0] in negations))
    if kept and len(kept) < len(slots):
        return (Alternative(slots=kept, negative=True),)
    if len(slots) > 1 and any(_reduces(s) for s in slots):
        # To reduce is to have less: "reduces overfitting" finds "less overfitting",
        # "sobreajusta menos".
        fewer = tuple(s for s in slots if not _reduces(s))
        return (Alternative(slots=slots), Alternative(slots=(LESS, *fewer)))
    rest = tuple(s for s in slots if not vocabulary.prevents(s.phrases))
    # Only where the author wrote a verb of keeping from: "stop", its synonym, also
    # halts ("stop training" is neither "not training" nor "train less").
    if (
        rest
        and len(rest) < len(slots)
        and any(stems(w, LANGUAGE_CODES) & vocabulary.preventing for w in words(text))
    ):
        alternatives = (Alternative(slots=slots), Alternative(slots=rest, negative=True))
        # To keep from is also to lessen: "prevents overfitting" finds "reduces
        # overfitting", "less overfitting", "sobreajusta menos".
        reduce = _slots(text="reduce", vocabulary=vocabulary, stopwords=stopwords)
        return (
            *alternatives,
            Alternative(slots=(*reduce, *rest)),
            Alternative(slots=(LESS, *rest)),
        )
    # A vocabulary phrase of several words stands word for word; the author's own words
    # for it are also read one by one, as any phrasing's words are (any order, a few
    # words apart), so the vocabulary never makes a phrasing stricter than it was
    # written: "weighted sum of values" finds "sum of values weighted by attention",
    # "suma de los valores ponderada".
    if any(len(s.phrases[-1]) > 1 and not s.number for s in slots):
        split = _slots(text=text, vocabulary=vocabulary, stopwords=stopwords, whole=False)
        if len(split) > 1 and not any(s.plain and s.phrases[0][0] in negations for s in split):
            return (Alternative(slots=slots), Alternative(slots=split))
    return (Alternative(slots=slots),)


def _reduces(slot: Slot) -> bool:
    """Whether a slot is the vocabulary's group of "reduce" (decrease, lower, reducir…)."""
    return ("reduce",) in slot.phrases


# The words of "less" as a slot that binds to its neighbour, like a word of degree.
LESS = Slot(phrases=(("less",), ("fewer",), ("menos",)), plain=False, number=True)


def _kept_from(
    read: tuple[Alternative, ...], texts: tuple[str, ...], vocabulary: Vocabulary
) -> tuple[Alternative, ...]:
    """A mention that names something kept from ("prevent overflow") and also the thing
    itself ("overflow", "inf") is about keeping it away: where one of its plain phrasings
    stands negated ("no overflow", "no hay infinitos"), the answer says it is kept away,
    so each such phrasing also reads negatively. Phrasings with a verb of keeping from,
    of reducing or "less" have their own readings and get none. Only where the author
    wrote a verb of keeping from: "stop training" is about halting, and "no early
    stopping" says the opposite of its "early stopping"."""

    def plain(alternative: Alternative) -> bool:
        return not alternative.negative and not any(
            vocabulary.prevents(s.phrases) or _reduces(s) or s is LESS for s in alternative.slots
        )

    preventing = any(
        stems(w, LANGUAGE_CODES) & vocabulary.preventing for text in texts for w in words(text)
    )
    if not preventing:
        return ()
    known = set(read)
    twins = (Alternative(slots=a.slots, negative=True) for a in read if plain(a))
    return tuple(t for t in twins if t not in known)


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

    def read_mention(alternatives: tuple[str, ...]) -> tuple[Alternative, ...]:
        per_text = {
            text: read_alternatives(
                text=text, vocabulary=vocabulary, stopwords=stopwords, negations=negations
            )
            for text in alternatives
        }
        read = dict.fromkeys(a for found in per_text.values() for a in found if a.slots)
        # The verb of a negative phrasing keeps nothing away: "does not prevent overflow".
        affirmed = tuple(t for t, found in per_text.items() if any(not a.negative for a in found))
        return tuple(read) + _kept_from(tuple(read), affirmed, vocabulary)

    def read(mentions: tuple[tuple[str, ...], ...]) -> tuple:
        return tuple(read_mention(alternatives) for alternatives in mentions)

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
    by_length: dict[int, list[str]] = {}
    for word, plain in targets.items():
        if is_number(word) or word in numbers:
            continue  # numbers match only as written: "2" is never "3"
        for stem in stems(word, languages):
            key.by_stem.setdefault(stem, set()).add(word)
        if plain and len(word) >= PREFIX_MIN:
            key.prefixable.setdefault(word[:PREFIX_MIN], []).append(word)
        if len(word) >= TYPO_MIN and word.isalpha():
            by_length.setdefault(len(word), []).append(word)
            key.opposed[word] = vocabulary.opposites_of(word, languages)
    for length in range(TYPO_MIN, max(by_length, default=0) + 3):
        near = [t for n in range(length - 2, length + 3) for t in by_length.get(n, ())]
        if near:
            key.typo_near[length] = tuple(near)
    return key
