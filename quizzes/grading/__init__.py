"""Grading as pure functions: an answer and a key in, a result that explains itself out.

No database here. The progress app calls these with a revision's key; tests call them
with plain values. Free text is matched by `matcher` with the shared vocabulary in
data/grading/vocabulary.yaml; the README's "Grading free text" says how.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from functools import lru_cache

from portal.languages import LANGUAGE_CODES
from quizzes.enums import QuestionKind

from .highlight import highlight_html
from .keys import read_alternatives
from .matcher import find_mentions
from .numeric import NumberRefused, number_read, numeric_key, numeric_right
from .text import normalize, phrase_language, sole_language, stems, words
from .vocabulary import vocabulary_load

# Stored with each attempt: which matcher graded it. 12: a misspelt word is read as a typo
# of at most ten key words, the nearest (red-team run 11: a key of near-identical words).
# 11: a capital sigma standing alone
# is a sum ("Σ w·v"), no longer a standard deviation; "before"/"antes" and
# "after"/"después" name earlier and later positions, as "later" did; the author's words
# of a vocabulary phrase are also read one by one (issue 20, seventh round).
# 10: expressions that start with a negation and deny nothing ("not only", "sin duda", "sin
# embargo"), a question tag or an alternative is no bare "no" ("¿no?", "or not"), "sí" and "sin
# embargo" open no hypothetical clause, one may open after conjunctions ("pero si", "and then if"),
# "with or without X" denies nothing, "sin embargo" ends a clause, "K,V" (a comma between single
# letters) is notation, not two clauses, "no early stopping" no longer found for "stop training,
# early stopping" (two reviews of grader 9).
# 9: a verb of keeping from negates
# for a negatively phrased mention ("prevents looking ahead" is "cannot see the
# future"), a hypothetical clause ("if you forget the mask, it sees the next token")
# contradicts none, a bare "no" closing a clause denies it ("la identidad no, la norma"),
# "stop training" no longer reads as "not training", "penalize" keeps from as "prevent"
# does, "while training" ends no clause, and the vocabulary of the eight new topics
# (issue 20, fifth round).
# 8: "less" right before a phrasing of a mention about a direction reads as its opposite
# ("less peaked" for "more peaked, sharper"). 7: a free answer's score is its verdict (1
# right, 0 wrong) as for every kind, and its partial score the share of mentions found,
# none when a reject fired (a rejected answer scored 100 %). 6: a mention of what is
# kept away ("prevent overflow", "inf") found where it is denied ("no inf"), and "does
# not prevent X" no longer read as "not X" (issue 20, fourth round); 5: "reduces X" read
# as "less X", "z above 3" as "z > 3", thrice and twice, "un-" kept on its word, "‖g‖"
# as the norm, the title among the question's own words (issue 20, third round); 4: the
# course's terms in the vocabulary, Spanish forms without accents, British -ise,
# synonyms inside vocabulary phrases, split phrasal verbs, "poorly"/"mal", keeping from
# read as lessening, a formula's brackets (issue 20, second round); 3: polarity,
# contractions, formulas, lemmas, antonyms, words of degree, fixed expressions, doubts
# (issue 20); 2: stems, typos, windows, negation, vocabulary and reject mentions (issue
# 11); 1 was the substring matcher.
GRADER_VERSION = 12

__all__ = [
    "DOUBTS",
    "GRADER_VERSION",
    "Grade",
    "MentionResult",
    "NumberRefused",
    "RejectResult",
    "grade",
    "grade_free",
    "grade_multi",
    "grade_single",
    "grading_prompt",
    "highlight_html",
    "mention_label",
    "negated_label",
    "normalize",
    "number_read",
    "numeric_key",
]


@dataclass(frozen=True)
class MentionResult:
    """What the grader saw of one expected mention, for feedback that explains itself."""

    index: int  # position of the mention in the key
    status: str  # "found" | "missed" | "negated"
    spans: tuple[tuple[int, int], ...] = ()  # (start, end) in the original answer text
    typos: tuple[tuple[str, str], ...] = ()  # (word as the learner wrote it, expected word)
    # Found through a negatively phrased alternative ("not recomputed") by a negation in
    # the answer ("don't have to be recomputed"), or, when negated, such an alternative
    # contradicted ("they are recomputed"): the feedback says which reading it took.
    negative: bool = False
    # Found by the mention's words, not by a phrasing of it: the verdict is provisional.
    field: bool = False


@dataclass(frozen=True)
class RejectResult:
    """A reject mention found in the answer: the reason the answer is wrong."""

    index: int  # position of the entry in the key's `reject`
    alternative: str  # the entry's first phrasing, to name it in the feedback
    spans: tuple[tuple[int, int], ...] = ()
    typos: tuple[tuple[str, str], ...] = ()


@dataclass(frozen=True)
class Grade:
    correct: bool
    score: float  # 1 right, 0 wrong, whatever the kind: what a phase's score adds up
    # multi: (right - wrong) / correct keys, floored at 0; free: mentions found / mentions,
    # 0 when a reject fired; else = score. Shown beside a wrong verdict, never counted.
    partial: float
    right_picks: tuple[str, ...] = ()  # chosen keys that are correct
    wrong_picks: tuple[str, ...] = ()  # chosen keys that are not
    missed_keys: tuple[str, ...] = ()  # correct keys not chosen
    found: tuple[int, ...] = ()  # indices of expected mentions found (free)
    missed: tuple[int, ...] = field(default=())  # indices missed, negated ones included
    negated: tuple[int, ...] = ()  # indices found only after a negation ("not …")
    mentions: tuple[MentionResult, ...] = ()  # one per expected mention, in key order
    rejected: tuple[RejectResult, ...] = ()  # reject mentions found: the answer is wrong
    # Why a teacher should look at this verdict (free text only; empty when the grader is
    # sure): codes from DOUBTS. A verdict with doubts is provisional until confirmed.
    doubts: tuple[str, ...] = ()


# An answer with this many content words is a developed one (chosen on the dev set: it
# flags 2 in 3 of the right answers the keys missed, 1 in 4 of the wrong ones).
DEVELOPED_WORDS = 8

# What makes the grader unsure of a free-text verdict, in the order the feedback lists them.
DOUBTS = {
    # Wrong with every needed mention but one found: the last one may be a paraphrase.
    "one_missing": "one mention short of the number needed",
    # Right only because a word was read as a misspelling of a key word.
    "typo": "right only through a word read as a typo",
    # Wrong only because a mention was read as negated: the negation may be misread.
    "negation": "wrong only because a mention was read as negated",
    # Wrong, with nothing rejected, in an answer of DEVELOPED_WORDS content words or more:
    # a developed answer the key does not recognise may say it in words the key lacks.
    "unrecognised": "a developed answer the key does not recognise",
    # Right although a reject entry is there, because it was read as negated.
    "reject_negated": "a reject entry found in a negated clause was ignored",
    # Right only because a mention was found by its words, not by a phrasing of it.
    "field": "right only through a mention found by its words, not a phrasing",
}


def grade_single(*, correct_keys: Sequence[str], chosen: str) -> Grade:
    right = chosen in correct_keys
    return Grade(
        correct=right,
        score=1.0 if right else 0.0,
        partial=1.0 if right else 0.0,
        right_picks=(chosen,) if right else (),
        wrong_picks=() if right else (chosen,),
        missed_keys=() if right else tuple(correct_keys),
    )


def grade_multi(*, correct_keys: Sequence[str], chosen: Iterable[str]) -> Grade:
    chosen_set = set(chosen)
    correct_set = set(correct_keys)
    right = sorted(chosen_set & correct_set)
    wrong = sorted(chosen_set - correct_set)
    partial = max(0.0, (len(right) - len(wrong)) / len(correct_set)) if correct_set else 0.0
    exact = chosen_set == correct_set
    return Grade(
        correct=exact,
        score=1.0 if exact else 0.0,
        partial=round(partial, 4),
        right_picks=tuple(right),
        wrong_picks=tuple(wrong),
        missed_keys=tuple(sorted(correct_set - chosen_set)),
    )


def grade_free(
    *,
    expected: Sequence[Sequence[str] | str],
    pass_mentions: int | None,
    answer: str,
    reject: Sequence[Sequence[str] | str] = (),
    language: str | None = None,
    prompt: str = "",
) -> Grade:
    """Correct when at least `pass_mentions` mentions (default: all) are found, not
    negated, and no reject mention is found. Score = mentions found / mentions.
    `prompt` is the question's text (every language): words it uses never find a
    mention by themselves."""
    located, rejects, content_words = find_mentions(
        expected=expected, reject=reject, text=answer, language=language, prompt=prompt
    )
    mentions = tuple(
        MentionResult(
            index=i,
            status=f.status,
            spans=f.spans,
            typos=f.typos,
            negative=f.negative,
            field=f.field,
        )
        for i, f in enumerate(located)
    )
    rejected = tuple(
        RejectResult(
            index=i,
            alternative=entry if isinstance(entry, str) else str(entry[0]),
            spans=f.spans,
            typos=f.typos,
        )
        for i, (entry, f) in enumerate(zip(reject, rejects, strict=True))
        if f.status == "found"
    )
    found = tuple(m.index for m in mentions if m.status == "found")
    needed = pass_mentions or len(expected)
    correct = bool(expected) and len(found) >= needed and not rejected
    covered = round(len(found) / len(expected), 4) if expected and not rejected else 0.0
    return Grade(
        correct=correct,
        score=float(correct),
        partial=covered,
        found=found,
        missed=tuple(m.index for m in mentions if m.status != "found"),
        negated=tuple(m.index for m in mentions if m.status == "negated"),
        mentions=mentions,
        rejected=rejected,
        doubts=_doubts(
            correct=correct,
            needed=needed,
            mentions=mentions,
            rejected=bool(rejected),
            rejects_negated=any(f.status == "negated" for f in rejects),
            content_words=content_words,
        ),
    )


def _doubts(
    *,
    correct: bool,
    needed: int,
    mentions: Sequence[MentionResult],
    rejected: bool,
    rejects_negated: bool,
    content_words: int = 0,
) -> tuple[str, ...]:
    """The reasons a teacher should check this verdict; see DOUBTS."""
    found = [m for m in mentions if m.status == "found"]
    doubts = []
    if not correct and not rejected:
        if needed >= 2 and len(found) == needed - 1:
            doubts.append("one_missing")
        # A negative phrasing contradicted ("they are recomputed") is a plain statement
        # of the opposite, not a negation the matcher may have misread.
        negated = sum(m.status == "negated" and not m.negative for m in mentions)
        if negated and len(found) < needed <= len(found) + negated:
            doubts.append("negation")
        if not doubts and content_words >= DEVELOPED_WORDS:
            doubts.append("unrecognised")
    if correct:
        if len([m for m in found if not m.typos]) < needed:
            doubts.append("typo")
        if rejects_negated:
            doubts.append("reject_negated")
        if len([m for m in found if not m.field]) < needed:
            doubts.append("field")
    return tuple(doubts)


LABEL_PHRASINGS = 3  # a mention named in feedback by at most this many of its phrasings


@lru_cache(maxsize=4096)  # every feedback card names its mentions: read each phrasing once
def _phrasing_language(phrase: str) -> str | None:
    """phrase_language, with the vocabulary's stop words to settle a tie: "fila de
    embedding" has a word of each language, and "de", which only Spanish leaves out."""
    found = phrase_language(phrase)
    if found is None:
        found = sole_language(normalize(phrase).split(), vocabulary_load().stopwords)
    return found


