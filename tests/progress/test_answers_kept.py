"""Forms the learner cannot send as they are (a key corrected since, an answer sent from
another tab since, a token that no longer reads, a page left across a new login): the
answer is not stored, and what the learner sent comes back in the form, kept."""

import re
from datetime import timedelta
from io import StringIO

import pytest
import time_machine
from django.core.management import call_command
from django.test import Client
from django.utils import timezone

from progress.models import Attempt, Draft
from quizzes.models import Question
from tests.factories import UserFactory
from tests.html import form_token_shown

HTMX = {"HX-Request": "true"}

PHASE_10 = "phase-10-init-norm-residuals.yaml"


def _move_key_of_q_10_01_to_a(seed_dir):
    path = seed_dir / PHASE_10
    text = path.read_text()
    moved = text.replace(
        "          es: bf16 tiene el exponente de 8 bits de fp32, dando rango dinámico "
        "equivalente a fp32\n        correct: true",
        "          es: bf16 tiene el exponente de 8 bits de fp32, dando rango dinámico "
        "equivalente a fp32",
    ).replace(
        "dando valores de gradiente más precisos\n",
        "dando valores de gradiente más precisos\n        correct: true\n",
    )
    assert moved != text
    path.write_text(moved, "utf-8")
    call_command("import_quizzes", str(seed_dir), stdout=StringIO())


def _reword_q_10_01(seed_dir):
    path = seed_dir / PHASE_10
    text = path.read_text()
    reworded = text.replace("dando rango dinámico", "con rango dinámico", 1)
    assert reworded != text
    path.write_text(reworded, "utf-8")
    call_command("import_quizzes", str(seed_dir), stdout=StringIO())


def test_a_form_made_before_its_key_was_corrected_is_sent_back_with_the_answer(
    seeds_imported, post_answer, phase_token, learner
):
    token = phase_token("q-10-01")
    _move_key_of_q_10_01_to_a(seeds_imported)

    response = post_answer("q-10-01", choice=["B"], token=token)

    assert response.status_code == 409
    html = response.content.decode()
    assert "This question was corrected after you opened it" in html
    assert re.search(r'value="B"[^>]*checked', html)  # the learner's choice, kept
    assert Attempt.objects.count() == 0
    assert Draft.objects.get(learner=learner).answer["keys"] == ["B"]
    # Sent again from the form it got back: graded by the corrected key.
    post_answer("q-10-01", choice=["B"], token=form_token_shown(html, "q-10-01"))
    attempt = Attempt.objects.get()
    assert attempt.revision.number == 2
    assert attempt.correct is False


def test_a_form_made_before_a_rewording_is_graded_by_the_revision_it_showed(
    seeds_imported, post_answer, phase_token
):
    token = phase_token("q-10-01")
    _reword_q_10_01(seeds_imported)

    response = post_answer("q-10-01", choice=["B"], token=token)

    assert response.status_code == 200
    attempt = Attempt.objects.get()
    assert attempt.revision.number == 1
    assert attempt.correct is True
    assert Question.objects.get(code="q-10-01").current_revision.number == 2


def test_an_answer_from_a_tab_overtaken_by_another_is_sent_back_not_stored_over_it(
    seeds_imported, post_answer, phase_token, learner
):
    old_tab = phase_token("q-10-03")
    new_tab = phase_token("q-10-03")
    post_answer("q-10-03", text="the identity path carries the gradient", token=new_tab)

    response = post_answer("q-10-03", text="no idea, something about layers", token=old_tab)

    assert response.status_code == 409
    html = response.content.decode()
    assert "You answered this question in another tab or window" in html
    assert ">\nno idea, something about layers</textarea>" in html
    # The answer that stands is shown beside it, with its verdict.
    standing = (
        "The answer that stands, graded right: "
        '<q dir="auto">the identity path carries the gradient</q>'
    )
    assert standing in " ".join(html.split())
    assert Attempt.objects.count() == 1
    assert Draft.objects.get(learner=learner).answer["text"] == "no idea, something about layers"
    # The form it came back in replaces the other answer when sent.
    post_answer(
        "q-10-03", text="no idea, something about layers", token=form_token_shown(html, "q-10-03")
    )
    assert Attempt.objects.count() == 2


