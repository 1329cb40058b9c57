"""To check, narrowed to one question: an instructor judges one question's answers side
by side, as graders grade question by question, and comes back to that question after
each confirm or override, with and without htmx."""

import re

import pytest

from progress.models import Regrade
from tests.factories import answer
from tests.teaching.unsure import NEGATED, SHORT, TYPO, learner_in

pytestmark = pytest.mark.django_db

PRE_LN = "Why does Pre-LN allow training without warmup?"  # q-10-03's title


def list_url(cohort, question=None):
    url = f"/admin/teaching/cohort/{cohort.pk}/to-check/"
    return f"{url}?question={question}" if question else url


def confirm_url(cohort, attempt):
    return f"/admin/teaching/cohort/{cohort.pk}/to-check/{attempt.pk}/confirm/"


def override_url(cohort, attempt):
    return f"/admin/teaching/cohort/{cohort.pk}/to-check/{attempt.pk}/override/"


def flat(response):
    return " ".join(response.content.decode().split())


def rows(html):
    return re.findall(r'<tr id="check-(\d+)">', html)


@pytest.fixture
def waiting(cohort):
    """Three verdicts to check: two at q-10-03, one at q-19-05."""
    ana, bea = learner_in(cohort, "ana"), learner_in(cohort, "bea")
    return {
        "typo": answer(ana, "q-10-03", text=TYPO),
        "negated": answer(bea, "q-10-03", text=NEGATED),
        "short": answer(ana, "q-19-05", text=SHORT),
    }


def test_the_list_links_each_question_with_how_many_wait(client, cohort, instructor, waiting):
    client.force_login(instructor)

    html = flat(client.get(list_url(cohort)))

    start = html.index('<nav class="by-question"')
    nav = html[start : html.index("</nav>", start)]
    assert re.findall(r'<a href="([^"]+)"[^>]*>([^<]+)</a>', nav) == [
        (list_url(cohort), "Every question (3)"),
        (
            list_url(cohort, "q-10-03"),
            f"q-10-03 · {PRE_LN} (2)",
        ),
        (list_url(cohort, "q-19-05"), "q-19-05 · Long-tail concentration mechanism (1)"),
    ]
    assert f'<a href="{list_url(cohort)}" aria-current="page">' in nav
    assert len(rows(html)) == 3


def test_narrowed_to_a_question_the_list_shows_its_verdicts_only(
    client, cohort, instructor, waiting
):
    client.force_login(instructor)

    html = flat(client.get(list_url(cohort, "q-10-03")))

    assert sorted(rows(html)) == sorted(str(waiting[k].pk) for k in ("typo", "negated"))
    assert '<p id="to-check-count">2 verdicts to check</p>' in html
    assert f'<a href="{list_url(cohort, "q-10-03")}" aria-current="page">' in html
    # Each row's forms come back to the question.
    assert html.count('<input type="hidden" name="question" value="q-10-03">') == 4


def test_one_question_waiting_needs_no_links(client, cohort, instructor):
    answer(learner_in(cohort, "ana"), "q-10-03", text=TYPO)
    client.force_login(instructor)

    html = flat(client.get(list_url(cohort)))

    assert 'class="by-question"' not in html
    assert '<div id="to-check-questions"></div>' in html
    assert len(rows(html)) == 1


@pytest.mark.parametrize("question", ["q-10-01", "no-such-question", "q" * 500])
def test_a_question_with_nothing_waiting_says_so_and_links_back(
    client, cohort, instructor, waiting, question
):
    client.force_login(instructor)

    response = client.get(list_url(cohort, question))

    html = flat(response)
    assert response.status_code == 200
    assert "Nothing to check at this question." in html
    assert rows(html) == []
    assert f'<a href="{list_url(cohort)}">Every question (3)</a>' in html
    assert 'name="question"' not in html


def test_a_confirm_without_htmx_comes_back_to_the_question(client, cohort, instructor, waiting):
    client.force_login(instructor)

    response = client.post(
        confirm_url(cohort, waiting["negated"]), {"seen": 0, "question": "q-10-03"}, follow=True
    )

    html = flat(response)
    assert response.redirect_chain == [(list_url(cohort, "q-10-03"), 302)]
    assert "Verdict on bea&#x27;s answer at q-10-03 confirmed: wrong." in html
    assert rows(html) == [str(waiting["typo"].pk)]


def test_an_override_comes_back_to_the_question(client, cohort, instructor, waiting):
    client.force_login(instructor)

    response = client.post(
        override_url(cohort, waiting["negated"]),
        {"seen": 0, "verdict": "right", "reason": "Says it right.", "question": "q-10-03"},
    )

    assert response.status_code == 302
    assert response["Location"] == list_url(cohort, "q-10-03")
    assert Regrade.objects.filter(kind="override").count() == 1


def test_a_confirm_with_htmx_counts_the_question_and_every_question_again(
    client, cohort, instructor, waiting
):
    client.force_login(instructor)

    response = client.post(
        confirm_url(cohort, waiting["typo"]),
        {"seen": 0, "question": "q-10-03"},
        headers={"HX-Request": "true"},
    )

    html = flat(response)
    assert response.status_code == 200
    assert '<p id="to-check-count" data-hx-swap-oob="true">1 verdict to check</p>' in html
    assert '<div id="to-check-questions" data-hx-swap-oob="true">' in html
    assert "Every question (2)" in html
    assert f"q-10-03 · {PRE_LN} (1)" in html


def test_the_links_speak_spanish(client, cohort, instructor, waiting):
    client.force_login(instructor)

    client.post("/language/", {"language": "es", "next": "/"})

    html = flat(client.get(list_url(cohort, "q-19-05")))

    assert 'aria-label="Por revisar, por pregunta"' in html
    assert "Todas las preguntas (3)" in html
    assert "q-19-05 · Mecanismo de concentración de cola larga (1)" in html
    html = flat(client.get(list_url(cohort, "q-10-01")))
    assert "Nada por revisar en esta pregunta." in html


def test_a_question_field_with_a_nul_comes_back_to_every_question(client, cohort, instructor):
    attempt = answer(learner_in(cohort, "ana"), "q-10-03", text=NEGATED)
    client.force_login(instructor)

    response = client.post(confirm_url(cohort, attempt), {"seen": 0, "question": "q-10\x0003"})

    # Not an address that answers 400 (a NUL in a query) after the confirm was recorded.
    assert (response.status_code, response["Location"]) == (302, list_url(cohort))
    assert Regrade.objects.filter(kind="confirm").count() == 1
