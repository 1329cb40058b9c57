"""`manage.py prepare`, the set-up step of `make run` and `make serve`."""

from io import StringIO

import pytest
from django.core.management import call_command

from accounts.models import SetupLink
from quizzes.models import Question
from tests.factories import UserFactory

pytestmark = pytest.mark.django_db


def test_prepare_imports_quizzes_and_prints_the_setup_link_once_when_no_account():
    out = StringIO()

    call_command("prepare", stdout=out)

    lines = out.getvalue().splitlines()
    assert lines[0] == "added: 10, changed: 0, retired: 0, unchanged: 0"
    assert lines[-1].startswith("http://127.0.0.1:8000/setup/")
    assert Question.objects.count() == 10
    assert SetupLink.objects.count() == 1


def test_prepare_counts_the_key_warnings_that_import_quizzes_lists():
    listed, counted = StringIO(), StringIO()
    call_command("import_quizzes", "--dry-run", stdout=StringIO(), stderr=listed)

    call_command("prepare", stdout=StringIO(), stderr=counted)

    warnings = listed.getvalue().splitlines()
    assert warnings and all(line.startswith("data/quizzes/phase-") for line in warnings)
    # Whoever starts the portal reads one line; the authors' command lists them.
    assert counted.getvalue().splitlines() == [
        f"{len(warnings)} warning(s) about free-text keys that may not hold, for the quiz's "
        "authors: `manage.py import_quizzes --dry-run --explain` lists them (docs/grading.md)."
    ]


def test_prepare_again_changes_nothing_and_prints_no_link_once_accounts_exist():
    call_command("prepare", stdout=StringIO())
    UserFactory()
    out = StringIO()

    call_command("prepare", stdout=out)

    assert out.getvalue().splitlines() == ["added: 0, changed: 0, retired: 0, unchanged: 10"]
    assert SetupLink.objects.count() == 1