def test_a_double_click_still_stores_one_attempt_and_shows_its_feedback(
    seeds_imported, post_answer, phase_token
):
    token = phase_token("q-10-01")

    first = post_answer("q-10-01", choice=["B"], token=token)
    second = post_answer("q-10-01", choice=["B"], token=token)

    assert (first.status_code, second.status_code) == (200, 200)
    assert "is-right" in second.content.decode()
    assert Attempt.objects.count() == 1


@pytest.mark.parametrize("token", ["forged:token", "x", "of another question"])
def test_an_unusable_token_gives_the_form_back_with_the_answer(
    seeds_imported, post_answer, phase_token, learner, token
):
    if token == "of another question":
        token = phase_token("q-10-01")

    response = post_answer("q-10-03", text="my long careful answer", token=token)

    assert response.status_code == 400
    html = response.content.decode()
    assert "This form was out of date, so your answer was not sent" in html
    assert ">\nmy long careful answer</textarea>" in html
    assert Draft.objects.get(learner=learner).answer["text"] == "my long careful answer"
    assert Attempt.objects.count() == 0


def test_a_page_left_open_across_a_new_login_gives_the_form_back_not_an_empty_card(
    seeds_imported, learner, phase_token
):
    """Logging in again in another tab changes the CSRF secret: the old tab's htmx post
    fails Django's CSRF check. The card gets its form back with the text and a form
    that works, instead of losing the text box."""
    old = Client(enforce_csrf_checks=True)
    old.force_login(learner)
    html = old.get("/phase/10/").content.decode()
    token = form_token_shown(html, "q-10-03")
    old.cookies["csrftoken"] = "x" * 32  # the other tab's new login set a new secret

    response = old.post(
        "/question/q-10-03/answer/",
        {"token": token, "text": "typed before the other tab logged in"},
        headers={**HTMX, "X-CSRFToken": "stale" * 6 + "ab"},
    )

    assert response.status_code == 403
    html = response.content.decode()
    assert ">\ntyped before the other tab logged in</textarea>" in html
    assert "was not sent" in html
    assert Attempt.objects.count() == 0
    # The form it got back carries what this browser's cookie now accepts.
    field = re.search(r'name="csrfmiddlewaretoken" value="([^"]+)"', html).group(1)
    again = old.post(
        "/question/q-10-03/answer/",
        {
            "token": form_token_shown(html, "q-10-03"),
            "text": "typed before the other tab logged in",
            "csrfmiddlewaretoken": field,
        },
        headers=HTMX,
    )
    assert again.status_code == 200
    assert Attempt.objects.count() == 1


def test_a_page_left_open_across_a_new_login_without_javascript_shows_the_text_to_copy(
    seeds_imported, learner, phase_token
):
    """Without JavaScript there is no draft saved while typing: the CSRF failure page
    is all the learner gets, so it shows back what they wrote (only from a form the
    portal made for this learner: a token another site cannot have) and does not claim
    it was kept as a draft."""
    old = Client(enforce_csrf_checks=True)
    old.force_login(learner)
    token = form_token_shown(old.get("/phase/10/").content.decode(), "q-10-03")
    old.cookies["csrftoken"] = "x" * 32  # the other tab's new login set a new secret
    sent = {"token": token, "text": "a long answer <b>typed</b> without JavaScript"}

    response = old.post("/question/q-10-03/answer/", {**sent, "csrfmiddlewaretoken": "s" * 32})

    assert response.status_code == 403
    html = response.content.decode()
    assert "\na long answer &lt;b&gt;typed&lt;/b&gt; without JavaScript</textarea>" in html
    assert "kept as a draft" not in html
    assert 'href="/phase/10/?again=q-10-03#q-10-03"' in html
    assert Attempt.objects.count() == 0 and Draft.objects.count() == 0
    # A post that carries no token of this learner's (another site's) shows nothing back.
    forged = old.post(
        "/question/q-10-03/answer/", {"token": "forged", "text": "planted", "x": "y"}
    ).content.decode()
    assert "planted" not in forged and "<textarea" not in forged


def test_a_retired_question_keeps_no_draft(seeds_imported, learner_client, phase_token):
    token = phase_token("q-10-03")
    Question.objects.filter(code="q-10-03").update(retired_at="2026-01-01T00:00Z")

    response = learner_client.post(
        "/question/q-10-03/draft/", {"token": token, "text": "typing"}, headers=HTMX
    )

    assert response.status_code == 410
    assert Draft.objects.count() == 0


