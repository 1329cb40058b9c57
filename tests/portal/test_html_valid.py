"""Every page's HTML validates with the Nu Html Checker (vnu.jar, run with Java).

The checker comes from the npm package vnu-jar; .ci/run installs it and sets VNU_JAR
(and REQUIRE_VNU, so that CI fails rather than skips). Locally, without it, this test
says it skipped.
"""

from io import StringIO

import pytest
from django.contrib.auth.models import Group
from django.core.management import call_command

from accounts.services import password_link_create
from quizzes.models import Question
from teaching.models import Cohort
from tests.factories import UserFactory, answer
from tests.html import vnu_available, vnu_problems

pytestmark = pytest.mark.django_db

if not vnu_available():
    pytestmark = [
        pytestmark,
        pytest.mark.skip(reason="HTML validation skipped: set VNU_JAR to vnu.jar (npm vnu-jar)"),
    ]


def test_every_page_is_valid_html(client, seeds_imported, tmp_path, learner):
    cohort = Cohort.objects.create(name="Spring")
    cohort.learners.add(learner)
    teacher = UserFactory(username="teach", is_staff=True)
    teacher.groups.add(Group.objects.get(name="Instructors"))
    cohort.instructors.add(teacher)
    answer(learner, "q-10-01", keys=["A"])
    answer(learner, "q-10-02", keys=["A"])
    answer(learner, "q-10-03", text="identity")
    # One the grader is unsure of: provisional on the learner's pages, to check.
    unsure = answer(learner, "q-19-05", text="the embedding row takes over the norm")
    out = StringIO()
    call_command("invite", stdout=out)
    invite_path = out.getvalue().strip().replace("http://127.0.0.1:8000", "")

    _link, reset_url = password_link_create(learner=learner, created_by=teacher)
    reset_path = reset_url.replace("http://127.0.0.1:8000", "")

    pages = {
        "login": ("/login/", None),
        "invite": (invite_path, None),
        "new-password": (reset_path, None),
    }
    for language in ("en", "es"):
        pages |= {
            f"home-{language}": ("/", language),
            f"phase10-{language}": ("/phase/10/", language),
            f"phase19-{language}": ("/phase/19/", language),
            f"progress-{language}": ("/progress/", language),
            f"reviews-{language}": ("/reviews/", language),
            f"password-{language}": ("/password/", language),
            f"404-{language}": ("/nowhere/", language),
        }
    files = []
    for name, (url, language) in pages.items():
        client.logout()
        if language:
            client.force_login(learner)
            client.post("/language/", {"language": language, "next": "/"})
        response = client.get(url)
        assert response.status_code in (200, 404), (url, response.status_code)
        path = tmp_path / f"{name}.html"
        path.write_bytes(response.content)
        files.append(str(path))
    client.force_login(teacher)
    free = Question.objects.get(code="q-10-03")
    base = f"/admin/teaching/cohort/{cohort.pk}/results/"
    for name, url in {
        "results": base,
        "drill-down": f"{base}learner/{learner.pk}/",
        "answers": f"{base}answers/{free.pk}/",
        "to-check": f"/admin/teaching/cohort/{cohort.pk}/to-check/",
        "key-change": f"{base}attempt/{unsure.pk}/key-change/",
        "new-password-link": f"/admin/accounts/passwordlink/add/?user={learner.pk}",
    }.items():
        path = tmp_path / f"{name}.html"
        path.write_bytes(client.get(url).content)
        files.append(str(path))

    assert vnu_problems(files) == []
