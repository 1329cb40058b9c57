"""Two new-password links made for one learner at once (two instructors, two tabs): the
newer ends the older, as one after the other, so only one link handed over works."""

import contextlib
import threading

import pytest
from django.contrib.auth import get_user_model

from accounts import services
from accounts.models import PasswordLink
from tests.factories import UserFactory
from tests.threads import at_once

pytestmark = pytest.mark.django_db(transaction=True)


def test_two_links_made_at_once_leave_one_usable(monkeypatch):
    learner = UserFactory(username="ana")
    makers = [UserFactory(username=name, is_staff=True) for name in ("teach", "tutor")]
    both_inside = threading.Barrier(2)
    create = services._link_create

    def slow_create(*args, **kwargs):
        # Each has ended the links it saw; when the other waits for this one (the
        # learner's row locked), it never comes: on after a second.
        with contextlib.suppress(threading.BrokenBarrierError):
            both_inside.wait(1)
        return create(*args, **kwargs)

    monkeypatch.setattr(services, "_link_create", slow_create)

    made = at_once(
        *(
            lambda maker=maker: services.password_link_create(
                learner=get_user_model().objects.get(pk=learner.pk), created_by=maker
            )
            for maker in makers
        )
    )

    assert len(made) == 2 and PasswordLink.objects.filter(user=learner).count() == 2
    # Without the lock, each missed the other's uncommitted link: both stayed usable
    # (PostgreSQL; SQLite's immediate transactions queued them anyway).
    assert PasswordLink.objects.usable().filter(user=learner).count() == 1
