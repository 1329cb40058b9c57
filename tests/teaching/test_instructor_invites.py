"""An instructor's invite: a superuser makes one for a cohort, and whoever redeems it is
a staff account in the Instructors group teaching that cohort, in one step."""

import re
from datetime import timedelta

import pytest
import time_machine
from django.contrib.auth import get_user_model
from django.test import Client
from django.utils import timezone

from accounts.enums import InviteRole
from accounts.models import Invite
from accounts.services import invite_create
from teaching.models import Cohort
from tests.factories import UserFactory

pytestmark = pytest.mark.django_db
User = get_user_model()
ADD = "/admin/accounts/invite/add/"
NEW_PASSWORD = "a-long-Pass-phrase-42"
ACCOUNT = {
    "username": "maria",
    "password1": NEW_PASSWORD,
    "password2": NEW_PASSWORD,
    "language": "es",
}


@pytest.fixture
def root(db):
    return UserFactory(username="root", is_staff=True, is_superuser=True)


@pytest.fixture
def spring(db):
    return Cohort.objects.create(name="Spring")


def made(response) -> str:
    found = re.search(r'data-copy-text="https?://[^/"]+(/invite/[^"]+/)"', response.text)
    assert found, response.text
    return found.group(1)


def test_a_superusers_instructor_invite_makes_an_instructor_of_the_cohort(client, root, spring):
    client.force_login(root)
    response = client.post(
        ADD, {"note": "", "cohort": spring.pk, "role": "instructor"}, follow=True
    )
    path = made(response)
    browser = Client()

    page = browser.get(path)
    done = browser.post(path, ACCOUNT)

    assert "valid for 1 day)" in response.text
    assert "You are invited to teach the class “Spring”" in page.text
    assert done.status_code == 302 and done["Location"] == "/admin/"
    maria = User.objects.get(username="maria")
    assert maria.is_staff and not maria.is_superuser
    assert maria.groups.filter(name="Instructors").exists()
    assert list(spring.instructors.all()) == [maria] and not spring.learners.exists()
    results = browser.get(f"/admin/teaching/cohort/{spring.pk}/results/")
    assert results.status_code == 200


def test_an_instructors_post_of_the_role_makes_a_learners_invite(client, spring):
    from django.contrib.auth.models import Group

    teach = UserFactory(username="teach", is_staff=True)
    teach.groups.add(Group.objects.get(name="Instructors"))
    spring.instructors.add(teach)
    client.force_login(teach)

    client.post(ADD, {"note": "", "cohort": spring.pk, "role": "instructor"})

    assert Invite.objects.get().role == InviteRole.LEARNER


def test_an_instructors_invite_names_its_cohort(client, root):
    client.force_login(root)

    response = client.post(ADD, {"note": "", "cohort": "", "role": "instructor"})

    assert response.status_code == 200
    assert "names the cohort they will teach" in response.text
    assert not Invite.objects.exists()


def test_an_instructors_invite_lasts_a_day(root, spring):
    _invite, url = invite_create(created_by=root, cohort=spring, role=InviteRole.INSTRUCTOR)
    path = re.sub(r"^https?://[^/]+", "", url)

    with time_machine.travel(timezone.now() + timedelta(days=1, seconds=1)):
        response = Client().get(path)

    assert response.status_code == 410


def test_an_instructors_invite_ends_when_its_maker_is_no_longer_a_superuser(root, spring):
    _invite, url = invite_create(created_by=root, cohort=spring, role=InviteRole.INSTRUCTOR)
    User.objects.filter(pk=root.pk).update(is_superuser=False)

    response = Client().post(re.sub(r"^https?://[^/]+", "", url), ACCOUNT)

    assert response.status_code == 410
    assert not User.objects.filter(username="maria").exists()
