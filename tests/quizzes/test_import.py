"""Importing valid quiz sets: seeds, edits, removals, dry runs, re-runs."""

from io import StringIO

import pytest
from django.core.management import CommandError, call_command

from quizzes.models import Phase, Question, QuestionRevision
from tests.conftest import phase_yaml

pytestmark = pytest.mark.django_db

SEED_KEYS = {
    "q-10-01": ("single", ["B"]),
    "q-10-02": ("multi", ["A", "C"]),
    "q-10-03": ("free", []),
    "q-10-04": ("single", ["B"]),
    "q-10-05": ("single", ["C"]),
    "q-19-01": ("single", ["B"]),
    "q-19-02": ("free", []),
    "q-19-03": ("single", ["B"]),
    "q-19-04": ("multi", ["A", "B", "C"]),
    "q-19-05": ("free", []),
}


def run_import(*args, verbosity=1) -> str:
    out = StringIO()
    call_command("import_quizzes", *map(str, args), stdout=out, verbosity=verbosity)
    return out.getvalue()


def test_import_seed_files_creates_the_ten_seed_questions(seed_dir):
    output = run_import(seed_dir)

    questions = Question.objects.select_related("current_revision", "phase")
    found = {q.code: (q.current_revision.kind, q.current_revision.correct_keys) for q in questions}
    assert found == SEED_KEYS
    assert output.strip() == "added: 10, changed: 0, retired: 0, unchanged: 0"
    assert list(Phase.objects.values_list("number", "slug")) == [
        (10, "init-norm-residuals"),
        (19, "training-dynamics"),
    ]
    assert QuestionRevision.objects.count() == 10


def test_import_seed_free_questions_keep_their_expected_mentions(seed_dir):
    run_import(seed_dir)

    revision = Question.objects.get(code="q-10-03").current_revision
    assert revision.expected[0][:4] == ["identity", "identidad", "unit gain", "ganancia unitaria"]
    assert revision.pass_mentions is None
    assert len(revision.examples) == 4
    spike = Question.objects.get(code="q-19-02").current_revision
    assert spike.expected[0][0] == "3σ"
    assert spike.reject[0] == ["2σ", "2 sigma", "two standard deviations"]


def test_import_seed_spanish_falls_back_to_english_where_seed_has_no_spanish(seed_dir):
    run_import(seed_dir)

    revision = Question.objects.get(code="q-19-01").current_revision
    assert revision.title_es == "Firma de overflow fp16"
    assert revision.prompt_es == ""
    assert revision.text("prompt", "es")[1] == "en"
    assert revision.text("explanation", "es")[0].startswith("El máximo fp16 es 65504")


def test_import_same_files_twice_changes_nothing(seed_dir):
    run_import(seed_dir)
    before = list(QuestionRevision.objects.values_list("id", "content_hash"))

    output = run_import(seed_dir)

    assert output.strip() == "added: 0, changed: 0, retired: 0, unchanged: 10"
    assert list(QuestionRevision.objects.values_list("id", "content_hash")) == before


def test_import_edit_one_question_adds_exactly_one_revision(seed_dir):
    run_import(seed_dir)
    path = seed_dir / "phase-19-training-dynamics.yaml"
    old_revision = Question.objects.get(code="q-19-03").current_revision
    path.write_text(
        path.read_text().replace("Increase weight decay.", "Double the weight decay."), "utf-8"
    )

    output = run_import(seed_dir)

    question = Question.objects.get(code="q-19-03")
    assert output.splitlines() == [
        "Changed:",
        "  q-19-03: no attempts before this edit",
        "    text only: option C",
        "added: 0, changed: 1, retired: 0, unchanged: 9",
    ]
    assert list(question.revisions.values_list("number", flat=True)) == [1, 2]
    assert question.current_revision.number == 2
    assert question.current_revision.options[2]["text"]["en"] == "Double the weight decay."
    old_revision.refresh_from_db()
    assert old_revision.options[2]["text"]["en"] == "Increase weight decay."
    assert QuestionRevision.objects.count() == 11


