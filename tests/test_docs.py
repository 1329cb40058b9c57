"""The README stays short and every relative link in it and in docs/ leads somewhere."""

import re
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
README_MAX_LINES = 250
LINK = re.compile(r"\]\(([^)\s]+)\)")
DOCS = [ROOT / "README.md", *sorted((ROOT / "docs").glob("*.md"))]


def relative_targets(path: Path) -> list[str]:
    """The link targets of a Markdown file that point into the repository."""
    targets = []
    for target in LINK.findall(path.read_text(encoding="utf-8")):
        if re.match(r"^[a-z]+:", target) or target.startswith("#"):
            continue
        targets.append(target.split("#", 1)[0])
    return targets


def test_readme_is_at_most_250_lines():
    lines = (ROOT / "README.md").read_text(encoding="utf-8").splitlines()

    assert len(lines) <= README_MAX_LINES


@pytest.mark.parametrize("path", DOCS, ids=lambda p: str(p.relative_to(ROOT)))
def test_markdown_relative_links_resolve(path):
    missing = [t for t in relative_targets(path) if not (path.parent / t).exists()]

    assert missing == []


def test_readme_links_every_subject_file_in_docs():
    linked = {Path(t).name for t in relative_targets(ROOT / "README.md")}
    subjects = {p.name for p in (ROOT / "docs").glob("*.md")}

    assert subjects - linked == set()
