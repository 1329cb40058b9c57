"""What an import says about a question whose id now stands in another phase's file."""

from io import StringIO

import pytest
from django.core.management import call_command

from quizzes.models import Question

pytestmark = pytest.mark.django_db

TEN = "phase-10-init-norm-residuals.yaml"
NINETEEN = "phase-19-training-dynamics.yaml"


def run_import(*args) -> str:
    out = StringIO()
    call_command("import_quizzes", *map(str, args), stdout=out, stderr=StringIO())
    return out.getvalue()


def test_import_of_one_file_names_the_question_an_id_copied_from_another_phase_takes(
    seed_dir,
):
    """An author walk: a question copied from phase 10 as a template, its id kept, and
    only the new file imported. The question left phase 10 unnamed ("changed: 1")."""
    run_import(seed_dir)
    nineteen = seed_dir / NINETEEN
    nineteen.write_text(nineteen.read_text().replace("id: q-19-01", "id: q-10-01"), "utf-8")

    output = run_import(nineteen, "--dry-run")

    assert (
        "Would move to another phase (attempts kept):\n"
        f"  q-10-01: phase 10 → 19 (not in the files read: if {TEN} still has q-10-01, "
        "the id was copied; give the new question its own id)\n"
    ) in output
    assert Question.objects.get(code="q-10-01").phase.number == 10


def test_import_of_a_new_file_with_a_used_phase_number_says_whose_phase_it_takes(seed_dir):
    """An author walk: phase 10's file copied as a template, given a new slug and new
    ids, its phase number kept, and imported alone. Phase 10's five questions were
    retired with no word of why."""
    run_import(seed_dir)
    ten = seed_dir / TEN
    copy = seed_dir.parent / "new" / "phase-10-norms-again.yaml"
    copy.parent.mkdir()
    text = ten.read_text().replace("slug: init-norm-residuals", "slug: norms-again")
    copy.write_text(text.replace("id: q-10-", "id: q-10b-"), "utf-8")

    output = run_import(copy, "--dry-run")

    assert output.startswith(
        "Would read phases from another file than before (their questions not in it "
        f"retire):\n  phase 10: {TEN} → phase-10-norms-again.yaml\n"
        "Would retire (hidden from learners, attempts kept):\n  q-10-01 (added as q-10b-01"
    )
