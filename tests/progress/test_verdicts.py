"""One verdict everywhere: after a regrade, every learner page shows the effective one."""

from io import StringIO

import pytest
from django.core.management import call_command

from progress.models import ReviewCard
from teaching.services import verdict_override
from tests.factories import UserFactory, answer
from tests.html import question_card
from tests.seeds import letter_options_again, replace_line

pytestmark = pytest.mark.django_db


@pytest.fixture
def regraded_wrong(seeds_imported, learner):
    """ana answered q-10-01 right; the key moves from B to A and the regrade runs."""
    answer(learner, "q-10-01", keys=["B"])
    _key_moved_and_regraded(seeds_imported)


def _key_moved_and_regraded(folder) -> None:
    """q-10-01's right option moves from B to A in the file; import, then regrade."""
    path = folder / "phase-10-init-norm-residuals.yaml"
    text = path.read_text().replace(
        "equivalente a fp32\n        correct: true\n", "equivalente a fp32\n", 1
    )
    text = text.replace(
        "dando valores de gradiente más precisos\n",
        "dando valores de gradiente más precisos\n        correct: true\n",
        1,
    )
    path.write_text(text, "utf-8")
    call_command("import_quizzes", str(folder), stdout=StringIO())
    call_command("regrade", "q-10-01", stdout=StringIO())


def _text(response) -> str:
    return " ".join(response.content.decode().split())


def test_card_shows_the_regraded_verdict_with_a_note(regraded_wrong, learner_client):
    html = _text(learner_client.get("/phase/10/"))
    card = question_card(html, "q-10-01")

    assert "Not quite" in card
    assert "Right</h3>" not in card
    assert "Regraded on " in card and "the answer key changed." in card
    assert "your pick, wrong" in card


def test_progress_and_home_agree_with_the_card(regraded_wrong, learner_client):
    progress = _text(learner_client.get("/progress/"))
    home = _text(learner_client.get("/"))

    assert "Not quite (regraded)" in progress
    assert '<td data-label="Score">0 / 5</td>' in progress  # the phase's score counts it wrong
    assert "Right" not in progress.split("History", 1)[1]
    assert 'id="correct-10">0 of 5 right</p>' in home


def test_regraded_wrong_question_comes_back_into_todays_reviews(regraded_wrong, learner):
    card = ReviewCard.objects.get(learner=learner, question__code="q-10-01")

    assert card.learned_at is None
    assert ReviewCard.objects.due_before(card.due.replace(year=card.due.year + 1)).count() == 1


def test_card_says_an_instructor_marked_it_right(seeds_imported, learner, learner_client):
    attempt = answer(learner, "q-10-03", text="no idea at all")
    verdict_override(
        attempt=attempt, correct=True, reason="right idea", by=UserFactory(username="teach")
    )

    html = _text(learner_client.get("/phase/10/"))
    card = question_card(html, "q-10-03")

    assert "✓</span> Right" in card
    assert "Marked right by your instructor on " in card and "“<bdi>right idea</bdi>”" in card
    # The grader's reading still follows, said to be the grader's, not the verdict.
    assert "how the grader read your answer, before your instructor marked it right." in card
    assert card.index("Below is how the grader read") < card.index("Expected mentions")


def test_a_kept_answer_still_shows_the_instructors_verdict_on_the_last_one(
    seeds_imported, learner, client, phase_token, post_answer
):
    """An answer sent after the session expired is kept in the form, which hides the
    feedback: the verdict that stands, and the instructor's reason, are shown with it."""
    client.force_login(learner)
    attempt = answer(learner, "q-10-03", text="no idea at all")
    token = phase_token("q-10-03")
    verdict_override(attempt=attempt, correct=True, reason="right idea", by=UserFactory())
    del client.cookies["sessionid"]  # the session ends; the browser keeps its CSRF cookie
    post_answer("q-10-03", text="a second try, kept", token=token, client=client)
    client.force_login(learner)

    html = _text(client.get("/phase/10/"))
    card = question_card(html, "q-10-03")

    assert "> a second try, kept</textarea>" in card
    assert 'The answer that stands, graded right: <q dir="auto">no idea at all</q>' in card
    assert "Marked right by your instructor on " in card and "“<bdi>right idea</bdi>”" in card


def test_free_feedback_after_a_key_regrade_reads_the_new_key(
    seeds_imported, learner, learner_client
):
    """The mention labels, statuses and counts all come from the key that graded it."""
    answer(learner, "q-10-03", text="the gradient has unit gain")
    path = seeds_imported / "phase-10-init-norm-residuals.yaml"
    text = replace_line(
        path.read_text("utf-8"),
        "      - [identity, identidad, unit gain",
        "      - [identity, identidad]\n      - [warmup, calentamiento]\n",
    )
    text = text.replace(
        '      - {answer: "el residual pasa el gradiente tal cual: ganancia unitaria", '
        "right: true}\n",
        "",
    ).replace(
        '      - {answer: "The residual keeps an identity path, so the gradient has unit gain.", '
        "right: true}\n",
        "",
    )
    path.write_text(text, "utf-8")
    call_command("import_quizzes", str(seeds_imported), stdout=StringIO())
    call_command("regrade", "q-10-03", stdout=StringIO())

    html = _text(learner_client.get("/phase/10/"))
    card = question_card(html, "q-10-03")

    assert "Expected mentions (2 of 2 needed):" in card
    assert "missed: identity / …" in card  # its English phrasing: the page is in English
    assert "missed: warmup / …" in card


