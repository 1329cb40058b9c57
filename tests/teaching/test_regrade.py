"""Regrading after a YAML edit: planned first, recorded as new rows, attempts untouched."""

from functools import partial
from io import StringIO

import pytest
from django.contrib.auth import get_user_model
from django.contrib.auth.models import Group
from django.core.management import CommandError, call_command

from audit.enums import AuditKind
from audit.models import AuditEvent
from progress.models import Attempt, LearnerQuestion, Regrade
from progress.services import learner_question_rebuild
from quizzes.models import Question
from teaching.impact import import_impact, key_changes
from teaching.services import regrade_plan
from tests.admin_forms import basis
from tests.factories import CohortFactory, UserFactory, answer
from tests.seeds import letter_options_again, move_key_from_b_to_a
from tests.threads import at_once

pytestmark = pytest.mark.django_db
User = get_user_model()


def test_import_dry_run_lists_attempts_on_changed_questions(edited):
    assert (
        "Changed:\n  q-10-01: 2 attempt(s) by 2 learner(s) before this edit, "
        "2 of them on the revision it had until now\n" in (edited["dry_run"])
    )


def test_regrade_dry_run_summarises_and_writes_nothing(edited):
    out = StringIO()

    call_command("regrade", "q-10-01", "--dry-run", stdout=out)

    assert out.getvalue().strip() == (
        "dry run: 2 attempt(s) change: 1 wrong → right, 1 right → wrong, 0 score only; "
        "0 unchanged, 0 skipped (options differ by key)"
    )
    assert Regrade.objects.count() == 0


def test_regrade_verbose_names_each_change_and_its_learner(edited):
    out = StringIO()

    call_command("regrade", "q-10-01", "--dry-run", "-v", "2", stdout=out)

    attempts = {a.learner.username: a.pk for a in Attempt.objects.filter(question__code="q-10-01")}
    assert sorted(out.getvalue().splitlines()[1:]) == [
        f"  q-10-01 attempt {attempts['ana']} of ana: right → wrong",
        f"  q-10-01 attempt {attempts['bea']} of bea: wrong → right",
    ]


def test_regrade_records_entries_and_keeps_attempts(edited):
    before = list(Attempt.objects.values_list("id", "correct", "score", "revision_id"))

    call_command("regrade", "q-10-01", stdout=StringIO())

    assert list(Attempt.objects.values_list("id", "correct", "score", "revision_id")) == before
    entries = {r.attempt.learner.username: r for r in Regrade.objects.select_related("attempt")}
    assert (entries["ana"].old_correct, entries["ana"].new_correct) == (True, False)
    assert (entries["bea"].old_correct, entries["bea"].new_correct) == (False, True)
    assert entries["ana"].revision == Question.objects.get(code="q-10-01").current_revision
    standing = LearnerQuestion.objects.get(learner=edited["bea"], question__code="q-10-01")
    assert (standing.first_correct, standing.latest_correct, standing.ever_correct) == (
        True,
        True,
        True,
    )
    event = AuditEvent.objects.get(kind=AuditKind.REGRADE_RUN)
    assert event.detail["changed"] == 2


def test_regrade_twice_changes_nothing_more(edited):
    call_command("regrade", "q-10-01", stdout=StringIO())
    out = StringIO()

    call_command("regrade", "q-10-01", stdout=out)

    assert out.getvalue().startswith("0 attempt(s) change")
    assert Regrade.objects.count() == 2


def undo_key_move(folder):
    """Put q-10-01's key back on B, as it was before `move_key_from_b_to_a`; import. The
    question points back at revision 1. Returns the dry run's output."""
    path = folder / "phase-10-init-norm-residuals.yaml"
    text = path.read_text()
    text = text.replace(
        "dando valores de gradiente más precisos\n        correct: true\n",
        "dando valores de gradiente más precisos\n",
        1,
    ).replace("equivalente a fp32\n", "equivalente a fp32\n        correct: true\n", 1)
    path.write_text(text, "utf-8")
    out = StringIO()
    call_command("import_quizzes", str(folder), "--dry-run", stdout=out)
    call_command("import_quizzes", str(folder), stdout=StringIO())
    return out.getvalue()


