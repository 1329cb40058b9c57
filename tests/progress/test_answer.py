"""Answering: instant feedback, one attempt per submission, nothing lost or leaked."""

import re

import pytest
from django.contrib.auth import get_user_model

from progress.models import Attempt, Draft
from quizzes.models import Question
from tests.html import article, form_token

pytestmark = pytest.mark.django_db


def test_answer_single_right_returns_feedback_fragment(seeds_imported, post_answer, learner):
    response = post_answer("q-10-01", choice=["B"])

    html = response.content.decode()
    attempt = Attempt.objects.get()
    assert response.status_code == 200
    assert "<html" not in html
    assert "Right" in html
    assert "your pick, right" in html
    assert "bf16 trades mantissa precision" in html  # the explanation, after answering
    assert (attempt.learner, attempt.correct, attempt.score, attempt.answer) == (
        learner,
        True,
        1.0,
        {"keys": ["B"]},
    )
    assert attempt.revision == Question.objects.get(code="q-10-01").current_revision
    assert attempt.language == "en"


def test_answer_single_wrong_names_the_right_option(seeds_imported, post_answer):
    response = post_answer("q-10-01", choice=["A"])

    html = response.content.decode()
    assert "Not quite" in html
    assert "your pick, wrong" in html
    assert "the right answer" in html
    assert Attempt.objects.get().correct is False


def test_answer_multi_shows_picks_and_partial_score(seeds_imported, post_answer):
    response = post_answer("q-10-02", choice=["A", "D"])

    html = response.content.decode()
    attempt = Attempt.objects.get()
    assert (attempt.correct, attempt.score, attempt.partial) == (False, 0.0, 0.0)
    assert attempt.feedback["right_picks"] == ["A"]
    assert attempt.feedback["wrong_picks"] == ["D"]
    assert attempt.feedback["missed_keys"] == ["C"]
    assert "right, not picked" in html
    assert "Partial score: 0%" in html


def test_answer_multi_half_right_scores_half(seeds_imported, post_answer):
    response = post_answer("q-10-02", choice=["A"])

    assert "Partial score: 50%" in response.content.decode()
    assert Attempt.objects.get().partial == 0.5


def test_answer_free_lists_mentions_found_and_missed(seeds_imported, post_answer):
    response = post_answer("q-19-05", text="The embedding row of the rare token dominates.")

    html = response.content.decode()
    attempt = Attempt.objects.get()
    assert (attempt.correct, attempt.score, attempt.partial) == (True, 1.0, 0.6667)
    assert attempt.answer == {"text": "The embedding row of the rare token dominates."}
    assert "found: embedding row / embedding / row / …" in " ".join(html.split())
    assert "missed: large gradient" in " ".join(html.split())


def test_answer_same_form_twice_stores_one_attempt(seeds_imported, post_answer, phase_token):
    token = phase_token("q-10-01")

    first = post_answer("q-10-01", choice=["A"], token=token)
    second = post_answer("q-10-01", choice=["A"], token=token)

    assert Attempt.objects.count() == 1
    assert Attempt.objects.get().answer == {"keys": ["A"]}
    assert second.status_code == 200
    assert "Not quite" in second.content.decode()
    assert "Not quite" in first.content.decode()


def test_same_form_sent_again_with_another_answer_keeps_it_to_send(
    seeds_imported, post_answer, phase_token, learner
):
    token = phase_token("q-10-03")
    post_answer("q-10-03", text="the identity path", token=token)

    second = post_answer("q-10-03", text="my second, better answer", token=token)

    assert second.status_code == 409
    html = second.content.decode()
    assert "This form had already been sent with another answer" in html
    assert ">\nmy second, better answer</textarea>" in html
    assert list(Attempt.objects.values_list("answer", flat=True)) == [{"text": "the identity path"}]
    assert Draft.objects.get(learner=learner).answer["text"] == "my second, better answer"


def test_same_form_resent_without_javascript_with_another_answer_is_not_dropped(
    seeds_imported, post_answer, phase_token, learner_client
):
    token = phase_token("q-10-03")
    post_answer("q-10-03", text="the identity path", token=token, htmx=False)

    second = post_answer("q-10-03", text="my second, better answer", token=token, htmx=False)

    assert second.status_code == 302
    page = learner_client.get(second.url).content.decode()
    assert "This form had already been sent with another answer" in page
    assert ">\nmy second, better answer</textarea>" in page
    assert 'The answer that stands, graded right: <q dir="auto">the identity path</q>' in " ".join(
        page.split()
    )
    assert Attempt.objects.count() == 1