def test_a_retired_question_with_an_unusable_token_keeps_no_draft(seeds_imported, post_answer):
    Question.objects.filter(code="q-10-03").update(retired_at="2026-01-01T00:00Z")

    response = post_answer("q-10-03", text="typed for a retired question", token="forged")

    assert response.status_code == 410
    assert Draft.objects.count() == 0


def test_a_retired_question_keeps_no_draft_sent_logged_out(
    seeds_imported, post_answer, phase_token, client
):
    token = phase_token("q-10-03")
    client.logout()
    Question.objects.filter(code="q-10-03").update(retired_at="2026-01-01T00:00Z")

    response = post_answer("q-10-03", text="typed after the session", token=token, client=client)

    assert response.status_code == 410
    assert Draft.objects.count() == 0


def test_a_form_sent_back_on_the_reviews_page_stays_a_review(seeds_imported, post_answer):
    response = post_answer("q-10-03", text="my answer", token="forged", context="reviews")

    html = response.content.decode()
    assert response.status_code == 400
    assert '<input type="hidden" name="context" value="reviews">' in html


def test_a_csrf_failure_writes_nothing_to_the_session(seeds_imported, learner):
    """The form comes back with what was typed, under the form key the login made: the
    refused post writes no key of its own into the session."""
    client = Client(enforce_csrf_checks=True)
    client.force_login(learner)
    key = client.session["_form_key"]  # made at the login

    response = client.post(
        "/question/q-10-03/answer/", {"token": "x", "text": "typed"}, headers=HTMX
    )

    assert response.status_code == 403
    assert ">\ntyped</textarea>" in response.content.decode()
    assert client.session["_form_key"] == key


def test_a_csrf_failure_in_a_login_without_a_form_key_writes_none(seeds_imported, learner):
    """A login from before keys were made at login gets the plain 403: issuing a token
    would write a key into its session on a request that failed the CSRF check."""
    client = Client(enforce_csrf_checks=True)
    client.force_login(learner)
    session = client.session
    del session["_form_key"]
    session.save()

    response = client.post(
        "/question/q-10-03/answer/", {"token": "x", "text": "typed"}, headers=HTMX
    )

    assert response.status_code == 403
    assert "did not accept that form" in response.content.decode()
    assert "_form_key" not in client.session


def test_an_answer_from_a_form_of_an_account_logged_out_since_is_kept_for_it(
    seeds_imported, client
):
    """A shared computer: ana's tab is still open when bob logs in on the browser. What
    she sends is stored for nobody, least of all bob, and kept for her as after a logout."""
    ana, bob = UserFactory(username="ana"), UserFactory(username="bob")
    client.force_login(ana)
    token = form_token_shown(client.get("/phase/10/").content.decode(), "q-10-03")
    client.logout()
    client.force_login(bob)

    response = client.post(
        "/question/q-10-03/answer/",
        {"token": token, "text": "ana's answer about the identity"},
        headers={"HX-Request": "true"},
    )

    assert response.status_code == 403
    assert "kept for the account that opened it" in response.content.decode()
    assert Attempt.objects.count() == 0
    assert not Draft.objects.filter(learner=bob).exists()
    kept = Draft.objects.get(learner=ana)
    assert (kept.answer["text"], kept.logged_out) == ("ana's answer about the identity", True)


@pytest.mark.parametrize("htmx", [True, False])
def test_an_answer_to_a_question_retired_since_the_page_opened_is_shown_back_to_copy(
    seeds_imported, phase_token, post_answer, htmx
):
    """A retired question takes no answer and keeps no draft, so the refusal shows what
    the learner wrote, escaped, for them to copy: with htmx and without."""
    token = phase_token("q-10-03")
    Question.objects.filter(code="q-10-03").update(retired_at="2026-01-01T00:00Z")

    response = post_answer("q-10-03", text="the <b>identity</b> path", token=token, htmx=htmx)

    assert response.status_code == 410
    html = response.content.decode()
    assert "This question (q-10-03) has been retired" in html
    assert re.search(
        r"<textarea [^>]*readonly[^>]*>\nthe &lt;b&gt;identity&lt;/b&gt; path</textarea>", html
    )
    assert Attempt.objects.count() == 0
    assert not Draft.objects.exists()


