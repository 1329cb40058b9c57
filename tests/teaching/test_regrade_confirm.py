"""The regrade's confirmation records the plan it showed, or nothing."""

import shutil
from io import StringIO

import pytest
from django.core.management import call_command

from progress.models import Regrade
from quizzes.models import Question
from tests.admin_forms import basis
from tests.conftest import DATA_DIR

pytestmark = pytest.mark.django_db


def test_a_confirmation_shown_before_an_import_changed_the_key_records_nothing(
    admin_client, edited, seeds_imported
):
    question = Question.objects.get(code="q-10-01")
    data = {"action": "regrade", "_selected_action": [question.pk]}
    confirm = admin_client.post("/admin/quizzes/question/", data)
    # Meanwhile the author puts the key back (B) and imports: another plan altogether.
    shutil.copy(DATA_DIR / "phase-10-init-norm-residuals.yaml", seeds_imported)
    call_command("import_quizzes", str(seeds_imported), stdout=StringIO())

    again = admin_client.post(
        "/admin/quizzes/question/", data | {"confirm": "yes", "basis": basis(confirm)}
    )

    assert Regrade.objects.count() == 0
    assert "The questions changed since that plan was shown" in again.content.decode()
    assert basis(again) != basis(confirm)  # the page shows the plan as it stands now
