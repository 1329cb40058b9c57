"""A regrade's plan is read, then written: a verdict another regrade moved in between
(an import and its regrade racing the first) keeps what that regrade wrote. Red team
round 22."""

from io import StringIO

from django.core.management import call_command

from progress.models import Attempt
from quizzes.models import Question
from teaching.impact import key_changes
from teaching.models import RegradeCheck
from teaching.services import regrade_apply, regrade_plan
from tests.factories import UserFactory, answer
from tests.seeds import move_key_from_b_to_a

RIGHT = "        correct: true\n"
A_TEXT = "dando valores de gradiente más precisos\n"
C_TEXT = "en todos los aceleradores desde 2018\n"


def _import(folder, *edits):
    path = folder / "phase-10-init-norm-residuals.yaml"
    text = path.read_text()
    for old, new in edits:
        assert old in text
        text = text.replace(old, new, 1)
    path.write_text(text, "utf-8")
    call_command("import_quizzes", str(folder), stdout=StringIO())


def test_a_stale_plan_records_no_check_on_a_verdict_another_key_moved_since(seeds_imported):
    cy = UserFactory(username="cy")
    answer(cy, "q-10-01", keys=["C"])  # wrong under B, the first key
    move_key_from_b_to_a(seeds_imported)  # wrong under A too
    question = Question.objects.get(code="q-10-01")
    key_a = question.current_revision_id
    stale = regrade_plan(questions=[question])  # one instructor's regrade, read
    assert (stale.unchanged, stale.checked) == (1, [(Attempt.objects.get().pk, key_a)])

    # Meanwhile an import makes C right, and a regrade by that key marks cy right.
    _import(seeds_imported, (A_TEXT + RIGHT, A_TEXT), (C_TEXT, C_TEXT + RIGHT))
    call_command("regrade", "q-10-01", stdout=StringIO())
    assert Attempt.objects.get().verdict().correct

    regrade_apply(plan=stale)  # the first regrade writes what it read

    assert not RegradeCheck.objects.filter(revision_id=key_a).exists()
    # The edit undone: A is right again, and cy's verdict, right by C's key, is a key
    # change to look at, not one the stale check said was looked at.
    _import(seeds_imported, (C_TEXT + RIGHT, C_TEXT), (A_TEXT, A_TEXT + RIGHT))
    assert Question.objects.get(code="q-10-01").current_revision_id == key_a
    assert [(c.question.code, c.attempts) for c in key_changes()] == [("q-10-01", 1)]