def test_a_card_seen_before_a_regrade_shows_the_new_key_after_it(seeds_imported, learner):
    """The feedback list is kept per revision, grading key and picks: the page seen
    before the regrade must not be what the page shows after it."""
    from django.test import Client

    client = Client()
    client.force_login(learner)
    answer(learner, "q-10-01", keys=["B"])
    before = _text(client.get("/phase/10/"))
    assert "your pick, right" in before[before.index('id="q-10-01"') :]

    _key_moved_and_regraded(seeds_imported)
    html = _text(client.get("/phase/10/"))
    card = question_card(html, "q-10-01")

    assert "your pick, wrong" in card and "your pick, right" not in card
    assert "the right answer" in card


@pytest.mark.parametrize("language", ["en", "es"])
def test_a_wrong_answer_the_key_change_left_wrong_says_the_key_changed(
    seeds_imported, learner, learner_client, language
):
    """C was wrong under B and is under A: the regrade changes nothing, so no entry is
    written, but the card must not go on teaching B as the right answer."""
    answer(learner, "q-10-01", keys=["C"])
    _key_moved_and_regraded(seeds_imported)
    learner_client.post("/language/", {"language": language, "next": "/"})

    html = _text(learner_client.get("/phase/10/"))
    card = question_card(html, "q-10-01")

    if language == "en":
        assert "The answer key has changed since this answer was graded." in card
        assert "The right answer is now A." in card
    else:
        assert "La clave de respuestas ha cambiado desde que se calificó" in card
        assert "La respuesta correcta ahora es A." in card


def test_a_replaced_key_marks_no_option_right_beside_the_note(
    seeds_imported, learner, learner_client
):
    """A UX walk: after B → A, a pick the regrade left wrong still showed "B. … — the
    right answer" above "The right answer is now A.": the card taught both keys. The
    piece seen before the import (kept per key and picks) must not come back either."""
    answer(learner, "q-10-01", keys=["C"])
    before = _text(learner_client.get("/phase/10/"))
    assert "the right answer" in before[before.index('id="q-10-01"') :]
    _key_moved_and_regraded(seeds_imported)

    html = _text(learner_client.get("/phase/10/"))
    card = question_card(html, "q-10-01")

    assert "The right answer is now A." in card
    assert "the right answer</strong>" not in card and 'class="missed-key"' not in card
    assert "<strong>— your pick</strong>" in card


def test_a_regraded_answer_needs_no_note_of_the_key_change(regraded_wrong, learner_client):
    html = _text(learner_client.get("/phase/10/"))

    assert "The answer key has changed" not in html


def test_an_overridden_answer_needs_no_note_of_the_key_change(
    seeds_imported, learner, learner_client
):
    attempt = answer(learner, "q-10-01", keys=["C"])
    _key_moved_and_regraded(seeds_imported)
    verdict_override(attempt=attempt, correct=True, reason="C is fine", by=UserFactory())

    html = _text(learner_client.get("/phase/10/"))

    assert "Marked right by your instructor" in html
    assert "The answer key has changed" not in html


def test_an_instructors_reason_is_quoted_in_the_learners_language_without_hidden_controls(
    seeds_imported, learner, learner_client
):
    attempt = answer(learner, "q-10-03", text="no idea at all")
    verdict_override(
        attempt=attempt, correct=True, reason="\u202eidea buena", by=UserFactory(username="teach")
    )
    learner_client.post("/language/", {"language": "es", "next": "/"})

    html = _text(learner_client.get("/phase/10/"))

    assert "«<bdi>idea buena</bdi>»" in html
    assert "\u202e" not in html


@pytest.mark.parametrize("reload", [False, True])
def test_a_refused_answer_again_still_shows_the_verdict_that_stands(
    seeds_imported, learner, learner_client, post_answer, reload
):
    """The form that says why the new answer was refused (too long) hides the feedback:
    the answer that stands and its instructor's check are shown with it, in the reply
    and after a reload (UX walk 17)."""
    attempt = answer(learner, "q-10-03", text="no idea at all")
    verdict_override(attempt=attempt, correct=True, reason="right idea", by=UserFactory())

    response = post_answer("q-10-03", text="identity " + "y" * 10_100)
    if reload:
        response = learner_client.get("/phase/10/")
    html = _text(response)
    card = html[html.index('id="q-10-03') :]
    card = card[: card.index('id="q-10-04"')] if 'id="q-10-04"' in card else card

    assert "The answer is too long" in card
    assert 'The answer that stands, graded right: <q dir="auto">no idea at all</q>' in card
    assert card.count("The answer that stands") == 1
    assert "Marked right by your instructor on " in card


