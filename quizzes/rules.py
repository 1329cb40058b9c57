"""The rules for one quiz file that its JSON Schema cannot say, with located messages."""

from __future__ import annotations

import math
import re
import unicodedata
from decimal import Decimal
from functools import lru_cache
from typing import Any

from portal.invisible import has_invisible, visible
from portal.languages import LANGUAGE_CODES

from . import grading
from .documents import PhaseDoc, Problem, QuestionDoc, question_doc, quoted, shortened
from .grading.explain import key_explain
from .grading.numeric import MAX_CHARS, magnitude_readable, plain
from .grading.text import words
from .grading.vocabulary import vocabulary_load
from .schema import ecma_pattern, id_is_valid, mentions_are_valid, schema
from .yaml_reader import LineDict, LineList

FILE_NAME = re.compile(r"^phase-(?P<number>[0-9]{2,})-(?P<slug>[a-z0-9]+(?:-[a-z0-9]+)*)\.yaml\Z")
SLUG = re.compile(r"^[a-z0-9]+(?:-[a-z0-9]+)*\Z")
MAX_PHASE = 9999
OPTION_KEY = re.compile(r"^[A-Z]\Z")
EXAMPLE_SHOWN = 40
# A free question's key is read against every answer, so its size is what grading one
# answer costs. The schema caps its mentions, their alternatives and their characters;
# these cap its words, as the grader reads them ("e^x" is three: e, ^, x).
MAX_ALTERNATIVE_WORDS = 20
MAX_KEY_WORDS = 200


def file_name_problems(data: LineDict, file_name: str, shown: str) -> list[Problem]:
    """The file name is phase-NN-slug.yaml and agrees with `phase` and `slug` inside."""
    name = FILE_NAME.match(file_name)
    number, slug = data.get("phase"), data.get("slug")
    if not name:
        message = "the file name must look like phase-NN-slug.yaml (NN two digits or more)"
        # The name its own fields give (author walk 3 of round 3).
        usable = isinstance(slug, str) and len(slug) <= 100 and SLUG.match(slug)
        if usable and type(number) is int and 0 <= number <= MAX_PHASE:
            message += f": phase-{number:02d}-{slug}.yaml, as its phase and slug say"
        return [Problem(shown, 1, None, message)]
    problems = []
    if type(number) is int and 0 <= number <= MAX_PHASE and int(name["number"]) != number:
        message = f"phase {number} disagrees with the file name ({name['number']})"
        problems.append(Problem(shown, data.line_of("phase"), None, message))
    if isinstance(slug, str) and SLUG.match(slug) and name["slug"] != slug:
        message = f"slug {quoted(slug)} disagrees with the file name ({quoted(name['slug'])})"
        problems.append(Problem(shown, data.line_of("slug"), None, message))
    return problems


def _questions(data: Any) -> list[tuple[int, LineDict]]:
    questions = data.get("questions") if isinstance(data, dict) else None
    if not isinstance(questions, LineList):
        return []
    return [(i, q) for i, q in enumerate(questions) if isinstance(q, LineDict)]


def question_ids(data: Any, shown: str) -> list[tuple[str, str, int]]:
    """Every well-formed id in the file, valid question or not, so that duplicates are
    reported even where one of the two copies has other problems."""
    return [(q["id"], shown, q.line) for _, q in _questions(data) if id_is_valid(q.get("id"))]


def question_problems(data: Any, shown: str) -> list[Problem]:
    """Option keys unique within a question; pass_mentions at most the mentions there are;
    a free key's words within their limits."""
    return [problem for _, problem in question_problems_at(data, shown)]