def mention_label(alternatives: Sequence[str], language: str) -> str:
    """How feedback names a mention to a reader of `language`: its first phrasings written
    in that language or in none ("3σ"), at most LABEL_PHRASINGS, then "…" if it has more;
    its first phrasing when none is in that language. A key may list twenty ways of
    saying one thing; the reader needs the idea, in their language."""
    own = [a for a in map(str, alternatives) if _phrasing_language(a) in (language, None)]
    shown = own[:LABEL_PHRASINGS] or [str(alternatives[0])]
    return " / ".join(shown) + (" / …" if len(alternatives) > len(shown) else "")


def _stems_of(phrase: str) -> frozenset[str]:
    return frozenset(s for w in words(phrase) for s in stems(w, LANGUAGE_CODES))


def negated_label(alternatives: Sequence[str], language: str, said: str = "") -> str:
    """How feedback names a mention whose negatively phrased alternative the answer
    contradicted ("your answer says the opposite: …"): by its negative phrasings ("not
    normalized", "sin normalizar"), those sharing a stem with the answer's words there
    (`said`) first, then "…". Its first phrasings ("identity / unit gain") named an idea
    the answer never denied (UX walk 36). Display only: the verdict is the matcher's."""
    vocabulary = vocabulary_load()
    stopwords = vocabulary.for_languages("stopwords", LANGUAGE_CODES)
    negations = vocabulary.for_languages("negations", LANGUAGE_CODES)
    negative = [
        a
        for a in map(str, alternatives)
        if any(
            r.negative
            for r in read_alternatives(
                text=a, vocabulary=vocabulary, stopwords=stopwords, negations=negations
            )
        )
    ]
    if not negative:
        return mention_label(alternatives, language)
    near = _stems_of(said)
    negative.sort(key=lambda a: not (near & _stems_of(a)))  # stable: the key's order else
    label = mention_label(negative, language)
    more = len(alternatives) > min(len(negative), LABEL_PHRASINGS)
    return label if label.endswith("…") or not more else f"{label} / …"


