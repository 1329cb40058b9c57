"""Production settings, security headers, proxies, logs and caching headers (the error
pages are in test_error_pages.py)."""

import os
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
pytestmark = pytest.mark.django_db


def import_production(**env) -> subprocess.CompletedProcess:
    clean = {k: v for k, v in os.environ.items() if not k.startswith("DJANGO_")}
    return subprocess.run(
        [
            sys.executable,
            "-c",
            "import django, os; os.environ['DJANGO_SETTINGS_MODULE']="
            "'portal.settings.production'; django.setup(); print('started')",
        ],
        cwd=ROOT,
        env=clean | env,
        capture_output=True,
        text=True,
        timeout=60,
    )


def test_production_settings_refuse_to_start_without_a_secret():
    result = import_production(DJANGO_ALLOWED_HOSTS="portal.example.org")

    assert result.returncode != 0
    assert "DJANGO_SECRET_KEY must be set for production settings." in result.stderr


def test_production_settings_start_with_the_required_variables():
    result = import_production(
        DJANGO_SECRET_KEY="x" * 60, DJANGO_ALLOWED_HOSTS="portal.example.org"
    )

    assert result.stdout.strip() == "started", result.stderr


def test_pages_send_a_strict_content_security_policy(client):
    response = client.get("/login/")

    policy = response["Content-Security-Policy"]
    assert "script-src 'self'" in policy
    assert "style-src 'self'" in policy
    assert "frame-ancestors 'none'" in policy
    assert "unsafe-inline" not in policy
    assert response["X-Frame-Options"] == "DENY"
    assert response["Referrer-Policy"] == "same-origin"
    assert "<script>" not in response.content.decode()
    assert "style=" not in response.content.decode()


def test_healthz_checks_the_database_without_login(client):
    response = client.get("/healthz")

    assert response.status_code == 200
    assert response.json() == {"status": "ok"}


def test_sqlite_is_configured_for_concurrent_writers(settings):
    database = settings.DATABASES["default"]
    if database["ENGINE"] != "django.db.backends.sqlite3":
        pytest.skip("SQLite settings only")

    assert database["OPTIONS"]["transaction_mode"] == "IMMEDIATE"
    assert database["OPTIONS"]["timeout"] >= 5
    assert "journal_mode=WAL" in database["OPTIONS"]["init_command"]


@pytest.mark.parametrize("module", ["portal.settings.base", "portal.settings.production"])
def test_server_errors_are_logged_once(module):
    clean = {k: v for k, v in os.environ.items() if not k.startswith("DJANGO_")}
    result = subprocess.run(
        [
            sys.executable,
            "-c",
            "import django, logging; django.setup(); "
            "logging.getLogger('django.request').error('Internal Server Error: /probe/')",
        ],
        cwd=ROOT,
        env=clean
        | {
            "DJANGO_SETTINGS_MODULE": module,
            "DJANGO_SECRET_KEY": "x" * 60,
            "DJANGO_ALLOWED_HOSTS": "portal.example.org",
        },
        capture_output=True,
        text=True,
        timeout=60,
    )

    assert result.stderr.count("Internal Server Error: /probe/") == 1, result.stderr


@pytest.mark.parametrize("path", ["/", "/progress/", "/healthz"])
def test_dynamic_responses_are_never_stored(learner_client, path):
    response = learner_client.get(path)

    assert response["Cache-Control"] == "private, no-store"


def test_login_page_is_never_stored(client):
    # The login view sets its own header (Django's never_cache), which already says it.
    assert client.get("/login/")["Cache-Control"] == (
        "max-age=0, no-cache, no-store, must-revalidate, private"
    )


def test_static_files_keep_their_own_cache(client):
    response = client.get("/static/css/portal.css")

    assert response.status_code == 200
    assert "no-store" not in response.get("Cache-Control", "")


@pytest.mark.parametrize(
    ("peer", "forwarded", "recorded"),
    [
        ("10.0.0.5", "203.0.113.9, 10.0.0.7", "203.0.113.9"),
        ("10.0.0.5", "198.51.100.1, 203.0.113.9", "203.0.113.9"),
        ("192.0.2.50", "203.0.113.9", "192.0.2.50"),
        ("10.0.0.5", "not-an-address", "10.0.0.5"),
    ],
)
def test_audit_records_the_client_behind_a_trusted_proxy(
    client, settings, peer, forwarded, recorded
):
    from audit.enums import AuditKind
    from audit.models import AuditEvent
    from tests.factories import UserFactory

    settings.TRUSTED_PROXIES = ["10.0.0.0/8"]
    UserFactory(username="ana")

    client.post(
        "/login/",
        {"username": "ana", "password": "wrong"},
        REMOTE_ADDR=peer,
        HTTP_X_FORWARDED_FOR=forwarded,
    )

    assert AuditEvent.objects.get(kind=AuditKind.LOGIN_FAILED).ip_address == recorded


