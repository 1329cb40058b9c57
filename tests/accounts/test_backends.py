"""The backend's get_user (every request's user, read with SQL written once) answers
as Django's ModelBackend does."""

import pytest
from django.contrib.auth.backends import ModelBackend

from accounts.backends import ThrottledModelBackend
from tests.factories import UserFactory

pytestmark = pytest.mark.django_db


def test_get_user_returns_the_user_with_its_fields():
    user = UserFactory(is_staff=True)

    found = ThrottledModelBackend().get_user(user.pk)

    assert found == user
    assert (found.username, found.is_staff, found.password) == (
        user.username,
        True,
        user.password,
    )


def test_get_user_refuses_an_inactive_or_missing_user_like_django():
    inactive = UserFactory(is_active=False)

    for user_id in (inactive.pk, inactive.pk + 1000):
        assert ThrottledModelBackend().get_user(user_id) is None
        assert ModelBackend().get_user(user_id) is None
