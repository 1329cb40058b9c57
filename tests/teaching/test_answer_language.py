"""A learner's free answer is marked with the language it was answered in, wherever a
page in another language shows it, so a screen reader reads it with the right voice
(WCAG 3.1.2, language of parts)."""

import re

import pytest

from progress.services import attempt_record
from quizzes.models import Question
from teaching.models import Cohort
from tests.factories import UserFactory
from tests.html import question_card

pytestmark = pytest.mark.django_db

TYPO_ES = "el residual mantiene un camino de identidd"  # provisional: right by a typo


@pytest.fixture
def spanish_answer(seeds_imported, instructor):
    cohort = Cohort.objects.create(name="Spring")
    cohort.instructors.add(instructor)
    bea = UserFactory(username="bea", profile="es")
    cohort.learners.add(bea)
    revision = Question.objects.get(code="q-10-03").current_revision
    attempt, _ = attempt_record(  # answered on the Spanish pages
        learner=bea, revision=revision, nonce="n-bea", answer={"text": TYPO_ES}, language="es"
    )
    return cohort, bea, attempt


def answer_elements(html: str) -> list[str]:
    """The opening tags of the elements that hold the learner's answer text."""
    return re.findall(r'<(?:blockquote|span) [^>]*class="answer-text"[^>]*>', html)


def test_to_check_marks_the_answer_with_its_language(client, instructor, spanish_answer):
    cohort, _bea, _attempt = spanish_answer
    client.force_login(instructor)

    html = client.get(f"/admin/teaching/cohort/{cohort.pk}/to-check/").content.decode()

    assert answer_elements(html) == ['<blockquote class="answer-text" lang="es" dir="auto">']


def test_drill_down_marks_the_answer_with_its_language(client, instructor, spanish_answer):
    cohort, bea, _attempt = spanish_answer
    client.force_login(instructor)

    url = f"/admin/teaching/cohort/{cohort.pk}/results/learner/{bea.pk}/"
    html = client.get(url).content.decode()

    assert answer_elements(html) == ['<span class="answer-text" lang="es" dir="auto">']


def test_learners_card_marks_the_answer_with_its_language_after_a_switch(client, spanish_answer):
    _cohort, bea, _attempt = spanish_answer
    bea.profile.language = "en"  # back on the English pages
    bea.profile.save()
    client.force_login(bea)

    html = client.get("/phase/10/").content.decode()

    assert answer_elements(question_card(html, "q-10-03")) == [
        '<blockquote class="answer-text" lang="es" dir="auto">'
    ]


def test_attempts_admin_page_marks_the_answer_with_its_language(client, instructor, spanish_answer):
    _cohort, _bea, attempt = spanish_answer
    client.force_login(instructor)

    html = client.get(f"/admin/progress/attempt/{attempt.pk}/change/").content.decode()

    assert answer_elements(html) == ['<span class="answer-text" lang="es" dir="auto">']
