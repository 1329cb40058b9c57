"""The teacher in the loop: verdicts the grader was unsure of are stored as such, listed
for the cohort's instructors as "to check", and end being provisional when an
instructor confirms or overrides them."""

import importlib
import re
from io import StringIO

import pytest
from django.apps import apps
from django.contrib.auth.models import Group
from django.core.exceptions import ValidationError
from django.core.management import call_command
from django.test import Client
from django.utils import translation

from audit.enums import AuditKind
from audit.models import AuditEvent
from progress.models import Attempt, LearnerQuestion, Regrade
from quizzes.models import Question
from teaching.models import Cohort
from teaching.services import regrade_apply, regrade_plan, verdict_confirm, verdict_override
from teaching.to_check import to_check, to_check_questions
from tests.factories import UserFactory, answer
from tests.teaching.unsure import NEGATED, SURE, TYPO, learner_in

pytestmark = pytest.mark.django_db


def to_check_url(cohort):
    return f"/admin/teaching/cohort/{cohort.pk}/to-check/"


def confirm_url(cohort, attempt):
    return f"/admin/teaching/cohort/{cohort.pk}/to-check/{attempt.pk}/confirm/"


def override_url(cohort, attempt):
    return f"/admin/teaching/cohort/{cohort.pk}/to-check/{attempt.pk}/override/"


def listed(cohort):
    total = sum(waiting.count for waiting in to_check_questions(cohort=cohort))
    return [(i.attempt.learner.username, i.attempt.text) for i in to_check(cohort=cohort)], total


def test_answer_stores_the_graders_doubts(cohort):
    ana = learner_in(cohort, "ana")

    unsure = answer(ana, "q-10-03", text=TYPO)
    sure = answer(ana, "q-10-03", text=SURE)
    choice = answer(ana, "q-10-01", keys=["A"])

    assert (unsure.correct, unsure.doubts, unsure.feedback["doubts"]) == (True, "typo", ["typo"])
    assert Attempt.objects.get(pk=unsure.pk).doubt_codes == ["typo"]
    assert (sure.doubts, choice.doubts) == ("", "")
    assert (unsure.provisional(), sure.provisional()) == (True, False)


def test_backfill_copies_doubts_from_the_feedback(cohort):
    ana = learner_in(cohort, "ana")
    unsure = answer(ana, "q-10-03", text=NEGATED)
    sure = answer(ana, "q-10-03", text=SURE)
    Attempt.objects.update(doubts="")
    migration = importlib.import_module("progress.migrations.0016_attempt_doubts_backfill")

    migration.backfill(apps, None)

    assert dict(Attempt.objects.values_list("pk", "doubts")) == {
        unsure.pk: "negation",
        sure.pk: "",
    }


def test_to_check_lists_each_learners_latest_unsure_answer_in_the_cohort(cohort, instructor):
    ana, bea, cid = (learner_in(cohort, name) for name in ("ana", "bea", "cid"))
    answer(ana, "q-10-03", text=TYPO)
    answer(bea, "q-10-03", text=NEGATED)
    answer(cid, "q-10-03", text=NEGATED)
    answer(cid, "q-10-03", text=SURE)  # answered again, surely: the old doubt is moot
    staff = UserFactory(username="tryer", is_staff=True)
    cohort.learners.add(staff)
    answer(staff, "q-10-03", text=TYPO)  # staff accounts are left out, as in the results
    other = Cohort.objects.create(name="Autumn")
    other.learners.add(UserFactory(username="zed"))
    answer(other.learners.get(), "q-10-03", text=TYPO)

    assert listed(cohort) == ([("bea", NEGATED), ("ana", TYPO)], 2)