@pytest.mark.parametrize("language", ["en", "es"])
def test_options_lettered_again_are_not_named_by_their_new_letters(
    seeds_imported, learner, learner_client, language
):
    """An author walk: the right option B moved to the top and was lettered A. The card
    shows the answered options, where A is the old wrong one: "The right answer is now
    A" pointed at the learner's wrong pick."""
    answer(learner, "q-10-01", keys=["A"])
    letter_options_again(seeds_imported)
    learner_client.post("/language/", {"language": language, "next": "/"})

    card = question_card(_text(learner_client.get("/phase/10/")), "q-10-01")

    if language == "en":
        assert "Its options now have other letters." in card
        assert "The right answer is now" not in card
    else:
        assert "Sus opciones tienen ahora otras letras." in card
        assert "La respuesta correcta ahora es" not in card


@pytest.mark.parametrize("language", ["en", "es"])
@pytest.mark.parametrize(
    "reason, shown",
    [
        ("«idea buena»", "<bdi>«idea buena»</bdi>"),
        ("“right idea”", "<bdi>“right idea”</bdi>"),
        ('"right idea"', "<bdi>&quot;right idea&quot;</bdi>"),
        ("‘right idea’", "<bdi>‘right idea’</bdi>"),
    ],
)
def test_a_reason_the_instructor_quoted_is_not_quoted_again(
    seeds_imported, learner, learner_client, language, reason, shown
):
    """A reason written between « » came to the learner as “«…»” (or ««…»»)."""
    attempt = answer(learner, "q-10-03", text="no idea at all")
    verdict_override(attempt=attempt, correct=True, reason=reason, by=UserFactory())
    learner_client.post("/language/", {"language": language, "next": "/"})

    card = question_card(_text(learner_client.get("/phase/10/")), "q-10-03")

    note = card.split('class="verdict-note">', 1)[1].split("</p>", 1)[0]
    assert note.endswith(" " + shown), note
    assert note.count("<bdi>") == 1


@pytest.mark.parametrize(
    "language, shown", [("en", "“<bdi>«a» or b</bdi>”"), ("es", "«<bdi>«a» or b</bdi>»")]
)
def test_a_reason_only_partly_quoted_is_still_quoted(
    seeds_imported, learner, learner_client, language, shown
):
    attempt = answer(learner, "q-10-03", text="no idea at all")
    verdict_override(attempt=attempt, correct=True, reason="«a» or b", by=UserFactory())
    learner_client.post("/language/", {"language": language, "next": "/"})

    assert shown in _text(learner_client.get("/phase/10/"))


@pytest.mark.parametrize("language", ["en", "es"])
@pytest.mark.parametrize("picked", ["B", "C"])
def test_an_option_removed_says_the_right_answer_is_still_the_same(
    seeds_imported, learner, learner_client, language, picked
):
    """An author walk: a wrong option nobody picked (D) was removed from q-10-01. The
    card said "The answer key has changed … The right answer is now B." to a learner
    whose answer B had been right all along, as if B had not been."""
    answer(learner, "q-10-01", keys=[picked])
    path = seeds_imported / "phase-10-init-norm-residuals.yaml"
    option_d = (
        "      - key: D\n        text:\n"
        "          en: bf16 supports subnormals while fp16 does not\n"
        "          es: bf16 soporta subnormales mientras que fp16 no\n"
    )
    assert option_d in path.read_text()
    path.write_text(path.read_text().replace(option_d, "", 1), "utf-8")
    call_command("import_quizzes", str(seeds_imported), stdout=StringIO())
    learner_client.post("/language/", {"language": language, "next": "/"})

    card = question_card(_text(learner_client.get("/phase/10/")), "q-10-01")

    if language == "en":
        assert (
            "The question's options have changed since this answer was graded, not its right "
            "answer: still B."
        ) in card
        assert "The right answer is now" not in card and "answer key has changed" not in card
    else:
        assert "no su respuesta correcta: sigue siendo B." in card
        assert "La respuesta correcta ahora es" not in card


def test_a_kind_changed_with_the_same_right_option_still_says_the_key_changed(
    seeds_imported, learner, learner_client
):
    """single → multi, B still the one right option, the options as they were: the card
    said the options had changed, not the right answer, when only the kind had."""
    answer(learner, "q-10-01", keys=["B"])
    path = seeds_imported / "phase-10-init-norm-residuals.yaml"
    text = path.read_text().replace("    kind: single\n", "    kind: multi\n", 1)
    path.write_text(text, "utf-8")
    call_command("import_quizzes", str(seeds_imported), stdout=StringIO())

    card = question_card(_text(learner_client.get("/phase/10/")), "q-10-01")

    assert "The answer key has changed since this answer was graded." in card
    assert "not its right answer" not in card
