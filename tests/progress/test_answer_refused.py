"""Answers the portal refuses: invalid, forged or foreign tokens, unknown or retired
questions, oversized or undecodable bodies, missing CSRF. A clear 4xx each time, nothing
stored, and what the learner typed kept."""

from html import unescape
from urllib.parse import unquote_to_bytes

import pytest

from progress.models import Attempt, Draft
from quizzes.models import Question
from tests.factories import UserFactory
from tests.html import form_token_shown

pytestmark = pytest.mark.django_db


@pytest.mark.parametrize(
    ("code", "data", "message"),
    [
        ("q-10-01", {"choice": ["Z"]}, "That option is not part of this question."),
        ("q-10-01", {"choice": ["A", "B"]}, "Choose only one option."),
        ("q-10-01", {}, "Choose an option first."),
        ("q-10-02", {}, "Choose at least one option."),
        ("q-10-03", {"text": "   "}, "Write an answer first."),
        ("q-10-03", {"text": "x" * 10_001}, "too long: 10,001 characters, at most 10,000."),
        ("q-10-03", {"text": "null\x00byte"}, "The answer contains characters that cannot be"),
    ],
)
def test_answer_invalid_is_refused_with_message_and_nothing_stored(
    seeds_imported, post_answer, code, data, message
):
    response = post_answer(code, **{k: v for k, v in data.items()})

    html = response.content.decode()
    assert response.status_code == 422
    assert message in html
    assert 'role="alert"' in html
    assert Attempt.objects.count() == 0


def test_answer_invalid_keeps_what_the_learner_typed(seeds_imported, post_answer):
    response = post_answer("q-10-01", choice=["A", "B"])

    assert 'value="A" id="q-10-01-A" checked' in response.content.decode()


def test_an_answer_too_long_comes_back_whole_to_be_shortened(seeds_imported, post_answer):
    text = "identity " + "y" * 12_000 + " the end"

    response = post_answer("q-10-03", text=text)

    html = response.content.decode()
    assert response.status_code == 422
    assert f">\n{text}</textarea>" in html  # not cut at the limit: the learner cuts it
    assert "maxlength" not in html  # no browser cuts a paste either
    assert "At most 10,000 characters." in html
    assert Attempt.objects.count() == 0


def test_a_refused_text_is_the_drafts_so_a_reload_finds_it(
    seeds_imported, post_answer, learner_client
):
    text = "identity " + "w" * 10_100

    post_answer("q-10-03", text=text)  # htmx, refused: too long

    assert Draft.objects.get().answer["text"] == text
    again = learner_client.get("/phase/10/?again=q-10-03").content.decode()
    assert f">\n{text}</textarea>" in again
    # And the reload still says why it was not sent.
    assert "The answer is too long: 10,109 characters, at most 10,000." in again
    assert "Your unsent answer was kept." not in again


def shown_in_textarea(html: str, code: str) -> str:
    """The text a browser puts in `code`'s answer box, its line breaks as "\n": HTML
    drops one line break right after <textarea>."""
    start = html.index(f'<textarea id="{code}-text"')
    inner = html[html.index(">", start) + 1 : html.index("</textarea>", start)]
    return unescape(inner.replace("\r\n", "\n").removeprefix("\n"))


@pytest.mark.parametrize("opening", ["\n", "\n\n", "\r\n"])
def test_a_text_opening_with_a_line_break_comes_back_with_it(
    seeds_imported, post_answer, learner_client, opening
):
    # Red-team run 16: the answer box printed the text right after <textarea>, where a
    # browser drops a line break; a draft or a refused answer came back without its first.
    text = opening + "identity <b>&amp; " + "z" * 10_000

    refused = post_answer("q-10-03", text=text).content.decode()
    reloaded = learner_client.get("/phase/10/?again=q-10-03").content.decode()

    sent = text.replace("\r\n", "\n")
    assert shown_in_textarea(refused, "q-10-03") == sent
    assert shown_in_textarea(reloaded, "q-10-03") == sent


