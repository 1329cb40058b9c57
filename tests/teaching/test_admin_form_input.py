"""What a fuzzer or a careless superuser types into the admin's forms: ids no column
holds, usernames that look like another, names with invisible characters. Each is the
form's own error (a 200 with the message), never a 500, and nothing is saved."""

import pytest
from django.contrib.auth import get_user_model
from django.contrib.auth.models import Group

from teaching.models import Cohort
from tests.factories import UserFactory

pytestmark = pytest.mark.django_db
TOO_BIG = "9223372036854775808"  # 2**63: past SQLite's and PostgreSQL's integers
# The same number as int() also reads it: full-width digits, Arabic-Indic digits,
# underscores between digits.
TOO_BIG_SPELLINGS = [
    TOO_BIG,
    TOO_BIG.translate(str.maketrans("0123456789", "０１２３４５６７８９")),
    TOO_BIG.translate(str.maketrans("0123456789", "٠١٢٣٤٥٦٧٨٩")),
    "9_223_372_036_854_775_808",
    "9" * 5000,  # past the digits int() converts at all (a ValueError, once a 500)
]


@pytest.fixture
def admin_client(client):
    client.force_login(UserFactory(username="root", is_staff=True, is_superuser=True))
    return client


@pytest.mark.parametrize("too_big", TOO_BIG_SPELLINGS)
def test_cohort_learner_id_past_64_bits_is_an_invalid_choice(admin_client, too_big):
    response = admin_client.post(
        "/admin/teaching/cohort/add/", {"name": "Spring", "learners": [too_big]}
    )

    assert response.status_code == 200
    assert "Select a valid choice" in response.content.decode()
    assert not Cohort.objects.exists()


def test_user_group_id_past_64_bits_is_an_invalid_choice(admin_client):
    user = UserFactory(username="ana")
    form = {
        "username": "ana",
        "groups": [TOO_BIG],
        "date_joined_0": "2026-01-01",
        "date_joined_1": "10:00:00",
        "is_active": "on",
    }

    response = admin_client.post(f"/admin/auth/user/{user.pk}/change/", form)

    assert response.status_code == 200
    assert "Select a valid choice" in response.content.decode()
    assert not user.groups.exists()


def test_group_permission_id_past_64_bits_is_an_invalid_choice(admin_client):
    response = admin_client.post(
        "/admin/auth/group/add/", {"name": "Helpers", "permissions": [TOO_BIG]}
    )

    assert response.status_code == 200
    assert not Group.objects.filter(name="Helpers").exists()


@pytest.mark.parametrize(
    ("username", "message"),
    [
        ("ana\u200b", "cannot be seen"),
        ("\u3164", "cannot be seen"),
        ("p\u0430ypal", "mixes alphabets"),  # a Cyrillic а
        ("\u0430\u0440\u0435", "looks the same"),  # Cyrillic а, р, е: "ape"
    ],
)
def test_admin_add_user_checks_the_username_as_the_setup_page(admin_client, username, message):
    UserFactory(username="ana")
    UserFactory(username="ape")
    form = {"username": username, "usable_password": "false"}

    response = admin_client.post("/admin/auth/user/add/", form)

    assert response.status_code == 200
    assert message in response.content.decode()
    assert get_user_model().objects.count() == 3  # root, ana and ape


def test_admin_add_user_with_a_plain_name_still_works(admin_client):
    response = admin_client.post(
        "/admin/auth/user/add/", {"username": "bea", "usable_password": "false"}
    )

    assert response.status_code == 302
    assert get_user_model().objects.filter(username="bea").exists()


def test_admin_change_user_checks_a_changed_username_against_the_others(admin_client):
    UserFactory(username="ana")
    user = UserFactory(username="bea")
    form = {
        "username": "Аna",  # a Cyrillic А: looks like "ana"
        "date_joined_0": "2026-01-01",
        "date_joined_1": "10:00:00",
        "is_active": "on",
    }

    response = admin_client.post(f"/admin/auth/user/{user.pk}/change/", form)

    assert response.status_code == 200
    user.refresh_from_db()
    assert user.username == "bea"


@pytest.mark.parametrize("name", ["Spring\u202e", "Spr\u200bing"])
def test_cohort_name_with_invisible_characters_is_refused(admin_client, name):
    response = admin_client.post("/admin/teaching/cohort/add/", {"name": name})

    assert response.status_code == 200
    assert "cannot be seen" in response.content.decode()
    assert not Cohort.objects.exists()


def test_a_cohort_of_a_thousand_learners_saves_in_the_admin(admin_client):
    """Its form posts one field per learner: past Django's default of 1,000 fields a
    request, renaming such a cohort (or adding a learner to it) was a 400."""
    User = get_user_model()
    User.objects.bulk_create(User(username=f"learner{n}") for n in range(1_100))
    cohort = Cohort.objects.create(name="Spring")
    cohort.learners.set(User.objects.filter(username__startswith="learner"))

    response = admin_client.post(
        f"/admin/teaching/cohort/{cohort.pk}/change/",
        {
            "name": "Spring, all of it",
            "learners": list(cohort.learners.values_list("pk", flat=True)),
        },
    )

    assert response.status_code == 302
    cohort.refresh_from_db()
    assert cohort.name == "Spring, all of it"
    assert cohort.learners.count() == 1_100