def test_import_undone_edit_points_back_at_the_earlier_revision(seed_dir):
    run_import(seed_dir)
    path = seed_dir / "phase-19-training-dynamics.yaml"
    original = path.read_text()
    path.write_text(original.replace("LR too high.", "LR far too high."), "utf-8")
    run_import(seed_dir)
    path.write_text(original, "utf-8")

    output = run_import(seed_dir)

    question = Question.objects.get(code="q-19-01")
    assert output.splitlines()[-2:] == [
        "    text only: option C",
        "added: 0, changed: 1, retired: 0, unchanged: 9",
    ]
    assert question.current_revision.number == 1
    assert question.revisions.count() == 2


def test_import_removed_question_is_retired_not_deleted(seed_dir):
    run_import(seed_dir)
    path = seed_dir / "phase-10-init-norm-residuals.yaml"
    text = path.read_text()
    start = text.index("  - id: q-10-05")
    path.write_text(text[:start], "utf-8")

    output = run_import(seed_dir, verbosity=2)

    question = Question.objects.get(code="q-10-05")
    assert question.retired_at is not None
    assert question.revisions.count() == 1
    assert "Retired (hidden from learners, attempts kept):\n  q-10-05\n" in output
    assert output.strip().endswith("added: 0, changed: 0, retired: 1, unchanged: 9")
    assert run_import(seed_dir).strip() == "added: 0, changed: 0, retired: 0, unchanged: 9"


def test_import_retired_question_that_comes_back_is_reinstated(seed_dir, tmp_path):
    run_import(seed_dir)
    path = seed_dir / "phase-10-init-norm-residuals.yaml"
    original = path.read_text()
    path.write_text(original[: original.index("  - id: q-10-05")], "utf-8")
    run_import(seed_dir)
    path.write_text(original, "utf-8")

    dry_run = run_import(seed_dir, "--dry-run")
    output = run_import(seed_dir)

    # Named, as a retired one is: "unchanged: 10" alone hid it (author walk 1, round 2).
    assert dry_run.strip() == (
        "Would show again (retired until now, attempts kept):\n  q-10-05\n"
        "dry run: added: 0, changed: 0, retired: 0, unchanged: 10"
    )
    assert output.strip() == (
        "Shown again (retired until now, attempts kept):\n  q-10-05\n"
        "added: 0, changed: 0, retired: 0, unchanged: 10"
    )
    assert Question.objects.get(code="q-10-05").retired_at is None


def test_import_question_moved_to_another_file_keeps_its_identity(seed_dir):
    run_import(seed_dir)
    ten = seed_dir / "phase-10-init-norm-residuals.yaml"
    nineteen = seed_dir / "phase-19-training-dynamics.yaml"
    text = ten.read_text()
    block = text[text.index("  - id: q-10-05") :]
    ten.write_text(text.replace(block, ""), "utf-8")
    nineteen.write_text(nineteen.read_text().rstrip("\n") + "\n\n" + block, "utf-8")

    output = run_import(seed_dir)

    question = Question.objects.get(code="q-10-05")
    assert output.strip() == (
        "Moved to another phase (attempts kept):\n  q-10-05: phase 10 → 19\n"
        "added: 0, changed: 0, retired: 0, unchanged: 10"
    )
    assert (question.phase.number, question.position) == (19, 6)
    assert question.revisions.count() == 1


def test_import_phase_missing_from_files_is_retired(seed_dir):
    run_import(seed_dir)
    (seed_dir / "phase-10-init-norm-residuals.yaml").unlink()

    output = run_import(seed_dir, "--prune")

    assert output.strip() == (
        "Retired (hidden from learners), no file for them here:\n"
        "  phase 10 (phase-10-init-norm-residuals.yaml)\n"
        "added: 0, changed: 0, retired: 5, unchanged: 5"
    )
    assert Phase.objects.get(number=10).retired_at is not None
    assert list(Phase.objects.active().values_list("number", flat=True)) == [19]


def test_import_of_a_retired_phases_file_shows_it_again_and_says_so(seed_dir, tmp_path):
    run_import(seed_dir)
    ten = seed_dir / "phase-10-init-norm-residuals.yaml"
    kept = tmp_path / "kept"
    kept.mkdir()
    ten.rename(kept / ten.name)
    run_import(seed_dir, "--prune")

    output = run_import(kept)

    assert output.strip() == (
        "Shown again (retired until now, its file read here):\n"
        "  phase 10 (phase-10-init-norm-residuals.yaml)\n"
        "added: 0, changed: 0, retired: 0, unchanged: 5"
    )
    assert Phase.objects.get(number=10).retired_at is None
    assert Question.objects.active().filter(phase__number=10).count() == 5