def test_regrade_after_an_edit_undone_grades_by_the_key_back_in_place(
    edited, seeds_imported, client
):
    """Attempts on revision 1, regraded against revision 2's key; then the edit undone:
    the question points back at revision 1, and the regraded verdicts stood on a key no
    longer in place, with nothing a regrade would touch (author walk 1, round 2: the
    learner read "Right" beside "the right answers are now…" that made it wrong)."""
    call_command("regrade", "q-10-01", stdout=StringIO())
    question = Question.objects.get(code="q-10-01")

    dry_run = undo_key_move(seeds_imported)
    [change] = key_changes(questions=[question])
    out = StringIO()
    call_command("regrade", "q-10-01", stdout=out)

    question.refresh_from_db()
    assert question.current_revision.number == 1
    assert "2 attempt(s) by 2 learner(s) before this edit" in dry_run
    assert "manage.py regrade q-10-01" in dry_run
    assert (change.old_keys, change.new_key, change.attempts) == (["A"], "B", 2)
    assert out.getvalue().startswith("2 attempt(s) change: 1 wrong → right, 1 right → wrong")
    verdicts = {
        a.learner.username: a.verdict().correct
        for a in Attempt.objects.filter(question=question).prefetch_related("regrades")
    }
    assert verdicts == {"ana": True, "bea": False}
    client.force_login(edited["ana"])
    card = client.get("/phase/10/").content.decode()
    assert "The answer key has changed since this answer was graded." not in card


def test_key_changes_lists_attempts_regraded_away_from_a_key_they_had_been_regraded_by(
    edited, seeds_imported
):
    """An edit made, undone, made again and undone again, with a regrade after each: the
    attempts stand on revision 2's key while the question is back on revision 1. An older
    regrade against revision 1 is no longer what stands, so the key-changes page must
    list them, as the regrade it points to finds them (it listed none)."""
    question = Question.objects.get(code="q-10-01")
    call_command("regrade", "q-10-01", stdout=StringIO())  # by revision 2
    undo_key_move(seeds_imported)
    call_command("regrade", "q-10-01", stdout=StringIO())  # by revision 1
    move_key_from_b_to_a(seeds_imported)
    call_command("regrade", "q-10-01", stdout=StringIO())  # by revision 2 again
    undo_key_move(seeds_imported)
    question.refresh_from_db()

    changes = key_changes(questions=[question])

    assert question.current_revision.number == 1
    assert len(regrade_plan(questions=[question]).changes) == 2
    assert [(c.old_keys, c.new_key, c.attempts) for c in changes] == [(["A"], "B", 2)]


def test_key_changes_lists_attempts_regraded_away_after_a_check_against_the_key(
    seeds_imported,
):
    """A regrade left cy's attempt as it stood against revision 2 (a check); a later
    regrade by revision 1, then the question back on revision 2: the check was of a
    verdict that no longer stands, and must not hide the attempt from the page, until
    a regrade looks at it again."""
    cy = UserFactory(username="cy")
    answer(cy, "q-10-01", keys=["C"])  # wrong under both keys
    question = Question.objects.get(code="q-10-01")
    move_key_from_b_to_a(seeds_imported)
    call_command("regrade", "q-10-01", stdout=StringIO())  # unchanged: checked on r2
    undo_key_move(seeds_imported)
    Regrade.objects.create(  # as an earlier matcher's regrade by revision 1 would
        attempt=Attempt.objects.get(learner=cy),
        revision=question.revisions.get(number=1),
        old_correct=False,
        old_score=0.0,
        new_correct=False,
        new_score=0.0,
        new_partial=0.0,
        reason="test",
    )
    move_key_from_b_to_a(seeds_imported)
    question.refresh_from_db()

    changes = key_changes(questions=[question])
    call_command("regrade", "q-10-01", stdout=StringIO())  # unchanged: checked on r2 again

    assert question.current_revision.number == 2
    assert [c.attempts for c in changes] == [1]
    assert key_changes(questions=[question]) == []


