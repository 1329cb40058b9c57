"""Addresses and query strings an attacker's fuzzer sends: a 4xx or the value ignored,
never a 500."""

import pytest
from django.contrib.auth.models import Group

from progress.models import Regrade
from quizzes.models import Question
from teaching.models import Cohort
from tests.factories import UserFactory

pytestmark = pytest.mark.django_db
TOO_BIG = "9223372036854775808"  # 2**63: past SQLite's and PostgreSQL's integers
FULL_WIDTH = TOO_BIG.translate(str.maketrans("0123456789", "０１２３４５６７８９"))
ARABIC_INDIC = TOO_BIG.translate(str.maketrans("0123456789", "٠١٢٣٤٥٦٧٨٩"))


@pytest.fixture
def instructor_client(client, seeds_imported):
    instructor = UserFactory(username="teach", is_staff=True)
    instructor.groups.add(Group.objects.get(name="Instructors"))
    cohort = Cohort.objects.create(name="Spring")
    cohort.instructors.add(instructor)
    client.force_login(instructor)
    client.cohort = cohort
    return client


@pytest.mark.parametrize("number", [TOO_BIG, "99999999999999999999999999"])
def test_phase_number_past_64_bits_is_a_404(learner_client, seeds_imported, number):
    response = learner_client.get(f"/phase/{number}/")

    assert response.status_code == 404
    assert "Page not found" in response.content.decode()


@pytest.mark.parametrize("phase", ["²", "١٠", TOO_BIG, "-1"])
def test_results_phase_that_is_no_number_shows_all_phases(instructor_client, phase):
    cohort = instructor_client.cohort

    response = instructor_client.get(f"/admin/teaching/cohort/{cohort.pk}/results/?phase={phase}")

    html = response.content.decode()
    assert response.status_code == 200
    assert '<option value="">All phases</option>' in html
    assert '<option value="10" selected>' not in html
    assert '<option value="10">' in html


@pytest.mark.parametrize("model", ["progress/attempt", "audit/auditevent"])
@pytest.mark.parametrize("year", ["0", "-1", "1", TOO_BIG, "9999", "10000", "²"])
def test_admin_date_hierarchy_with_an_impossible_year_is_a_400(admin_client, model, year):
    response = admin_client.get(f"/admin/{model}/?created_at__year={year}")

    assert response.status_code == 400


@pytest.mark.parametrize("model", ["progress/attempt", "audit/auditevent"])
@pytest.mark.parametrize(
    "query", [f"month={TOO_BIG}", "month=13", "month=0", f"month=12&created_at__day={TOO_BIG}"]
)
def test_admin_date_hierarchy_with_an_impossible_month_or_day_is_a_400(admin_client, model, query):
    # A month or a day past 64 bits raised OverflowError inside Django's date
    # hierarchy, which catches ValueError only: a 500.
    response = admin_client.get(f"/admin/{model}/?created_at__year=2026&created_at__{query}")

    assert response.status_code == 400


def test_admin_date_hierarchy_with_a_possible_day_lists(admin_client):
    query = "created_at__year=2026&created_at__month=12&created_at__day=4"

    assert admin_client.get(f"/admin/progress/attempt/?{query}").status_code == 200


def test_admin_date_hierarchy_with_a_possible_year_lists(admin_client):
    response = admin_client.get("/admin/audit/auditevent/?created_at__year=2026")

    assert response.status_code == 200


@pytest.mark.parametrize("selected", ["abc", TOO_BIG, "", "1.5"])
def test_regrade_action_with_a_selection_that_is_no_id_is_a_400(
    admin_client, seeds_imported, selected
):
    question = Question.objects.get(code="q-10-01")

    response = admin_client.post(
        "/admin/quizzes/question/",
        {"action": "regrade", "_selected_action": [question.pk, selected], "confirm": "yes"},
    )

    assert response.status_code == 400
    assert Regrade.objects.count() == 0


def test_cohort_delete_action_with_a_selection_that_is_no_id_is_a_400(admin_client):
    cohort = Cohort.objects.create(name="Spring")

    response = admin_client.post(
        "/admin/teaching/cohort/", {"action": "delete_selected", "_selected_action": ["abc"]}
    )

    assert response.status_code == 400
    assert list(Cohort.objects.all()) == [cohort]


