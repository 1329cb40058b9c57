"""Two imports of one edit run at once (two deploys, a cron and a hand)."""

from functools import partial
from io import StringIO

import pytest
from django.core.management import call_command

from quizzes.loader import load_quiz_set
from quizzes.models import Question
from tests.threads import at_once


@pytest.mark.django_db(transaction=True)
def test_two_imports_of_one_edit_at_once_add_one_revision(seed_dir, monkeypatch):
    """(Red team 14) Six `import_quizzes` of one edited file started at once on
    PostgreSQL: each read the stored revisions before any had written, three said
    the question changed, and one failed on the unique constraint with a traceback
    (exit status 1). An import
    now locks the questions before it reads them: the second waits, then finds the
    edit imported. Here two, the first slowed between its read and its write."""
    import threading
    import time

    from quizzes import services

    call_command("import_quizzes", str(seed_dir), stdout=StringIO())
    path = next(seed_dir.glob("phase-10-*.yaml"))
    old = "en: Why is bf16 preferred over fp16 for training?"
    path.write_text(path.read_text().replace(old, old.replace("over", "to")), "utf-8")
    sets = [load_quiz_set([path]) for _ in range(2)]
    describe = services._changes_describe
    first = threading.Lock()

    def slow_describe(plan, existing):
        if first.acquire(blocking=False):
            time.sleep(0.5)  # the other import reads meanwhile
        return describe(plan, existing)

    monkeypatch.setattr(services, "_changes_describe", slow_describe)

    imports = at_once(*(partial(services.quiz_import, quiz_set=quiz_set) for quiz_set in sets))
    changed = sorted(len(plan.changed) for plan in imports)

    assert changed == [0, 1]
    question = Question.objects.get(code="q-10-01")
    assert question.revisions.count() == 2
    assert question.current_revision.number == 2