def test_verdict_confirm_ends_provisional_keeps_the_verdict_and_audits(cohort, instructor):
    ana = learner_in(cohort, "ana")
    attempt = answer(ana, "q-10-03", text=NEGATED)

    entry = verdict_confirm(attempt=attempt, by=instructor)

    assert (entry.kind, entry.old_correct, entry.new_correct, entry.new_score) == (
        "confirm",
        False,
        False,
        0.0,
    )
    assert (entry.revision_id, entry.new_feedback) == (attempt.revision_id, attempt.feedback)
    fresh = Attempt.objects.get(pk=attempt.pk)
    assert (fresh.provisional(), fresh.verdict().correct, fresh.verdict().source) == (
        False,
        False,
        "confirm",
    )
    standing = LearnerQuestion.objects.get(learner=ana)
    assert (standing.latest_correct, standing.latest_score) == (False, 0.0)
    event = AuditEvent.objects.get(kind=AuditKind.VERDICT_CONFIRMED)
    assert (event.user, event.subject) == (instructor, "ana")
    assert event.detail == {
        "attempt": attempt.pk,
        "question": "q-10-03",
        "correct": False,
        "doubts": ["negation"],
    }
    assert listed(cohort) == ([], 0)


def test_verdict_confirm_refuses_a_sure_or_checked_verdict(cohort, instructor):
    ana = learner_in(cohort, "ana")
    sure = answer(ana, "q-10-03", text=SURE)
    checked = answer(ana, "q-10-01", keys=["A"])
    unsure = answer(learner_in(cohort, "bea"), "q-10-03", text=TYPO)
    verdict_confirm(attempt=unsure, by=instructor)

    colleague = UserFactory(username="colleague", is_staff=True)
    refusals = []
    for attempt, by in ((sure, instructor), (checked, instructor), (unsure, instructor)):
        with pytest.raises(ValidationError) as refused:
            verdict_confirm(attempt=attempt, by=by)
        refusals.append(refused.value.messages[0])
    with pytest.raises(ValidationError) as refused, translation.override("es"):
        verdict_confirm(attempt=unsure, by=colleague)
    refusals.append(refused.value.messages[0])

    # Each says why: the grader was sure, or who checked it already (a second tab's
    # click, a colleague who got there first), in the instructor's language.
    assert refusals == [
        "This verdict is not waiting to be checked: the grader was sure of it.",
        "This verdict is not waiting to be checked: the grader was sure of it.",
        "You have already checked this verdict. Verdict now: right.",
        "teach ya ha revisado este veredicto. Veredicto actual: correcta.",
    ]
    assert Regrade.objects.count() == 1


def test_override_ends_provisional(cohort, instructor):
    attempt = answer(learner_in(cohort, "ana"), "q-10-03", text=NEGATED)

    verdict_override(
        attempt=attempt, correct=True, reason="the negation is elsewhere", by=instructor
    )

    assert Attempt.objects.get(pk=attempt.pk).provisional() is False
    assert listed(cohort) == ([], 0)


# The page.


def test_to_check_page_shows_answer_marks_verdict_and_doubt(client, cohort, instructor):
    answer(learner_in(cohort, "ana"), "q-10-03", text=TYPO)
    client.force_login(instructor)

    html = " ".join(client.get(to_check_url(cohort)).content.decode().split())

    assert "1 verdict to check" in html
    assert "q-10-03 · Why does Pre-LN allow training without warmup?" in html  # its title
    assert "{#" not in html and "htmx posts Confirm" not in html  # comments stay comments
    assert "the residual keeps an <mark>identty</mark> path" in html
    # The mention named by its first English phrasings: the page is in English.
    assert "found: identity / unit gain / gain of one / …" in html
    assert "(found despite a typo: “<bdi>identty</bdi>”)" in html
    assert "<strong>right</strong>" in html
    assert "<li>right only through a word read as a typo</li>" in html
    assert "Confirm: right" in html and "Override: wrong…" in html
    assert 'name="verdict" value="wrong"' in html


@pytest.mark.parametrize(
    ("language", "said", "where"),
    [
        (
            "en",
            "the answer says the opposite: not normalized",
            "(where it says “<bdi>normalization</bdi>”)",
        ),
        ("es", "la respuesta dice lo contrario: sin ", "(donde dice «<bdi>normalization</bdi>»)"),
    ],
)
def test_to_check_says_which_negative_phrasing_the_answer_contradicts(
    client, cohort, instructor, language, said, where
):
    """(Author walk 4) An answer contradicting the key's "not normalized" was listed as
    "found, but negated: identity / unit gain / …": an idea it never denied, and no word
    of it quoted. It now says so as the learner's card does, and where."""
    text = (
        "Because normalization shrinks the gradients early on, the deep network trains"
        " faster and the loss curve looks smoother overall."
    )
    answer(learner_in(cohort, "ana"), "q-10-03", text=text)
    client.force_login(instructor)
    client.post("/language/", {"language": language, "next": "/"})

    html = " ".join(client.get(to_check_url(cohort)).content.decode().split())

    mentions = html[html.index('class="mentions"') :][:400]
    assert said in mentions and where in mentions, mentions
    assert "identity" not in mentions and "identidad" not in mentions


