"""Reading free text: normalisation, words with their offsets in the original, stems."""

from __future__ import annotations

import re
import unicodedata
from bisect import bisect_right
from dataclasses import dataclass
from functools import lru_cache

import Stemmer
from simplemma import Lemmatizer
from simplemma.strategies import DefaultStrategy
from simplemma.strategies.dictionaries import TrieDictionaryFactory

from portal.languages import LANGUAGE_CODES

_STEMMERS = {"en": Stemmer.Stemmer("english"), "es": Stemmer.Stemmer("spanish")}
# simplemma's dictionaries as MARISA tries, kept on disk in the user's cache folder
# (platformdirs; $XDG_CACHE_HOME/simplemma): the first process builds them once (~1.5 s),
# every later one maps them in milliseconds instead of decoding ~0.8 s of dictionaries,
# and each server process holds tries, not dicts. The lemmas are the same.
_DICTIONARIES = TrieDictionaryFactory()
_LEMMATIZER = Lemmatizer(lemmatization_strategy=DefaultStrategy(dictionary_factory=_DICTIONARIES))
_LETTERS = re.compile(r"[^\W\d_]+")


@lru_cache(maxsize=4096)
def phrase_language(phrase: str) -> str | None:
    """The language a key's phrasing is written in ("en" or "es"): the one whose
    dictionary alone knows more of its words. None when that says nothing ("3σ",
    "sigma", a word of both)."""
    known = {code: _DICTIONARIES.get_dictionary(code) for code in LANGUAGE_CODES}
    return sole_language(_LETTERS.findall(phrase.casefold()), known)


def sole_language(words, known: dict) -> str | None:
    """The language (a key of `known`, each a collection of words) that alone knows more
    of `words` than any other alone does; None on a tie or when none knows any."""
    only = {
        code: sum(
            w in known[code] and not any(w in known[o] for o in known if o != code) for w in words
        )
        for code in known
    }
    best = max(only.values(), default=0)
    leaders = [code for code, n in only.items() if n == best]
    return leaders[0] if best and len(leaders) == 1 else None


# The mathematical symbols a formula is written with, each read as one word in its usual
# spelling, so that "e^x", "e**x" and "e to the x" can meet in the vocabulary.
SYMBOLS = {
    "<=": "≤",
    "=<": "≤",
    "≤": "≤",
    ">=": "≥",
    "≥": "≥",
    "!=": "≠",
    "≠": "≠",
    "**": "^",
    "^": "^",
    "√": "√",
    "||": "‖",  # a norm's bars: "||g||" is "‖g‖", which the vocabulary reads as "norm"
    "‖": "‖",
    "≈": "≈",
    "∝": "∝",
    # A capital sigma standing alone is a summation, as "∑" is; casefolded, it would be
    # "σ", a standard deviation. Inside a word of Greek capitals it stays a letter.
    "Σ": "∑",
    "∑": "∑",
    "<": "<",
    ">": ">",
    "=": "=",
    "×": "×",
    "*": "×",
    "·": "×",
}
# A word is a run of letters (combining accents included, so a decomposed "é" stays in
# its word), a number ("3", "3.5", "3,5") or one of SYMBOLS; a hyphen, an apostrophe or
# any other symbol separates words, and digits and letters are separate words: "3σ" is
# "3" and "σ".
# Arrows are matched first so that their ">" is not read as "greater than"; they are
# no word (they end a clause, see _CLAUSE_BREAK).
_ARROWS = ("->", "=>")
_WORD = re.compile(
    r"\d+(?:[.,]\d+)?|(?:(?:[Rr][Ee]|[Uu][Nn])[-‐](?=[^\W\d_]{3}))?(?:[^\W\d_]|[\u0300-\u036f])+|->|=>|"
    + "|".join(re.escape(symbol) for symbol in sorted(SYMBOLS, key=len, reverse=True))
)
# "re-" and "un-" before a word are part of it ("re-compute" is "recompute", not "re"
# and "compute"; "un-normalised" is "unnormalised", not the Spanish article and
# "normalised"); the regex above keeps them, _word_parts drops the hyphen.
_HYPHENS = str.maketrans("", "", "-‐")
# A superscript power is a power: "g²" reads as "g ^ 2", as "g^2" and "g**2" do.
_SUPERSCRIPTS = str.maketrans({c: f"^{d}" for c, d in zip("⁰¹²³⁴⁵⁶⁷⁸⁹", "0123456789", strict=True)})
# English's "n't" ("can't", "don’t", "isn't"): the "t" after an apostrophe is read as
# "not", so every contraction negates, whichever apostrophe the keyboard typed.
_CONTRACTED_NOT = re.compile(r"(?<=[nN])['’]([tT])\b")
# What ends a clause between two words: sentence punctuation (Spanish's opening ¿ and ¡
# too), brackets, arrows, a newline.
# A bracket ends a clause when it opens or closes an aside ("the mean (rolling) of"), not
# when it is a formula's ("exp(loss)", "e^(-max) factor"): an opening bracket right after
# a word or symbol is a formula's, and so is the bracket that closes it (see
# _bracket_breaks).
_CLAUSE_BREAK = re.compile(r"[.,;:!?¿¡\[\]{}\n]|->|=>|→")
_BRACKET = re.compile(r"[()]")


