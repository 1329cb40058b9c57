"""Markdown mirrors of the quiz YAML, one per phase and language, for quick reading.

Generated from the validated documents (not the database) so they always say what the
files say. Output is deterministic: the same YAML gives the same bytes.
"""

from __future__ import annotations

import re
from collections import Counter
from decimal import Decimal
from pathlib import Path

from markdown_it import MarkdownIt

from portal.languages import LANGUAGE_CODES

from .enums import QuestionKind
from .grading.numeric import plain
from .loader import PhaseDoc, QuestionDoc

LABELS = {
    "en": {
        "heading": "Phase {number} — {title} (quiz mirror)",
        "intro": (
            "The canonical questions live in `{source}`. This file is its Markdown mirror "
            "for quick review; it is generated, so edit the YAML instead."
        ),
        "kind": {
            QuestionKind.SINGLE: "single",
            QuestionKind.MULTI: "multi",
            QuestionKind.FREE: "free",
            QuestionKind.NUMERIC: "numeric",
        },
        "correct": "Correct",
        "answer": "Answer",
        "decimal": ".",
        "percent": "{number}%",
        "mentions": "Free response. Expected mentions",
        "needed": "{needed} of {total} needed",
        "reject": "Wrong if it says",
        "examples": "Examples",
        "or": "or",
        "prompt_fallback": "Prompt (EN)",
    },
    "es": {
        "heading": "Fase {number} — {title} (espejo)",
        "intro": (
            "Las preguntas canónicas viven en `{source}`. Este archivo es el espejo en "
            "Markdown para repaso rápido; se genera, así que edita el YAML."
        ),
        "kind": {
            QuestionKind.SINGLE: "única",
            QuestionKind.MULTI: "múltiple",
            QuestionKind.FREE: "libre",
            QuestionKind.NUMERIC: "numérica",
        },
        "correct": "Correcta",
        "answer": "Respuesta",
        "decimal": ",",
        "percent": "{number} %",  # as the learner's page writes it in Spanish
        "mentions": "Respuesta libre. Menciones esperadas",
        "needed": "basta con {needed} de {total}",
        "reject": "Incorrecta si dice",
        "examples": "Ejemplos",
        "or": "o",
        "prompt_fallback": "Prompt (EN)",
        # The line under the intro that counts the texts still in English (FLAG).
        "pending": "Por traducir: {count} de {total} textos siguen en inglés, marcados (EN): "
        "{fields}.",
        "nothing_pending": "Por traducir: nada; los {total} textos están en español.",
        "fields": {
            "title": ("título", "títulos"),
            "prompt": ("enunciado", "enunciados"),
            "option": ("opción", "opciones"),
            "explanation": ("explicación", "explicaciones"),
            "unit": ("unidad", "unidades"),
        },
    },
}
# Before a text shown in English on a page of another language, where it falls back
# field by field: the mirror's counterpart of the portal's small "EN" flag.
FLAG = "(EN)"


def mirror_name(phase: PhaseDoc, language: str) -> str:
    stem = phase.file_name.removesuffix(".yaml")
    return f"{stem}.md" if language == "en" else f"{stem}.{language}.md"


def source_path(*, phase: PhaseDoc, base_dir: Path) -> str:
    """Where the phase's YAML really is: relative to the project when it is inside it
    (so the committed mirrors read the same on every machine), else absolute."""
    path = Path(phase.path).resolve()
    try:
        return path.relative_to(base_dir.resolve()).as_posix()
    except ValueError:
        return path.as_posix()