def grading_prompt(*texts: Mapping[str, str] | None) -> str:
    """A question's title and prompt in every language (each `{"en": …, "es": …}`), as
    grade_free takes them: the one way the importer's examples and a learner's answer
    see them. The title counts: a question with no prompt asks in its title."""
    return "\n".join(t[code] for t in texts if t for code in LANGUAGE_CODES if t.get(code))


def grade(
    *,
    kind: str,
    correct_keys: Sequence[str],
    expected: Sequence[Sequence[str] | str],
    pass_mentions: int | None,
    keys: Sequence[str] = (),
    text: str = "",
    reject: Sequence[Sequence[str] | str] = (),
    language: str | None = None,
    numeric: Mapping | None = None,
    prompt: str = "",
) -> Grade:
    """Grade one answer against one key, whatever the kind of question. `language` is
    the answer's language code ("en" or "es") when known; None reads it with both
    languages' stems. `numeric` is a numeric question's key (answer, tolerance, unit).
    `prompt` is a free question's text, every language's (see grade_free)."""
    if kind == QuestionKind.NUMERIC:
        key = numeric_key(numeric or {})
        try:
            right = numeric_right(key=key, value=number_read(text, units=key.units))
        except NumberRefused:
            right = False  # never stored: the answer service refuses it first
        return Grade(correct=right, score=float(right), partial=float(right))
    if kind == QuestionKind.SINGLE:
        return grade_single(correct_keys=correct_keys, chosen=keys[0] if keys else "")
    if kind == QuestionKind.MULTI:
        return grade_multi(correct_keys=correct_keys, chosen=keys)
    return grade_free(
        expected=expected,
        pass_mentions=pass_mentions,
        answer=text,
        reject=reject or (),
        language=language,
        prompt=prompt,
    )