def question_problems_at(data: Any, shown: str) -> list[tuple[int, Problem]]:
    """`question_problems`, each with the position of its question in the file."""
    found = []
    for index, question in _questions(data):
        problems: list[Problem] = []
        label = question["id"] if id_is_valid(question.get("id")) else f"question {index + 1}"
        options = question.get("options")
        seen: dict[str, int] = {}
        for option in options if isinstance(options, list) else ():
            key = option.get("key") if isinstance(option, LineDict) else None
            if not isinstance(key, str) or not OPTION_KEY.match(key):
                continue
            if key in seen:
                message = f"option key '{key}' is repeated (first on line {seen[key]})"
                problems.append(Problem(shown, option.line_of("key"), label, message))
            else:
                seen[key] = option.line_of("key")
        needed, expected = question.get("pass_mentions"), question.get("expected")
        # Said only of a valid `expected` (checked last: it is the slow part): one with a
        # problem has its own message, and "... mentions (0)" would only repeat it.
        many = type(needed) is int and isinstance(expected, list)
        if many and needed > max(len(expected), 1) and mentions_are_valid(expected):
            message = (
                "'pass_mentions' must be a whole number from 1 to the number of expected "
                f"mentions ({len(expected)})"
            )
            problems.append(Problem(shown, question.line_of("pass_mentions"), label, message))
        problems += _numeric_problems(question, label, shown)
        problems += _key_problems(question, label, shown)
        problems += unseen_text_problems(question, TEXT_FIELDS, label, shown)
        options = options if isinstance(options, LineList) else ()
        for option in (o for o in options if isinstance(o, LineDict)):
            problems += unseen_text_problems(option, ("text",), label, shown)
        found += [(index, problem) for problem in problems]
    return found


def sound_questions(data: Any, *, path: str, broken: set[int]) -> list[QuestionDoc]:
    """The questions of a refused file that no problem is in, as documents: their
    examples can be graded in the same pass as the file's other problems."""
    return [
        question_doc(question, position=index + 1, path=path)
        for index, question in _questions(data)
        if index not in broken
    ]


def _key_problems(question: LineDict, label: str, shown: str) -> list[Problem]:
    """Each alternative of `expected` and `reject` at most MAX_ALTERNATIVE_WORDS words,
    and all of them together at most MAX_KEY_WORDS. An alternative the schema refuses (not
    text, or too long) is left to its message."""
    longest = schema()["$defs"]["alternative"]["maxLength"]
    problems, total = [], 0
    for name, field in (("expected", "mention"), ("reject", "rejected mention")):
        mentions = question.get(name)
        for n, mention in enumerate(mentions if isinstance(mentions, LineList) else (), 1):
            if isinstance(mention, LineList):
                alternatives = [(a, mention.line_of(i)) for i, a in enumerate(mention)]
            else:
                alternatives = [(mention, mentions.line_of(n - 1))]
            texts = [str(a) for a, _ in alternatives if _readable(a, longest)]
            if texts and len(texts) == len(alternatives) and _reads_as_nothing(texts):
                message = (
                    f"{field} {n} reads as nothing (every word a stop word, a negation or "
                    "punctuation): it is never found in an answer"
                )
                problems.append(Problem(shown, alternatives[0][1], label, message))
            for alternative, line in alternatives:
                if not _readable(alternative, longest):
                    continue  # left to the schema's message
                text = str(alternative)
                if hidden := _unseen(text):
                    message = (
                        f"{field} {n}: an alternative has a character no reader sees "
                        f"({hidden}), which the grader takes out of every answer, so it would "
                        f"never be found: delete it ({quoted(text)})"
                    )
                    problems.append(Problem(shown, line, label, message))
                count = word_count(text)
                total += count
                if count > MAX_ALTERNATIVE_WORDS:
                    message = (
                        f"{field} {n}: an alternative has at most {MAX_ALTERNATIVE_WORDS} words, "
                        f"not {count} ({quoted(text)})"
                    )
                    problems.append(Problem(shown, line, label, message))
    if total > MAX_KEY_WORDS:
        message = (
            f"'expected' and 'reject' have at most {MAX_KEY_WORDS} words in all their "
            f"alternatives, not {total}"
        )
        problems.append(Problem(shown, question.line_of("expected"), label, message))
    return problems


TEXT_FIELDS = ("title", "prompt", "explanation", "unit")


def unseen_text_problems(
    mapping: LineDict, fields: tuple[str, ...], label: str | None, shown: str
) -> list[Problem]:
    """A text made only of characters portal.invisible takes out or reads as a space (a
    Hangul filler, a C1 control, U+180E) is empty to a reader. The schema's pattern, which
    editors use too, names the common ones; this checks with `visible()` itself, and says
    nothing where the schema already found the text empty or not text."""
    problems = []
    for field in fields:
        value = mapping.get(field)
        texts = [(field, value, mapping.line_of(field))] if isinstance(value, str) else []
        if isinstance(value, LineDict):
            texts = [(f"{field}.{k}", v, value.line_of(k)) for k, v in value.items()]
        for name, text, line in texts:
            if not isinstance(text, str) or visible(text).strip():
                continue
            if not _non_blank().search(text):
                continue  # the schema's "is empty"
            message = f"'{name}' is empty: it has only characters no reader sees ({_unseen(text)})"
            problems.append(Problem(shown, line, label, message))
    return problems


