"""A key as the matcher reads it, for authors: each phrasing's words, stems and vocabulary
groups, and warnings about phrasings that will not hold (`import_quizzes --explain`)."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from portal.languages import LANGUAGE_CODES

from .matcher import Alternative, Slot, as_mentions, read_alternatives
from .text import stems, words
from .vocabulary import vocabulary_load

# How many of a vocabulary group's phrasings an explanation names before "…".
GROUP_SHOWN = 6


@dataclass(frozen=True)
class PhrasingExplained:
    text: str  # as the author wrote it
    readings: tuple[str, ...]  # one line per reading ("negative: …" for a negative one)
    warnings: tuple[str, ...]


@dataclass(frozen=True)
class MentionExplained:
    kind: str  # "expected" | "reject"
    index: int  # 1-based, as authors count
    phrasings: tuple[PhrasingExplained, ...]
    warnings: tuple[str, ...]  # about the mention as a whole


def _slot_text(slot: Slot) -> str:
    if slot.number and len(slot.phrases) == 1:  # a word of degree or a number: it binds
        return f"{slot.phrases[0][0]} (next to its word)"
    if slot.plain:
        word = slot.phrases[0][0]
        forms = sorted({stem.split(":", 1)[1] for stem in stems(word, LANGUAGE_CODES)} - {word})
        return f"{word} (~{', '.join(forms)})" if forms else word
    phrases = [" ".join(phrase) for phrase in slot.phrases]
    shown = " / ".join(phrases[:GROUP_SHOWN]) + (" / …" if len(phrases) > GROUP_SHOWN else "")
    return f"[{shown}]"


def _reading(alternative: Alternative) -> str:
    slots = " + ".join(_slot_text(slot) for slot in alternative.slots)
    return f"negative: not {slots}" if alternative.negative else slots


def _phrasing(text: str, alternatives: list[Alternative]) -> PhrasingExplained:
    vocabulary = vocabulary_load()
    stopwords = vocabulary.for_languages("stopwords", LANGUAGE_CODES)
    ws = words(text)
    warnings = []
    read = [a for a in alternatives if a.slots]
    if not read:
        warnings.append("reads as nothing: every word is a stop word or a negation")
    elif all(w in stopwords for w in ws):
        listed = ", ".join(f"'{w}'" for w in dict.fromkeys(ws))
        warnings.append(f"only stop words ({listed}): found in almost any answer")
    elif len(ws) == 1 and len(ws[0]) == 1:
        warnings.append(f"one letter: '{ws[0]}' is found wherever that letter stands alone")
    else:
        slots = read[0].slots
        covered = sum(len(s.phrases[0]) if s.plain else 1 for s in slots)
        # Only stop words are left out: a negation cue is read ("sin cambios" is "not
        # cambios", as the key-change page proposes it), and a warning naming no word
        # left out, "stop words ()", was wrong (instructor walk 32).
        dropped = [w for w in ws if w in stopwords]
        if len(slots) == 1 and slots[0].plain and dropped and covered < len(ws):
            # With what it does and what to do (author walk 4: 'no se usa', one word
            # that any answer using "usa" contradicts).
            found = (
                "any answer that denies that word finds it, and one that says it reads as"
                " the opposite"
                if read[0].negative
                else "any answer with that word finds it"
            )
            warnings.append(
                f"shrinks to one word, '{slots[0].phrases[0][0]}', once the stop words"
                f" ({', '.join(dropped)}) are left out: {found}; add a word that names the"
                " claim"
            )
    for alternative in read:
        for slot in alternative.slots:
            if slot.plain:
                continue
            group = {" ".join(p) for p in slot.phrases}
            written = {" ".join(ws[i : i + n]) for n in (1, 2, 3) for i in range(len(ws))}
            general = sorted(group & vocabulary.general_words)
            # Widening is news only when the author's own words were specific, in any of
            # their forms ("grandes" is "grande": author walk 4).
            own = set().union(*(stems(w, LANGUAGE_CODES) for w in ws))
            said = {g for g in general if " " not in g and stems(g, LANGUAGE_CODES) & own}
            if general and not (group & written & vocabulary.general_words or said):
                warnings.append(
                    f"the vocabulary widens it to general words: {', '.join(general)} (an"
                    " answer saying those finds it too: try one in examples:)"
                )
    return PhrasingExplained(
        text=text,
        readings=tuple(dict.fromkeys(_reading(a) for a in read)),  # alike as shown: once
        warnings=tuple(dict.fromkeys(warnings)),
    )


def _listed(texts: list[str]) -> str:
    return ", ".join(f"'{text}'" for text in texts)


def key_explain(
    *, expected: Sequence[Sequence[str] | str], reject: Sequence[Sequence[str] | str] = ()
) -> list[MentionExplained]:
    """Every mention and reject entry of a key as the matcher reads it, with warnings."""
    vocabulary = vocabulary_load()
    stopwords = vocabulary.for_languages("stopwords", LANGUAGE_CODES)
    negations = vocabulary.for_languages("negations", LANGUAGE_CODES) | {"not"}
    explained = []
    for kind, entries in (("expected", expected), ("reject", reject)):
        for index, texts in enumerate(as_mentions(entries), start=1):
            phrasings = []
            negative, positive = [], []
            for text in texts:
                alternatives = read_alternatives(
                    text=text, vocabulary=vocabulary, stopwords=stopwords, negations=negations
                )
                phrasings.append(_phrasing(text, alternatives))
                if any(a.negative for a in alternatives[:1]):
                    negative.append(text)
                if any(not a.negative for a in alternatives[:1]):
                    positive.append(text)
            warnings = []
            if negative and positive and kind == "expected":
                # Named, with what to do (author walk 4: a mention of five phrasings).
                warnings.append(
                    f"negative and positive phrasings side by side ({_listed(negative)} beside"
                    f" {_listed(positive)}): a positive one is found in the answers that say"
                    " the opposite; if it says the opposite of the negative ones, take it out"
                    " (or move it to reject:)"
                )
            elif negative:
                warnings.append("phrased negatively: found only where the answer negates its words")
            explained.append(
                MentionExplained(
                    kind=kind, index=index, phrasings=tuple(phrasings), warnings=tuple(warnings)
                )
            )
    return explained
