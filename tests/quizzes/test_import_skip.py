"""Re-importing a large bank: files unchanged since the last import are not read again,
yet an edit, a removal and a clash with an unchanged file are still found."""

import re
from io import StringIO

import pytest
from django.core.management import CommandError, call_command

from quizzes import fileset
from quizzes.models import Phase, Question

pytestmark = pytest.mark.django_db


@pytest.fixture
def reads(monkeypatch):
    """The phase numbers of the files parsed, in order."""
    parsed = []
    original = fileset.read_document

    def counting(raw):
        parsed.append(int(re.search(rb"^phase: (\d+)", raw, re.MULTILINE)[1]))
        return original(raw)

    monkeypatch.setattr(fileset, "read_document", counting)
    return parsed


def run_import(folder, *args) -> str:
    out = StringIO()
    call_command("import_quizzes", str(folder), *args, stdout=out, stderr=StringIO())
    return out.getvalue()


def test_import_unchanged_files_are_not_read_again(seeds_imported, reads):
    output = run_import(seeds_imported)

    assert reads == []
    assert output.strip() == "added: 0, changed: 0, retired: 0, unchanged: 10"


def test_import_stores_each_phase_file_hash(seeds_imported):
    hashes = dict(Phase.objects.values_list("number", "source_hash"))

    assert sorted(hashes) == [10, 19]
    assert all(len(value) == 64 for value in hashes.values())
    assert hashes[10] != hashes[19]


def test_import_edited_file_alone_is_read(seeds_imported, reads):
    path = seeds_imported / "phase-19-training-dynamics.yaml"
    path.write_text(path.read_text().replace("LR too high.", "LR far too high."), "utf-8")

    output = run_import(seeds_imported)

    assert reads == [19]
    assert output.strip().endswith("added: 0, changed: 1, retired: 0, unchanged: 9")
    assert run_import(seeds_imported).strip().endswith("unchanged: 10")


def test_import_comment_only_edit_reads_the_file_and_changes_no_question(seeds_imported, reads):
    path = seeds_imported / "phase-10-init-norm-residuals.yaml"
    before = Phase.objects.get(number=10).source_hash
    path.write_text("# a comment\n" + path.read_text(), "utf-8")

    output = run_import(seeds_imported)

    assert reads == [10]
    assert output.strip() == "added: 0, changed: 0, retired: 0, unchanged: 10"
    assert Phase.objects.get(number=10).source_hash != before


def test_import_removed_file_still_retires_its_questions(seeds_imported, reads):
    (seeds_imported / "phase-10-init-norm-residuals.yaml").unlink()

    output = run_import(seeds_imported, "--prune")

    assert reads == []
    assert output.strip().endswith("added: 0, changed: 0, retired: 5, unchanged: 5")
    assert sorted(Question.objects.retired().values_list("code", flat=True)) == [
        f"q-10-0{n}" for n in range(1, 6)
    ]
    assert Phase.objects.get(number=10).retired_at is not None
    assert Phase.objects.get(number=19).retired_at is None


def test_import_retired_file_that_comes_back_unchanged_is_read_and_reinstated(
    seeds_imported, reads
):
    path = seeds_imported / "phase-10-init-norm-residuals.yaml"
    text = path.read_text()
    path.unlink()
    run_import(seeds_imported, "--prune")
    path.write_text(text, "utf-8")

    output = run_import(seeds_imported)

    assert reads == [10]
    assert output.strip().endswith(
        "Shown again (retired until now, its file read here):\n"
        "  phase 10 (phase-10-init-norm-residuals.yaml)\n"
        "added: 0, changed: 0, retired: 0, unchanged: 10"
    )
    assert Question.objects.retired().count() == 0


def test_import_id_clash_with_an_unchanged_file_is_located_in_both(seeds_imported):
    path = seeds_imported / "phase-19-training-dynamics.yaml"
    path.write_text(path.read_text().replace("id: q-19-05", "id: q-10-05"), "utf-8")
    err = StringIO()

    with pytest.raises(CommandError):
        call_command("import_quizzes", str(seeds_imported), stdout=StringIO(), stderr=err)

    assert err.getvalue().splitlines() == [
        f"{seeds_imported / 'phase-19-training-dynamics.yaml'}:136: q-10-05: duplicate "
        f"question id (first in {seeds_imported / 'phase-10-init-norm-residuals.yaml'}:152): "
        "a new question needs an id of its own; the same question is kept in one file"
    ]