def test_to_check_rows_are_named_by_their_learner(client, cohort, instructor):
    """A row header, so a screen reader at "Confirm: right" or "Override: wrong…" hears
    whose answer it is; the column header alone said only "Your verdict"."""
    attempt = answer(learner_in(cohort, "ana"), "q-10-03", text=TYPO)
    client.force_login(instructor)

    html = client.get(to_check_url(cohort)).content.decode()

    row = html[html.index(f'<tr id="check-{attempt.pk}">') :]
    row = row[: row.index("</tr>")]
    assert re.search(r'<th scope="row"[^>]*><a [^>]*>ana</a></th>', row), row
    assert row.count('scope="row"') == 1


def test_to_check_page_speaks_spanish(client, cohort, instructor):
    answer(learner_in(cohort, "ana"), "q-10-03", text=NEGATED)
    client.force_login(instructor)
    client.post("/language/", {"language": "es", "next": "/"})

    html = " ".join(client.get(to_check_url(cohort)).content.decode().split())

    assert "1 veredicto por revisar" in html
    assert "<li>incorrecta solo porque una mención se leyó como negada</li>" in html
    assert "Confirmar: incorrecta" in html
    assert "q-10-03 · ¿Por qué Pre-LN permite entrenar sin warmup?" in html
    assert "identidad / ganancia unitaria / ganancia uno / …" in html  # the key, in Spanish
    assert "Un LLM desde cero — administración" in html  # the admin's header too
    # The answer's moment in the viewer's zone, labelled (UTC without a zone set).
    assert re.search(r'<time datetime="[^"]+">[^<]+ UTC</time>', html)


def test_cohort_page_links_to_check_next_to_results(client, cohort, instructor):
    client.force_login(instructor)

    html = client.get(f"/admin/teaching/cohort/{cohort.pk}/change/").content.decode()

    assert f'<a href="/admin/teaching/cohort/{cohort.pk}/to-check/">To check</a>' in html


def test_to_check_of_another_cohort_is_404_and_superuser_sees_it(client, cohort, instructor):
    other = Cohort.objects.create(name="Autumn")
    zed = UserFactory(username="zed")
    other.learners.add(zed)
    attempt = answer(zed, "q-10-03", text=TYPO)
    client.force_login(instructor)

    page = client.get(to_check_url(other))
    confirm = client.post(confirm_url(other, attempt))
    via_own = client.post(confirm_url(cohort, attempt))
    override = client.post(
        override_url(cohort, attempt), {"verdict": "wrong", "seen": "0", "reason": "x"}
    )
    client.force_login(UserFactory(username="root", is_staff=True, is_superuser=True))
    as_superuser = client.get(to_check_url(other)).content.decode()

    assert (page.status_code, confirm.status_code, via_own.status_code) == (404, 404, 404)
    assert override.status_code == 404
    assert Regrade.objects.count() == 0
    assert "zed" in as_superuser and "1 verdict to check" in as_superuser


def test_confirm_with_htmx_answers_the_row_and_the_count(client, cohort, instructor):
    attempt = answer(learner_in(cohort, "ana"), "q-10-03", text=TYPO)
    answer(learner_in(cohort, "bea"), "q-10-03", text=NEGATED)
    client.force_login(instructor)
    page = " ".join(client.get(to_check_url(cohort)).content.decode().split())
    assert '<p id="to-check-count">2 verdicts to check</p>' in page

    response = client.post(
        confirm_url(cohort, attempt), {"seen": 0}, headers={"HX-Request": "true"}
    )

    html = " ".join(response.content.decode().split())
    assert response.status_code == 200
    assert "<html" not in html
    assert html == (
        f'<tr id="check-{attempt.pk}" class="checked"><th scope="row">ana</th><td>q-10-03</td>'
        '<td colspan="4" role="status" tabindex="-1" autofocus>'
        "Verdict on ana&#x27;s answer at q-10-03 confirmed: right.</td></tr> "
        '<p id="to-check-count" data-hx-swap-oob="true">1 verdict to check</p>'
        '<div id="to-check-questions" data-hx-swap-oob="true"></div>'  # one question: no links
    )
    assert list(Regrade.objects.values_list("kind", "by__username")) == [("confirm", "teach")]


