"""The admin's first page asks an instructor for the verdicts waiting in their cohorts,
as soon as they log in."""

import re

import pytest

from teaching.models import Cohort
from teaching.services import verdict_confirm
from tests.factories import UserFactory, answer
from tests.teaching.unsure import NEGATED, SHORT, TYPO, learner_in

pytestmark = pytest.mark.django_db


def waiting(client) -> list[tuple[str, str, str]]:
    html = " ".join(client.get("/admin/").content.decode().split())
    panel = re.search(
        r'<div class="module to-check-waiting" id="to-check-waiting">(.*?)</div>', html
    )
    return (
        re.findall(r'<li><a href="([^"]+)">([^<]+)</a>: ([^<]+)</li>', panel.group(1))
        if panel
        else []
    )


def test_the_first_page_lists_the_cohorts_with_verdicts_waiting(client, cohort, instructor):
    answer(learner_in(cohort, "ana"), "q-10-03", text=TYPO)
    answer(learner_in(cohort, "bea"), "q-19-05", text=SHORT)
    quiet = Cohort.objects.create(name="Autumn")  # taught, nothing waiting
    quiet.instructors.add(instructor)
    other = Cohort.objects.create(name="Other")  # not taught
    answer(learner_in(other, "zed"), "q-10-03", text=NEGATED)
    client.force_login(instructor)

    assert waiting(client) == [
        (f"/admin/teaching/cohort/{cohort.pk}/to-check/", "Spring", "2 verdicts to check")
    ]

    client.force_login(UserFactory(username="root", is_staff=True, is_superuser=True))
    assert [name for _url, name, _n in waiting(client)] == ["Other", "Spring"]


def test_nothing_waiting_shows_no_panel(client, cohort, instructor):
    attempt = answer(learner_in(cohort, "ana"), "q-10-03", text=TYPO)
    verdict_confirm(attempt=attempt, by=instructor)
    client.force_login(instructor)

    response = client.get("/admin/")

    assert response.status_code == 200 and 'id="to-check-waiting"' not in response.content.decode()


def test_staff_who_may_not_see_cohorts_are_not_asked(client, cohort):
    answer(learner_in(cohort, "ana"), "q-10-03", text=TYPO)
    client.force_login(UserFactory(username="helper", is_staff=True))

    assert waiting(client) == []


def test_it_speaks_spanish(client, cohort, instructor):
    answer(learner_in(cohort, "ana"), "q-10-03", text=TYPO)
    client.force_login(instructor)
    client.post("/language/", {"language": "es", "next": "/"})

    html = client.get("/admin/").content.decode()

    assert "<h2>Por revisar</h2>" in html and "1 veredicto por revisar" in html
