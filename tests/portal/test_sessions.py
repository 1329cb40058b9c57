"""Sessions are Django's own stores: the database alone on the embedded default,
`cached_db` in the shared Redis cache when REDIS_URL is set. Either way a logout ends
the session for every worker."""

import os
import random

import pytest
from django.conf import settings
from django.contrib.messages import WARNING
from django.contrib.messages.storage.cookie import CookieStorage
from django.contrib.sessions.models import Session
from django.core.cache import caches
from django.http import HttpResponse
from django.test import Client, RequestFactory, override_settings

from portal.sessions import ENDED, SessionStore
from portal.settings.base import cache_settings
from tests.factories import UserFactory

pytestmark = pytest.mark.django_db


def session_cache():
    """The cache sessions are kept in: an alias of its own, whose version is not the
    default cache's (DJANGO_CACHE_VERSION)."""
    return caches[settings.SESSION_CACHE_ALIAS]


CACHED_DB = "portal.sessions"  # Django's cached_db, ended sessions kept ended


def test_the_embedded_default_is_a_bounded_local_cache_and_database_sessions():
    caches, engine = cache_settings({})

    assert caches["default"]["BACKEND"] == "django.core.cache.backends.locmem.LocMemCache"
    assert caches["default"]["OPTIONS"] == {"MAX_ENTRIES": 10_000}
    assert engine == "django.contrib.sessions.backends.db"


def test_the_tests_cache_is_what_the_environment_selects():
    """On Redis in CI's PostgreSQL run; sessions stay database ones for the query
    counts (portal/settings/test.py)."""
    assert cache_settings(os.environ)[0] == settings.CACHES
    assert settings.SESSION_ENGINE == "django.contrib.sessions.backends.db"


def test_redis_url_selects_the_shared_redis_cache_and_cached_db_sessions():
    caches, engine = cache_settings(
        {"REDIS_URL": "unix:///tmp/redis.sock?db=1", "DJANGO_CACHE_VERSION": "7"}
    )

    redis = {
        "BACKEND": "django.core.cache.backends.redis.RedisCache",
        "LOCATION": "unix:///tmp/redis.sock?db=1",
        "TIMEOUT": 30 * 24 * 3600,
        "KEY_PREFIX": "portal",
    }
    assert caches == {"default": redis | {"VERSION": 7}, "sessions": redis | {"VERSION": 1}}
    assert engine == CACHED_DB
    assert settings.SESSION_CACHE_ALIAS == "sessions"


def _two_workers(user) -> tuple[Client, Client]:
    """Two clients on one session, as two app servers see one browser."""
    first = Client()
    first.force_login(user)
    second = Client()
    second.cookies = first.cookies
    return first, second


@pytest.mark.parametrize("engine", ["django.contrib.sessions.backends.db", CACHED_DB])
def test_logout_ends_the_session_for_every_worker(engine):
    """With cached_db the session is read from the cache that the workers share
    (Redis; here the test process's cache stands for it): logout deletes it there and
    in the table, so a request elsewhere with the old cookie is logged out."""
    with override_settings(SESSION_ENGINE=engine):
        first, second = _two_workers(UserFactory(username="ana"))
        key = first.cookies[settings.SESSION_COOKIE_NAME].value
        assert second.get("/").status_code == 200  # logged in: read (and cached) there too
        if engine == CACHED_DB:
            assert session_cache().get(SessionStore(key).cache_key) is not None

        first.post("/logout/")

        assert not Session.objects.filter(session_key=key).exists()
        expected = ENDED if engine == CACHED_DB else None
        assert session_cache().get(SessionStore(key).cache_key) == expected
        response = second.get("/")
        assert response.status_code == 302 and response["Location"].startswith("/login/")


def test_cached_db_reads_a_live_session_from_the_cache_without_the_table():
    with override_settings(SESSION_ENGINE=CACHED_DB):
        first, second = _two_workers(UserFactory(username="ana"))
        first.get("/")
        Session.objects.all().delete()  # the cache alone now holds it

        assert second.get("/").status_code == 200


@pytest.mark.parametrize("url", ["/login/", "/", "/phase/10/"])
def test_a_session_cookie_django_could_not_have_made_is_ignored(client, seeds_imported, url):
    # A quoted cookie's octal escape decodes to a NUL, which PostgreSQL refuses in the
    # session lookup: every page was a 500 there (SQLite looked it up and found none).
    cookie = f'{settings.SESSION_COOKIE_NAME}="abcdefgh\\000ijklmnopqrstuvwxyz012345"'

    response = client.get(url, HTTP_COOKIE=cookie)

    assert response.status_code in (200, 302)


def _server_caches(version: str) -> dict:
    """An app server's caches with REDIS_URL and DJANGO_CACHE_VERSION=`version`, the
    shared Redis stood for by one local cache every alias of every version shares."""
    caches, _engine = cache_settings(
        {"REDIS_URL": "unix:///unused", "DJANGO_CACHE_VERSION": version}
    )
    shared = {"BACKEND": "django.core.cache.backends.locmem.LocMemCache", "LOCATION": "redis"}
    return {alias: conf | shared for alias, conf in caches.items()}