def test_import_of_an_edit_undone_names_the_attempts_back_on_their_key(edited, seeds_imported):
    """No regrade ran: the attempts on revision 1 stand on its key again; the import
    says so instead of "no attempts before this edit" (author walk 1, round 2)."""
    dry_run = undo_key_move(seeds_imported)

    assert (
        "  q-10-01: back to an earlier revision, which 2 attempt(s) answered (they stand "
        "on its key)\n    correct: A → B\nKey changed, no attempts to regrade: q-10-01\n"
    ) in dry_run


def test_regrade_skips_attempts_whose_options_changed_keys(seeds_imported):
    ana = UserFactory(username="ana")
    answer(ana, "q-10-05", keys=["C"])
    path = seeds_imported / "phase-10-init-norm-residuals.yaml"
    text = path.read_text().replace(
        "      - key: D\n        text:\n          en: Approximately sqrt(2/pi)",
        "      - key: E\n        text:\n          en: Approximately sqrt(2/pi)",
    )
    path.write_text(text, "utf-8")
    call_command("import_quizzes", str(seeds_imported), stdout=StringIO())
    out = StringIO()

    call_command("regrade", "q-10-05", stdout=out)

    assert "1 skipped" in out.getvalue()
    assert Regrade.objects.count() == 0


def test_regrade_unknown_question_is_refused(seeds_imported):
    with pytest.raises(CommandError, match="Unknown question id"):
        call_command("regrade", "q-99-99", stdout=StringIO())


def test_standings_rebuild_matches_what_was_kept(edited):
    kept = sorted(
        LearnerQuestion.objects.values_list(
            "learner", "question", "attempts", "first_correct", "latest_correct", "latest_pattern"
        )
    )
    LearnerQuestion.objects.all().delete()

    learner_question_rebuild()

    assert (
        sorted(
            LearnerQuestion.objects.values_list(
                "learner",
                "question",
                "attempts",
                "first_correct",
                "latest_correct",
                "latest_pattern",
            )
        )
        == kept
    )


def test_regrade_plan_counts_agree_in_number_in_spanish(client, edited):
    instructor = UserFactory(username="teach", is_staff=True, profile="es")
    instructor.groups.add(Group.objects.get(name="Instructors"))
    CohortFactory(name="A", learners=[edited["ana"], edited["bea"]], instructors=[instructor])
    client.force_login(instructor)
    question = Question.objects.get(code="q-10-01")

    confirm = client.post(
        "/admin/quizzes/question/", {"action": "regrade", "_selected_action": [question.pk]}
    )

    html = " ".join(confirm.content.decode().split())
    assert "1 intento pasa de incorrecto a correcto" in html
    assert "2 intentos cambian en total" in html
    assert "0 intentos mantienen su calificación" in html
    assert "(s)" not in html


def test_regrade_admin_action_confirms_then_records(client, edited):
    instructor = UserFactory(username="teach", is_staff=True)
    instructor.groups.add(Group.objects.get(name="Instructors"))
    CohortFactory(name="A", learners=[edited["ana"], edited["bea"]], instructors=[instructor])
    client.force_login(instructor)
    question = Question.objects.get(code="q-10-01")
    data = {"action": "regrade", "_selected_action": [question.pk]}

    confirm = client.post("/admin/quizzes/question/", data)
    done = client.post(
        "/admin/quizzes/question/", data | {"confirm": "yes", "basis": basis(confirm)}, follow=True
    )

    confirm_html = " ".join(confirm.content.decode().split())
    assert "1 attempt goes from wrong to right" in confirm_html
    assert "1 attempt goes from right to wrong" in confirm_html
    assert "2 regrade entries recorded (1 now right, 1 now wrong)." in done.content.decode()
    assert set(Regrade.objects.values_list("by__username", flat=True)) == {"teach"}


def test_question_admin_shows_attempts_per_revision(admin_client, edited):
    question = Question.objects.get(code="q-10-01")

    html = " ".join(
        admin_client.get(f"/admin/quizzes/question/{question.pk}/change/").content.decode().split()
    )

    assert '<td class="field-attempt_count"> <p>2</p> </td>' in html
    assert '<td class="field-attempt_count"> <p>0</p> </td>' in html