@pytest.mark.parametrize(
    ("peer", "forwarded", "recorded"),
    [
        ("127.0.0.1", "203.0.113.9", "203.0.113.9"),  # nginx's $proxy_add_x_forwarded_for
        ("127.0.0.1", "198.51.100.1, 203.0.113.9", "203.0.113.9"),  # the left is the client's
        ("::1", "203.0.113.9, 127.0.0.1", "203.0.113.9"),  # two proxies on this machine
        ("10.0.0.5", "203.0.113.9", "10.0.0.5"),  # not this machine: anyone could send it
    ],
)
def test_audit_records_the_client_behind_a_proxy_on_this_machine(
    client, settings, peer, forwarded, recorded
):
    """With no DJANGO_TRUSTED_PROXIES, a proxy on this machine (`make serve`'s gunicorn
    on 127.0.0.1) is believed, as its X-Forwarded-Proto is: every client was recorded
    as 127.0.0.1 (red team 26)."""
    from audit.enums import AuditKind
    from audit.models import AuditEvent
    from tests.factories import UserFactory

    settings.TRUSTED_PROXIES = []
    UserFactory(username="ana")

    client.post(
        "/login/",
        {"username": "ana", "password": "wrong"},
        REMOTE_ADDR=peer,
        HTTP_X_FORWARDED_FOR=forwarded,
    )

    assert AuditEvent.objects.get(kind=AuditKind.LOGIN_FAILED).ip_address == recorded


def test_forwarded_for_is_ignored_without_trusted_proxies(client):
    from audit.enums import AuditKind
    from audit.models import AuditEvent
    from tests.factories import UserFactory

    UserFactory(username="ana")

    client.post(
        "/login/",
        {"username": "ana", "password": "wrong"},
        REMOTE_ADDR="10.0.0.5",
        HTTP_X_FORWARDED_FOR="203.0.113.9",
    )

    assert AuditEvent.objects.get(kind=AuditKind.LOGIN_FAILED).ip_address == "10.0.0.5"


@pytest.mark.parametrize(
    ("trusted", "peer", "believed"),
    [
        ([], "127.0.0.1", True),  # make serve: gunicorn behind a proxy on this machine
        ([], "203.0.113.9", False),  # a client reaching gunicorn directly
        (["10.0.0.0/8"], "10.0.0.5", True),
        (["10.0.0.0/8"], "127.0.0.1", False),
        (["10.0.0.0/8"], "203.0.113.9", False),
    ],
)
def test_forwarded_proto_is_believed_only_from_a_proxy(client, settings, trusted, peer, believed):
    settings.TRUSTED_PROXIES = trusted
    settings.SECURE_PROXY_SSL_HEADER = ("HTTP_X_FORWARDED_PROTO", "https")
    settings.SECURE_SSL_REDIRECT = True

    response = client.get("/login/", REMOTE_ADDR=peer, HTTP_X_FORWARDED_PROTO="https")

    assert response.status_code == (200 if believed else 301)


def test_gunicorn_access_log_hides_setup_and_invite_tokens():
    from datetime import timedelta
    from types import SimpleNamespace

    from gunicorn.config import Config

    from portal.gunicorn_conf import RedactingLogger

    logger = RedactingLogger(Config())
    secret = "fIEPKlVsDyqxjxNXjm7WhD-MlVQLutucKQ14U2USMos"
    environ = {
        "REQUEST_METHOD": "POST",
        "RAW_URI": f"/invite/{secret}/",
        "PATH_INFO": f"/invite/{secret}/",
        "SERVER_PROTOCOL": "HTTP/1.1",
        "HTTP_REFERER": f"https://quiz.example.org/setup/{secret}/",
    }
    request = SimpleNamespace(headers=[("REFERER", environ["HTTP_REFERER"])])
    response = SimpleNamespace(status="302 Found", headers=[], sent=0)

    atoms = logger.atoms(response, request, environ, timedelta(milliseconds=3))
    line = logger.cfg.access_log_format % logger.atoms_wrapper_class(atoms)

    assert secret not in line
    assert '"POST /invite/[redacted]/ HTTP/1.1"' in line
    assert '"https://quiz.example.org/setup/[redacted]/"' in line


def test_gunicorn_started_from_the_project_uses_our_settings():
    gunicorn = Path(sys.executable).parent / "gunicorn"

    result = subprocess.run(
        [str(gunicorn), "--print-config"], cwd=ROOT, capture_output=True, text=True, timeout=60
    )

    settings = dict(
        (name.strip(), value.strip())
        for name, _eq, value in (line.partition("=") for line in result.stdout.splitlines())
    )
    assert settings["worker_class"] == "gthread"
    assert settings["logger_class"] == "<RedactingLogger()>"
    assert settings["wsgi_app"] == "portal.wsgi"
    # Two instances on one machine (the soak, serve_bench) would share one socket.
    assert settings["control_socket_disable"] == "True"


def test_sqlite_is_djangos_own_backend(settings):
    """No subclass overriding the backend's private methods (issue 25): writers queue
    through Django's transaction_mode and timeout options alone."""
    database = settings.DATABASES["default"]
    if "sqlite" not in database["ENGINE"]:
        pytest.skip("SQLite settings only")

    assert database["ENGINE"] == "django.db.backends.sqlite3"


