"""Quiz files and cases shared by the loader and importer tests: a minimal valid set,
the bad cases the importer must refuse, and how to check that it wrote nothing."""

from io import StringIO
from pathlib import Path

import pytest
from django.core.management import CommandError, call_command

from quizzes.models import Phase, Question, QuestionRevision

MINIMAL = """\
format: 1
phase: 1
slug: basics
title: {en: Basics, es: Básicos}
questions:
  - id: q-01-01
    kind: single
    title: {en: Pick B}
    options:
      - key: A
        text: {en: Not this}
      - key: B
        text: {en: This one}
        correct: true
    explanation: {en: Because B.}
  - id: q-01-02
    kind: multi
    title: {en: Pick A and C}
    options:
      - key: A
        text: {en: 'Yes'}
        correct: true
      - key: B
        text: {en: 'No'}
      - key: C
        text: {en: Yes too}
        correct: true
    explanation: {en: A and C.}
  - id: q-01-03
    kind: free
    title: {en: Say identity}
    expected:
      - [identity, identidad]
    explanation: {en: The identity path.}
"""


def db_snapshot():
    return (
        sorted(
            Question.objects.values_list("code", "current_revision__content_hash", "retired_at")
        ),
        sorted(QuestionRevision.objects.values_list("question__code", "number", "content_hash")),
        sorted(Phase.objects.values_list("number", "slug", "title_en", "retired_at")),
    )


def refuse(folder: Path) -> list[str]:
    err = StringIO()
    with pytest.raises(CommandError, match=r"problem\(s\) found; nothing was imported"):
        call_command("import_quizzes", str(folder), stdout=StringIO(), stderr=err)
    return err.getvalue().splitlines()