def test_import_dry_run_prints_plan_and_writes_nothing(seed_dir):
    run_import(seed_dir)
    path = seed_dir / "phase-19-training-dynamics.yaml"
    path.write_text(path.read_text().replace("Bad init.", "Poor init."), "utf-8")
    (seed_dir / "phase-10-init-norm-residuals.yaml").unlink()
    before = list(QuestionRevision.objects.values_list("id", "content_hash"))

    output = StringIO()
    call_command("import_quizzes", str(seed_dir), "--prune", "--dry-run", "-v", "2", stdout=output)

    assert "Changed:\n  q-19-01: no attempts before this edit\n" in output.getvalue()
    assert (
        output.getvalue()
        .strip()
        .endswith(
            "Would retire (hidden from learners), no file for them here:\n"
            "  phase 10 (phase-10-init-norm-residuals.yaml)\n"
            "dry run: added: 0, changed: 1, retired: 5, unchanged: 4"
        )
    )
    assert list(QuestionRevision.objects.values_list("id", "content_hash")) == before
    assert Question.objects.retired().count() == 0


def test_import_dry_run_on_empty_database_writes_nothing(seed_dir):
    output = run_import(seed_dir, "--dry-run")

    assert output.strip() == "dry run: added: 10, changed: 0, retired: 0, unchanged: 0"
    assert Question.objects.count() == 0
    assert Phase.objects.count() == 0


def test_import_failure_part_way_rolls_everything_back(seed_dir, monkeypatch):
    run_import(seed_dir)
    path = seed_dir / "phase-19-training-dynamics.yaml"
    path.write_text(path.read_text().replace("Bad init.", "Poor init."), "utf-8")
    before = list(Question.objects.values_list("code", "current_revision_id", "retired_at"))

    def explode(*args, **kwargs):
        raise RuntimeError("disk full")

    monkeypatch.setattr(Question.objects, "bulk_update", explode)
    with pytest.raises(RuntimeError, match="disk full"):
        run_import(seed_dir)

    assert list(Question.objects.values_list("code", "current_revision_id", "retired_at")) == before
    assert QuestionRevision.objects.count() == 10


def test_revision_cannot_be_modified_or_deleted(seed_dir):
    run_import(seed_dir)
    revision = QuestionRevision.objects.first()

    revision.title_en = "changed"
    with pytest.raises(ValueError, match="never modified"):
        revision.save()
    with pytest.raises(ValueError, match="never deleted"):
        revision.delete()


def test_import_explain_prints_each_phrasing_as_read_and_writes_nothing(seed_dir):
    out, err = StringIO(), StringIO()

    call_command("import_quizzes", str(seed_dir), "--explain", "--dry-run", stdout=out, stderr=err)

    lines = out.getvalue().splitlines()
    assert "q-19-02:" in lines
    sigma = "[σ / sigma / std / stdev / std dev / sd / …]"
    assert f"    '3 sigma' → [3 / three / tres / thrice] + {sigma}" in lines
    assert "q-10-01:" not in lines  # a choice question has no key to explain
    assert Question.objects.count() == 0


def test_import_explain_of_a_refused_set_still_prints_how_its_keys_read(seed_dir):
    """An author walk: an example the key grades otherwise refuses the file, and the
    author runs --explain to see why: the keys are printed, then the problems."""
    ten = seed_dir / "phase-10-init-norm-residuals.yaml"
    ten.write_text(
        ten.read_text().replace(
            '{answer: "The weights are initialised to the identity matrix.", right: false}',
            '{answer: "The weights are initialised to the identity matrix.", right: true}',
        ),
        "utf-8",
    )
    out, err = StringIO(), StringIO()

    with pytest.raises(CommandError, match="nothing was imported"):
        call_command("import_quizzes", str(ten), "--explain", stdout=out, stderr=err)

    assert "q-10-03:" in out.getvalue().splitlines()
    assert "expected right, graded wrong" in err.getvalue()


