"""What an import says about each changed question, and the new free-question fields
(rejected mentions, graded examples) from the file to the stored revision."""

from io import StringIO

import pytest
from django.core.management import CommandError, call_command

from audit.enums import AuditKind
from audit.models import AuditEvent
from quizzes.changes import content_changes, key_changed, regradable
from quizzes.models import Question

from .cases import MINIMAL

pytestmark = pytest.mark.django_db

SINGLE = {
    "kind": "single",
    "title": {"en": "Pick B"},
    "prompt": {},
    "explanation": {"en": "Because B.", "es": "Porque B."},
    "options": [
        {"key": "A", "text": {"en": "Not this"}, "correct": False},
        {"key": "B", "text": {"en": "This one"}, "correct": True},
        {"key": "C", "text": {"en": "Nor this"}, "correct": False},
    ],
    "expected": [],
    "pass_mentions": None,
}
FREE = {
    **SINGLE,
    "kind": "free",
    "options": [],
    "expected": [["identity", "identidad"], ["residual"]],
    "pass_mentions": 1,
}


def edited(base, **changes):
    return {**base, **changes}


def options(*keys, correct):
    return [{"key": k, "text": {"en": f"Option {k}"}, "correct": k in correct} for k in keys]


@pytest.mark.parametrize(
    ("old", "new", "lines"),
    [
        (
            edited(SINGLE, options=options("A", "B", "C", correct="C")),
            edited(SINGLE, options=options("A", "B", "C", correct="B")),
            ["correct: C → B"],
        ),
        (
            edited(SINGLE, options=options("A", "B", "C", correct="B")),
            edited(SINGLE, options=options("A", "B", "D", correct="B")),
            ["options added: D", "options removed: C"],
        ),
        (SINGLE, edited(SINGLE, title={"en": "Pick the B"}), ["text only: title (en)"]),
        (
            SINGLE,
            edited(SINGLE, explanation={"en": "Because B."}),
            ["text only: explanation (es)"],
        ),
        (
            FREE,
            edited(FREE, expected=[["identity", "identidad", "identité"]], pass_mentions=None),
            [
                "mention “identity”: alternatives added: identité",
                "mentions removed: residual",
                "pass_mentions: 1 → every mention",
            ],
        ),
        (
            FREE,
            edited(FREE, expected=[["residual", "skip"], ["identidad", "unit gain"], ["norm"]]),
            [
                "mention “residual”: alternatives added: skip",
                "mention “identity”: alternatives added: unit gain; alternatives removed: identity",
                "mentions added: norm",
            ],
        ),
        (
            FREE,
            edited(FREE, expected=[["identidad", "identity"], ["residual"]]),
            ["mention “identity”: phrasings reordered: identidad, identity"],
        ),
        (
            FREE,
            edited(FREE, reject=[["batch norm"]], prompt={"en": "Say it."}),
            ["rejected mentions added: batch norm", "text: prompt (en)"],
        ),
        (FREE, edited(FREE, examples=[{"answer": "x", "right": False}]), ["examples added: “x”"]),
        # Each example named by its answer: "examples changed" named none (author walk 3
        # of round 3).
        (
            edited(
                FREE, examples=[{"answer": "x", "right": False}, {"answer": "y", "right": True}]
            ),
            edited(
                FREE,
                examples=[
                    {"answer": "z" * 50, "right": True},
                    {"answer": "x", "right": False, "lang": "es"},
                ],
            ),
            [
                f"examples added: “{'z' * 39}…”",
                "examples removed: “y”",
                "examples edited: “x”",
            ],
        ),
        (
            edited(
                FREE, examples=[{"answer": "x", "right": False}, {"answer": "y", "right": True}]
            ),
            edited(
                FREE, examples=[{"answer": "y", "right": True}, {"answer": "x", "right": False}]
            ),
            ["examples reordered"],
        ),
        (
            edited(SINGLE, options=options("A", "B", "C", correct="AB")),
            edited(SINGLE, options=options("C", "B", "A", correct="AB")),
            ["options reordered: C, B, A"],
        ),
        (
            SINGLE,
            edited(FREE),
            [
                "kind: single → free",
                "options removed: A; B; C",
                "mentions added: identity / identidad; residual",
                "pass_mentions: every mention → 1",
            ],
        ),
    ],
    ids=[
        "correct",
        "options",
        "title",
        "spanish",
        "mentions",
        "alternatives",
        "reordered",
        "reject",
        "examples",
        "examples named",
        "examples order",
        "options order",
        "kind",
    ],
)
def test_content_changes_describe_the_difference(old, new, lines):
    assert content_changes(old, new) == lines


