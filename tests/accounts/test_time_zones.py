"""Dates in the learner's time zone, labelled; the browser's zone unless the profile says."""

import pytest

from accounts.models import Profile
from tests.factories import answer

pytestmark = pytest.mark.django_db


def _history_time(client) -> str:
    html = client.get("/progress/").content.decode()
    start = html.index("<time ")
    return html[start : html.index("</time>", start)]


def test_dates_follow_the_browsers_time_zone_and_say_which(seeds_imported, learner_client, learner):
    answer(learner, "q-10-01", keys=["B"])
    learner_client.cookies["tz"] = "Asia/Tokyo"

    shown = _history_time(learner_client)

    assert shown.endswith("\u00a0JST")
    assert "+0900" in shown


def test_without_a_known_zone_dates_say_utc(seeds_imported, learner_client, learner):
    answer(learner, "q-10-01", keys=["B"])
    learner_client.cookies["tz"] = "Mars/Olympus_Mons"

    assert _history_time(learner_client).endswith("\u00a0UTC")


def test_profile_time_zone_wins_over_the_browser(seeds_imported, client, learner):
    Profile.objects.filter(user=learner).update(time_zone="America/Mexico_City")
    answer(learner, "q-10-01", keys=["B"])
    client.cookies["tz"] = "Asia/Tokyo"
    client.force_login(learner)

    assert _history_time(client).endswith("\u00a0CST")


def test_the_zone_is_named_as_the_time_zone_list_names_it(seeds_imported, learner_client):
    """The list on /time-zone/ offers "America/Mexico City"; the sentences naming the zone
    in use said "America/Mexico_City", an identifier the learner finds in no list."""
    learner_client.cookies["tz"] = "America/Mexico_City"

    progress = learner_client.get("/progress/").content.decode()
    page = learner_client.get("/time-zone/").content.decode()

    assert "Dates are shown in the time zone America/Mexico City." in progress
    assert "Dates are shown in the time zone America/Mexico City now." in page
    assert '<option value="America/Mexico_City">America/Mexico City</option>' in page
    assert "Mexico_City." not in progress + page


def test_profile_refuses_an_unknown_time_zone(learner):
    from django.core.exceptions import ValidationError

    profile = Profile.objects.get(user=learner)
    profile.time_zone = "Nowhere/Land"

    with pytest.raises(ValidationError, match="Unknown time zone"):
        profile.full_clean()


def test_a_percent_encoded_zone_cookie_is_read(seeds_imported, learner_client, learner):
    answer(learner, "q-10-01", keys=["B"])
    learner_client.cookies["tz"] = "Asia%2FTokyo"  # what tz.js used to write

    assert _history_time(learner_client).endswith("\u00a0JST")


def test_the_admin_names_its_time_zone_and_invites_are_named_in_it(client):
    from datetime import UTC, datetime

    import time_machine

    from accounts.services import invite_create
    from tests.factories import UserFactory

    admin = UserFactory(username="root", is_staff=True, is_superuser=True)
    Profile.objects.filter(user=admin).update(time_zone="Asia/Tokyo")
    with time_machine.travel(datetime(2027, 1, 5, 23, 30, tzinfo=UTC), tick=False):
        invite_create()
        client.force_login(admin)
        html = " ".join(client.get("/admin/accounts/invite/").content.decode().split())

    assert (
        '<a class="time-zone" href="/time-zone/?next=/admin/accounts/invite/">'
        "Times in Asia/Tokyo.</a>"
    ) in html
    assert "invite Jan. 6, 2027, 8:30 a.m. JST" in html  # not the UTC 23:30 of the 5th
    # Its expiry too, with its zone, as "used" says it (UX walk 17).
    assert '<td class="field-expires">Jan. 13, 2027, 8:30 a.m. JST</td>' in html


def test_the_invite_list_says_in_one_column_who_used_each_invite_and_when(client):
    from datetime import UTC, datetime, timedelta

    import time_machine

    from accounts.models import Invite
    from accounts.services import invite_create
    from tests.factories import UserFactory

    admin = UserFactory(username="root", is_staff=True, is_superuser=True)
    Profile.objects.filter(user=admin).update(time_zone="Asia/Tokyo")
    lena = UserFactory(username="lena")
    start = datetime(2027, 1, 5, 23, 30, tzinfo=UTC)
    with time_machine.travel(start - timedelta(days=30), tick=False):
        invite_create(note="old")
    with time_machine.travel(start, tick=False):
        used, _ = invite_create(note="used")
        Invite.objects.filter(pk=used.pk).update(used_at=start, used_by=lena)
        invite_create(note="open")
        client.force_login(admin)
        html = " ".join(client.get("/admin/accounts/invite/").content.decode().split())

    cells = {
        note: html.split(f">{note}</a>", 1)[1].split('<td class="field-state">', 1)[1].split("<")[0]
        for note in ("old", "used", "open")
    }
    assert cells == {
        "old": "Expired",
        "used": "Used by lena, Jan. 6, 2027, 8:30 a.m. JST",
        "open": "Not used yet",
    }