class _Texts:
    """The texts of one mirror in its language, counted: how many, and by field how many
    fall back to English (each then marked with FLAG)."""

    def __init__(self, language: str):
        self.language = language
        self.total = 0
        self.english: Counter[str] = Counter()

    def get(self, texts: dict[str, str], field: str) -> tuple[str, str]:
        """(text, flag): the flag is FLAG when the text falls back to English, else ""."""
        self.total += 1
        if texts.get(self.language):
            return texts[self.language], ""
        self.english[field] += 1
        return texts["en"], FLAG

    def inline(self, texts: dict[str, str], field: str) -> str:
        """The text, after its flag when it falls back: `(EN) Bad init.`"""
        return _flagged(*self.get(texts, field))

    def summary(self) -> list[str]:
        """The line under the intro of a translation's mirror; none for English's."""
        labels = LABELS[self.language]
        if "pending" not in labels:
            return []
        count = sum(self.english.values())
        if not count:
            return [labels["nothing_pending"].format(total=self.total), ""]
        fields = ", ".join(
            f"{n} {names[n != 1]}"
            for field, names in labels["fields"].items()
            if (n := self.english[field])
        )
        line = labels["pending"].format(count=count, total=self.total, fields=fields)
        return [line, ""]


def _flagged(text: str, flag: str) -> str:
    return f"{flag} {text}" if flag else text


def _one_line(text: str) -> str:
    return " ".join(text.split())


def _is_short(text: str) -> bool:
    # One line of Markdown can follow a label on the same line; anything longer (code,
    # lists, several paragraphs) keeps its own lines so its block structure survives.
    return "\n" not in text


# The mirrors are read where Markdown's raw HTML is interpreted (GitHub, editors).
_READERS = MarkdownIt("commonmark", {"html": True})
_HTML_START = re.compile(r"^( {0,3})<")


def _contained(text: str) -> str:
    """`text` as Markdown that ends where it ends, as each text does in the portal: an
    HTML block (`<!--`, `<script>`, `<pre>`…, which run until their end tag) shown as
    the text the portal shows, and a code fence left open closed, so that neither
    swallows the questions after it."""
    lines = text.split("\n")
    tokens = _READERS.parse(text)
    for token in tokens:
        if token.type == "html_block" and token.level == 0 and token.map:
            first = token.map[0]
            lines[first] = _HTML_START.sub(r"\1\\<", lines[first], count=1)
    top = [token for token in tokens if token.level == 0]
    if top and top[-1].type == "fence" and top[-1].map:
        fence = top[-1]
        start, end = fence.map
        closing = lines[end - 1].strip() if end - start > 1 else ""
        marker = fence.markup
        if not (closing.startswith(marker) and closing == marker[0] * len(closing)):
            lines.append(marker)
    return "\n".join(lines)


def _after(label: str, text: str, flag: str = "") -> list[str]:
    """`label text` on one line, or the label and then `text` as written, as blocks; a
    flag goes between them (at the end of the label's line, above a block)."""
    text = _contained(text)
    label = f"{label} {flag}".strip()
    if _is_short(text):
        return [f"{label} {text}".strip(), ""]
    return [label, "", *text.splitlines(), ""] if label else [*text.splitlines(), ""]


def _option(key: str, mark: str, text: str, flag: str = "") -> list[str]:
    """An option as a list item whose body is Markdown: indented under `- ` so that
    fences, lists and paragraphs stay inside the item."""
    if _is_short(text):
        return [f"- {key}. {_flagged(text, flag)}{mark}"]
    lines = [f"- {key}.{mark}{f' {flag}' if flag else ''}", ""]
    lines += [f"  {line}" if line.strip() else "" for line in text.splitlines()]
    return [*lines, ""]


def _number(value, language: str) -> str:
    return plain(Decimal(str(value))).replace(".", LABELS[language]["decimal"])


def _numeric(question: QuestionDoc, texts: _Texts) -> str:
    """ "3.5 GB ± 0.05", "14 GB ± 5%" ("14 GB ± 5 %" in Spanish, as the page writes it):
    the value, its unit and the tolerance if any."""
    key, language = question.numeric, texts.language
    unit = key.get("unit")
    shown = _number(key["answer"], language)
    if unit:
        shown += " " + texts.inline(unit, "unit")
    tolerance = key.get("tolerance")
    if isinstance(tolerance, str):
        number = _number(tolerance.strip().removesuffix("%").strip(), language)
        return f"{shown} ± " + LABELS[language]["percent"].format(number=number)
    return f"{shown} ± {_number(tolerance, language)}" if tolerance else shown