def test_an_instructor_counts_only_their_learners_attempts_per_revision(client, edited):
    instructor = UserFactory(username="teach", is_staff=True)
    instructor.groups.add(Group.objects.get(name="Instructors"))
    CohortFactory(name="A", learners=[edited["ana"]], instructors=[instructor])
    client.force_login(instructor)
    question = Question.objects.get(code="q-10-01")

    html = " ".join(
        client.get(f"/admin/quizzes/question/{question.pk}/change/").content.decode().split()
    )

    # bea is in no cohort of theirs: her attempt on revision 1 is not theirs to count.
    assert '<td class="field-attempt_count"> <p>1</p> </td>' in html
    assert '<td class="field-attempt_count"> <p>2</p> </td>' not in html


def test_import_impact_counts_learners_and_attempts_on_older_revisions(edited):
    question = Question.objects.get(code="q-10-01")
    answer(edited["ana"], "q-10-01", keys=["A"])  # on the current revision: not counted

    other = Question.objects.get(code="q-10-02")

    impact = import_impact(
        {question.pk: question.current_revision_id, other.pk: other.current_revision_id}
    )
    dry_run = import_impact({question.pk: None})  # a new revision: every attempt counts

    assert impact == {question.pk: (2, 2)}
    assert dry_run == {question.pk: (2, 3)}


def test_import_says_who_an_edit_touches(seeds_imported):
    ana, bea = UserFactory(username="ana"), UserFactory(username="bea")
    answer(ana, "q-10-01", keys=["B"])
    answer(bea, "q-10-01", keys=["A"])

    out = move_key_from_b_to_a(seeds_imported)

    assert "q-10-01: 2 attempt(s) by 2 learner(s) before this edit, 2 of them" in out
    assert "older revisions" not in out and "current" not in out
    assert "manage.py regrade q-10-01" in out


def test_key_changes_page_lists_the_edit_with_a_dry_run_one_click_away(client, edited):
    instructor = UserFactory(username="teach", is_staff=True)
    instructor.groups.add(Group.objects.get(name="Instructors"))
    CohortFactory(name="A", learners=[edited["ana"], edited["bea"]], instructors=[instructor])
    client.force_login(instructor)
    question = Question.objects.get(code="q-10-01")

    html = " ".join(client.get("/admin/quizzes/question/key-changes/").content.decode().split())
    dry_run = client.post(
        "/admin/quizzes/question/", {"action": "regrade", "_selected_action": [question.pk]}
    )

    assert (
        ">q-10-01</a> Why is bf16 preferred over fp16 for training?</th> "
        '<td>B</td> <td>A</td> <td><ul class="plain"><li>correct: B → A</li></ul></td> '
        "<td>2</td> <td>2</td>" in html
    )
    assert f'name="_selected_action" value="{question.pk}"' in html
    confirm = " ".join(dry_run.content.decode().split())
    assert (
        "<strong>q-10-01</strong> Why is bf16 preferred over fp16 for training?: key B → A"
        in confirm
    )
    assert Regrade.objects.count() == 0


def test_key_changes_page_says_what_changed_in_the_instructors_language(client, edited):
    instructor = UserFactory(username="profe", is_staff=True, profile="es")
    instructor.groups.add(Group.objects.get(name="Instructors"))
    CohortFactory(name="A", learners=[edited["ana"], edited["bea"]], instructors=[instructor])
    client.force_login(instructor)

    html = " ".join(client.get("/admin/quizzes/question/key-changes/").content.decode().split())

    assert '<ul class="plain"><li>correctas: B → A</li></ul>' in html


def test_regrade_list_reads_learner_question_and_verdicts(admin_client, edited):
    call_command("regrade", "q-10-01", stdout=StringIO())

    html = " ".join(admin_client.get("/admin/progress/regrade/").content.decode().split())

    assert '<td class="field-learner">ana</td>' in html
    assert '<td class="field-question">q-10-01</td>' in html
    assert '<td class="field-verdict_change">right → wrong</td>' in html
    assert '<td class="field-verdict_change">wrong → right</td>' in html


