"""A free-text verdict the grader was unsure of is provisional until an instructor
confirms or overrides it, and the learner sees that it is, in their language."""

import pytest

from teaching.services import verdict_confirm, verdict_override
from tests.factories import UserFactory, answer
from tests.html import question_card
from tests.seeds import replace_line

pytestmark = pytest.mark.django_db

TYPO = "the residual keeps an identty path"  # right only through a typo
NEGATED = "it is not the identity"  # wrong only because of the negation
SURE = "keeps the identity path"
NOTE = "Provisional: your instructor may revise this."
NOTE_ES = "Provisional: tu instructor puede revisarlo."


def card(html: str, code: str = "q-10-03") -> str:
    return question_card(" ".join(html.split()), code)


@pytest.fixture
def teacher(seeds_imported):
    return UserFactory(username="teach", is_staff=True)


def test_answer_reply_marks_an_unsure_verdict_provisional(seeds_imported, post_answer):
    response = post_answer("q-10-03", text=TYPO)

    html = " ".join(response.content.decode().split())
    assert "<html" not in html
    assert "✓</span> Right </h3>" in html
    assert f'<p class="verdict-note provisional">{NOTE}</p>' in html


def test_answer_reply_of_a_sure_verdict_has_no_note(seeds_imported, post_answer):
    response = post_answer("q-10-03", text=SURE)

    assert "Provisional" not in response.content.decode()


def test_answer_reply_in_spanish(seeds_imported, learner_client, post_answer):
    learner_client.post("/language/", {"language": "es", "next": "/"})

    response = post_answer("q-10-03", text=NEGATED)

    assert f'<p class="verdict-note provisional">{NOTE_ES}</p>' in response.content.decode()


@pytest.mark.parametrize(("language", "note"), [("en", NOTE), ("es", NOTE_ES)])
def test_phase_page_and_progress_show_the_provisional_verdict(
    seeds_imported, learner, learner_client, language, note
):
    answer(learner, "q-10-03", text=NEGATED)
    learner_client.post("/language/", {"language": language, "next": "/"})

    phase = card(learner_client.get("/phase/10/").content.decode())
    progress = " ".join(learner_client.get("/progress/").content.decode().split())

    assert note in phase
    word = {"en": "Not quite (provisional)", "es": "No exactamente (provisional)"}[language]
    assert word in progress


def test_confirm_takes_the_note_away(seeds_imported, learner, learner_client, teacher):
    attempt = answer(learner, "q-10-03", text=TYPO)

    verdict_confirm(attempt=attempt, by=teacher)

    phase = card(learner_client.get("/phase/10/").content.decode())
    progress = learner_client.get("/progress/").content.decode()
    assert "✓</span> Right </h3>" in phase
    assert "Provisional" not in phase and "provisional" not in progress
    assert "Marked " not in phase and "Regraded" not in phase
    assert '<p class="verdict-note">Checked by your instructor on ' in phase


def test_override_shows_the_instructors_verdict_instead(
    seeds_imported, learner, learner_client, teacher
):
    attempt = answer(learner, "q-10-03", text=NEGATED)

    verdict_override(attempt=attempt, correct=True, reason="negates something else", by=teacher)

    phase = card(learner_client.get("/phase/10/").content.decode())
    assert "Marked right by your instructor on " in phase
    assert "“<bdi>negates something else</bdi>”" in phase
    assert "Provisional" not in phase


def test_reviews_page_shows_the_note(seeds_imported, learner, learner_client):
    answer(learner, "q-10-03", text=NEGATED)

    html = learner_client.get("/reviews/?answered=q-10-03").content.decode()

    assert NOTE in html


def test_one_learners_provisional_verdict_does_not_show_on_anothers_card(
    seeds_imported, learner, learner_client, client
):
    bea = UserFactory(username="bea")
    answer(bea, "q-10-03", text=TYPO)  # bea first, so anything kept would be hers
    client.force_login(bea)
    client.get("/phase/10/")

    answer(learner, "q-10-03", text=TYPO.replace("identty", "identity"))
    client.force_login(learner)
    mine = card(client.get("/phase/10/").content.decode())

    assert "✓</span> Right </h3>" in mine
    assert "Provisional" not in mine


# session, user, phase, the index, the page's standings, the answered cards' review
# cards, and one read of the regrade entries of the answers the grader was unsure of,
# however many there are.
@pytest.mark.parametrize("count", [1, 5])
def test_phase_page_with_unsure_answers_runs_fixed_queries(
    make_phase, learner, learner_client, teacher, django_assert_num_queries, count
):
    codes = make_phase(3 * count)  # single, multi, free, …: `count` free questions
    free = codes[2::3]
    attempts = [answer(learner, code, text="a zebrawrd") for code in free]
    verdict_confirm(attempt=attempts[0], by=teacher)
    learner_client.get("/phase/1/")  # the first page of a login counts the badge

    with django_assert_num_queries(7):
        response = learner_client.get("/phase/1/")

    html = response.content.decode()
    assert NOTE not in card(html, free[0])
    assert [NOTE in card(html, code) for code in free[1:]] == [True] * (count - 1)