def test_answer_again_with_new_form_keeps_every_try(seeds_imported, post_answer, learner_client):
    post_answer("q-10-01", choice=["A"])

    response = post_answer("q-10-01", choice=["B"])

    assert list(Attempt.objects.values_list("correct", flat=True)) == [False, True]
    assert "2 tries" in response.content.decode()


def test_answer_without_htmx_redirects_to_the_question(seeds_imported, post_answer, learner_client):
    response = post_answer("q-10-01", choice=["B"], htmx=False)

    assert response.status_code == 302
    assert response["Location"] == "/phase/10/#q-10-01"
    page = learner_client.get("/phase/10/").content.decode()
    assert "your pick, right" in page
    assert Attempt.objects.count() == 1


def test_answer_after_session_expired_keeps_text_as_draft(
    seeds_imported, post_answer, phase_token, client, learner
):
    token = phase_token("q-10-03")
    client.logout()

    response = post_answer(
        "q-10-03", text="my careful answer about identity", token=token, client=client
    )

    assert response.status_code == 200
    assert response["HX-Redirect"] == "/login/?next=%2Fphase%2F10%2F%23q-10-03&reason=expired"
    assert Attempt.objects.count() == 0
    kept = Draft.objects.get(learner=learner)
    assert (kept.logged_out, kept.answer["text"]) == (True, "my careful answer about identity")
    client.force_login(learner)
    page = client.get("/phase/10/").content.decode()
    assert ">\nmy careful answer about identity</textarea>" in page
    assert "when you sent this answer, so it was kept here, not graded" in page


def test_answer_submitted_after_relogin_clears_the_draft(
    seeds_imported, post_answer, phase_token, client, learner
):
    token = phase_token("q-10-03")
    client.logout()
    post_answer("q-10-03", text="identity", token=token, client=client)
    client.force_login(learner)

    response = post_answer("q-10-03", text="identity", client=client)

    assert response.status_code == 200
    assert Attempt.objects.get().correct is True
    assert Draft.objects.count() == 0


def test_draft_autosave_stores_text(seeds_imported, learner_client, phase_token, learner):
    token = phase_token("q-10-03")

    response = learner_client.post(
        "/question/q-10-03/draft/",
        {"token": token, "text": "half an answer"},
        headers={"HX-Request": "true"},
    )

    assert response.status_code == 204
    assert Draft.objects.get(learner=learner).answer == {"keys": [], "text": "half an answer"}


def test_question_form_fragment_gives_a_fresh_form(seeds_imported, post_answer, learner_client):
    post_answer("q-10-01", choice=["A"])

    response = learner_client.get("/question/q-10-01/form/", headers={"HX-Request": "true"})

    html = response.content.decode()
    assert "<html" not in html
    assert 'name="token"' in html
    assert "1 try so far" in html
    assert 'id="q-10-01-A" autofocus' in html


def test_question_form_without_htmx_redirects_to_phase_page(seeds_imported, learner_client):
    response = learner_client.get("/question/q-10-01/form/")

    assert response.status_code == 302
    assert response["Location"] == "/phase/10/?again=q-10-01#q-10-01"


def test_get_on_answer_url_is_not_allowed(seeds_imported, learner_client):
    response = learner_client.get("/question/q-10-01/answer/")

    assert response.status_code == 405
    assert get_user_model().objects.count() == 1


def test_cached_cards_still_get_fresh_tokens_per_render(
    seeds_imported, learner_client, post_answer
):
    first = learner_client.get("/phase/10/").content.decode()
    second = learner_client.get("/phase/10/").content.decode()

    one, two = form_token(first, "q-10-01"), form_token(second, "q-10-01")
    assert one != two
    assert "placeholder" not in second
    post_answer("q-10-01", choice=["B"], token=two)
    assert list(Attempt.objects.values_list("correct", flat=True)) == [True]


def _feedback_section(html: str) -> str:
    """A card's feedback, without what only the answer's own response carries: the
    focus, and the review card's schedule (the phase page does not read cards)."""
    section = re.search(r'<section class="feedback.*?</section>', html, re.S).group(0)
    section = section.replace(" autofocus", "")
    section = re.sub(r'<p class="review-note">.*?</p>', "", section, flags=re.S)
    return " ".join(section.split())


