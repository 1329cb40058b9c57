"""Builders of small quiz files for the loader and importer tests."""

import textwrap
from pathlib import Path

import pytest

from .cases import MINIMAL


@pytest.fixture
def write_quiz(tmp_path: Path):
    """Write YAML text as a quiz file in a fresh folder and return the folder."""
    folder = tmp_path / "set"
    folder.mkdir()

    def write(text: str = MINIMAL, name: str = "phase-01-basics.yaml") -> Path:
        (folder / name).write_text(textwrap.dedent(text), encoding="utf-8")
        return folder

    return write