@pytest.mark.parametrize(
    ("new", "changed"),
    [
        (edited(SINGLE, title={"en": "Other"}), False),
        (edited(SINGLE, examples=[{"answer": "x", "right": False}]), False),
        (edited(SINGLE, options=options("A", "B", "C", correct="A")), True),
        (edited(FREE, pass_mentions=2), True),
        (edited(FREE, reject=[["x"]]), True),
        (edited(SINGLE, options=options("C", "A", "B", correct="B")), False),
    ],
)
def test_key_changed_only_when_grading_could_change(new, changed):
    old = (
        FREE
        if new["kind"] == "free"
        else edited(SINGLE, options=options("A", "B", "C", correct="B"))
    )

    assert key_changed(old, new) is changed


LETTERED = [
    {"key": "A", "text": {"en": "Option B"}, "correct": True},
    {"key": "B", "text": {"en": "Option A"}, "correct": False},
    {"key": "C", "text": {"en": "Option C"}, "correct": False},
]


@pytest.mark.parametrize(
    ("new", "can"),
    [
        (edited(SINGLE, options=options("A", "B", "C", correct="A")), True),  # key moved
        (edited(SINGLE, options=options("C", "B", "A", correct="B")), True),  # reordered
        (edited(SINGLE, options=LETTERED), False),  # each letter names another option
        (edited(SINGLE, options=options("A", "B", "C", "D", correct="B")), False),
        (edited(SINGLE, options=options("A", "B", correct="B")), False),
        (edited(SINGLE, kind="multi", options=options("A", "B", "C", correct="AB")), False),
        (FREE, False),
    ],
    ids=["key moved", "reordered", "lettered again", "added", "removed", "kind", "to free"],
)
def test_regradable_only_where_each_letter_still_names_its_option(new, can):
    """What `regrade` can grade against the new key, and the import suggests it for."""
    old = edited(SINGLE, options=options("A", "B", "C", correct="B"))

    assert regradable(old, new) is can
    assert regradable(FREE, edited(FREE, pass_mentions=2))


def run_import(folder, *args) -> str:
    out = StringIO()
    call_command("import_quizzes", str(folder), *args, stdout=out, stderr=StringIO())
    return out.getvalue()


MOVE_KEY = (
    "        text: {en: This one}\n        correct: true\n",
    "        text: {en: This one}\n",
)
TO_A = ("        text: {en: Not this}\n", "        text: {en: Not this}\n        correct: true\n")


def move_key(folder):
    text = MINIMAL.replace(*MOVE_KEY).replace(*TO_A)
    (folder / "phase-01-basics.yaml").write_text(text, "utf-8")


received = {}


def fake_impact(revisions):
    received.update(revisions)
    return {question_id: (3, 7) for question_id in revisions}


def test_import_dry_run_reports_change_impact_and_regrade_command(write_quiz, settings):
    settings.QUIZ_IMPORT_IMPACT = "tests.quizzes.test_import_changes.fake_impact"
    folder = write_quiz()
    run_import(folder)
    move_key(folder)
    received.clear()

    output = run_import(folder, "--dry-run")

    question = Question.objects.get(code="q-01-01")
    assert output.splitlines() == [
        "Changed:",
        "  q-01-01: 7 attempt(s) by 3 learner(s) before this edit, 0 of them on the revision "
        "it had until now",
        "    correct: B → A",
        "Key changed; after importing, regrade older attempts with: manage.py regrade q-01-01",
        "dry run: added: 0, changed: 1, retired: 0, unchanged: 2",
    ]
    assert received == {question.pk: None}
    assert question.current_revision.number == 1


def test_import_records_changes_impact_and_regrade_in_the_audit_event(write_quiz, settings):
    settings.QUIZ_IMPORT_IMPACT = "tests.quizzes.test_import_changes.fake_impact"
    folder = write_quiz()
    run_import(folder)
    move_key(folder)
    received.clear()

    output = run_import(folder)

    question = Question.objects.get(code="q-01-01")
    event = AuditEvent.objects.filter(kind=AuditKind.IMPORT_RUN).order_by("-pk").first()
    assert "Key changed; regrade older attempts with: manage.py regrade q-01-01" in output
    assert received == {question.pk: question.current_revision_id}
    assert question.current_revision.number == 2
    assert event.detail == {
        "summary": "added: 0, changed: 1, retired: 0, unchanged: 2",
        "via": "command",
        "changes": {"q-01-01": ["correct: B → A"]},
        "impact": {"q-01-01": [3, 7]},
        "regrade": ["q-01-01"],
    }