def test_confirm_twice_with_htmx_says_so(client, cohort, instructor):
    attempt = answer(learner_in(cohort, "ana"), "q-10-03", text=TYPO)
    client.force_login(instructor)
    client.post(confirm_url(cohort, attempt), {"seen": 0}, headers={"HX-Request": "true"})

    response = client.post(
        confirm_url(cohort, attempt), {"seen": 0}, headers={"HX-Request": "true"}
    )

    assert response.status_code == 409
    assert "You have already checked this verdict." in response.content.decode()
    assert Regrade.objects.count() == 1


def test_confirm_after_an_override_in_another_tab_says_the_verdict_now(client, cohort, instructor):
    """To check open in two tabs: an answer overridden to right in one, then "Confirm:
    wrong" in the other, said only "You have already checked this verdict.", which read
    as if the confirmed wrong stood (author walk 5)."""
    attempt = answer(learner_in(cohort, "ana"), "q-10-03", text=NEGATED)
    verdict_override(attempt=attempt, correct=True, reason="same idea", by=instructor)
    client.force_login(instructor)

    response = client.post(
        confirm_url(cohort, attempt), {"seen": 0}, headers={"HX-Request": "true"}
    )

    assert response.status_code == 409
    html = response.content.decode()
    assert "You have already checked this verdict. Verdict now: right." in html


def test_confirm_without_htmx_redirects_to_the_list_with_a_message(client, cohort, instructor):
    attempt = answer(learner_in(cohort, "ana"), "q-10-03", text=NEGATED)
    client.force_login(instructor)

    response = client.post(confirm_url(cohort, attempt), {"seen": 0}, follow=True)

    html = response.content.decode()
    assert response.redirect_chain == [(to_check_url(cohort), 302)]
    assert "Verdict on ana&#x27;s answer at q-10-03 confirmed: wrong." in html
    assert "Nothing to check." in html


def test_confirm_by_get_is_refused(client, cohort, instructor):
    attempt = answer(learner_in(cohort, "ana"), "q-10-03", text=TYPO)
    client.force_login(instructor)

    response = client.get(confirm_url(cohort, attempt))

    assert response.status_code == 405
    assert Regrade.objects.count() == 0


def test_confirm_needs_a_csrf_token(cohort, instructor):
    attempt = answer(learner_in(cohort, "ana"), "q-10-03", text=TYPO)
    client = Client(enforce_csrf_checks=True)
    client.force_login(instructor)

    response = client.post(confirm_url(cohort, attempt))

    assert response.status_code == 403
    assert Regrade.objects.count() == 0


def test_confirm_by_staff_without_regrade_permission_is_403(client, cohort):
    attempt = answer(learner_in(cohort, "ana"), "q-10-03", text=TYPO)
    helper = UserFactory(username="helper", is_staff=True)
    cohort.instructors.add(helper)
    helper.user_permissions.add(
        *Group.objects.get(name="Instructors").permissions.exclude(codename="run_regrade")
    )
    client.force_login(helper)

    response = client.post(confirm_url(cohort, attempt))
    page = client.get(to_check_url(cohort)).content.decode()

    assert response.status_code == 403
    assert "Confirm: right" not in page and "ana" in page
    assert Regrade.objects.count() == 0


