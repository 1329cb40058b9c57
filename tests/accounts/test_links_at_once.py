"""Links made and ended together: two new-password links made for one learner at once
(two instructors, two tabs) leave one usable, as one after the other would; links ended
together read their names in one query."""

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


@pytest.mark.parametrize("model", ["invite", "password link"])
def test_ending_links_reads_their_names_at_once(model):
    from django.db import connection
    from django.test.utils import CaptureQueriesContext

    from accounts.models import Invite
    from teaching.models import Cohort

    by = UserFactory(username="root", is_staff=True, is_superuser=True)

    def queries_to_end(count: int) -> int:
        for n in range(count):
            if model == "invite":
                services.invite_create(
                    created_by=by, cohort=Cohort.objects.create(name=f"C{count}-{n}")
                )
            else:
                services.password_link_create(learner=UserFactory(), created_by=by)
        links = (Invite if model == "invite" else PasswordLink).objects.usable()
        with CaptureQueriesContext(connection) as run:
            assert services.links_end(links=links, by=by) == count
        return len(run)

    # One more link is one more audit event, and nothing else: its cohort's or learner's
    # name came with the others' (it was a query a link).
    assert queries_to_end(3) - queries_to_end(1) == 2