def test_django_request_warnings_hide_setup_and_invite_tokens():
    clean = {k: v for k, v in os.environ.items() if not k.startswith("DJANGO_")}
    result = subprocess.run(
        [
            sys.executable,
            "-c",
            "import django, logging; django.setup(); "
            "logging.getLogger('django.request')"
            ".warning('%s: %s', 'Gone', '/invite/s3cr3t-T0ken/')",
        ],
        cwd=ROOT,
        env=clean
        | {
            "DJANGO_SETTINGS_MODULE": "portal.settings.production",
            "DJANGO_SECRET_KEY": "x" * 60,
            "DJANGO_ALLOWED_HOSTS": "portal.example.org",
        },
        capture_output=True,
        text=True,
        timeout=60,
    )

    assert result.stderr.strip() == "Gone: /invite/[redacted]/"


@pytest.mark.parametrize(
    "path",
    [
        "/%69nvite/{secret}/",
        "/invite/%66IEPKlVsDyqxjxNXjm7WhD-MlVQLutucKQ14U2USMos/",
        "/%73etup/{secret}/?next=/",
    ],
)
def test_gunicorn_access_log_hides_tokens_behind_percent_encoding(path):
    from datetime import timedelta
    from types import SimpleNamespace

    from gunicorn.config import Config

    from portal.gunicorn_conf import RedactingLogger

    logger = RedactingLogger(Config())
    secret = "fIEPKlVsDyqxjxNXjm7WhD-MlVQLutucKQ14U2USMos"
    raw = path.format(secret=secret)
    environ = {
        "REQUEST_METHOD": "GET",
        "RAW_URI": raw,
        "PATH_INFO": raw.split("?")[0],
        "SERVER_PROTOCOL": "HTTP/1.1",
    }
    request = SimpleNamespace(headers=[])
    response = SimpleNamespace(status="200 OK", headers=[], sent=0)

    atoms = logger.atoms(response, request, environ, timedelta(milliseconds=3))
    line = logger.cfg.access_log_format % logger.atoms_wrapper_class(atoms)

    assert secret[4:] not in line
    assert "/[redacted]/" in line


def test_healthz_answers_plain_http_where_every_other_page_goes_to_https(tmp_path):
    """Production settings, in their own process: a plain-HTTP health check is answered,
    any other page is sent to https://."""
    clean = {k: v for k, v in os.environ.items() if not k.startswith("DJANGO_")}
    script = (
        "import django, os; os.environ['DJANGO_SETTINGS_MODULE']='portal.settings.production';"
        "django.setup();"
        "from django.test import Client; from django.test.utils import setup_test_environment;"
        "setup_test_environment(); c = Client();"
        "print(c.get('/healthz', HTTP_HOST='portal.example.org').status_code,"
        " c.get('/login/', HTTP_HOST='portal.example.org').status_code)"
    )
    result = subprocess.run(
        [sys.executable, "-c", script],
        cwd=ROOT,
        env=clean
        | {
            "DJANGO_SECRET_KEY": "x" * 60,
            "DJANGO_ALLOWED_HOSTS": "portal.example.org",
            "DATABASE_URL": f"sqlite:///{tmp_path / 'healthz.sqlite3'}",
        },
        capture_output=True,
        text=True,
        timeout=60,
    )

    assert result.stdout.split()[-2:] == ["200", "301"], result.stderr


def _gunicorn_environ(raw: bytes) -> dict:
    """The WSGI environ gunicorn, with the project's settings, builds for request `raw`
    sent by a proxy on this machine (an address gunicorn trusts by default)."""
    from gunicorn.config import Config
    from gunicorn.http import wsgi
    from gunicorn.http.parser import RequestParser

    from portal import gunicorn_conf

    config = Config()
    for name in dir(gunicorn_conf):
        if name in config.settings:
            config.set(name, getattr(gunicorn_conf, name))
    peer = ("127.0.0.1", 40000)
    request = next(iter(RequestParser(config, iter([raw]), peer)))
    return wsgi.create(request, None, peer, ("127.0.0.1", 8000), config)[1]


def test_a_requests_script_name_header_is_not_the_script_prefix():
    """The script prefix is in the key of every kept piece and fragment (docs/redis.md):
    gunicorn took it from a `SCRIPT_NAME` header a proxy on this machine passed on, so
    one client naming a new prefix in each request filled the shared cache with copies
    of every page's pieces (red-team run 15: 200 requests, 4,200 entries, 4.5 MB of
    Redis), evicting the others' and the counts kept beside them. A site served under a
    path sets it where the client cannot: gunicorn's own `SCRIPT_NAME` environment
    variable, or Django's `FORCE_SCRIPT_NAME`."""
    environ = _gunicorn_environ(
        b"GET /x1/phase/10/ HTTP/1.1\r\nHost: 127.0.0.1\r\n"
        b"SCRIPT_NAME: /x1\r\nPATH_INFO: /admin/\r\n\r\n"
    )

    assert environ["SCRIPT_NAME"] == ""
    assert environ["PATH_INFO"] == "/x1/phase/10/"