def test_import_suggests_no_regrade_for_a_key_nobody_answered(write_quiz):
    """A key changed before any attempt: `manage.py regrade` would find nothing, so the
    import says so instead of asking for it (author walk 1, round 2), in the audit too."""
    folder = write_quiz()
    run_import(folder)
    move_key(folder)

    output = run_import(folder)

    event = AuditEvent.objects.filter(kind=AuditKind.IMPORT_RUN).order_by("-pk").first()
    assert output.splitlines() == [
        "Changed:",
        "  q-01-01: no attempts before this edit",
        "    correct: B → A",
        "Key changed, no attempts to regrade: q-01-01",
        "added: 0, changed: 1, retired: 0, unchanged: 2",
    ]
    assert event.detail["regrade"] == []


def test_import_without_impact_hook_prints_no_impact_line(write_quiz, settings):
    settings.QUIZ_IMPORT_IMPACT = None
    folder = write_quiz()
    run_import(folder)
    move_key(folder)

    output = run_import(folder)

    assert "older revisions" not in output
    assert "    correct: B → A\n" in output


def test_import_suggests_a_regrade_an_earlier_revision_can_take(write_quiz, settings):
    """r1 A, B (B right); r2 adds C; r3 drops C and makes A right. r2's attempts cannot
    be graded against r3 (C is gone), but r1's can and would change: the regrade is
    still to be run, as `manage.py regrade` grades each attempt's own revision."""
    settings.QUIZ_IMPORT_IMPACT = "tests.quizzes.test_import_changes.fake_impact"
    folder = write_quiz()
    run_import(folder)
    with_c = MINIMAL.replace(
        MOVE_KEY[0], MOVE_KEY[0] + "      - key: C\n        text: {en: Nor this}\n", 1
    )
    (folder / "phase-01-basics.yaml").write_text(with_c, "utf-8")
    run_import(folder)
    move_key(folder)

    output = run_import(folder, "--dry-run")

    assert "options removed: C" in output
    assert "regrade older attempts with: manage.py regrade q-01-01" in output
    assert "nothing to regrade" not in output


FREE_WITH = """\
      - [identity, identidad]
    reject:
      - [batch norm, batchnorm]
    examples:
      - {answer: It keeps the identity path., right: true}
      - {answer: Nada de nada., right: false, lang: es}
"""


def test_import_free_question_stores_reject_and_examples(write_quiz):
    folder = write_quiz(MINIMAL.replace("      - [identity, identidad]\n", FREE_WITH))

    run_import(folder)

    revision = Question.objects.get(code="q-01-03").current_revision
    assert revision.reject == [["batch norm", "batchnorm"]]
    assert revision.examples == [
        {"answer": "It keeps the identity path.", "right": True},
        {"answer": "Nada de nada.", "right": False, "lang": "es"},
    ]


def test_import_examples_change_the_content_hash(write_quiz):
    folder = write_quiz()
    run_import(folder)
    before = Question.objects.get(code="q-01-03").current_revision.content_hash

    write_quiz(MINIMAL.replace("      - [identity, identidad]\n", FREE_WITH))
    output = run_import(folder)

    revision = Question.objects.get(code="q-01-03").current_revision
    assert revision.number == 2
    assert revision.content_hash != before
    assert "    rejected mentions added: batch norm / batchnorm\n    examples added: " in output


def test_import_example_the_key_grades_otherwise_is_refused(write_quiz):
    wrong = FREE_WITH.replace("Nada de nada., right: false", "Nada de nada., right: true")
    folder = write_quiz(MINIMAL.replace("      - [identity, identidad]\n", wrong))
    err = StringIO()

    with pytest.raises(CommandError, match="1 problem"):
        call_command("import_quizzes", str(folder), stdout=StringIO(), stderr=err)

    assert err.getvalue().splitlines() == [
        f"{folder / 'phase-01-basics.yaml'}:38: q-01-03: "
        'example 2 ("Nada de nada.") expected right, graded wrong: '
        "mentions found: none (0 of 1 needed); missed: 1 ('identity')"
    ]
    assert Question.objects.count() == 0


