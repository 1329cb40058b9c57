"""Builders of small quiz files for the loader and importer tests."""

import textwrap
from pathlib import Path

import pytest

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


@pytest.fixture
def write_quiz(tmp_path: Path):
    """Write YAML text as a quiz file in a fresh folder and return the folder."""
    folder = tmp_path / "set"
    folder.mkdir()

    def write(text: str = MINIMAL, name: str = "phase-01-basics.yaml") -> Path:
        (folder / name).write_text(textwrap.dedent(text), encoding="utf-8")
        return folder

    return write
