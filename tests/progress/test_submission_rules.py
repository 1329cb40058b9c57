"""The answer service's rules as the learner meets them: tokens end with their login,
refusals are fragments for htmx, drafts sent while logged out are kept apart."""

from datetime import timedelta

import pytest
import time_machine
from django.contrib.auth import get_user_model
from django.test import Client
from django.utils import timezone

from progress.models import Attempt, Draft
from progress.tokens import BadToken, token_read
from quizzes.models import Question
from tests.factories import PASSWORD, UserFactory

HTMX = {"HX-Request": "true", "HX-Current-URL": "http://testserver/phase/10/"}


def _is_fragment(response) -> bool:
    html = response.content.decode()
    return "<html" not in html and "<main" not in html and 'role="alert"' in html


@pytest.mark.parametrize(
    ("setup", "status", "message"),
    [
        # A forged token, or one of another question, gives the form back with the
        # answer (tests/progress/test_answers_kept.py).
        # What was sent is kept for the form's learner (test_answers_kept.py).
        # (UX walk 36) Said as what happened, not "made for another account".
        ("other_account", 403, "Another account has logged in on this browser since"),
        ("retired", 410, "This question (q-10-01) has been retired"),
    ],
)
def test_answer_refusal_to_htmx_is_a_fragment_with_one_action(
    seeds_imported, learner_client, phase_token, client, setup, status, message
):
    token = phase_token("q-10-01")
    if setup == "other_account":
        client.force_login(UserFactory(username="bea"))
    if setup == "retired":
        Question.objects.filter(code="q-10-01").update(retired_at="2026-01-01T00:00Z")

    response = client.post(
        "/question/q-10-01/answer/", {"token": token, "choice": "B"}, headers=HTMX
    )

    assert response.status_code == status
    assert _is_fragment(response)
    html = response.content.decode()
    assert message in html
    assert 'href="/phase/10/">Reload the page</a>' in html
    assert Attempt.objects.count() == 0


def test_answer_refusal_without_htmx_is_a_whole_page(seeds_imported, learner_client, phase_token):
    token = phase_token("q-10-01")
    Question.objects.filter(code="q-10-01").update(retired_at="2026-01-01T00:00Z")

    response = learner_client.post("/question/q-10-01/answer/", {"token": token, "choice": "B"})

    assert response.status_code == 410
    assert "<html" in response.content.decode()


def test_unknown_url_to_htmx_is_a_fragment(seeds_imported, learner_client):
    response = learner_client.get("/question/q-99-99/form/", headers=HTMX)

    assert response.status_code == 404
    assert _is_fragment(response)
    assert "There is nothing at this address." in response.content.decode()


def test_csrf_failure_to_htmx_is_a_fragment(seeds_imported, learner, phase_token):
    from django.test import Client

    token = phase_token("q-10-01")
    client = Client(enforce_csrf_checks=True)
    client.force_login(learner)

    # The draft's post (the answer's own gives the form back: test_answers_kept.py).
    response = client.post(
        "/question/q-10-01/draft/", {"token": token, "choice": "B"}, headers=HTMX
    )

    assert response.status_code == 403
    assert _is_fragment(response)
    assert "did not accept that form" in response.content.decode()


def test_expired_session_htmx_get_sends_the_page_to_login(seeds_imported, client):
    response = client.get("/question/q-10-01/form/", headers=HTMX)

    assert response.status_code == 200
    assert response["HX-Redirect"] == "/login/?next=%2Fphase%2F10%2F&reason=expired"


def test_login_page_says_the_session_expired(db, client):
    response = client.get("/login/?next=/phase/10/&reason=expired")

    assert "Your session ended; your answer was kept." in response.content.decode()


def test_token_after_logout_and_new_login_keeps_the_answer_and_records_nothing(
    seeds_imported, learner_client, phase_token, learner
):
    token = phase_token("q-10-03")
    learner_client.logout()
    learner_client.force_login(learner)

    response = learner_client.post(
        "/question/q-10-03/answer/", {"token": token, "text": "identity path"}, headers=HTMX
    )

    assert response.status_code == 409
    html = response.content.decode()
    assert ">\nidentity path</textarea>" in html
    assert "made before you last logged in" in html
    assert Attempt.objects.count() == 0
    assert Draft.objects.get(learner=learner, logged_out=False).answer["text"] == "identity path"


def test_token_after_password_change_records_nothing(
    seeds_imported, learner_client, phase_token, learner
):
    token = phase_token("q-10-01")
    learner_client.post(
        "/password/",
        {
            "old_password": PASSWORD,
            "new_password1": "n3w-Passw0rd-long",
            "new_password2": "n3w-Passw0rd-long",
        },
    )

    response = learner_client.post(
        "/question/q-10-01/answer/", {"token": token, "choice": "B"}, headers=HTMX
    )

    assert response.status_code == 409
    assert Attempt.objects.count() == 0


