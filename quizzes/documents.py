"""The loader's output: plain, validated documents of phases and questions (no database)."""

from __future__ import annotations

import hashlib
import json
import re
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

# How much of a value a message quotes: a hostile file's 1 MB slug must not fill the line.
QUOTED_CHARS = 80


def shortened(text: str, limit: int = QUOTED_CHARS) -> str:
    """`text` whole when short; else its first `limit` characters, "…" and its length."""
    if len(text) <= limit:
        return text
    return f"{text[:limit]}… ({len(text):,} characters)"


def quoted(value: Any) -> str:
    """A value as a message quotes it (its repr), shortened as `shortened` does; a text's
    length is its own, not its repr's."""
    if isinstance(value, str) and len(value) > QUOTED_CHARS:
        return f"{value[:QUOTED_CHARS]!r}… ({len(value):,} characters)"
    return shortened(repr(value))


@dataclass(frozen=True)
class Problem:
    """One thing wrong with the input, located as precisely as the YAML allows."""

    path: str
    line: int
    question: str | None
    message: str

    def __str__(self) -> str:
        where = f"{self.path}:{self.line}"
        if self.question:
            return f"{where}: {self.question}: {self.message}"
        return f"{where}: {self.message}"


@dataclass(frozen=True)
class OptionDoc:
    key: str
    text: dict[str, str]
    correct: bool


@dataclass(frozen=True)
class ExampleDoc:
    answer: str
    right: bool
    lang: str | None = None
    line: int = 0

    def content(self) -> dict[str, Any]:
        item: dict[str, Any] = {"answer": self.answer, "right": self.right}
        if self.lang:
            item["lang"] = self.lang
        return item


@dataclass(frozen=True)
class QuestionDoc:
    code: str
    kind: str
    title: dict[str, str]
    prompt: dict[str, str]
    explanation: dict[str, str]
    options: tuple[OptionDoc, ...] = ()
    expected: tuple[tuple[str, ...], ...] = ()
    pass_mentions: int | None = None
    reject: tuple[tuple[str, ...], ...] = ()
    examples: tuple[ExampleDoc, ...] = ()
    # numeric: {"answer": 3.5, "tolerance": 0.05 or "5%", "unit": {"en": "GB"}}; the
    # tolerance and unit only when given.
    numeric: dict[str, Any] = field(default_factory=dict)
    position: int = 0
    path: str = ""
    line: int = 0
    # The line of each entry of `expected` and `reject`, for the key's warnings.
    expected_lines: tuple[int, ...] = ()
    reject_lines: tuple[int, ...] = ()

    def content(self) -> dict[str, Any]:
        """What a learner sees and is graded against; its hash decides revisions.
        Position and phase are not content: moving a question makes no revision."""
        content = {
            "kind": self.kind,
            "title": self.title,
            "prompt": self.prompt,
            "explanation": self.explanation,
            "options": [{"key": o.key, "text": o.text, "correct": o.correct} for o in self.options],
            "expected": [list(m) for m in self.expected],
            "pass_mentions": self.pass_mentions,
        }
        # Only when present, so questions written before these fields existed keep
        # their hash and get no new revision.
        if self.reject:
            content["reject"] = [list(m) for m in self.reject]
        if self.examples:
            content["examples"] = [e.content() for e in self.examples]
        if self.numeric:
            content["numeric"] = self.numeric
        return content

    @property
    def content_hash(self) -> str:
        canonical = json.dumps(self.content(), sort_keys=True, ensure_ascii=False)
        return hashlib.sha256(canonical.encode()).hexdigest()

    @property
    def correct_keys(self) -> list[str]:
        return [o.key for o in self.options if o.correct]


@dataclass(frozen=True)
class PhaseDoc:
    path: str
    number: int
    slug: str
    title: dict[str, str]
    questions: tuple[QuestionDoc, ...]
    # sha256 of the file as read (and of the rules it was checked by); see fileset.py.
    file_hash: str = ""

    @property
    def file_name(self) -> str:
        return Path(self.path).name


@dataclass(frozen=True)
class KnownFile:
    """A file imported before, as the database remembers it: skipped when unchanged."""

    file_hash: str
    number: int
    codes: tuple[str, ...]


