"""A command run before `migrate` (a newcomer's first `manage.py import_quizzes`) says
which step to take, not a traceback of "no such table", and writes nothing."""

from io import StringIO

import pytest
from django.contrib.auth import get_user_model
from django.core.management import CommandError, call_command
from django.db import connection

from accounts.models import Invite
from quizzes.models import Question

pytestmark = pytest.mark.django_db

COMMANDS = [
    ("import_quizzes",),
    ("import_quizzes", "--dry-run", "--explain"),
    ("regrade", "--grader", "--dry-run"),
    ("setup_link",),
    ("invite", "--count", "2"),
]


@pytest.mark.parametrize("command", COMMANDS, ids=" ".join)
def test_a_command_before_migrate_says_to_migrate(command, monkeypatch):
    monkeypatch.setattr(connection.introspection, "table_names", lambda *a, **k: [])

    with pytest.raises(CommandError, match=r"no tables yet: run `python manage.py migrate`"):
        call_command(*command, stdout=StringIO(), stderr=StringIO())

    assert not Question.objects.exists()
    assert not Invite.objects.exists()
    assert not get_user_model().objects.exists()
