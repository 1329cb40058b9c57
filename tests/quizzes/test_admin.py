"""The quiz admin is read-only and shows revisions with the current one marked."""

from io import StringIO

import pytest
from django.core.management import call_command
from django.urls import reverse

from quizzes.models import Question

pytestmark = pytest.mark.django_db


@pytest.fixture
def imported(seed_dir):
    call_command("import_quizzes", str(seed_dir), stdout=StringIO())


def test_admin_question_change_page_lists_revisions_read_only(admin_client, imported):
    question = Question.objects.get(code="q-19-01")

    response = admin_client.get(reverse("admin:quizzes_question_change", args=[question.pk]))

    html = response.content.decode()
    assert response.status_code == 200
    assert "fp16 overflow signature" in html
    assert 'name="_save"' not in html
    assert "icon-yes" in html


@pytest.mark.parametrize("model", ["phase", "question", "questionrevision"])
def test_admin_content_cannot_be_added(admin_client, imported, model):
    response = admin_client.get(reverse(f"admin:quizzes_{model}_add"))

    assert response.status_code == 403


@pytest.mark.parametrize("count", [1, 5])
def test_admin_question_list_runs_fixed_queries(
    admin_client, write_quiz, django_assert_num_queries, count
):
    questions = "".join(
        f"  - id: q-01-{n:02d}\n    kind: free\n    title: Q{n}\n"
        f"    expected: [x]\n    explanation: E\n"
        for n in range(count)
    )
    folder = write_quiz(f"format: 1\nphase: 1\nslug: basics\ntitle: B\nquestions:\n{questions}")
    call_command("import_quizzes", str(folder), stdout=StringIO())

    with django_assert_num_queries(6):
        response = admin_client.get(reverse("admin:quizzes_question_changelist"))

    assert response.content.decode().count('class="field-code"') == count


def test_admin_in_spanish_names_phases_in_spanish(admin_client, imported):
    admin_client.post("/language/", {"language": "es", "next": "/admin/"})

    html = admin_client.get(reverse("admin:quizzes_question_changelist")).content.decode()

    assert "10 Inicialización, normalización y residuales" in html
    assert "10 Initialization, Normalization" not in html


def test_admin_tab_titles_name_the_portal(admin_client, imported):
    html = admin_client.get(reverse("admin:quizzes_question_changelist")).content.decode()

    title = html[html.index("<title>") : html.index("</title>")]
    assert "LLM from scratch — admin" in title
    assert "Django site admin" not in title