@dataclass(frozen=True)
class SkippedFile:
    path: str
    file_name: str
    number: int
    codes: tuple[str, ...]


@dataclass
class QuizSet:
    phases: list[PhaseDoc] = field(default_factory=list)
    problems: list[Problem] = field(default_factory=list)
    # Files whose bytes match what was last imported: not read, their questions unchanged.
    skipped: list[SkippedFile] = field(default_factory=list)
    # Files read whole but refused by their examples: never imported, only explained.
    examples_refused: list[PhaseDoc] = field(default_factory=list)

    @property
    def questions(self) -> list[QuestionDoc]:
        return [q for phase in self.phases for q in phase.questions]


def text_doc(value: str | dict[str, str]) -> dict[str, str]:
    """A validated localized text as {language: text}, without surrounding white space."""
    if isinstance(value, str):
        return {"en": value.strip()}
    return {language: text.strip() for language, text in value.items()}


def mentions_doc(raw: list) -> tuple[tuple[str, ...], ...]:
    return tuple(
        tuple(str(a).strip() for a in ([mention] if isinstance(mention, str) else mention))
        for mention in raw
    )


def percentage(tolerance: str) -> str:
    """A relative tolerance as stored: "8 %" (a space before the sign, as Spanish writes
    it; a no-break space or a narrow one too) is "8%"."""
    return re.sub(r"[ \u00a0\u202f]%\Z", "%", tolerance.strip())


def numeric_doc(raw: dict) -> dict[str, Any]:
    """A numeric question's key as stored: the answer, and the tolerance and unit when
    given (so that adding neither changes nothing)."""
    if "answer" not in raw:
        return {}
    key: dict[str, Any] = {"answer": raw["answer"]}
    if raw.get("tolerance"):
        tolerance = raw["tolerance"]
        key["tolerance"] = percentage(tolerance) if isinstance(tolerance, str) else tolerance
    if "unit" in raw:
        key["unit"] = text_doc(raw["unit"])
    return key


def question_doc(raw: dict, *, position: int, path: str) -> QuestionDoc:
    """Build a question from a mapping the schema and rules have accepted."""
    examples = raw.get("examples") or []
    return QuestionDoc(
        code=raw["id"],
        kind=raw["kind"],
        title=text_doc(raw["title"]),
        prompt=text_doc(raw["prompt"]) if "prompt" in raw else {},
        explanation=text_doc(raw["explanation"]),
        options=tuple(
            OptionDoc(key=o["key"], text=text_doc(o["text"]), correct=o.get("correct") is True)
            for o in raw.get("options", ())
        ),
        expected=mentions_doc(raw.get("expected", [])),
        pass_mentions=raw.get("pass_mentions"),
        reject=mentions_doc(raw.get("reject", [])),
        examples=tuple(
            ExampleDoc(
                answer=e["answer"],
                right=e["right"],
                lang=e.get("lang"),
                line=examples.line_of(i) if hasattr(examples, "line_of") else 0,
            )
            for i, e in enumerate(examples)
        ),
        numeric=numeric_doc(raw),
        position=position,
        path=path,
        line=getattr(raw, "line", 0),
        expected_lines=_item_lines(raw.get("expected"), getattr(raw, "line", 0)),
        reject_lines=_item_lines(raw.get("reject"), getattr(raw, "line", 0)),
    )


def _item_lines(items: Any, default: int) -> tuple[int, ...]:
    """The line of each item of a list the reader kept lines for, else `default`."""
    if not isinstance(items, list):
        return ()
    return tuple(
        items.line_of(i) if hasattr(items, "line_of") else default for i in range(len(items))
    )


def phase_doc(raw: dict, *, path: str, file_hash: str = "") -> PhaseDoc:
    return PhaseDoc(
        path=path,
        number=raw["phase"],
        slug=raw["slug"],
        title=text_doc(raw["title"]),
        questions=tuple(
            question_doc(q, position=index, path=path)
            for index, q in enumerate(raw["questions"], start=1)
        ),
        file_hash=file_hash,
    )