def test_a_text_kept_after_the_session_ended_wins_over_a_too_long_draft(
    seeds_imported, learner_client, learner
):
    question = Question.objects.get(code="q-10-03")
    Draft.objects.create(learner=learner, question=question, answer={"text": "w" * 12_000})
    Draft.objects.create(
        learner=learner, question=question, answer={"text": "short, trimmed"}, logged_out=True
    )

    page = learner_client.get("/phase/10/?again=q-10-03").content.decode()

    # The box holds the kept text: the draft's length is no longer what it says.
    assert ">\nshort, trimmed</textarea>" in page
    assert "The answer is too long" not in page


def test_a_refused_text_is_kept_up_to_its_bound(seeds_imported, post_answer):
    from progress.services.refusals import MAX_KEPT_CHARS

    response = post_answer("q-10-03", text="z" * (MAX_KEPT_CHARS + 7))

    html = response.content.decode()
    assert response.status_code == 422
    assert ">\n" + "z" * MAX_KEPT_CHARS + "</textarea>" in html


def test_answer_with_forged_token_is_refused(seeds_imported, post_answer):
    response = post_answer("q-10-01", choice=["B"], token="forged:token")

    assert response.status_code == 400
    assert "This form was out of date, so your answer was not sent" in response.content.decode()
    assert Attempt.objects.count() == 0


def test_answer_with_another_learners_token_is_refused(
    seeds_imported, post_answer, phase_token, client
):
    token = phase_token("q-10-01")
    other = UserFactory(username="bea")
    client.force_login(other)

    response = post_answer("q-10-01", choice=["B"], token=token, client=client)

    assert response.status_code == 403
    assert Attempt.objects.count() == 0


def test_answer_token_of_another_question_is_refused(seeds_imported, post_answer, phase_token):
    token = phase_token("q-10-02")

    response = post_answer("q-10-01", choice=["B"], token=token)

    assert response.status_code == 400
    assert Attempt.objects.count() == 0


def test_answer_unknown_question_is_404(seeds_imported, post_answer, phase_token):
    response = post_answer("q-99-99", choice=["B"], token=phase_token("q-10-01"))

    assert response.status_code == 404
    assert Attempt.objects.count() == 0


def test_answer_retired_question_is_refused(seeds_imported, post_answer, phase_token):
    token = phase_token("q-10-01")
    Question.objects.filter(code="q-10-01").update(retired_at="2026-01-01T00:00Z")

    response = post_answer("q-10-01", choice=["B"], token=token)

    assert response.status_code == 410
    assert Attempt.objects.count() == 0


def test_answer_of_one_megabyte_is_refused_and_nothing_stored(seeds_imported, post_answer):
    response = post_answer("q-10-03", text="identity " * 120_000)

    assert response.status_code == 422
    assert Attempt.objects.count() == 0


@pytest.mark.parametrize("text", ["identity%FF%FE%00", "identity%FF%FE", "caf%C3"])
@pytest.mark.parametrize("endpoint", ["answer", "draft"])
@pytest.mark.parametrize("multipart", [False, True])
def test_answer_or_draft_that_is_not_utf8_is_refused_and_nothing_stored(
    seeds_imported, learner_client, phase_token, text, endpoint, multipart
):
    token = phase_token("q-10-03")
    if multipart:
        raw = unquote_to_bytes(text)
        body = (
            b'--b\r\nContent-Disposition: form-data; name="token"\r\n\r\n'
            + token.encode()
            + b'\r\n--b\r\nContent-Disposition: form-data; name="text"\r\n\r\n'
            + raw
            + b"\r\n--b--\r\n"
        )
        content_type = "multipart/form-data; boundary=b"
    else:
        body = f"token={token}&text={text}".encode()
        content_type = "application/x-www-form-urlencoded"

    response = learner_client.post(
        f"/question/q-10-03/{endpoint}/",
        data=body,
        content_type=content_type,
        headers={"HX-Request": "true"},
    )

    assert response.status_code == 400
    assert "This form holds text that is not valid UTF-8. Nothing was saved." in (
        response.content.decode()
    )
    assert Attempt.objects.count() == 0
    assert Draft.objects.count() == 0