@pytest.mark.parametrize("hidden", ["\\u00ad", "\\u200b", "\\u2060"])
def test_import_grades_an_example_as_a_learners_answer_without_what_no_reader_sees(
    write_quiz, hidden
):
    """A learner's "iden\u00adtity" is graded as "identity" (portal.invisible); the
    example was graded as written, wrong, so it stated a grade no learner gets (red
    team 21)."""
    key = FREE_WITH.replace(
        "It keeps the identity path., right: true",
        f'"It keeps the iden{hidden}tity.", right: false',
    )
    folder = write_quiz(MINIMAL.replace("      - [identity, identidad]\n", key))
    err = StringIO()

    with pytest.raises(CommandError, match="1 problem"):
        call_command("import_quizzes", str(folder), stdout=StringIO(), stderr=err)

    assert err.getvalue().splitlines() == [
        f"{folder / 'phase-01-basics.yaml'}:37: q-01-03: "
        'example 1 ("It keeps the identity.") expected wrong, graded right: '
        "mentions found: 1 (1 of 1 needed)"
    ]


def test_import_example_refused_by_a_reject_names_it_and_where_it_fired(write_quiz):
    """An author walk: a new reject entry, "media sigma", read "mean" and "std" in a
    right example; "expected right, graded wrong" alone left the author guessing."""
    key = FREE_WITH.replace("[batch norm, batchnorm]", "[half a sigma, media sigma]").replace(
        "It keeps the identity path.", "The identity path and the mean plus 3 std."
    )
    folder = write_quiz(MINIMAL.replace("      - [identity, identidad]\n", key))
    err = StringIO()

    with pytest.raises(CommandError, match="1 problem"):
        call_command("import_quizzes", str(folder), stdout=StringIO(), stderr=err)

    assert err.getvalue().splitlines() == [
        f"{folder / 'phase-01-basics.yaml'}:37: q-01-03: "
        'example 1 ("The identity path and the mean plus 3 st…") expected right, graded wrong: '
        "rejected mention 1 ('half a sigma') found in 'mean … std'"
    ]


def test_import_grades_examples_with_the_prompt_as_answers_are_graded(write_quiz):
    # Found by its words ("identity", "shortcut") only when "shortcut" is not the
    # prompt's: the importer must see the prompt as the answer page's grading does.
    key = """\
      - [identity path, residual shortcut]
    examples:
      - {answer: the identity is kept along a clean shortcut, right: true}
"""
    text = MINIMAL.replace("      - [identity, identidad]\n", key).replace(
        "    title: {en: Say identity}\n", "    title: {en: Say it}\n"
    )
    fine = write_quiz(text)
    run_import(fine)  # no prompt: the example holds

    echoed = text.replace(
        "    title: {en: Say it}\n",
        "    title: {en: Say it}\n    prompt: {en: Why does a shortcut help?}\n",
    )
    folder = write_quiz(echoed)
    with pytest.raises(CommandError, match="1 problem"):
        call_command("import_quizzes", str(folder), stdout=StringIO(), stderr=StringIO())


def test_import_grades_examples_with_the_title_when_the_question_asks_there(write_quiz):
    # A question with no prompt asks in its title: its words, too, are the question's,
    # so "shortcut" from the title finds nothing by itself.
    key = """\
      - [identity path, residual shortcut]
    examples:
      - {answer: the identity is kept along a clean shortcut, right: true}
"""
    text = MINIMAL.replace("      - [identity, identidad]\n", key)
    folder = write_quiz(
        text.replace(
            "    title: {en: Say identity}\n", "    title: {en: Why does a shortcut help?}\n"
        )
    )

    with pytest.raises(CommandError, match="1 problem"):
        call_command("import_quizzes", str(folder), stdout=StringIO(), stderr=StringIO())


def test_import_example_graded_wrong_names_the_mentions_it_missed(write_quiz):
    """Author walk 4: "mentions found: 2 (1 of 2 needed)" named the mention found by its
    number only, and not the one missed, the line of the key to edit; it read as two
    mentions found."""
    key = (
        "      - [identity, identidad]\n"
        "      - [unit gain, ganancia unitaria]\n"
        "    examples:\n"
        "      - {answer: The identity path stays as it is., right: true}\n"
    )
    folder = write_quiz(MINIMAL.replace("      - [identity, identidad]\n", key))
    err = StringIO()

    with pytest.raises(CommandError, match="1 problem"):
        call_command("import_quizzes", str(folder), stdout=StringIO(), stderr=err)

    [line] = err.getvalue().splitlines()
    assert line.endswith(
        "expected right, graded wrong: mentions found: 1 (1 of 2 needed); missed: 2 ('unit gain')"
    )