@pytest.mark.parametrize("choice", [["A"], ["B"]])  # wrong (a review card is made), right
def test_feedback_right_after_an_answer_is_what_the_phase_page_shows_next(
    seeds_imported, post_answer, learner_client, learner, choice
):
    from django.template.loader import render_to_string

    from progress.selectors import question_state

    post_answer("q-10-02", choice=["A"])  # an earlier try: the standing exists
    post_answer("q-10-02", choice=["B"])

    fresh = post_answer("q-10-02", choice=choice).content.decode()
    page = learner_client.get("/phase/10/").content.decode()

    assert "3 tries" in fresh
    assert 'href="#q-10-03" data-next' in fresh
    assert _feedback_section(fresh) == _feedback_section(article(page, "q-10-02"))
    # The schedule note, built from the card the answer wrote, is the one a read of the
    # card gives (the phase page shows none).
    question = Question.objects.select_related("phase", "current_revision").get(code="q-10-02")
    read = question_state(learner=learner, question=question, with_card=True)
    note = re.search(r'<p class="review-note">.*?</p>', fresh, re.S)
    reread = render_to_string(
        "progress/_question.html#question-body", {"state": read, "focus": True}
    )
    assert note is not None
    assert note.group(0) == re.search(r'<p class="review-note">.*?</p>', reread, re.S).group(0)


def test_htmx_answer_runs_fixed_queries(
    seeds_imported, post_answer, phase_token, learner_client, django_assert_num_queries, settings
):
    post_answer("q-10-01", choice=["A"])
    token = phase_token("q-10-01")

    # session, user, question and its phase (the revision comes from the process's
    # map); the answer pace (one upsert, in Redis with REDIS_URL); the
    # attempt's savepoint: insert, standing (read, write),
    # the learner's counts in the phase (wrong then right: the latest and ever-right
    # counts move), review card (read, write), drafts; then the phase's index for the
    # feedback and the out-of-band status line: nothing read again.
    with django_assert_num_queries(13 if settings.COUNTS_IN_CACHE else 14):
        response = post_answer("q-10-01", choice=["B"], token=token)

    assert response.status_code == 200
    assert "2 tries" in response.content.decode()


def test_invisible_characters_are_taken_out_of_a_free_answer(seeds_imported, post_answer):
    """A direction override would show a reversed answer as a plain one to the
    instructor; a zero-width space would hide a word from the grader, unseen."""
    response = post_answer("q-10-03", text="\u202eiden\u200btity path\u202c")

    attempt = Attempt.objects.get()
    assert response.status_code == 200
    assert attempt.answer["text"] == "identity path"
    assert attempt.correct is True


HIDDEN = {
    # Format and other characters no one sees (the red team's round 6).
    "soft-hyphen": "\u00ad",
    "zwj": "\u200d",
    "zwnj": "\u200c",
    "cgj": "\u034f",
    "lrm": "\u200e",
    "mongolian-vs": "\u180e",
    "vs16": "\ufe0f",
    "tag-a": "\U000e0061",
    # Control characters (Unicode's Cc: C0 but the tab and line ends, DEL, C1): a box or
    # nothing on a page, and the escape sequences stayed in the text the CSV export
    # hands to a terminal (red team 21).
    "soh": "\x01",
    "backspace": "\x08",
    "escape": "\x1b",
    "unit-separator": "\x1f",
    "delete": "\x7f",
    "pad": "\x80",
    "csi": "\x9b",
    "apc": "\x9f",
}


@pytest.mark.parametrize("hidden", HIDDEN.values(), ids=HIDDEN)
def test_no_invisible_character_hides_a_rejected_word_from_the_grader(
    seeds_imported, post_answer, hidden
):
    """q-19-02 rejects "2 sigma": with a character no one sees inside "sigma", the grader
    read two words and the hedge "2 sigma or 3 sigma" was graded right."""
    post_answer("q-19-02", text=f"2 si{hidden}gma or 3 sigma above the rolling mean")

    attempt = Attempt.objects.get()
    assert attempt.answer["text"] == "2 sigma or 3 sigma above the rolling mean"
    assert attempt.correct is False


@pytest.mark.parametrize(
    "brk",
    ["\x0b", "\x0c", "\x85", "\u2028", "\u2029", "\r\n", "\t"],
    ids=["vertical-tab", "form-feed", "next-line", "line-sep", "paragraph-sep", "crlf", "tab"],
)
def test_a_line_break_of_any_kind_is_kept_as_one(seeds_imported, post_answer, brk):
    """Word's manual line break (a vertical tab), a form feed, NEL and Unicode's line and
    paragraph separators are line breaks: kept as one, the tab and CR LF as typed."""
    post_answer("q-10-03", text=f"identity{brk}path")

    shown = brk if brk in ("\r\n", "\t") else "\n"
    assert Attempt.objects.get().answer["text"] == f"identity{shown}path"