def _bracket_breaks(text: str) -> list[int]:
    """Where the round brackets of asides stand; a formula's brackets are no break."""
    breaks: list[int] = []
    open_asides: list[bool] = []
    for m in _BRACKET.finditer(text):
        i = m.start()
        if text[i] == "(":
            aside = i == 0 or text[i - 1].isspace()
            open_asides.append(aside)
        elif open_asides:
            aside = open_asides.pop()
        else:  # a closing bracket with no opening one: an aside unless a word follows
            aside = not text[i + 1 : i + 2].isalnum()
        if aside:
            breaks.append(i)
    return breaks


def _letter_list(text: str, i: int) -> bool:
    """Whether the break at `i` is the comma of a list of single letters written
    together ("K,V", "q,k,v"): notation, not the end of a clause."""
    if text[i] != "," or i == 0 or i + 1 >= len(text):
        return False
    before, after = text[i - 1], text[i + 1]
    alone_before = i < 2 or not text[i - 2].isalnum()
    alone_after = i + 2 >= len(text) or not text[i + 2].isalnum()
    return before.isalpha() and after.isalpha() and alone_before and alone_after


def normalize(text: str) -> str:
    """NFKC, case-folded, accents stripped, runs of white space collapsed."""
    text = unicodedata.normalize("NFKC", text).casefold()
    decomposed = unicodedata.normalize("NFD", text)
    stripped = "".join(ch for ch in decomposed if not unicodedata.combining(ch))
    return " ".join(unicodedata.normalize("NFC", stripped).split())


@dataclass(frozen=True)
class Tokens:
    """The words of a text, as parallel lists (cheaper than one object per word)."""

    norms: list[str]  # the normalised words
    starts: list[int]  # offsets of each word in the original text
    ends: list[int]
    clauses: list[int]  # equal for words of one clause, growing in reading order


# British spellings read as American ones: "regularise", "normalised", "optimiser" are
# "regularize", "normalized", "optimizer", whose stems Snowball knows. Only after four
# letters, so "noise" and "raises" stay as they are.
_BRITISH_ISE = re.compile(r"(?<=[a-z]{4})is(e|ed|es|er|ers|ing|ation|ations)$")


@lru_cache(maxsize=65536)
def _word_parts(word: str) -> tuple[str, ...]:
    if word in SYMBOLS:
        return (SYMBOLS[word],)
    if word in _ARROWS:
        return ()
    norm = normalize(word.translate(_SUPERSCRIPTS).translate(_HYPHENS))
    # NFKC can turn one character into a word and a number ("²" into "2"); such rare
    # mixtures are split again after normalisation, as if written that way.
    if _WORD.fullmatch(norm):
        return (_BRITISH_ISE.sub(r"iz\1", norm),)
    return tuple(SYMBOLS.get(part, part) for part in _WORD.findall(norm))


