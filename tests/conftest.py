"""Fixtures shared by every test folder."""

import shutil
from pathlib import Path

import pytest

DATA_DIR = Path(__file__).resolve().parent.parent / "data" / "quizzes"


@pytest.fixture
def seed_dir(tmp_path: Path) -> Path:
    """A writable copy of the real quiz files."""
    target = tmp_path / "quizzes"
    shutil.copytree(DATA_DIR, target)
    return target