def test_a_mention_found_by_its_words_is_provisional_and_says_so(
    seeds_imported, learner, learner_client
):
    from io import StringIO

    from django.core.management import call_command

    path = seeds_imported / "phase-10-init-norm-residuals.yaml"
    text = replace_line(
        path.read_text("utf-8"),
        "      - [identity, identidad, unit gain",
        "      - [identity path, residual shortcut, camino identidad, ganancia unitaria]\n",
    )
    path.write_text(text, "utf-8")
    call_command("import_quizzes", str(seeds_imported), stdout=StringIO())
    # A word of "identity path" and one of "residual shortcut", neither phrasing whole.
    attempt = answer(learner, "q-10-03", text="the identity is preserved along a clean shortcut")

    assert (attempt.correct, attempt.doubts) == (True, "field")
    assert attempt.feedback["mentions"][0]["field"] is True
    phase = card(learner_client.get("/phase/10/").content.decode())
    assert "(found by its words, not as written in the key)" in phase
    assert NOTE in phase


def test_only_the_latest_answer_at_a_question_shows_as_provisional_in_the_history(
    seeds_imported, learner, learner_client
):
    """Only a learner's latest answer at a question reaches the instructor's To check:
    an earlier unsure verdict will never be checked, so it is not called provisional."""
    answer(learner, "q-10-03", text=NEGATED)
    answer(learner, "q-10-03", text=TYPO)

    progress = " ".join(learner_client.get("/progress/").content.decode().split())

    assert progress.count("(provisional)") == 1
    assert "Right (provisional)" in progress
    assert "Not quite (provisional)" not in progress


def test_a_regrade_by_a_sure_key_ends_the_provisional_mark_and_its_check(
    seeds_imported, learner, learner_client
):
    from io import StringIO

    from django.core.management import call_command

    from teaching.models import Cohort
    from teaching.to_check import to_check_questions

    cohort = Cohort.objects.create(name="Spring")
    cohort.learners.add(learner)
    attempt = answer(learner, "q-10-03", text="it is not the identity, it passes unaltered")
    assert (attempt.correct, attempt.doubts) == (False, "negation")
    assert [w.count for w in to_check_questions(cohort=cohort)] == [1]
    path = seeds_imported / "phase-10-init-norm-residuals.yaml"
    path.write_text(
        replace_line(
            path.read_text("utf-8"),
            "      - [identity, identidad, unit gain",
            "      - [identity, identidad, unit gain, ganancia unitaria, unaltered]\n",
        ),
        "utf-8",
    )
    call_command("import_quizzes", str(seeds_imported), stdout=StringIO())
    call_command("regrade", "q-10-03", stdout=StringIO())

    attempt.refresh_from_db()
    progress = " ".join(learner_client.get("/progress/").content.decode().split())
    assert attempt.doubts == ""
    assert "Right (regraded)" in progress and "provisional" not in progress
    assert to_check_questions(cohort=cohort) == []


def test_a_regrade_that_keeps_the_verdict_still_ends_an_unsure_mark(
    seeds_imported, learner, learner_client
):
    """Right through a typo (unsure); the new key lists the typo's word, so the new
    grading is right and sure: the verdict does not change, the provisional mark goes."""
    from io import StringIO

    from django.core.management import call_command

    from teaching.models import Cohort
    from teaching.to_check import to_check_questions

    cohort = Cohort.objects.create(name="Spring")
    cohort.learners.add(learner)
    attempt = answer(learner, "q-10-03", text=TYPO)
    assert (attempt.correct, attempt.doubts) == (True, "typo")
    path = seeds_imported / "phase-10-init-norm-residuals.yaml"
    path.write_text(
        replace_line(
            path.read_text("utf-8"),
            "      - [identity, identidad, unit gain",
            "      - [identity, identidad, unit gain, ganancia unitaria, identty path]\n",
        ),
        "utf-8",
    )
    call_command("import_quizzes", str(seeds_imported), stdout=StringIO())
    out = StringIO()
    call_command("regrade", "q-10-03", stdout=out)

    attempt.refresh_from_db()
    progress = " ".join(learner_client.get("/progress/").content.decode().split())
    assert "1 unsure marks updated" in out.getvalue()
    assert attempt.doubts == "" and not attempt.regrades.exists()
    assert "provisional" not in progress
    assert to_check_questions(cohort=cohort) == []


def test_an_override_that_makes_a_card_is_no_practice(
    seeds_imported, learner, learner_client, teacher
):
    """Right (no review card), then overridden wrong: the override makes the card and
    its schedule, so the note says when it comes back, not that this was practice."""
    attempt = answer(learner, "q-10-03", text=TYPO)

    verdict_override(attempt=attempt, correct=False, reason="a typo of another word", by=teacher)

    phase = card(learner_client.get("/phase/10/").content.decode())
    assert "Marked wrong by your instructor on " in phase
    assert "Next review" in phase
    assert "Practice" not in phase
