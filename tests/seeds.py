"""Editing a copy of the seed quizzes in a test, as an author edits the YAML."""


def replace_line(text: str, starts_with: str, new: str) -> str:
    """`text` with its one line that starts with `starts_with` replaced by `new` (which
    ends with its own newline); the seeds may grow alternatives without breaking a test."""
    lines = text.splitlines(keepends=True)
    found = [i for i, line in enumerate(lines) if line.startswith(starts_with)]
    assert len(found) == 1, (starts_with, len(found))
    lines[found[0]] = new
    return "".join(lines)