def test_regrade_list_names_the_key_a_regrade_applied(client, edited):
    """A regrade by an edited key has no reason typed by anyone: its row read "regrade,
    wrong → right, -, -", nothing saying what turned the verdict (author walk 5). It
    names the key now, in the instructor's language; an override keeps its reason."""
    call_command("regrade", "q-10-01", stdout=StringIO())
    client.force_login(UserFactory(username="profe", is_staff=True, is_superuser=True))

    english = " ".join(client.get("/admin/progress/regrade/").content.decode().split())
    client.post("/language/", {"language": "es", "next": "/admin/"})
    spanish = " ".join(client.get("/admin/progress/regrade/").content.decode().split())

    assert english.count('<td class="field-reason_shown">the key of revision 2</td>') == 2
    assert spanish.count('<td class="field-reason_shown">la clave de la revisión 2</td>') == 2


def test_attempt_verdict_is_the_newest_entry(edited):
    call_command("regrade", "q-10-01", stdout=StringIO())
    attempt = Attempt.objects.get(learner=edited["ana"], question__code="q-10-01")

    verdict = attempt.verdict()

    assert (attempt.correct, verdict.correct, verdict.source) == (True, False, "regrade")


def test_a_free_keys_regrade_confirmation_says_what_changed_not_every_phrasing(
    admin_client, seeds_imported
):
    """A UX walk: after "takes over" was added to a mention of q-19-05, the confirmation
    printed the whole key twice (old → new, 44 phrasings) and the change was hard to find."""
    ana = UserFactory(username="ana")
    answer(ana, "q-19-05", text="the embedding row takes over the norm")
    path = seeds_imported / "phase-19-training-dynamics.yaml"
    edit = ("casi toda la norma, toda la norma]", "toda la norma, takes over]")
    path.write_text(path.read_text().replace(*edit), "utf-8")
    call_command("import_quizzes", str(seeds_imported), stdout=StringIO())
    question = Question.objects.get(code="q-19-05")

    dry_run = admin_client.post(
        "/admin/quizzes/question/", {"action": "regrade", "_selected_action": [question.pk]}
    )

    confirm = " ".join(dry_run.content.decode().split())
    assert "<li>mention “dominates”: alternatives added: takes over; alternatives removed: " in (
        confirm
    )
    assert "key embedding row" not in confirm
    assert "1 attempt goes from wrong to right" in confirm


def test_what_changed_since_each_older_revision_says_which(seeds_imported):
    """Author walk 4: with attempts on revisions 1 and 2, the confirmation listed
    "mention “dominates”: alternatives added: takes over, swamps" and then "…: alternatives
    added: swamps", two lines on one mention with nothing to tell them apart."""
    path = seeds_imported / "phase-19-training-dynamics.yaml"
    answer(UserFactory(username="ana"), "q-19-05", text="the embedding row takes over the norm")
    for edit in (("toda la norma]", "toda la norma, takes over]"), ("over]", "over, swamps]")):
        path.write_text(path.read_text().replace(*edit), "utf-8")
        call_command("import_quizzes", str(seeds_imported), stdout=StringIO())
        if "swamps" not in edit[1]:
            answer(UserFactory(username="bea"), "q-19-05", text="a huge gradient swamps it")

    [change] = key_changes(questions=Question.objects.filter(code="q-19-05"))

    assert change.what_changed == [
        "since revision 1: mention “dominates”: alternatives added: takes over, swamps",
        "since revision 2: mention “dominates”: alternatives added: swamps",
    ]


def test_the_regrade_confirmation_names_whose_verdict_turns(admin_client, edited):
    """Author walk 4: the admin's plan said "1 attempt goes from wrong to right" and no
    more; whose, the instructor learnt only after recording it, from the drill-downs
    (`regrade -v 2` named them on the command line)."""
    question = Question.objects.get(code="q-10-01")

    dry_run = admin_client.post(
        "/admin/quizzes/question/", {"action": "regrade", "_selected_action": [question.pk]}
    )

    confirm = " ".join(dry_run.content.decode().split())
    assert "<li>ana · q-10-01: right → wrong</li>" in confirm
    assert "<li>bea · q-10-01: wrong → right</li>" in confirm