def _question(question: QuestionDoc, texts: _Texts) -> list[str]:
    labels = LABELS[texts.language]
    kind = labels["kind"][question.kind]
    title = texts.inline(question.title, "title")
    lines = [f"## {question.code} — {_one_line(title)} ({kind})", ""]
    if question.prompt:
        prompt, flag = texts.get(question.prompt, "prompt")
        # Labelled as the seed pages had it: the flag is in the label.
        lines += _after(f"{labels['prompt_fallback']}:" if flag else "", prompt)
    explanation, flag = texts.get(question.explanation, "explanation")
    if question.kind == QuestionKind.FREE:

        def listed(mentions) -> str:
            shown = []
            for first, *others in mentions:
                rest = f" ({labels['or']} {', '.join(f'“{a}”' for a in others)})" if others else ""
                shown.append(f"{first}{rest}")
            return "; ".join(shown) + "."

        needed = question.pass_mentions or len(question.expected)
        count = labels["needed"].format(needed=needed, total=len(question.expected))
        lines += [f"{labels['mentions']} ({count}): {listed(question.expected)}", ""]
        if question.reject:
            lines += [f"{labels['reject']}: {listed(question.reject)}", ""]
        lines += _examples(question, labels)  # beside the key they test
        lines += _after("", explanation, flag)
    elif question.kind == QuestionKind.NUMERIC:
        answer = f"**{labels['answer']}: {_numeric(question, texts)}.**"
        lines += _after(answer, explanation, flag) + _examples(question, labels)
    else:
        options = []
        for option in question.options:
            mark = " ✓" if option.correct else ""
            options += _option(option.key, mark, *texts.get(option.text, "option"))
        # A blank line after a block item already ends the list; never two in a row.
        lines += options if options[-1] == "" else [*options, ""]
        correct = ", ".join(question.correct_keys)
        lines += _after(f"**{labels['correct']}: {correct}.**", explanation, flag)
    return lines


def _examples(question: QuestionDoc, labels: dict) -> list[str]:
    """`Examples: ✓ “14 GB”, “13,04” (es); ✗ “7”.`: the answers the key must grade right,
    then wrong, in the file's order, on one line; nothing when there are none."""
    groups = []
    for mark, right in (("✓", True), ("✗", False)):
        shown = [
            f"“{_one_line(e.answer)}”" + (f" ({e.lang})" if e.lang else "")
            for e in question.examples
            if e.right is right
        ]
        if shown:
            groups.append(f"{mark} {', '.join(shown)}")
    return [f"{labels['examples']}: {'; '.join(groups)}.", ""] if groups else []


HEADER = "<!-- Generated by `python manage.py export_mirrors` from {source}. -->"


def mirror_source_exists(*, mirror: Path, base_dir: Path) -> bool:
    """Whether the YAML a mirror names in its first line is still there: a mirror of
    another folder's file (the bank's, when an author exports a scratch folder into the
    default --out) is not an orphan of this export."""
    with mirror.open(encoding="utf-8", errors="replace") as lines:
        first = lines.readline().rstrip("\n")
    prefix, suffix = HEADER.split("{source}")
    if not (first.startswith(prefix) and first.endswith(suffix)):
        return False
    source = Path(first[len(prefix) : -len(suffix)])
    return (source if source.is_absolute() else base_dir / source).is_file()


def render_mirror(*, phase: PhaseDoc, language: str, source: str) -> str:
    labels = LABELS[language]
    texts = _Texts(language)
    title = _one_line(texts.inline(phase.title, "title"))
    body: list[str] = []
    for question in phase.questions:
        body += _question(question, texts)
    lines = [
        HEADER.format(source=source),
        "",
        "# " + labels["heading"].format(number=phase.number, title=title),
        "",
        labels["intro"].format(source=source),
        "",
        *texts.summary(),
        *body,
    ]
    return "\n".join(lines).rstrip() + "\n"


def render_all(*, phases: list[PhaseDoc], base_dir: Path) -> dict[str, str]:
    """File name → content, for every phase in both languages."""
    return {
        mirror_name(phase, language): render_mirror(
            phase=phase, language=language, source=source_path(phase=phase, base_dir=base_dir)
        )
        for phase in phases
        for language in LANGUAGE_CODES
    }
