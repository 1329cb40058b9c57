"""The admin's attempt and regrade pages show the answer and what the grader found in
words, not the JSON they are stored as (UX walk 26)."""

import re

import pytest

from accounts.models import Profile
from teaching.models import Cohort
from teaching.services import verdict_override
from tests.factories import UserFactory, answer

pytestmark = pytest.mark.django_db


@pytest.fixture
def ana(seeds_imported, instructor):
    ana = UserFactory(username="ana")
    cohort = Cohort.objects.create(name="Taught")
    cohort.instructors.add(instructor)
    cohort.learners.add(ana)
    return ana


def page(client, instructor, path):
    client.force_login(instructor)
    response = client.get(path)
    assert response.status_code == 200
    return " ".join(response.content.decode().split())


def field(html, label):
    """The shown value of the admin's read-only field `label`."""
    [value] = re.findall(rf"<label>{label}:</label> <div class=\"readonly\">(.*?)</div>", html)
    return value


def test_a_free_attempt_names_the_mentions_found_and_missed(client, instructor, ana):
    attempt = answer(ana, "q-19-05", text="The embedding row gets a huge gradient.\n<b>x</b>")

    html = page(client, instructor, f"/admin/progress/attempt/{attempt.pk}/change/")

    assert field(html, "Answer") == (
        '<span class="answer-text" lang="en" dir="auto">'
        "The embedding row gets a huge gradient.<br>&lt;b&gt;x&lt;/b&gt;</span>"
    )
    found = field(html, "What the grader found").split("<br>")
    assert found[0].startswith("found: embedding row / ")
    assert "; large gradient / " in found[0]
    assert found[1].startswith("missed: dominates / ")
    assert "right_picks" not in html and "&quot;spans&quot;" not in html


def test_a_choice_attempt_names_the_picks(client, instructor, ana):
    attempt = answer(ana, "q-10-02", keys=["A"])

    html = page(client, instructor, f"/admin/progress/attempt/{attempt.pk}/change/")

    assert field(html, "Answer") == "A"
    assert field(html, "What the grader found") == "picked, right: A<br>not picked, right: C"
    assert "missed_keys" not in html


def test_a_regrades_page_says_what_its_grading_found_in_spanish(client, instructor, ana):
    attempt = answer(ana, "q-19-05", text="A huge gradient dominates the norm.")
    entry = verdict_override(attempt=attempt, correct=False, reason="Vago.", by=instructor)

    Profile.objects.filter(user=instructor).update(language="es")

    html = page(client, instructor, f"/admin/progress/regrade/{entry.pk}/change/")

    found = field(html, "Lo que encontró el corrector").split("<br>")
    assert found[0].startswith("encontrada: gradiente grande")
    assert "new_feedback" not in html and "&quot;mentions&quot;" not in html


def test_an_overridden_attempt_says_its_verdict_now_on_its_page_and_in_the_list(
    client, instructor, ana
):
    """Instructor walk 35: an answer the instructor marked right showed only the
    grader's ✗ (labelled "Correct") on its page and in the attempts list, and "Correct:
    No" filtered it as wrong."""
    attempt = answer(ana, "q-19-05", text="The rare token's embedding gets updated.")
    assert not attempt.correct
    verdict_override(attempt=attempt, correct=True, reason="Fair enough.", by=instructor)
    unsure = answer(ana, "q-19-02", text="three standart deviations over the moving avg")
    assert unsure.doubts

    html = page(client, instructor, f"/admin/progress/attempt/{attempt.pk}/change/")
    assert field(html, "Verdict now") == "right (marked by an instructor)"
    assert "icon-no.svg" in field(html, "Grader&#x27;s verdict")
    html = page(client, instructor, f"/admin/progress/attempt/{unsure.pk}/change/")
    assert field(html, "Verdict now") == "right (provisional)"

    listed = page(client, instructor, "/admin/progress/attempt/")
    assert "right (marked by an instructor)" in listed
    assert "right (provisional)" in listed
    assert "By grader&#x27;s verdict" in listed and "By correct" not in listed
    Profile.objects.filter(user=instructor).update(language="es")
    listed = page(client, instructor, "/admin/progress/attempt/")
    assert "correcta (marcada por un instructor)" in listed
    assert "Por veredicto del corrector" in listed


def test_the_language_an_attempt_was_answered_in_is_named_not_coded(client, instructor, ana):
    """Instructor walk 35: the attempts list's filter offered "en" and "es", and an
    attempt's page said "Language shown: en"."""
    attempt = answer(ana, "q-10-02", keys=["A"])

    html = page(client, instructor, f"/admin/progress/attempt/{attempt.pk}/change/")
    assert field(html, "Language shown") == "English"

    listed = page(client, instructor, "/admin/progress/attempt/?language__exact=es")
    assert "0 attempts" in listed
    assert ">English</a>" in listed and ">Spanish</a>" in listed
    assert 'href="?language__exact=en"' in listed
    Profile.objects.filter(user=instructor).update(language="es")
    listed = page(client, instructor, "/admin/progress/attempt/")
    assert ">Inglés</a>" in listed and ">Español</a>" in listed


def test_an_attempts_page_leads_to_where_its_verdict_is_acted_on(client, instructor, ana):
    """Instructor walk 35: an attempt found in the attempts list (a provisional verdict,
    say) had no way on to the learner's attempts, where it is overridden: the page now
    links there, for each cohort the instructor teaches the learner in, and no other."""
    attempt = answer(ana, "q-19-02", text="three standart deviations over the moving avg")
    taught = Cohort.objects.get(name="Taught")
    Cohort.objects.create(name="Not taught").learners.add(ana)

    html = page(client, instructor, f"/admin/progress/attempt/{attempt.pk}/change/")

    link = (
        f'href="/admin/teaching/cohort/{taught.pk}/results/learner/{ana.pk}/'
        f'?attempt={attempt.pk}#attempt-{attempt.pk}">ana in Taught</a>'
    )
    assert link in html
    assert "Not taught" not in html


def test_a_superusers_attempt_leads_to_no_drill_down(admin_client, seeds_imported):
    """A superuser listed among a cohort's learners is no learner (red team 25): her
    attempt's page offered a link to a drill-down that answers 404."""
    boss = UserFactory(username="bossy", is_staff=False, is_superuser=True)
    Cohort.objects.create(name="Taught").learners.add(boss)
    attempt = answer(boss, "q-19-02", text="three standard deviations over the moving avg")

    html = admin_client.get(f"/admin/progress/attempt/{attempt.pk}/change/").content.decode()

    assert "results/learner/" not in html and "bossy in Taught" not in html


@pytest.mark.parametrize("count", [1, 5])
def test_the_attempts_list_reads_a_fixed_number_of_queries(
    client, instructor, ana, django_assert_num_queries, count
):
    """Its "verdict now" column reads each attempt's regrades and overrides: prefetched,
    not one query a row."""
    for n in range(count):
        attempt = answer(ana, "q-10-02", keys=["A"])
        verdict_override(attempt=attempt, correct=n % 2 == 0, reason="Seen.", by=instructor)
    client.force_login(instructor)

    with django_assert_num_queries(12):  # whatever the number of attempts
        response = client.get("/admin/progress/attempt/")

    assert response.status_code == 200
    assert response.content.decode().count("(marked by an instructor)") == count
