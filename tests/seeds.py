"""Editing a copy of the seed quizzes in a test, as an author edits the YAML."""

from io import StringIO

from django.core.management import call_command


def replace_line(text: str, starts_with: str, new: str) -> str:
    """`text` with its one line that starts with `starts_with` replaced by `new` (which
    ends with its own newline); the seeds may grow alternatives without breaking a test."""
    lines = text.splitlines(keepends=True)
    found = [i for i, line in enumerate(lines) if line.startswith(starts_with)]
    assert len(found) == 1, (starts_with, len(found))
    lines[found[0]] = new
    return "".join(lines)


def move_key_from_b_to_a(folder):
    """Edit q-10-01 in the YAML so that A is right instead of B, and re-import."""
    path = folder / "phase-10-init-norm-residuals.yaml"
    text = path.read_text()
    text = text.replace(
        "equivalente a fp32\n        correct: true\n", "equivalente a fp32\n", 1
    ).replace(
        "dando valores de gradiente más precisos\n",
        "dando valores de gradiente más precisos\n        correct: true\n",
        1,
    )
    path.write_text(text, "utf-8")
    out = StringIO()
    call_command("import_quizzes", str(folder), "--dry-run", stdout=out)
    call_command("import_quizzes", str(folder), stdout=StringIO())
    return out.getvalue()


def letter_options_again(folder):
    """Edit q-10-01 so that its right option, B, comes first and is lettered A (and the
    old A becomes B), as an author reorders a list; import. Returns the dry run's output."""
    path = folder / "phase-10-init-norm-residuals.yaml"
    text = path.read_text()
    start = text.index("      - key: A\n", text.index("id: q-10-01"))
    middle = text.index("      - key: B\n", start)
    end = text.index("      - key: C\n", middle)
    first, second = text[start:middle], text[middle:end]
    swapped = second.replace("key: B", "key: A") + first.replace("key: A", "key: B")
    path.write_text(text[:start] + swapped + text[end:], "utf-8")
    out = StringIO()
    call_command("import_quizzes", str(folder), "--dry-run", stdout=out)
    call_command("import_quizzes", str(folder), stdout=StringIO())
    return out.getvalue()