@pytest.mark.parametrize("csrf", [None, "wrong-token-wrong-token-wrong-token-12"])
def test_answer_without_a_valid_csrf_token_is_refused(seeds_imported, phase_token, learner, csrf):
    from django.test import Client

    token = phase_token("q-10-01")
    client = Client(enforce_csrf_checks=True)
    client.force_login(learner)
    headers = {"HX-Request": "true"} | ({"X-CSRFToken": csrf} if csrf else {})

    response = client.post(
        "/question/q-10-01/answer/", {"token": token, "choice": "B"}, headers=headers
    )

    assert response.status_code == 403
    assert Attempt.objects.count() == 0


def test_answers_faster_than_a_person_sends_are_refused_with_the_text_kept(
    seeds_imported, post_answer, settings
):
    settings.ANSWERS_PER_MINUTE = 2
    for n in range(2):
        assert post_answer("q-10-03", text=f"answer {n}").status_code == 200

    response = post_answer("q-10-03", text="my third answer, kept")

    html = response.content.decode()
    assert response.status_code == 429
    assert "wait a minute, then send it again" in html
    assert ">\nmy third answer, kept</textarea>" in html
    assert Attempt.objects.count() == 2
    assert Draft.objects.get().answer["text"] == "my third answer, kept"


def test_the_spanish_limit_is_written_as_the_too_long_message_writes_it(
    seeds_imported, post_answer, learner_client
):
    learner_client.post("/language/", {"language": "es", "next": "/"})

    html = post_answer("q-10-03", text="z" * 12_000).content.decode()

    # One way of grouping thousands on one card: Spanish groups with a no-break space.
    assert "Como mucho 10\u00a0000 caracteres." in html
    assert "12\u00a0000 caracteres, como mucho 10\u00a0000" in html


@pytest.mark.parametrize(
    ("endpoint", "code", "choice"),
    [("answer", "q-10-01", "\x00"), ("draft", "q-10-02", "A\x00"), ("answer", "q-10-02", "\x00Z")],
)
def test_a_nul_in_an_option_key_is_refused_and_kept_without_it(
    seeds_imported, learner_client, phase_token, endpoint, code, choice
):
    # Every refusal keeps the keys as a draft; PostgreSQL refuses a NUL in its JSON (a 500).
    response = learner_client.post(
        f"/question/{code}/{endpoint}/",
        {"token": phase_token(code), "choice": [choice]},
        headers={"HX-Request": "true"},
    )

    assert response.status_code < 500
    assert Attempt.objects.count() == 0
    kept = [
        key for answer in Draft.objects.values_list("answer", flat=True) for key in answer["keys"]
    ]
    assert kept and not any("\x00" in key for key in kept)


def test_a_nul_in_an_option_key_sent_logged_out_is_kept_without_it(
    seeds_imported, learner_client, learner, phase_token
):
    token = phase_token("q-10-01")
    learner_client.logout()  # the session ended: the answer is kept for its learner

    response = learner_client.post(
        "/question/q-10-01/answer/", {"token": token, "choice": ["B\x00"]}
    )

    assert response.status_code < 500
    assert Draft.objects.get(learner=learner).answer["keys"] == ["B"]


def test_the_answer_pace_is_one_count_whichever_worker_takes_the_answer(
    seeds_imported, post_answer, settings
):
    from django.core.cache import cache

    settings.ANSWERS_PER_MINUTE = 2
    for n in range(2):
        assert post_answer("q-10-03", text=f"answer {n}").status_code == 200
        if not settings.COUNTS_IN_CACHE:
            cache.clear()  # the next request lands on another worker, with its own cache

    assert post_answer("q-10-03", text="third").status_code == 429
    assert Attempt.objects.count() == 2


@pytest.mark.parametrize("endpoint", ["answer", "draft"])
def test_a_body_past_the_largest_read_says_so_and_leaves_the_box_in_place(
    seeds_imported, learner_client, phase_token, settings, endpoint
):
    settings.DATA_UPLOAD_MAX_MEMORY_SIZE = 2**20  # 1 MB: a paste of megabytes, smaller
    data = {"token": phase_token("q-10-03"), "text": "identity " * 130_000}

    response = learner_client.post(
        f"/question/q-10-03/{endpoint}/", data, headers={"HX-Request": "true"}
    )

    html = response.content.decode()
    assert response.status_code == 413
    assert "What you sent is too large (over 1.0 MB): nothing was recorded." in html
    assert "Reload the page" not in html  # a reload would lose what is in the box
    # The answer's card is not swapped away: the message goes above its form; a draft,
    # sent as the learner types, swaps nothing (its markup says so).
    assert response.headers.get("HX-Reswap") == ("beforebegin" if endpoint == "answer" else None)
    assert Attempt.objects.count() == 0
    assert Draft.objects.count() == 0