@pytest.mark.django_db(transaction=True)
def test_two_regrades_confirmed_at_once_record_each_change_once(edited, monkeypatch):
    """(Red team 13) Four confirmations of one regrade sent at once (a double click, two
    tabs) on PostgreSQL: each read the verdicts before any had written, and each wrote
    every change again (12 entries for 3 changes, four audit events of 3 changes). Here
    two, the first slowed between its read and its write; the second must wait for it."""
    import threading
    import time

    from teaching import services

    questions = Question.objects.filter(code="q-10-01")
    plans = [regrade_plan(questions=questions) for _ in range(2)]
    assert len(plans[0].changes) == 2
    bulk_create = Regrade.objects.bulk_create
    first = threading.Lock()

    def slow_bulk_create(rows, **kwargs):
        if first.acquire(blocking=False):
            time.sleep(0.5)  # the other confirmation reads meanwhile
        return bulk_create(rows, **kwargs)

    monkeypatch.setattr(Regrade.objects, "bulk_create", slow_bulk_create)

    written = sorted(at_once(*(partial(services.regrade_apply, plan=plan) for plan in plans)))

    assert written == [0, 2]
    assert Regrade.objects.filter(kind="regrade").count() == 2


def test_regrade_skips_attempts_at_options_lettered_again(seeds_imported):
    """An author walk: B (right) moved to the top and lettered A, A lettered B. Graded
    by letter, the regrade turned the pick of the old A right and of the old B wrong."""
    ana, bea = UserFactory(username="ana"), UserFactory(username="bea")
    answer(ana, "q-10-01", keys=["A"])
    answer(bea, "q-10-01", keys=["B"])
    said = letter_options_again(seeds_imported)
    out = StringIO()

    call_command("regrade", "q-10-01", stdout=out)

    assert "options moved to another key (a regrade skips the attempts): A → B, B → A" in said
    assert "0 attempt(s) change" in out.getvalue() and "2 skipped" in out.getvalue()
    assert Regrade.objects.count() == 0
    # So the import suggests no regrade that would skip them all (author walk 27).
    assert "manage.py regrade" not in said
    assert (
        "Key changed with nothing to regrade (kind changed, or options added, removed or "
        "lettered again): q-10-01; their attempts stand as graded"
    ) in said


@pytest.mark.parametrize(
    ("language", "said"),
    [
        (
            "en",
            "1 regrade entry recorded (0 now right, 1 now wrong); "
            "1 other attempt checked: its verdict stands.",
        ),
        (
            "es",
            "1 recalificación registrada (correctas ahora: 0; incorrectas ahora: 1); "
            "1 intento más revisado: su veredicto se mantiene.",
        ),
    ],
)
def test_regrade_admin_says_how_many_attempts_it_checked_and_left(
    client, seeds_imported, language, said
):
    """A regrade that changes nothing said only "0 regrade entries recorded (0 now right,
    0 now wrong)": the attempts it looked at, whose verdicts stand (and which Key changes
    stops listing), went unsaid, as if nothing had run (author walk 5)."""
    ana, carl = UserFactory(username="ana"), UserFactory(username="carl")
    answer(ana, "q-10-01", keys=["B"])  # right under r1, wrong under r2
    answer(carl, "q-10-01", keys=["C"])  # wrong under both
    move_key_from_b_to_a(seeds_imported)
    client.force_login(
        UserFactory(username="boss", is_staff=True, is_superuser=True, profile=language)
    )
    question = Question.objects.get(code="q-10-01")
    data = {"action": "regrade", "_selected_action": [question.pk]}

    confirm = client.post("/admin/quizzes/question/", data)
    done = client.post(
        "/admin/quizzes/question/", data | {"confirm": "yes", "basis": basis(confirm)}, follow=True
    )

    assert said in " ".join(done.content.decode().split())