def test_import_warns_about_a_key_that_will_not_hold(tmp_path):
    """Located as the import's errors are (author walk 4: a warning named the question
    and the mention's number, not the file and line to open)."""
    path = tmp_path / "phase-01-generated.yaml"
    text = phase_yaml(3).replace("[zebraword, cebrapalabra]", "[to disk, zebraword]")
    path.write_text(text, encoding="utf-8")
    line = text.splitlines().index("      - [to disk, zebraword]") + 1
    out, err = StringIO(), StringIO()

    call_command("import_quizzes", str(tmp_path), stdout=out, stderr=err)

    assert err.getvalue().strip() == (
        f"{path}:{line}: q-01-02: expected 1: 'to disk' shrinks to one word, 'disk', once the"
        " stop words (to) are left out: any answer with that word finds it; add a word that"
        " names the claim"
    )
    assert Question.objects.count() == 3


def test_import_of_one_file_leaves_the_other_phases_alone(seed_dir, tmp_path):
    run_import(seed_dir)
    alone = tmp_path / "alone"
    alone.mkdir()
    ten = seed_dir / "phase-10-init-norm-residuals.yaml"
    (alone / ten.name).write_text(ten.read_text(), "utf-8")

    dry = run_import(ten, "--dry-run")
    one_file = run_import(ten)
    one_file_folder = run_import(alone)

    assert dry.strip() == "dry run: added: 0, changed: 0, retired: 0, unchanged: 5"
    assert one_file.strip() == "added: 0, changed: 0, retired: 0, unchanged: 5"
    assert one_file_folder.strip().endswith("added: 0, changed: 0, retired: 0, unchanged: 5")
    assert list(Phase.objects.active().values_list("number", flat=True)) == [10, 19]
    assert Question.objects.retired().count() == 0


def test_import_of_one_file_retires_a_question_gone_from_it(seed_dir):
    run_import(seed_dir)
    ten = seed_dir / "phase-10-init-norm-residuals.yaml"
    text = ten.read_text()
    ten.write_text(text[: text.index("  - id: q-10-05")], "utf-8")

    dry_run = run_import(ten, "--dry-run")
    output = run_import(ten)

    # Named without -v 2: "retired: 1" alone does not say which question is hidden.
    assert dry_run.strip() == (
        "Would retire (hidden from learners, attempts kept):\n  q-10-05\n"
        "dry run: added: 0, changed: 0, retired: 1, unchanged: 4"
    )
    assert output.strip() == (
        "Retired (hidden from learners, attempts kept):\n  q-10-05\n"
        "added: 0, changed: 0, retired: 1, unchanged: 4"
    )
    assert list(Question.objects.retired().values_list("code", flat=True)) == ["q-10-05"]


def test_import_without_paths_is_the_whole_bank_and_says_which_phases_it_hides(seed_dir, settings):
    run_import(seed_dir)
    (seed_dir / "phase-10-init-norm-residuals.yaml").unlink()
    settings.QUIZ_DATA_DIR = seed_dir

    output = run_import("--dry-run")

    assert output.strip() == (
        "Would retire (hidden from learners), no file for them here:\n"
        "  phase 10 (phase-10-init-norm-residuals.yaml)\n"
        "dry run: added: 0, changed: 0, retired: 5, unchanged: 5"
    )
    assert Phase.objects.filter(retired_at__isnull=False).count() == 0


def test_import_says_a_retired_question_looks_renamed_to_an_added_one(seed_dir):
    """An author walk: a question's id renamed in its file retires it and adds another,
    whose learners start afresh. The import points it out (a question only cut from its
    file gets no such note: the test above)."""
    run_import(seed_dir)
    ten = seed_dir / "phase-10-init-norm-residuals.yaml"
    ten.write_text(ten.read_text().replace("id: q-10-05", "id: q-10-05-renamed"), "utf-8")

    output = run_import(ten, "--dry-run")

    assert (
        "  q-10-05 (added as q-10-05-renamed, the same title? An id is the question: its "
        "attempts stay with q-10-05 and learners see q-10-05-renamed unanswered; keep the "
        "id to keep them)\n"
    ) in output