def test_a_body_past_the_largest_read_without_htmx_is_a_page_saying_so(
    seeds_imported, post_answer, settings
):
    settings.DATA_UPLOAD_MAX_MEMORY_SIZE = 2**20

    response = post_answer("q-10-03", text="identity " * 130_000, htmx=False)

    assert response.status_code == 413
    assert "What you sent is too large (over 1.0 MB): nothing was recorded." in (
        response.content.decode()
    )
    assert "<main" in response.content.decode()


def test_an_answer_sent_again_at_the_pace_limit_shows_its_feedback_not_a_refusal(
    seeds_imported, post_answer, phase_token, settings
):
    # A double click, or a retry after the response was lost, on the minute's last
    # answer: the answer is stored; its repeat must not say "not sent", whose form
    # (with a token made after the stored answer) would store it a second time.
    settings.ANSWERS_PER_MINUTE = 2
    assert post_answer("q-10-03", text="first").status_code == 200
    token = phase_token("q-10-02")
    assert post_answer("q-10-02", choice=["B"], token=token).status_code == 200

    response = post_answer("q-10-02", choice=["B"], token=token)

    html = response.content.decode()
    assert response.status_code == 200
    assert "wait a minute" not in html
    assert Attempt.objects.filter(question__code="q-10-02").count() == 1
    assert not Draft.objects.filter(question__code="q-10-02").exists()


def test_another_answer_on_a_sent_form_at_the_pace_limit_is_a_conflict(
    seeds_imported, post_answer, phase_token, settings
):
    settings.ANSWERS_PER_MINUTE = 1
    token = phase_token("q-10-03")
    assert post_answer("q-10-03", text="first answer", token=token).status_code == 200

    response = post_answer("q-10-03", text="second answer, kept", token=token)

    assert response.status_code == 409
    assert ">\nsecond answer, kept</textarea>" in response.content.decode()
    assert Attempt.objects.get().answer == {"text": "first answer"}


def test_repeats_of_stored_answers_do_not_count_against_the_pace(
    seeds_imported, post_answer, phase_token, settings
):
    """A double click's second post stores nothing: counted, three double clicks used
    up a minute of 4 answers, and the fourth answer was refused 'wait a minute'."""
    settings.ANSWERS_PER_MINUTE = 4
    for code, choice in (("q-10-01", ["A"]), ("q-10-02", ["B"]), ("q-10-03", None)):
        token = phase_token(code)
        answer = {"choice": choice} if choice else {"text": "identity path"}
        for _ in range(2):  # the click and its double
            assert post_answer(code, token=token, **answer).status_code == 200

    response = post_answer("q-10-03", text="a fourth answer, another one")

    assert response.status_code == 200
    assert Attempt.objects.count() == 4


def test_a_form_overtaken_by_another_tab_does_not_count_against_the_pace(
    seeds_imported, post_answer, phase_token, settings
):
    """The 409 of a form answered since in another tab stores nothing, as a double
    click's repeat: counted, it used up the minute, and the answer the learner then sent
    from the form shown again was refused 'wait a minute'."""
    settings.ANSWERS_PER_MINUTE = 2
    old_tab, new_tab = phase_token("q-10-03"), phase_token("q-10-03")
    post_answer("q-10-03", text="the identity path carries the gradient", token=new_tab)
    overtaken = post_answer("q-10-03", text="no idea, something about layers", token=old_tab)

    response = post_answer(
        "q-10-03",
        text="no idea, something about layers",
        token=form_token_shown(overtaken.content.decode(), "q-10-03"),
    )

    assert overtaken.status_code == 409
    assert response.status_code == 200
    assert Attempt.objects.count() == 2
