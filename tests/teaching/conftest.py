"""Fixtures for the instructors' tests."""

import pytest
from django.contrib.auth.models import Group

from tests.factories import UserFactory


@pytest.fixture
def instructor(db):
    """A staff account in the Instructors group, teaching no cohort yet."""
    user = UserFactory(username="teach", is_staff=True)
    user.groups.add(Group.objects.get(name="Instructors"))
    return user