@pytest.mark.parametrize(
    ("url", "who"),
    [
        ("/admin/accounts/invite/?created_at__year=99999", "instructor"),
        ("/admin/accounts/invite/?expires_at__year=0", "instructor"),
        ("/admin/auth/user/?date_joined__year=10000", "instructor"),
        ("/admin/teaching/cohort/?created_at__year=99999", "instructor"),
        ("/admin/quizzes/question/?retired_at__year=10000", "instructor"),
        ("/admin/auth/user/?pk__in=99999999999999999999", "admin"),
        ("/admin/auth/user/?id__regex=(", "admin"),
        ("/admin/auth/user/?username__regex=(", "admin"),
        ("/admin/progress/attempt/?created_at__iso_year=99999", "admin"),
        ("/admin/progress/attempt/?created_at__year__gt=99999", "admin"),
        ("/admin/progress/attempt/?answer__contains=x", "admin"),
        ("/admin/audit/auditevent/?kind__regex=a(", "admin"),
        ("/admin/auth/group/?name__regex=(", "admin"),
        # A related id past 64 bits: SQLite refused to bind it in the list's count (a
        # 500), PostgreSQL found nothing (the red team's round 6).
        ("/admin/quizzes/question/?phase=99999999999999999999999", "instructor"),
        ("/admin/quizzes/question/?phase__exact=-9999999999999999999999", "instructor"),
        ("/admin/progress/attempt/?question__phase=99999999999999999999999", "admin"),
        ("/admin/auth/user/?groups=99999999999999999999999", "admin"),
        # The same number in digits int() reads too: full-width, Arabic-Indic, underscores.
        (f"/admin/quizzes/question/?phase={FULL_WIDTH}", "instructor"),
        (f"/admin/auth/user/?groups={ARABIC_INDIC}", "admin"),
        ("/admin/progress/attempt/?question__phase=9_999_999_999_999_999_999_999", "admin"),
    ],
)
def test_admin_lookups_no_filter_makes_or_values_no_column_takes_are_a_400(
    admin_client, instructor_client, url, who
):
    client = admin_client if who == "admin" else instructor_client

    response = client.get(url)

    assert response.status_code == 400


@pytest.mark.parametrize(
    "query",
    [
        "correct__exact=1",
        "language__exact=es",
        "question__phase__id__exact=1",
        "created_at__year=2026&created_at__month=12",
        "correct__isnull=True",
    ],
)
def test_admin_lookups_the_filters_make_still_list(admin_client, query):
    response = admin_client.get(f"/admin/progress/attempt/?{query}")

    assert response.status_code == 200


@pytest.mark.parametrize(
    ("method", "url"),
    [
        ("get", "/reviews/?answered=%00"),
        ("get", "/question/%00/form/"),
        ("post", "/question/%00/answer/"),
        ("post", "/question/q-10-01%00/draft/"),
        ("get", "/admin/progress/attempt/?language=%00"),
        ("get", "/admin/progress/regrade/?kind=%00"),
        ("get", "/admin/autocomplete/?app_label=auth&model_name=user&field_name=x&term=%00"),
    ],
)
def test_a_nul_character_in_an_address_is_a_400(admin_client, seeds_imported, method, url):
    # PostgreSQL refuses NUL in any text it compares: each of these was a 500 there.
    response = getattr(admin_client, method)(url)

    assert response.status_code == 400
    assert "This address holds a NUL character" in response.content.decode()


def test_an_admin_search_of_a_thousand_words_uses_the_first_twenty_and_says_so(admin_client):
    """SQLite refused the query of a thousand words (an expression tree too deep: a 500)."""
    response = admin_client.get("/admin/progress/attempt/", {"q": " ".join(["a"] * 1000)})

    assert response.status_code == 200
    assert "Only the first 20 words of the search were used." in response.content.decode()


def test_a_quoted_phrase_counts_as_one_search_term(admin_client):
    phrase = '"' + " ".join(["a"] * 30) + '"'

    response = admin_client.get("/admin/progress/attempt/", {"q": phrase})

    assert response.status_code == 200
    assert "Only the first" not in response.content.decode()


@pytest.mark.parametrize(
    "url",
    [
        "/admin/auth/user/{pk}/change/",
        "/admin/auth/user/{pk}/delete/",
        "/admin/auth/user/{pk}/history/",
    ],
)
def test_an_empty_to_field_on_an_admin_page_is_a_400(admin_client, admin_user, url):
    """Django checks `_to_field` only when it is not empty: an empty one named no field,
    a 500 on every change, delete and history page (the red team's round 7)."""
    response = admin_client.get(url.format(pk=admin_user.pk), {"_to_field": ""})

    assert response.status_code == 400


def test_an_empty_to_field_posted_to_an_admin_page_is_a_400(admin_client, admin_user):
    response = admin_client.post(
        f"/admin/auth/user/{admin_user.pk}/change/", {"_to_field": "", "username": "x"}
    )

    assert response.status_code == 400