def test_draft_sent_logged_out_is_kept_apart_from_the_learners_draft(
    seeds_imported, learner_client, phase_token, learner, client
):
    token = phase_token("q-10-03")
    learner_client.post(
        "/question/q-10-03/draft/", {"token": token, "text": "my own words"}, headers=HTMX
    )
    client.logout()

    response = client.post(
        "/question/q-10-03/draft/", {"token": token, "text": "planted"}, headers=HTMX
    )

    assert response.status_code == 204
    drafts = dict(Draft.objects.values_list("logged_out", "answer__text"))
    assert drafts == {False: "my own words", True: "planted"}


@pytest.mark.parametrize("url", ["/question/q-10-03/draft/", "/question/q-10-03/answer/"])
def test_token_of_a_deleted_account_is_refused_with_400(
    seeds_imported, phase_token, learner, client, url
):
    token = phase_token("q-10-03")
    client.logout()
    get_user_model().objects.filter(pk=learner.pk).delete()

    response = client.post(url, {"token": token, "text": "anything"}, headers=HTMX)

    assert response.status_code == 400
    assert Draft.objects.count() == 0


def test_invalid_answer_without_htmx_redirects_and_shows_the_error_once(
    seeds_imported, learner_client, phase_token
):
    response = learner_client.post("/question/q-10-01/answer/", {"token": phase_token("q-10-01")})

    assert response.status_code == 302
    assert response["Location"] == "/phase/10/?again=q-10-01#q-10-01"
    page = learner_client.get(response["Location"]).content.decode()
    assert 'id="q-10-01-error" role="alert" tabindex="-1">Choose an option first.' in page
    assert "Choose an option first." not in learner_client.get("/phase/10/").content.decode()


def test_many_long_choices_are_refused_and_bounded(seeds_imported, learner_client, phase_token):
    choices = ["A" * 1000] * 500

    response = learner_client.post(
        "/question/q-10-01/answer/",
        {"token": phase_token("q-10-01"), "choice": choices},
        headers=HTMX,
    )

    assert response.status_code == 422
    assert "That option is not part of this question." in response.content.decode()
    assert len(response.content) < 20_000


def test_invalid_answer_by_htmx_puts_focus_on_the_error(seeds_imported, post_answer):
    html = post_answer("q-10-01").content.decode()

    assert 'role="alert" tabindex="-1" autofocus>Choose an option first.' in html
    assert html.count("autofocus") == 1


def test_answer_again_on_free_question_starts_from_the_previous_answer(
    seeds_imported, post_answer, learner_client
):
    post_answer("q-10-03", text="the residual path")

    html = learner_client.get("/question/q-10-03/form/", headers=HTMX).content.decode()

    assert ">\nthe residual path</textarea>" in html
    assert "Your unsent answer was kept" not in html


def test_multi_score_explains_itself(seeds_imported, post_answer):
    html = " ".join(post_answer("q-10-02", choice=["A", "D"]).content.decode().split())

    assert "Partial score: 0% (1 right − 1 wrong = 0 of 2)" in html


def test_free_feedback_marks_matches_in_place_and_says_negated_and_typo(
    seeds_imported, post_answer
):
    from quizzes.grading import GRADER_VERSION

    html = post_answer("q-10-03", text="<script>x</script> it is not the identity path").content
    html = " ".join(html.decode().split())

    assert "&lt;script&gt;x&lt;/script&gt;" in html
    assert "<script>x" not in html
    assert 'class="negated"' in html and "found, but negated:" in html
    assert Attempt.objects.get().grader_version == GRADER_VERSION

    typo = post_answer("q-10-03", text="the identiy path is kept").content.decode()
    assert "<mark>" in typo
    assert "found despite a typo: “<bdi>identiy</bdi>”" in typo


def test_two_typos_in_one_mention_are_two_notes_apart(seeds_imported, post_answer):
    """(UX walk 36) Two typos forgiven in one mention read "(found despite a typo:
    “identty”)(found despite a typo: “untuched”)", glued together."""
    html = post_answer("q-10-03", text="The residul path is an identty, so it is untuched.")
    text = " ".join(html.content.decode().split())

    assert "“<bdi>identty</bdi>”)</span> <span" in text and "“<bdi>untuched</bdi>”)" in text
    assert ")</span><span" not in text


def test_a_contradicted_negative_phrasing_is_the_one_named(seeds_imported, post_answer):
    """(UX walk 36) "Because normalization shrinks the gradients" contradicts the key's
    "not normalized"; the feedback said "your answer says the opposite: identity / unit
    gain / gain of one / …", which the learner had never denied. It now names the
    negative phrasing their words contradict first."""
    html = post_answer("q-10-03", text="Because normalization shrinks the gradients early on.")
    text = " ".join(html.content.decode().split())

    assert "your answer says the opposite: not normalized / …" in text
    assert "(where your answer says “<bdi>normalization</bdi>”)" in text