CASES = {
    "unknown format": ("format: 1", "format: 2", 1, None, "unknown format 2"),
    "mistyped phase": (
        "phase: 1",
        "phase: one",
        2,
        None,
        "'phase' must be a whole number from 0 to 9999",
    ),
    "phase disagrees with file name": (
        "phase: 1",
        "phase: 2",
        2,
        None,
        "phase 2 disagrees with the file name (01)",
    ),
    "slug disagrees with file name": (
        "slug: basics",
        "slug: basic",
        3,
        None,
        "slug 'basic' disagrees with the file name ('basics')",
    ),
    "unknown field (typo)": (
        "        correct: true\n    explanation: {en: Because B.}",
        "        corect: true\n    explanation: {en: Because B.}",
        14,
        "q-01-01",
        "unknown field 'corect'; did you mean 'correct'?",
    ),
    "missing required field": (
        "    explanation: {en: Because B.}\n",
        "",
        6,
        "q-01-01",
        "missing required field 'explanation'",
    ),
    "mistyped kind": (
        "kind: single",
        "kind: singel",
        7,
        "q-01-01",
        "'kind' must be one of single, multi, free, numeric, not 'singel'",
    ),
    "single with no correct option": (
        "        text: {en: This one}\n        correct: true\n",
        "        text: {en: This one}\n",
        9,
        "q-01-01",
        "a single question needs exactly one correct option, not 0",
    ),
    "single with two correct options": (
        "        text: {en: Not this}\n",
        "        text: {en: Not this}\n        correct: true\n",
        9,
        "q-01-01",
        "a single question needs exactly one correct option, not 2",
    ),
    "multi with no correct option": (
        "        text: {en: 'Yes'}\n        correct: true\n"
        "      - key: B\n        text: {en: 'No'}\n"
        "      - key: C\n        text: {en: Yes too}\n        correct: true\n",
        "        text: {en: 'Yes'}\n      - key: B\n        text: {en: 'No'}\n"
        "      - key: C\n        text: {en: Yes too}\n",
        19,
        "q-01-02",
        "a multi question needs at least one correct option",
    ),
    "options on a free question": (
        "    kind: free\n",
        "    kind: free\n    options:\n      - key: A\n        text: x\n"
        "      - key: B\n        text: y\n",
        31,
        "q-01-03",
        "a free question has no 'options'",
    ),
    "expected mentions on a choice question": (
        "    kind: single\n",
        "    kind: single\n    expected: [x]\n",
        8,
        "q-01-01",
        "a single question has no 'expected'",
    ),
    "option key repeated": (
        "      - key: B\n        text: {en: This one}",
        "      - key: A\n        text: {en: This one}",
        12,
        "q-01-01",
        "option key 'A' is repeated (first on line 10)",
    ),
    "empty text": ("title: {en: Pick B}", "title: {en: ''}", 8, "q-01-01", "'title.en' is empty"),
    # A zero-width space and a soft hyphen: nothing a reader sees (author walk 27).
    "invisible text": (
        "title: {en: Pick B}",
        'title: {en: "\\u200b\\u00ad "}',
        8,
        "q-01-01",
        "'title.en' is empty",
    ),
    # Characters portal.invisible takes out that the schema's pattern does not list (an
    # Arabic number sign, a tag, an annotation anchor); a Hangul filler reads as a space.
    # (A C1 control is refused sooner, by the YAML reader.)
    "text of characters the grader takes out": (
        "title: {en: Pick B}",
        'title: {en: "\\U000E0041\\u3164"}',
        8,
        "q-01-01",
        "'title.en' is empty: it has only characters no reader sees (U+E0041 TAG",
    ),
    "option text of characters the grader takes out": (
        "text: {en: Not this}",
        'text: {en: "\\u0600\\u180e"}',
        11,
        "q-01-01",
        "'text.en' is empty: it has only characters no reader sees (U+0600 ARABIC NUMBER SIGN)",
    ),
    "phase title of characters the grader takes out": (
        "title: {en: Basics, es: Básicos}",
        'title: {en: Basics, es: "\\ufff9"}',
        4,
        None,
        "'title.es' is empty: it has only characters no reader sees (U+FFF9",
    ),
    "no English text": (
        "title: {en: Pick B}",
        "title: {es: Elige B}",
        8,
        "q-01-01",
        "'title' needs an English ('en') text",
    ),
    # An option's problem names the option: the line alone located it (author walk 3).
    "option with no English text": (
        "text: {en: This one}",
        "text: {es: Esta}",
        13,
        "q-01-01",
        "option B: 'text' needs an English ('en') text",
    ),
    # A plain-string text YAML reads as something else gets the hint a mapping's does
    # (author walk 1 of round 2: `title: No` was only "must be text or a mapping").
    "plain text read as true/false": (
        "title: {en: Pick B}",
        "title: No",
        8,
        "q-01-01",
        "'title' must be text or a mapping of en/es to text, not true/false (put it in quotes)",
    ),
    "plain option text read as a number": (
        "text: {en: Not this}",
        "text: 1.5",
        11,
        "q-01-01",
        "'text' must be text or a mapping of en/es to text, not a number (put it in quotes)",
    ),
    "duplicate id within a file": (
        "id: q-01-02",
        "id: q-01-01",
        16,
        "q-01-01",
        "duplicate question id (first in",
    ),
    "duplicate key": (
        "    kind: single\n",
        "    kind: single\n    kind: multi\n",
        8,
        None,
        "not valid YAML: duplicate key 'kind'",
    ),
    "object-constructing tag": (
        "title: {en: Basics, es: Básicos}",
        "title: !!python/object/apply:os.system ['echo pwned']",
        4,
        None,
        "YAML tags that construct objects are not allowed",
    ),
    "alias": (
        "    title: {en: Say identity}\n",
        "    title: &t {en: Say identity}\n    prompt: *t\n",
        31,  # libyaml resolves the alias to the anchored node, so the anchor's line
        None,
        "anchors and aliases are not allowed in quiz files",
    ),
    # An anchor no alias repeats expanded nothing, but it was taken out of the text
    # without a word: `en: &mut T is a borrow` is the text "T is a borrow" (docs audit 2).
    "anchor alone": (
        "    title: {en: Say identity}\n",
        "    title: {en: &mut Say identity}\n",
        31,
        None,
        "anchors and aliases are not allowed in quiz files",
    ),
    # Named on the line the { is left open on, not the next one, where YAML stopped.
    "not YAML": ("title: {en: Pick B}", "title: {en: Pick B", 8, "q-01-01", "not valid YAML"),
    "pass_mentions out of range": (
        "      - [identity, identidad]\n",
        "      - [identity, identidad]\n    pass_mentions: 2\n",
        34,
        "q-01-03",
        "'pass_mentions' must be a whole number from 1 to the number of expected mentions (1)",
    ),
    # An author walk: a mention of punctuation or stop words alone imported with a
    # warning, and no answer could be right (every mention needed, this one never found).
    "mention that reads as nothing": (
        "      - [identity, identidad]\n",
        "      - [identity, identidad]\n      - ['?', '--', '...']\n",
        34,
        "q-01-03",
        "mention 2 reads as nothing (every word a stop word, a negation or punctuation)",
    ),
    "rejected mention that reads as nothing": (
        "      - [identity, identidad]\n",
        "      - [identity, identidad]\n    reject:\n      - '...'\n",
        35,
        "q-01-03",
        "rejected mention 1 reads as nothing",
    ),
}


ODD_INPUTS = {
    "deep nesting": "questions: " + "[" * 5000 + "]" * 5000 + "\n",
    "questions as a mapping": "format: 1\nphase: 1\nslug: basics\ntitle: x\nquestions: {a: 1}\n",
    "options as text": MINIMAL.replace(
        "    options:\n      - key: A", "    options: abc\n    x:\n      - key: A", 1
    ),
    "mapping as key": "? [a, b]\n: 1\n",
    "two documents": "format: 1\n---\nformat: 1\n",
    "tab indentation": "format: 1\n\tphase: 2\n",
    "huge phase": MINIMAL.replace("phase: 1", "phase: 99999999999999999999999999"),
    "odd mention shapes": MINIMAL.replace(
        "      - [identity, identidad]", "      - []\n      - ['']\n      - [true]"
    ),
    "question not a mapping": "format: 1\nphase: 1\nslug: basics\ntitle: x\nquestions: [1, null]\n",
}