def test_a_choice_sent_to_a_retired_question_shows_no_empty_copy_box(
    seeds_imported, phase_token, post_answer
):
    token = phase_token("q-10-01")
    Question.objects.filter(code="q-10-01").update(retired_at="2026-01-01T00:00Z")

    response = post_answer("q-10-01", choice=["B"], token=token)

    assert response.status_code == 410
    assert "<textarea" not in response.content.decode()


def test_an_overtaken_choice_form_shows_the_picks_that_stand(
    seeds_imported, post_answer, phase_token
):
    old_tab = phase_token("q-10-01")
    post_answer("q-10-01", choice=["B"], token=phase_token("q-10-01"))

    response = post_answer("q-10-01", choice=["A"], token=old_tab)

    assert response.status_code == 409
    html = " ".join(response.content.decode().split())
    # Inside the alert, so that a screen reader reads it with the message.
    alert = html[html.index('role="alert"') :]
    alert = alert[: alert.index("</p>")]
    assert 'The answer that stands, graded right: <q dir="auto">B</q>' in alert
    assert 'value="A" id="q-10-01-A" checked' in html


@pytest.mark.parametrize("htmx", [True, False])
def test_an_answer_sent_logged_out_that_nothing_may_keep_is_shown_back_to_copy(
    seeds_imported, client, htmx
):
    """(Red team 13) A tab left open for days: the session has ended, and its form is over
    a day old, too old to keep anything without a login. The refusal swapped in over the
    card (or the page without htmx) dropped what the learner had just written; it shows
    it back, escaped, to copy (nothing is stored)."""
    ana = UserFactory(username="ana")
    client.force_login(ana)
    token = form_token_shown(client.get("/phase/10/").content.decode(), "q-10-03")
    client.logout()

    with time_machine.travel(timezone.now() + timedelta(days=1, minutes=1)):
        response = client.post(
            "/question/q-10-03/answer/",
            {"token": token, "text": "a long <b>answer</b> about the identity"},
            headers=HTMX if htmx else {},
        )

    html = response.content.decode()
    assert response.status_code == 400
    assert re.search(
        r"<textarea [^>]*readonly[^>]*>\na long &lt;b&gt;answer&lt;/b&gt; about the identity"
        r"</textarea>",
        html,
    )
    assert Attempt.objects.count() == 0
    assert not Draft.objects.exists()


def test_an_answer_stored_before_its_key_was_corrected_and_sent_again_is_its_feedback(
    seeds_imported, post_answer, phase_token
):
    # Its reply was lost, and the learner sends the same form again after an import
    # corrected the key: "not sent" (409) would have them send it twice.
    token = phase_token("q-10-01")
    assert post_answer("q-10-01", choice=["B"], token=token).status_code == 200
    _move_key_of_q_10_01_to_a(seeds_imported)

    response = post_answer("q-10-01", choice=["B"], token=token)

    assert response.status_code == 200
    assert "This question was corrected after you opened it" not in response.content.decode()
    assert Attempt.objects.get().revision.number == 1
    assert not Draft.objects.exists()


def test_a_draft_that_arrives_after_its_form_was_answered_is_not_kept(
    seeds_imported, post_answer, phase_token, learner_client
):
    # htmx saved the draft 800 ms after the last key, and the answer sent just after it
    # was stored first: kept, the draft brought the answered question back as a form
    # saying "Your unsent answer was kept", and the learner sent it a second time.
    token = phase_token("q-10-03")
    post_answer("q-10-03", text="identity path", token=token)

    response = learner_client.post(
        "/question/q-10-03/draft/",
        {"token": token, "text": "identity pa"},
        headers={"HX-Request": "true"},
    )

    assert response.status_code == 204
    assert not Draft.objects.exists()
    html = learner_client.get("/phase/10/").content.decode()
    assert "Your unsent answer was kept" not in html


def test_a_draft_written_on_after_its_forms_answer_is_kept(
    seeds_imported, post_answer, phase_token, learner_client, learner
):
    # The reply was lost, the form stayed, and the learner wrote on in it.
    token = phase_token("q-10-03")
    post_answer("q-10-03", text="identity path", token=token)

    learner_client.post(
        "/question/q-10-03/draft/",
        {"token": token, "text": "identity path, and the gradient"},
        headers={"HX-Request": "true"},
    )

    assert Draft.objects.get(learner=learner).answer["text"] == "identity path, and the gradient"