def test_typing_after_login_supersedes_what_was_kept_while_logged_out(
    seeds_imported, learner_client, phase_token, learner, client
):
    token = phase_token("q-10-03")
    client.logout()
    client.post("/question/q-10-03/draft/", {"token": token, "text": "old kept"}, headers=HTMX)
    client.force_login(learner)
    fresh = phase_token("q-10-03")

    client.post("/question/q-10-03/draft/", {"token": fresh, "text": "newer"}, headers=HTMX)

    assert ">\nnewer</textarea>" in client.get("/phase/10/").content.decode()
    assert list(Draft.objects.values_list("logged_out", flat=True)) == [False]


def test_answer_again_shows_the_draft_rather_than_the_previous_answer(
    seeds_imported, post_answer, learner_client, learner
):
    from progress.services import draft_save

    post_answer("q-10-03", text="first go")
    draft_save(
        learner_id=learner.pk,
        question_id=Question.objects.get(code="q-10-03").pk,
        answer={"keys": [], "text": "second thoughts"},
    )

    html = learner_client.get("/question/q-10-03/form/", headers=HTMX).content.decode()

    assert ">\nsecond thoughts</textarea>" in html


def test_answer_by_htmx_updates_the_phase_status_and_index_out_of_band(seeds_imported, post_answer):
    html = " ".join(post_answer("q-10-01", choice=["B"]).content.decode().split())

    assert '<div id="phase-progress" data-hx-swap-oob="true">' in html
    assert "1 of 5 answered, 1 right" in html
    assert "Continue: question 2" in html
    assert (
        '<nav id="phase-index" aria-label="Questions of this phase" data-hx-swap-oob="true">'
        in html
    )
    assert 'aria-label="1 (q-10-01): right">1</a>' in html


def test_answer_in_the_reviews_sends_no_phase_overview(seeds_imported, learner_client, phase_token):
    response = learner_client.post(
        "/question/q-10-01/answer/",
        {"token": phase_token("q-10-01"), "choice": "B", "context": "reviews"},
        headers=HTMX,
    )

    assert response.status_code == 200
    assert "phase-progress" not in response.content.decode()


@pytest.mark.parametrize("url", ["/question/q-10-03/draft/", "/question/q-10-03/answer/"])
def test_token_from_before_a_password_change_writes_nothing_logged_out(
    seeds_imported, phase_token, learner, url
):
    token = phase_token("q-10-03")
    learner.set_password("another-Long-pass-77")
    learner.save()
    anonymous = Client()

    response = anonymous.post(url, {"token": token, "text": "planted"}, headers=HTMX)

    assert response.status_code == 400
    assert Draft.objects.count() == 0
    assert Attempt.objects.count() == 0


def test_token_older_than_a_day_keeps_nothing_logged_out(seeds_imported, phase_token, learner):
    token = phase_token("q-10-03")
    anonymous = Client()

    with time_machine.travel(timezone.now() + timedelta(days=1, minutes=1)):
        response = anonymous.post(
            "/question/q-10-03/draft/", {"token": token, "text": "planted"}, headers=HTMX
        )

    assert response.status_code == 400
    assert Draft.objects.count() == 0


def test_token_lives_as_long_as_a_session_not_longer(seeds_imported, phase_token, learner):
    token = phase_token("q-10-03")

    assert token_read(token).learner_id == learner.pk
    later = timezone.now() + timedelta(days=14, minutes=1)
    with time_machine.travel(later), pytest.raises(BadToken):
        token_read(token)


def test_token_made_before_the_account_mark_still_answers_while_logged_in(
    seeds_imported, phase_token, post_answer
):
    from django.core import signing

    from progress.tokens import SALT

    new = token_read(phase_token("q-10-01"))
    login_part = new.binding.partition(".")[0]
    old = signing.dumps(
        [new.learner_id, new.question_id, new.revision_id, new.nonce, login_part], salt=SALT
    )

    response = post_answer("q-10-01", choice=["B"], token=old)
    logged_out = Client().post(
        "/question/q-10-01/draft/", {"token": old, "text": "planted"}, headers=HTMX
    )

    assert response.status_code == 200
    assert Attempt.objects.count() == 1
    assert logged_out.status_code == 400
    assert Draft.objects.count() == 0


def test_a_mention_found_in_negative_wording_says_so_in_plain_words(
    seeds_imported, post_answer, learner_client
):
    # "not normalized" is one of the key's phrasings for the identity path.
    html = post_answer("q-10-03", text="the residual path is never normalized").content.decode()

    assert "found in your answer's negative wording" in " ".join(html.split())

    learner_client.post("/language/", {"language": "es", "next": "/"})
    es = post_answer("q-10-03", text="la suma del residuo no se normaliza").content.decode()
    assert "encontrada en lo que tu respuesta dice en negativo" in " ".join(es.split())
