"""The shared grading vocabulary (data/grading/vocabulary.yaml), read once."""

from __future__ import annotations

from dataclasses import dataclass, field
from functools import lru_cache
from pathlib import Path

import yaml

from portal.languages import LANGUAGE_CODES
from quizzes.documents import quoted, shortened

from .text import stems, words


def _forms(word: str, languages: tuple[str, ...]) -> frozenset[str]:
    return stems(word, languages) | {word}


VOCABULARY_FILE = Path(__file__).resolve().parents[2] / "data" / "grading" / "vocabulary.yaml"
# The vocabulary is read with every answer, so its size bounds what grading costs: these
# are some five times today's file (20 KB, 185 groups of at most 19 phrases of at most 26
# characters, 23 opposites, no other list over 72 entries).
MAX_FILE_BYTES = 100 * 1024
MAX_ENTRIES = 1_000  # groups of equivalents, or entries of any other list
# Lists read entry by entry, not looked up: not_typos and postposed negations for each
# word or negation cue of an answer, opposites for each word of a key as it is compiled
# (docs/performance.md, "The grader").
MAX_READ_ONE_BY_ONE = 100
READ_ONE_BY_ONE = ("opposites", "not_typos", "postposed_negations")
MAX_GROUP_PHRASES = 100
MAX_PHRASE_CHARS = 100


# eq=False: a vocabulary is known by identity, so pure functions of one can be cached.
@dataclass(frozen=True, eq=False)
class Vocabulary:
    # Each group: the phrases (tuples of normalised words) that mean the same thing.
    groups: tuple[tuple[tuple[str, ...], ...], ...]
    number_words: dict[str, str]  # "three" → "3", "tres" → "3", "3" → "3"
    clause_breaks: dict[str, frozenset[str]]  # per language
    negations: dict[str, frozenset[str]]
    stopwords: dict[str, frozenset[str]]
    not_typos: tuple[str, ...]
    # Verbs meaning "keep from" ("prevent", "evitar"), as stems: a mention with one also
    # reads negatively ("prevents overfitting" finds "doesn't overfit").
    preventing: frozenset[str] = frozenset()
    # Each group phrase by its first word and that word's stems: (group index, phrase),
    # so reading a key looks at the few phrases that can start at a word, not all.
    group_starts: dict[str, tuple[tuple[int, tuple[str, ...]], ...]] = field(default_factory=dict)
    # Expressions of several words whose words never stand alone ("square root", "in
    # order to"), by their first word: every group's multi-word phrase, and `fixed`.
    fixed_by_first: dict[str, tuple[tuple[str, ...], ...]] = field(default_factory=dict)
    # General words ("big", "grande"): a vocabulary group that puts one beside an
    # author's specific word is reported by `import_quizzes --explain`.
    general_words: frozenset[str] = frozenset()
    # Words of degree ("more", "menos"): in a mention they bind to their neighbour.
    degree_words: frozenset[str] = frozenset()
    # Words of comparison ("above", "mayor"): with the words of degree, they may stand
    # between a word and the number after it ("z-score above 3" is "z > 3").
    comparing: frozenset[str] = frozenset()
    # Pairs of words that mean opposite things, as sets of their stems per language:
    # never bridged by a typo.
    opposites: tuple[tuple[str, str], ...] = ()
    # Negations that deny what stands before them ("poorly", "nada que ver"), as phrases.
    postposed_negations: tuple[tuple[str, ...], ...] = ()
    # Cues that before a pronoun negate only the pronoun ("without it"), and the pronouns.
    pronoun_negations: frozenset[str] = frozenset()
    pronouns: frozenset[str] = frozenset()
    # Particles of phrasal verbs, which may stand after the verb's object ("blow it up").
    particles: frozenset[str] = frozenset()
    # Words that open a clause about what would happen ("if", "without", "si", "sin").
    hypotheticals: frozenset[str] = frozenset()
    # Expressions that start with a negation cue and deny nothing ("not only", "sin
    # duda", "sin embargo"), by their first word.
    not_negations: dict[str, tuple[tuple[str, ...], ...]] = field(default_factory=dict)

    def for_languages(self, attribute: str, languages: tuple[str, ...]) -> frozenset[str]:
        table = getattr(self, attribute)
        return frozenset().union(*(table[lang] for lang in languages))

    def opposites_of(self, word: str, languages: tuple[str, ...]) -> frozenset[str]:
        """The words and stems the vocabulary lists as opposite to `word` (or to a word of
        its stems): a word of the answer is its opposite when its forms meet these."""
        forms = _forms(word, languages)
        found: set[str] = set()
        for a, b in self.opposites:
            forms_a, forms_b = _forms(a, languages), _forms(b, languages)
            if forms & forms_a:
                found |= forms_b
            if forms & forms_b:
                found |= forms_a
        return frozenset(found)

    def prevents(self, phrases: tuple[tuple[str, ...], ...]) -> bool:
        """Whether a slot (its phrases) is a verb meaning "keep from"."""
        return any(
            len(phrase) == 1 and stems(phrase[0], LANGUAGE_CODES) & self.preventing
            for phrase in phrases
        )

    def protected(self, word: str) -> bool:
        """A real word near a key word: never a typo, never matched by its stem."""
        return word.startswith(self.not_typos)


def _text(entry: object) -> str:
    # YAML reads a bare `no` or `on` as a boolean: refuse it rather than match "false".
    if not isinstance(entry, str | int) or isinstance(entry, bool):
        raise ValueError(f"grading vocabulary: {quoted(entry)} is not a word; put it in quotes")
    text = str(entry)
    if len(text) > MAX_PHRASE_CHARS:
        raise ValueError(
            f"grading vocabulary: a phrase has at most {MAX_PHRASE_CHARS} characters, "
            f"not {quoted(text)}"
        )
    return text


