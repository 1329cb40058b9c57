"""The README stays short, every relative link in it and in docs/ leads somewhere, and
the worked key in docs/quiz-format.md imports as it says."""

import re
from io import StringIO
from pathlib import Path

import pytest
from django.core.management import call_command

from quizzes.models import Question

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


@pytest.mark.django_db
def test_quiz_format_worked_free_key_imports_with_its_examples_passing(tmp_path):
    """The author's guide in docs/quiz-format.md says its worked key imports and its
    examples pass: the importer grades each example and refuses the file otherwise."""
    text = (ROOT / "docs" / "quiz-format.md").read_text(encoding="utf-8")
    section = text.split("## Writing a free-text key that holds", 1)[1]
    block = section.split("```yaml\n", 1)[1].split("```", 1)[0]
    folder = tmp_path / "bank"
    folder.mkdir()
    header = "format: 1\nphase: 7\nslug: inference\ntitle: {en: Inference}\nquestions:\n"
    (folder / "phase-07-inference.yaml").write_text(header + block, encoding="utf-8")

    call_command("import_quizzes", str(folder), stdout=StringIO())

    question = Question.objects.get(code="q-07-04")
    assert len(question.current_revision.examples) == 5


@pytest.mark.parametrize("name", ["README.md", "docs/grading.md"])
def test_docs_name_the_grader_version_the_code_has(name):
    """Where a page names `GRADER_VERSION = N`, N is the version the matcher has."""
    from quizzes.grading import GRADER_VERSION

    named = re.findall(r"GRADER_VERSION = (\d+)", (ROOT / name).read_text(encoding="utf-8"))

    assert named and set(named) == {str(GRADER_VERSION)}