@lru_cache(maxsize=1)
def _non_blank() -> re.Pattern[str]:
    return ecma_pattern(schema()["$defs"]["nonBlank"]["pattern"])


def _unseen(text: str) -> str:
    """The first character of `text` the grader takes out of an answer or reads as another
    (portal.invisible), named ("U+200B ZERO WIDTH SPACE"); "" when there is none."""
    for char in text:
        if has_invisible(char):
            return f"U+{ord(char):04X} {unicodedata.name(char, '')}".strip()
    return ""


def _readable(alternative: Any, longest: int) -> bool:
    """Text (or a number YAML read) the schema lets through."""
    valid = isinstance(alternative, str | int | float) and not isinstance(alternative, bool)
    return valid and len(str(alternative)) <= longest


def _reads_as_nothing(texts: list[str]) -> bool:
    """Whether the matcher reads no word in any of a mention's phrasings ("?", "the…"
    with only stop words it keeps are read): such a mention is never found. Explained
    only when no phrasing has a word besides stop words and negations: explaining every
    mention made the first import of 10,000 questions ~0.8 s slower."""
    if any(set(words(text)) - _function_words() for text in texts):
        return False
    [mention] = key_explain(expected=[texts])
    return not any(phrasing.readings for phrasing in mention.phrasings)


@lru_cache(maxsize=1)
def _function_words() -> frozenset[str]:
    """The stop words and negations of every language, as the matcher leaves them out."""
    vocabulary = vocabulary_load()
    stopwords = vocabulary.for_languages("stopwords", LANGUAGE_CODES)
    return stopwords | vocabulary.for_languages("negations", LANGUAGE_CODES) | {"not"}


@lru_cache(maxsize=65536)  # a bank repeats its phrasings ("3σ", "rolling mean")
def word_count(text: str) -> int:
    """An alternative's words as the key limits count them (stop words and symbols too):
    the importer's count, and the key change page's, which proposes only what imports."""
    return len(words(text))


MAX_TOLERANCE = 10**99


def _numeric_problems(question: LineDict, label: str, shown: str) -> list[Problem]:
    """A numeric answer and tolerance are finite (YAML reads .nan and .inf as numbers),
    an answer is within the magnitudes a learner can write (1e-99 to 1e99), and an
    absolute tolerance at most 1e99."""
    problems = []
    for name in ("answer", "tolerance"):
        value = question.get(name)
        if isinstance(value, float) and not math.isfinite(value):
            message = f"'{name}' must be a finite number, not {value}"
            problems.append(Problem(shown, question.line_of(name), label, message))
    answer = question.get("answer")
    # An int of any size (YAML reads 1 followed by 400 zeros as one) or a finite float.
    numeric = isinstance(answer, int) and not isinstance(answer, bool)
    numeric = numeric or (isinstance(answer, float) and math.isfinite(answer))
    if numeric and not magnitude_readable(Decimal(str(answer))):
        message = (
            "'answer' must be between 1e-99 and 1e99 (or 0): no learner can write "
            + shortened(str(answer))
        )
        problems.append(Problem(shown, question.line_of("answer"), label, message))
    tolerance = question.get("tolerance")
    # An absolute tolerance past the largest answer a learner can write makes every answer
    # right, and its range is shown in numbers no learner can write (1e+400).
    absolute = isinstance(tolerance, int) and not isinstance(tolerance, bool)
    absolute = absolute or (isinstance(tolerance, float) and math.isfinite(tolerance))
    if absolute and tolerance > MAX_TOLERANCE:
        message = "'tolerance' must be at most 1e99, not " + shortened(str(tolerance))
        problems.append(Problem(shown, question.line_of("tolerance"), label, message))
    return problems


def _shown(answer: str) -> str:
    answer = " ".join(answer.split())
    if len(answer) > EXAMPLE_SHOWN:
        answer = answer[:EXAMPLE_SHOWN].rstrip() + "…"
    return answer


def _number_refused(question, answer: str) -> str:
    """Why a numeric question's example is not read as a number, or "" when it is: a
    learner writing it would be asked to write it again, not graded."""
    if not question.numeric:
        return ""
    key = grading.numeric_key(question.numeric)
    try:
        grading.number_read(answer, units=key.units)
    except grading.NumberRefused as refused:
        return f"is not read as a number ({NUMBER_REFUSALS[refused.reason]})"
    return ""