def test_a_logout_on_a_server_of_a_newer_cache_version_ends_the_session_everywhere():
    """A deploy that raises DJANGO_CACHE_VERSION reaches one app server before the
    other: a logout on the new one must end the session on the old one too."""
    old, new = _server_caches("1"), _server_caches("2")
    with override_settings(SESSION_ENGINE=CACHED_DB, CACHES=old):
        first = Client()
        first.force_login(UserFactory(username="ana"))
        second = Client()  # the cookie copied: the logout's deletion must not reach it
        second.cookies[settings.SESSION_COOKIE_NAME] = first.cookies[
            settings.SESSION_COOKIE_NAME
        ].value
        assert second.get("/").status_code == 200  # read, and cached, by the old server

    with override_settings(SESSION_ENGINE=CACHED_DB, CACHES=new):
        first.post("/logout/")
    with override_settings(SESSION_ENGINE=CACHED_DB, CACHES=old):
        response = second.get("/")

    assert (response.status_code, response["Location"]) == (302, "/login/?next=/")


def test_a_session_read_from_the_table_while_a_logout_ends_it_stays_ended():
    """A session the cache missed (evicted, Redis flushed) is read from the table on one
    server while a logout on another deletes the row and the cache entry: the reader's
    cache write must not bring it back, for every server, for the session's age."""
    with override_settings(SESSION_ENGINE=CACHED_DB):
        user = UserFactory(username="ana")
        first = Client()
        first.force_login(user)
        key = first.cookies[settings.SESSION_COOKIE_NAME].value
        session_cache().delete(SessionStore(key).cache_key)  # evicted
        reader = SessionStore(key)
        decode = reader.decode

        def read_then_logged_out_elsewhere(session_data):
            first.post("/logout/")  # between the reader's read and its cache write
            return decode(session_data)

        reader.decode = read_then_logged_out_elsewhere
        reader.load()
        second = Client()
        second.cookies[settings.SESSION_COOKIE_NAME] = key
        response = second.get("/")

    assert (response.status_code, response["Location"]) == (302, "/login/?next=/")
    assert not Session.objects.filter(session_key=key).exists()


@pytest.mark.parametrize("language", ["en", "es"])
@pytest.mark.parametrize("first", [0x4E00, 0x1F300])  # CJK; past the BMP (emoji)
def test_an_admin_form_posted_logged_out_makes_no_session_whatever_its_reason(language, first):
    """An admin form posted without a login (an override sent after the session ended)
    is answered with a message holding the reason typed, for the login page to show.
    Django keeps a visitor's messages in a cookie, and one too large for it (2 kB) in a
    session: a reason of 500 characters no compression shortens made a session row,
    kept 14 days, for each post of anyone with no account, a CSRF cookie enough (red
    team 23: 2.2 kB a row). The reason is cut to what a cookie holds, and a message
    from an earlier post, sent back in its cookie, is not kept beside it."""
    draw = random.Random(23)
    reason = "".join(chr(draw.randint(first, first + 0x3FF)) for _ in range(500))
    client = Client(headers={"Accept-Language": language})
    client.get("/login/")  # a CSRF cookie, as any visitor has one (checks are off here)
    url = "/admin/teaching/cohort/1/to-check/7/override/"

    for _ in range(3):  # each post sends back the messages cookie the last one set
        response = client.post(url, {"verdict": "right", "seen": "0", "reason": reason})
        assert response.status_code == 302
        assert Session.objects.count() == 0

    page = client.get(response["Location"]).content.decode()
    said = {"en": "What you wrote: “", "es": "Lo que escribiste: «"}[language]
    assert page.count(said) == 1  # this post's message only
    assert f"{said}{reason[:50]}" in page


def test_two_admin_forms_posted_logged_out_both_give_their_reason_back():
    """Two tabs' overrides sent after the session ended: the login page shows both
    reasons typed, as long as they fit the visitor's message cookie together."""
    client = Client()
    url = "/admin/teaching/cohort/1/to-check/7/override/"

    client.post(url, {"verdict": "right", "seen": "0", "reason": "first tab's reason"})
    response = client.post(url, {"verdict": "wrong", "seen": "0", "reason": "second tab's"})

    page = client.get(response["Location"]).content.decode()
    assert "What you wrote: “first tab&#x27;s reason”" in page
    assert "What you wrote: “second tab&#x27;s”" in page
    assert Session.objects.count() == 0


def test_a_message_stored_without_tags_is_kept_beside_a_logged_out_forms():
    """Django reads back a cookie's message stored without tags with `extra_tags` None:
    kept beside the new message, not a TypeError (a 500) measuring it."""
    storage = CookieStorage(RequestFactory().get("/"))
    storage.add(WARNING, "An earlier note.", extra_tags=None)
    made = HttpResponse()
    storage.update(made)
    client = Client()
    client.cookies["messages"] = made.cookies["messages"].value

    response = client.post("/admin/teaching/cohort/1/to-check/7/override/", {"reason": "r"})

    assert response.status_code == 302
    page = client.get(response["Location"]).content.decode()
    assert "An earlier note." in page
    assert "What you wrote: “r”" in page