def test_override_from_the_list_records_it_and_offers_the_key_change(client, cohort, instructor):
    attempt = answer(learner_in(cohort, "ana"), "q-10-03", text=NEGATED)
    client.force_login(instructor)

    response = client.post(
        override_url(cohort, attempt),
        {"verdict": "right", "seen": "0", "reason": "negates another thing"},
    )
    page = client.get(response["Location"]).content.decode()

    assert response["Location"] == to_check_url(cohort)  # its row is gone
    assert list(Regrade.objects.values_list("kind", "new_correct", "reason")) == [
        ("override", True, "negates another thing")
    ]
    assert " marked right." in page
    key_change = f"/admin/teaching/cohort/{cohort.pk}/results/attempt/{attempt.pk}/key-change/"
    # Wrong by a negation: the key did not miss it, and no word added would help (the
    # page linked says so); instructor walk 32 was told "The key missed this answer".
    assert "The key missed this answer." not in page
    assert (
        "No words added to the key would make this answer right: the grader reads a "
        f'mention in it as negated, or finds a reject entry. <a href="{key_change}">See why</a>'
    ) in page
    assert "Nothing to check." in page


@pytest.mark.parametrize(
    "language, words",
    [
        ("en", 'The key missed this answer. <a href="{}">See the key change it suggests</a>'),
        ("es", 'La clave no reconoció esta respuesta. <a href="{}">Ver el cambio de clave'),
    ],
)
def test_override_of_an_answer_a_mention_short_says_the_key_missed_it(
    client, cohort, instructor, language, words
):
    attempt = answer(
        learner_in(cohort, "ana"), "q-19-05", text="the rare token gets a huge gradient"
    )
    instructor.profile.language = language
    instructor.profile.save()
    client.force_login(instructor)

    response = client.post(
        override_url(cohort, attempt), {"verdict": "right", "seen": "0", "reason": "fine"}
    )
    page = client.get(response["Location"]).content.decode()

    key_change = f"/admin/teaching/cohort/{cohort.pk}/results/attempt/{attempt.pk}/key-change/"
    assert words.format(key_change) in page


def test_override_of_a_negated_answer_in_spanish_says_no_words_help(client, cohort, instructor):
    attempt = answer(learner_in(cohort, "ana"), "q-10-03", text="no es la identidad")
    instructor.profile.language = "es"
    instructor.profile.save()
    client.force_login(instructor)

    response = client.post(
        override_url(cohort, attempt), {"verdict": "right", "seen": "0", "reason": "bien"}
    )
    page = client.get(response["Location"]).content.decode()

    assert "La clave no reconoció esta respuesta." not in page
    assert "Ninguna palabra añadida a la clave haría correcta esta respuesta" in page


def test_override_from_the_list_without_reason_records_nothing(client, cohort, instructor):
    attempt = answer(learner_in(cohort, "ana"), "q-10-03", text=NEGATED)
    client.force_login(instructor)

    response = client.post(
        override_url(cohort, attempt), {"verdict": "right", "reason": " ", "seen": 0}
    )
    page = client.get(response["Location"]).content.decode()

    assert response["Location"] == to_check_url(cohort)  # the top, where the message is
    assert "Nothing was recorded for ana&#x27;s answer at q-10-03. Reason (shown to the" in page
    assert Regrade.objects.count() == 0


@pytest.mark.parametrize("count", [1, 5])
def test_to_check_runs_fixed_queries(client, cohort, instructor, django_assert_num_queries, count):
    for n in range(count):
        attempt = answer(learner_in(cohort, f"l{n}"), "q-10-03", text=TYPO if n % 2 else NEGATED)
        if n == 0:  # one with a regrade entry on it, which is read with the rest
            Regrade.objects.create(
                attempt=attempt,
                revision=attempt.revision,
                old_correct=False,
                old_score=0,
                new_correct=False,
                new_score=0,
                new_partial=0,
            )
    client.force_login(instructor)
    client.get(to_check_url(cohort))  # the session's first request writes it

    # session, user, cohort (with its learner count), permission checks, the counts by
    # question, those questions, the attempts, their regrade entries, the instructors'
    # entries (none: the grader's agreement has no questions to read).
    with django_assert_num_queries(10):
        response = client.get(to_check_url(cohort))

    assert response.content.decode().count('<tr id="check-') == count


def test_the_count_after_a_confirm_says_how_many_wait_not_how_many_show(
    client, cohort, instructor, monkeypatch
):
    monkeypatch.setattr("teaching.to_check.SHOWN", 1)
    attempts = [answer(learner_in(cohort, n), "q-10-03", text=TYPO) for n in ("ana", "bea", "cy")]
    client.force_login(instructor)
    page = " ".join(client.get(to_check_url(cohort)).content.decode().split())
    assert "3 verdicts to check · the newest 1 shown" in page

    response = client.post(
        confirm_url(cohort, attempts[-1]), {"seen": 0}, headers={"HX-Request": "true"}
    )

    html = " ".join(response.content.decode().split())
    assert '<p id="to-check-count" data-hx-swap-oob="true">2 verdicts to check</p>' in html


