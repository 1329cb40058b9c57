"""What `make run` serves with: the base settings, DEBUG off unless asked for, static
files by whitenoise; and the links commands print name the address it serves."""

import json
import os
import subprocess
import sys
from io import StringIO
from pathlib import Path

import pytest
from django.core.management import call_command

from portal.settings.base import portal_base_url, served_base_url

ROOT = Path(__file__).resolve().parents[2]

SHOW = (
    "import json, os; os.environ['DJANGO_SETTINGS_MODULE']='portal.settings.base';"
    "from django.conf import settings as s;"
    "print(json.dumps([s.DEBUG, s.STORAGES['staticfiles']['BACKEND'],"
    " s.WHITENOISE_USE_FINDERS, s.WHITENOISE_AUTOREFRESH,"
    " 'whitenoise.middleware.WhiteNoiseMiddleware' in s.MIDDLEWARE]))"
)


def base_settings(**env) -> list:
    clean = {
        k: v for k, v in os.environ.items() if not k.startswith(("DJANGO_", "PORTAL_BASE_URL"))
    }
    result = subprocess.run(
        [sys.executable, "-c", SHOW],
        cwd=ROOT,
        env=clean | env,
        capture_output=True,
        text=True,
        timeout=60,
        check=True,
    )
    return json.loads(result.stdout)


def test_make_run_settings_have_debug_off_and_whitenoise_serving_static_files():
    assert base_settings() == [
        False,
        "django.contrib.staticfiles.storage.StaticFilesStorage",
        True,
        False,
        True,
    ]


def test_make_debug_settings_turn_debug_on():
    debug, _storage, _finders, autorefresh, _middleware = base_settings(DJANGO_DEBUG="true")

    assert (debug, autorefresh) == (True, True)


@pytest.mark.django_db
def test_a_404_under_debug_off_is_the_portals_page(client, settings):
    settings.DEBUG = False

    response = client.get("/no-such-page/")

    assert response.status_code == 404
    assert "Using the URLconf" not in response.content.decode()
    assert "<html" in response.content.decode()


@pytest.mark.django_db
def test_prepare_keeps_the_served_address_for_later_commands(settings, tmp_path, monkeypatch):
    settings.SERVED_URL_FILE = tmp_path / ".served_url"
    monkeypatch.setenv("PORTAL_BASE_URL", "http://127.0.0.1:8311/")

    call_command("prepare", stdout=StringIO())

    assert served_base_url(settings.SERVED_URL_FILE) == "http://127.0.0.1:8311"


def test_served_base_url_is_empty_without_the_file(tmp_path):
    assert served_base_url(tmp_path / "missing") == ""


def test_the_links_base_is_the_environments_else_the_served_one(tmp_path):
    served = tmp_path / ".served_url"
    served.write_text("http://127.0.0.1:8311\n")

    assert portal_base_url({"PORTAL_BASE_URL": "https://quiz.example.org/"}, served) == (
        "https://quiz.example.org"
    )
    assert portal_base_url({}, served) == "http://127.0.0.1:8311"
    assert portal_base_url({}, tmp_path / "missing") == "http://127.0.0.1:8000"


@pytest.mark.django_db
def test_invite_after_make_run_on_another_port_names_that_port(settings, tmp_path, monkeypatch):
    """`make run PORT=8311` (prepare keeps the address), then, in another terminal
    without PORTAL_BASE_URL, `manage.py invite`: its link names 8311."""
    settings.SERVED_URL_FILE = tmp_path / ".served_url"
    monkeypatch.setenv("PORTAL_BASE_URL", "http://127.0.0.1:8311")
    call_command("prepare", stdout=StringIO())
    monkeypatch.delenv("PORTAL_BASE_URL")
    settings.PORTAL_BASE_URL = portal_base_url(os.environ, settings.SERVED_URL_FILE)
    out = StringIO()

    call_command("invite", stdout=out)

    assert out.getvalue().startswith("http://127.0.0.1:8311/invite/")


@pytest.mark.django_db
def test_prepare_by_hand_drops_the_address_an_earlier_make_run_kept(
    settings, tmp_path, monkeypatch
):
    """`prepare` run by hand, then runserver on a port of one's own: the setup link it
    prints must not name the port `make run` served last week."""
    settings.SERVED_URL_FILE = tmp_path / ".served_url"
    settings.SERVED_URL_FILE.write_text("http://127.0.0.1:8123\n")
    settings.PORTAL_BASE_URL = "http://127.0.0.1:8123"
    monkeypatch.delenv("PORTAL_BASE_URL", raising=False)
    out = StringIO()

    call_command("prepare", stdout=out)

    assert not settings.SERVED_URL_FILE.exists()
    assert "http://127.0.0.1:8000/setup/" in out.getvalue()
    assert "8123" not in out.getvalue()