# Why a text is not read as a number (quizzes.grading.numeric.NumberRefused.reason).
NUMBER_REFUSALS = {
    "empty": "it is empty",
    "ambiguous": "a point or comma before three digits may be a thousands mark",
    "marks": "more than one point or comma",
    "groups": "spaces or underscores group digits by three only",
    "unit": "only the question's unit may follow the number",
    "long": f"over {MAX_CHARS} characters",
    "range": "beyond 1e99 or below 1e-99",
    "power": "a power of ten is written with e, as 3e-4",
    "unreadable": "no number written as 3.5, 3,5 or 2.4e9",
}


def example_problems(phase: PhaseDoc) -> list[Problem]:
    """Each example answer, graded as a learner's would be, gets the grade it states."""
    return [p for question in phase.questions for p in question_example_problems(question)]


def question_example_problems(question: QuestionDoc) -> list[Problem]:
    """`example_problems` for one question, located in its file (`question.path`)."""
    problems: list[Problem] = []
    extra = {
        "reject": question.reject,
        "prompt": grading.grading_prompt(question.title, question.prompt),
    }
    if question.numeric:
        extra = {"numeric": question.numeric}
    for number, example in enumerate(question.examples, start=1):
        # What a learner's answer is graded as: without the characters no one sees.
        text = visible(example.answer)
        refused = _number_refused(question, text)
        if refused:
            message = (
                f'example {number} ("{_shown(text)}") {refused}: a learner '
                "who sends it is asked to write a number, and nothing is graded, so it "
                "tests nothing; write examples as numbers"
            )
            problems.append(Problem(question.path, example.line, question.code, message))
            continue
        result = grading.grade(
            kind=question.kind,
            correct_keys=question.correct_keys,
            expected=question.expected,
            pass_mentions=question.pass_mentions,
            text=text,
            **extra,
        )
        if result.correct == example.right:
            continue
        answer = _shown(text)
        stated, got = ("right", "wrong") if example.right else ("wrong", "right")
        message = f'example {number} ("{answer}") expected {stated}, graded {got}'
        message += _graded_why(question=question, result=result, answer=text)
        problems.append(Problem(question.path, example.line, question.code, message))
    return problems


def _graded_why(*, question: QuestionDoc, result: grading.Grade, answer: str) -> str:
    """Why a free example got its grade, so its author knows which line of the key to
    edit: the rejected mention that fired and where, or the mentions found; a numeric
    example's, the number read and the range the key allows."""
    if question.kind == "numeric":
        return _numeric_why(question, answer)
    if question.kind != "free":
        return ""
    if result.rejected:
        rejected = result.rejected[0]
        where = " … ".join(answer[start:end] for start, end in rejected.spans)
        return (
            f": rejected mention {rejected.index + 1} ({quoted(rejected.alternative)}) found "
            f"in {quoted(where)}"
        )
    needed = question.pass_mentions or len(question.expected)
    found = ", ".join(str(i + 1) for i in result.found) or "none"
    said = f": mentions found: {found} ({len(result.found)} of {needed} needed)"
    negated = ", ".join(str(i + 1) for i in result.negated)
    # The mentions to widen, named by their first phrasing (author walk 4): a number
    # alone, "found: 2", left the author counting lines and read as two found.
    missed = ", ".join(
        f"{i + 1} ({quoted(question.expected[i][0])})"
        for i in result.missed
        if i not in result.negated
    )
    if missed and not result.correct:
        said += f"; missed: {missed}"
    return said + (f"; read as negated: {negated}" if negated else "")


def _numeric_why(question: QuestionDoc, answer: str) -> str:
    """`: read as 995; 1000 ± 5 allows 995 to 1005, both included`: an author who meant
    the example to be wrong sees that the bounds are right, and edits the tolerance."""
    key = grading.numeric_key(question.numeric)
    read = plain(grading.number_read(answer, units=key.units))
    tolerance = plain(key.tolerance) + ("%" if key.relative else "")
    if not key.margin:
        return f": read as {read}; with no tolerance only {plain(key.answer)} is right"
    low, high = plain(key.answer - key.margin), plain(key.answer + key.margin)
    return (
        f": read as {read}; {plain(key.answer)} ± {tolerance} allows {low} to {high}, both included"
    )