def test_the_drill_down_marks_a_provisional_verdict_until_it_is_checked(client, cohort, instructor):
    ana = learner_in(cohort, "ana")
    unsure = answer(ana, "q-10-03", text=NEGATED)
    answer(ana, "q-10-01", keys=["B"])  # a sure verdict
    client.force_login(instructor)
    drill_down = f"/admin/teaching/cohort/{cohort.pk}/results/learner/{ana.pk}/"

    before = " ".join(client.get(drill_down).content.decode().split())
    client.post(confirm_url(cohort, unsure), {"seen": 0})
    after = " ".join(client.get(drill_down).content.decode().split())

    assert before.count("(provisional: to check)") == 1
    assert "(provisional: to check)" not in after
    assert "(confirmed by an instructor)" in after


def confirm_fields(page: str, attempt) -> dict:
    """The hidden fields of the attempt's Confirm form on the to-check page (no CSRF:
    the test client skips the check), as the browser posts them."""
    form = re.search(rf'<form[^>]*action="[^"]*/{attempt.pk}/confirm/".*?</form>', page, re.S)
    fields = re.findall(r'<input type="hidden" name="(\w+)" value="([^"]*)"', form.group(0))
    return {name: value for name, value in fields if name != "csrfmiddlewaretoken"}


def test_a_confirm_from_a_page_shown_before_a_regrade_changed_the_verdict_records_nothing(
    client, cohort, instructor, seeds_imported
):
    """(Red team 13) The list showed "Confirm: right"; a new key then made the answer
    wrong, still unsure. The stale button must not record a confirmation of "wrong"."""
    attempt = answer(learner_in(cohort, "ana"), "q-10-03", text=TYPO)  # right, by a typo
    client.force_login(instructor)
    page = client.get(to_check_url(cohort)).content.decode()
    assert "Confirm: right" in page
    path = seeds_imported / "phase-10-init-norm-residuals.yaml"
    path.write_text(
        path.read_text().replace(
            "      - [identity, identidad,", "      - [gradient, gradiente]\n      - [identity,", 1
        ),
        "utf-8",
    )
    call_command("import_quizzes", str(seeds_imported), stdout=StringIO())
    regrade_apply(plan=regrade_plan(questions=Question.objects.filter(code="q-10-03")))
    assert Attempt.objects.get(pk=attempt.pk).provisional()  # wrong now, one mention short

    htmx = client.post(
        confirm_url(cohort, attempt), confirm_fields(page, attempt), headers={"HX-Request": "true"}
    )
    plain = client.post(confirm_url(cohort, attempt), confirm_fields(page, attempt), follow=True)

    said = "The verdict on this answer changed since the page was shown (it is now wrong)"
    assert htmx.status_code == 409 and said in htmx.content.decode().replace("&#x27;", "'")
    assert said in plain.content.decode()
    assert not Regrade.objects.filter(kind="confirm").exists()
    fresh = client.get(to_check_url(cohort)).content.decode()
    confirmed = client.post(confirm_url(cohort, attempt), confirm_fields(fresh, attempt))
    assert confirmed.status_code == 302
    assert list(Regrade.objects.filter(kind="confirm").values_list("new_correct")) == [(False,)]


def test_an_htmx_confirm_sent_after_the_session_ended_reloads_the_page_on_the_login(client, cohort):
    # (UX walk 31) Confirm posts with htmx: a plain redirect to the login was followed
    # by htmx and the whole login page swapped into the row, in the middle of the table.
    attempt = answer(learner_in(cohort, "ana"), "q-10-03", text=TYPO)

    response = client.post(
        confirm_url(cohort, attempt),
        {"seen": "0"},
        headers={
            "HX-Request": "true",
            "HX-Current-URL": f"http://testserver{to_check_url(cohort)}",
        },
    )
    login = client.get(response["HX-Redirect"])

    assert response.status_code == 200
    assert response["HX-Redirect"] == f"/admin/login/?next={to_check_url(cohort)}"
    assert response.content == b""
    assert "that form was not recorded. Send it again." in login.content.decode()
    assert Regrade.objects.count() == 0