def _limits_check(raw: dict) -> None:
    """Refuse a vocabulary with a list or a group over the limits, naming it."""
    for section, value in raw.items():
        limit = MAX_READ_ONE_BY_ONE if section in READ_ONE_BY_ONE else MAX_ENTRIES
        lists = {section: value}
        if isinstance(value, dict):  # per language, or the names of each number
            lists |= {f"{section}: {key}": entries for key, entries in value.items()}
        for name, entries in lists.items():
            if isinstance(entries, list | dict) and len(entries) > limit:
                raise ValueError(
                    f"grading vocabulary: '{shortened(str(name))}' has at most {limit:,} "
                    f"entries, not {len(entries):,}"
                )
    for n, group in enumerate(raw.get("equivalents") or (), start=1):
        if isinstance(group, list) and len(group) > MAX_GROUP_PHRASES:
            raise ValueError(
                f"grading vocabulary: group {n} of 'equivalents' has at most "
                f"{MAX_GROUP_PHRASES} phrases, not {len(group)}"
            )


def _per_language(raw: dict | None) -> dict[str, frozenset[str]]:
    raw = raw or {}
    return {
        lang: frozenset(w for entry in raw.get(lang, ()) for w in words(_text(entry)))
        for lang in LANGUAGE_CODES
    }


def _every_language(raw: dict | None) -> frozenset[str]:
    return frozenset().union(*_per_language(raw).values())


def vocabulary_parse(*, raw: dict) -> Vocabulary:
    """Turn the YAML mapping into a Vocabulary; every phrase is read like an answer."""
    _limits_check(raw)
    groups = []
    for group in raw.get("equivalents") or ():
        phrases = tuple(dict.fromkeys(tuple(words(_text(phrase))) for phrase in group))
        groups.append(tuple(phrase for phrase in phrases if phrase))
    # A fixed expression is also a group of its own, so a key reads it as one slot.
    for entry in raw.get("fixed") or ():
        groups.append((tuple(words(_text(entry))),))
    group_starts: dict[str, list[tuple[int, tuple[str, ...]]]] = {}
    for g, group in enumerate(groups):
        for phrase in group:
            first = phrase[0]
            forms = {first} if first[:1].isdigit() else {first} | stems(first, LANGUAGE_CODES)
            for form in forms:
                group_starts.setdefault(form, []).append((g, phrase))
    fixed_by_first: dict[str, list[tuple[str, ...]]] = {}
    for phrase in dict.fromkeys(p for group in groups for p in group if len(p) > 1):
        fixed_by_first.setdefault(phrase[0], []).append(phrase)
    number_words = {}
    for number, names in (raw.get("numbers") or {}).items():
        digits = str(number)
        number_words[digits] = digits
        for name in names:
            number_words[" ".join(words(_text(name)))] = digits
    return Vocabulary(
        groups=tuple(groups),
        number_words=number_words,
        clause_breaks=_per_language(raw.get("clause_breaks")),
        negations=_per_language(raw.get("negations")),
        stopwords=_per_language(raw.get("stopwords")),
        not_typos=tuple(" ".join(words(_text(w))) for w in raw.get("not_typos") or ()),
        preventing=frozenset(
            stem
            for entry in (raw.get("preventing") or ())
            for word in words(_text(entry))
            for stem in stems(word, LANGUAGE_CODES)
        ),
        group_starts={form: tuple(found) for form, found in group_starts.items()},
        fixed_by_first={first: tuple(ps) for first, ps in fixed_by_first.items()},
        general_words=frozenset(" ".join(words(_text(w))) for w in raw.get("general") or ()),
        degree_words=_every_language(raw.get("degree_words")),
        comparing=_every_language(raw.get("degree_words"))
        | _every_language(raw.get("comparison_words")),
        opposites=tuple(
            (" ".join(words(_text(a))), " ".join(words(_text(b))))
            for a, b in (raw.get("opposites") or ())
        ),
        postposed_negations=tuple(
            dict.fromkeys(
                tuple(words(_text(entry)))
                for entries in (raw.get("postposed_negations") or {}).values()
                for entry in entries
            )
        ),
        pronoun_negations=_every_language(raw.get("pronoun_negations")),
        pronouns=_every_language(raw.get("pronouns")),
        particles=frozenset(w for entry in raw.get("particles") or () for w in words(_text(entry))),
        hypotheticals=_every_language(raw.get("hypotheticals")),
        not_negations=_by_first(
            tuple(words(_text(entry)))
            for entries in (raw.get("not_negations") or {}).values()
            for entry in entries
        ),
    )


def _by_first(phrases) -> dict[str, tuple[tuple[str, ...], ...]]:
    table: dict[str, list[tuple[str, ...]]] = {}
    for phrase in dict.fromkeys(p for p in phrases if p):
        table.setdefault(phrase[0], []).append(phrase)
    return {first: tuple(found) for first, found in table.items()}


@lru_cache(maxsize=1)
def vocabulary_load(path: Path = VOCABULARY_FILE) -> Vocabulary:
    size = path.stat().st_size
    if size > MAX_FILE_BYTES:
        raise ValueError(
            f"grading vocabulary: {path.name} is {size:,} bytes; the limit is "
            f"{MAX_FILE_BYTES // 1024} KiB"
        )
    return vocabulary_parse(raw=yaml.safe_load(path.read_text(encoding="utf-8")) or {})