def tokenize(text: str) -> Tokens:
    """The words of `text`, normalised, with where they stand in the original."""
    breaks = [m.start() for m in _CLAUSE_BREAK.finditer(text) if not _letter_list(text, m.start())]
    if "(" in text or ")" in text:
        breaks = sorted(breaks + _bracket_breaks(text))
    found = list(_WORD.finditer(text))
    parts = [_word_parts(m.group()) for m in found]
    if "'" in text or "’" in text:
        negated_at = {m.start(1) for m in _CONTRACTED_NOT.finditer(text)}
        parts = [
            ("not",) if m.start() in negated_at else p for m, p in zip(found, parts, strict=True)
        ]
    # Comprehensions rather than one loop with appends: a 10,000-character answer is
    # about 1,800 words, and this is the one place that walks all of them.
    starts = [m.start() for m in found]
    ends = [m.end() for m in found]
    if all(len(p) == 1 for p in parts):
        norms = [p[0] for p in parts]
    else:  # rare: a word NFKC split in two ("x²"); each part keeps the whole word's place
        norms, starts, ends = [], starts, ends
        pairs = [(p, s, e) for ps, s, e in zip(parts, starts, ends, strict=True) for p in ps]
        norms = [p for p, _, _ in pairs]
        starts = [s for _, s, _ in pairs]
        ends = [e for _, _, e in pairs]
    _squares(norms)
    # A word's clause is how many breaks stand before it.
    clauses = [bisect_right(breaks, start) for start in starts]
    return Tokens(norms, starts, ends, clauses)


def _squares(norms: list[str]) -> None:
    """A product of a word with itself is its square: "g*g" and "g · g" read as "g ^ 2"
    (three words for three, so every word keeps its place in the original)."""
    for i in range(len(norms) - 2):
        if norms[i + 1] == "×" and norms[i] == norms[i + 2] and not is_symbol(norms[i]):
            norms[i + 1], norms[i + 2] = "^", "2"


def words(text: str) -> list[str]:
    """The normalised words of a phrase written by an author (a mention, a vocabulary entry)."""
    return tokenize(text).norms


def is_number(word: str) -> bool:
    return word[:1].isdigit()


def is_symbol(word: str) -> bool:
    return word in _SYMBOL_WORDS


_SYMBOL_WORDS = frozenset(SYMBOLS.values())
LEMMA_MIN = 5


@lru_cache(maxsize=65536)
def stems(word: str, languages: tuple[str, ...]) -> frozenset[str]:
    """The word's stems in each language asked for, tagged by language so that an English
    stem never meets a Spanish one by accident. The stem of the word's lemma counts too,
    so verb forms Snowball leaves apart meet: "diverja" (divergir) and "diverge". Only
    words of LEMMA_MIN letters or more are looked up: short words are too often a form of
    an unrelated word in the other language ("mean", "meen": Spanish "mear")."""
    if is_number(word) or len(word) < 3 or not word.isalpha():
        return frozenset()
    found = set()
    for lang in languages:
        stemmer = _STEMMERS[lang]
        for form in _accented(word) if lang == "es" else (word,):
            found.add(f"{lang}:{normalize(stemmer.stemWord(form))}")
            if len(word) < LEMMA_MIN:
                continue
            lemma = normalize(_LEMMATIZER.lemmatize(form, lang=lang))
            if lemma != word and len(lemma) >= 3 and lemma.isalpha():
                found.add(f"{lang}:{stemmer.stemWord(lemma)}")
    return frozenset(found)


# Spanish verb endings whose accent learners leave out, and without which neither
# Snowball nor the lemmatiser knows the form: "pararia" (pararía) and "aprendio"
# (aprendió) are read both as written and with the accent back.
_SPANISH_ACCENTS = ((re.compile(r"i(a|as|amos|an)$"), r"í\1"), (re.compile(r"io$"), "ió"))


def _accented(word: str) -> tuple[str, ...]:
    forms = [word]
    for pattern, accented in _SPANISH_ACCENTS:
        form = pattern.sub(accented, word)
        if form != word:
            forms.append(form)
    return tuple(forms)