@pytest.mark.parametrize(
    ("language", "said"), [("en", "(English pages, "), ("es", "(páginas en inglés, ")]
)
def test_to_check_names_the_pages_an_answer_was_given_on_in_words(
    client, cohort, instructor, language, said
):
    # (UX walk 31) The bare code read "(en, 25 de noviembre…)": in Spanish, "en" is
    # the preposition "in", not English.
    answer(learner_in(cohort, "ana"), "q-10-03", text=TYPO)
    instructor.profile.language = language
    instructor.profile.save()
    client.force_login(instructor)

    html = client.get(to_check_url(cohort)).content.decode()

    assert said in html
    assert "(en, " not in html


def test_an_override_over_a_verdict_a_colleague_checked_meanwhile_names_the_answer(
    client, cohort, instructor
):
    # (UX walk 31) The list's row is gone once the colleague checked it: a message about
    # "this attempt" left the instructor guessing which answer it was and where it stands.
    attempt = answer(learner_in(cohort, "ana"), "q-10-03", text=TYPO)  # right, by a typo
    client.force_login(instructor)
    seen = re.search(
        r'name="seen" value="(\d+)"', client.get(to_check_url(cohort)).content.decode()
    )
    colleague = UserFactory(username="colleague", is_staff=True)
    verdict_confirm(attempt=attempt, by=colleague)

    response = client.post(
        override_url(cohort, attempt),
        {"verdict": "wrong", "seen": seen.group(1), "reason": "not the idea"},
        follow=True,
    )

    html = response.content.decode().replace("&#x27;", "'")
    assert (
        "The verdict on ana's answer at q-10-03 changed since the page was shown (it is now "
        "right): nothing was recorded." in html
    )
    assert "What you wrote: “not the idea”" in html
    assert not Regrade.objects.filter(kind="override").exists()


def test_the_reason_is_typed_in_a_box_of_several_lines(client, cohort, instructor):
    """Instructor walk 32: the reason the learner reads (up to 500 characters) was a
    one-line field, some 25 characters wide on a phone, on To check and the drill-down."""
    attempt = answer(learner_in(cohort, "ana"), "q-10-03", text=NEGATED)
    client.force_login(instructor)
    drill_down = f"/admin/teaching/cohort/{cohort.pk}/results/learner/{attempt.learner_id}/"

    for url in (to_check_url(cohort), drill_down):
        page = client.get(url).content.decode()
        assert (
            f'<textarea name="reason" id="reason-{attempt.pk}" required maxlength="500"' in page
        ), url
        assert 'type="text" name="reason"' not in page, url


def test_override_of_a_free_answer_to_a_question_no_longer_free_links_to_no_key_change(
    client, cohort, instructor
):
    """The question is a choice question now (an edit changed its kind): no key change
    is proposed for it (its page is a 404), so the message after marking the free answer
    right must not say the key missed it and link there."""
    from quizzes.models import QuestionRevision

    attempt = answer(
        learner_in(cohort, "ana"), "q-19-05", text="the rare token gets a huge gradient"
    )
    question = Question.objects.get(code="q-19-05")
    choice = QuestionRevision.objects.create(
        question=question,
        number=question.current_revision.number + 1,
        content_hash="choice",
        kind="single",
        title_en="Now a choice",
        explanation_en="Because.",
        options=[
            {"key": "A", "text": {"en": "yes"}, "correct": True},
            {"key": "B", "text": {"en": "no"}, "correct": False},
        ],
    )
    Question.objects.filter(pk=question.pk).update(current_revision=choice)
    client.force_login(instructor)

    response = client.post(
        override_url(cohort, attempt), {"verdict": "right", "seen": "0", "reason": "fine"}
    )
    page = client.get(response["Location"]).content.decode()

    key_change = f"/admin/teaching/cohort/{cohort.pk}/results/attempt/{attempt.pk}/key-change/"
    assert client.get(key_change).status_code == 404
    assert " marked right." in page
    assert key_change not in page
    assert "The key missed this answer." not in page
