"""A learner chooses the time zone dates are shown in: for a browser that reports none
(JavaScript off, every date was in UTC) or to see another."""

import pytest

from accounts.models import Profile
from accounts.time_zones import SESSION_TIME_ZONE

pytestmark = pytest.mark.django_db


def test_my_progress_says_the_zone_and_links_to_choose_it(learner_client):
    html = learner_client.get("/progress/").content.decode()

    assert "Dates are shown in the time zone UTC." in html
    assert '<a href="/time-zone/">Choose your time zone</a>' in html


def test_the_page_offers_every_zone_and_the_browsers(learner_client):
    html = learner_client.get("/time-zone/").content.decode()

    assert '<option value="Asia/Tokyo">Asia/Tokyo</option>' in html
    assert '<option value="America/Mexico_City">America/Mexico City</option>' in html
    assert "My browser&#x27;s (automatic)" in html


def test_a_chosen_zone_is_kept_on_the_profile_and_shown_now(learner_client, learner):
    response = learner_client.post("/time-zone/", {"time_zone": "Asia/Tokyo"})

    assert (response.status_code, response["Location"]) == (302, "/progress/")
    assert Profile.objects.get(user=learner).time_zone == "Asia/Tokyo"
    assert learner_client.session[SESSION_TIME_ZONE] == "Asia/Tokyo"
    page = learner_client.get("/progress/").content.decode()
    assert "Your time zone is saved." in page
    assert "Dates are shown in the time zone Asia/Tokyo." in page


def test_a_zone_chosen_from_the_admin_goes_back_there(client):
    from tests.factories import UserFactory

    client.force_login(UserFactory(username="teach", is_staff=True))
    form = client.get("/time-zone/?next=/admin/teaching/cohort/").content.decode()

    back = client.post(
        "/time-zone/", {"time_zone": "Asia/Tokyo", "next": "/admin/teaching/cohort/"}
    )
    elsewhere = client.post(
        "/time-zone/", {"time_zone": "Asia/Tokyo", "next": "https://evil.example/"}
    )

    assert '<input type="hidden" name="next" value="/admin/teaching/cohort/">' in form
    assert back["Location"] == "/admin/teaching/cohort/"
    assert elsewhere["Location"] == "/progress/"


def test_the_browsers_zone_again_leaves_the_cookie_to_say(learner_client, learner):
    learner_client.post("/time-zone/", {"time_zone": "Asia/Tokyo"})
    learner_client.cookies["tz"] = "Europe/Madrid"

    learner_client.post("/time-zone/", {"time_zone": ""})

    assert Profile.objects.get(user=learner).time_zone == ""
    assert SESSION_TIME_ZONE not in learner_client.session
    page = learner_client.get("/progress/").content.decode()
    assert "Dates are shown in the time zone Europe/Madrid." in page


def test_only_zones_people_live_in_are_offered(learner_client):
    html = learner_client.get("/time-zone/").content.decode()

    assert '<option value="UTC">UTC</option>' in html
    # Legacy aliases, the POSIX "Etc/GMT+5" (which is UTC-5) and the server's own zone.
    for name in ("Etc/GMT+5", "Cuba", "US/Eastern", "localtime", "Factory"):
        assert f'value="{name}"' not in html


def test_a_first_profile_keeps_the_language_the_learner_reads(client, learner):
    Profile.objects.filter(user=learner).delete()  # as an account made in the admin
    client.force_login(learner)

    client.post("/time-zone/", {"time_zone": "Asia/Tokyo"}, headers={"accept-language": "es"})

    profile = Profile.objects.get(user=learner)
    assert (profile.time_zone, profile.language) == ("Asia/Tokyo", "es")


@pytest.mark.parametrize("zone", ["Mars/Olympus", "x" * 500, "../etc/passwd", "Etc/GMT+5", "Cuba"])
def test_a_zone_no_one_has_is_refused_and_nothing_changes(learner_client, learner, zone):
    response = learner_client.post("/time-zone/", {"time_zone": zone})

    assert response.status_code == 400
    assert "Select a valid choice" in response.content.decode()
    assert not Profile.objects.filter(user=learner).exclude(time_zone="").exists()


def test_the_page_speaks_spanish(learner_client):
    learner_client.post("/language/", {"language": "es", "next": "/"})

    html = learner_client.get("/time-zone/").content.decode()

    assert "<h1>Zona horaria</h1>" in html
    assert "Guardar" in html


def test_a_visitor_is_sent_to_log_in(client):
    response = client.get("/time-zone/")

    assert response.status_code == 302
    assert response["Location"].startswith("/login/")
