"""A live one-time secret never reaches a log, whatever path it is sent in."""

import pytest

from portal.log import redact

SECRET = "fIEPKlVsDyqxjxNXjm7WhD-MlVQLutucKQ14U2USMos"


@pytest.mark.parametrize(
    "path",
    [
        "/invite/{s}/",
        "/INVITE/{s}/",
        "/Setup/{s}/",
        "/invite;x/{s}/",
        "/x/{s}",
        "/%69nvite/{s}/",
    ],
)
def test_a_secret_in_any_path_is_redacted(path):
    logged = redact(f"Not Found: {path.format(s=SECRET)}")

    assert SECRET[4:] not in logged
    assert "[redacted]" in logged


def test_ordinary_paths_are_logged_as_they_are():
    line = "Not Found: /phase/10/?again=q-10-03 /static/css/portal.3f2a9c1b7e0d.css"

    assert redact(line) == line


def test_a_decoded_newline_cannot_forge_a_log_line():
    logged = redact(f"Not Found: /{SECRET}%0AINJECTED-LINE/")

    assert "\n" not in logged
    assert "[redacted]\\nINJECTED-LINE" in logged


def test_long_words_that_are_no_secret_are_kept():
    line = "Not Found: /admin/progress/attempt/?question__phase__current_revision__id=3"

    assert redact(line) == line


@pytest.mark.parametrize(
    "path", ["/admin/accounts/invite/add/", "/admin/accounts/invite/12/change/", "/invite/"]
)
def test_the_admins_invite_pages_are_logged_as_they_are(path):
    line = f"Forbidden (Permission denied): {path}"

    assert redact(line) == line


def test_a_cut_secret_is_redacted_too():
    logged = redact(f"Gone: /invite/{SECRET[:20]}")

    assert SECRET[:20] not in logged


@pytest.fixture
def console():
    """What the portal's console handler prints, while the test runs."""
    import io
    import logging

    handler = next(h for h in logging.getLogger().handlers if h.filters)
    stream = io.StringIO()
    previous = handler.setStream(stream)
    yield stream
    handler.setStream(previous)


def test_a_refused_permission_is_one_line_and_a_500_keeps_its_traceback(console):
    from django.core.exceptions import PermissionDenied
    from django.utils.log import log_response

    for status, error in ((403, PermissionDenied()), (500, RuntimeError("boom"))):
        try:
            raise error
        except Exception as raised:
            log_response("Refused: %s", "/x/", response=_Response(status), exception=raised)

    printed = console.getvalue()
    assert printed.count("Traceback") == 1
    assert "Refused: /x/\nRefused: /x/\nTraceback" in printed
    assert "RuntimeError: boom" in printed and "PermissionDenied" not in printed


class _Response:
    def __init__(self, status_code):
        self.status_code, self._has_been_logged = status_code, False


@pytest.mark.parametrize("gap", ["%20", "%0A", "%0D%0A", "%09"])
@pytest.mark.parametrize("link", ["invite", "setup", "password/new"])
def test_a_secret_broken_by_a_space_or_a_line_break_is_redacted(gap, link):
    """An e-mail client that breaks a link sends it so: the two pieces are still the
    live secret, logged side by side (red team round 7)."""
    path = f"/{link}/{SECRET[:15]}{gap}{SECRET[15:]}/"
    lines = [f"Not Found: {path}", f'"GET {path} HTTP/1.1" 404 179 "-" "curl/7.88"']

    for line in lines:
        logged = redact(line)
        assert SECRET[:15] not in logged and SECRET[15:] not in logged
    assert redact(lines[1]).startswith(f'"GET /{link}/[redacted]/ HTTP/1.1" 404')


@pytest.mark.parametrize("encoded", ["%3F", "%3f", "%23", "%27", "%22"])
def test_an_encoded_query_mark_inside_a_secret_does_not_cut_its_redaction(encoded):
    logged = redact(f"Not Found: /invite/{SECRET[:20]}{encoded}{SECRET[20:]}/")

    assert SECRET[:20] not in logged and SECRET[20:] not in logged


@pytest.mark.parametrize("prefix", ["/accounts", "/invite;x"])
def test_only_the_admins_invite_pages_are_left_as_they_are(prefix):
    logged = redact(f"Not Found: {prefix}/invite/{SECRET[:15]}%20{SECRET[15:]}/")

    assert SECRET[:15] not in logged and SECRET[15:] not in logged


def test_gunicorns_error_log_quotes_no_secret():
    """gunicorn quotes a request line it refuses (a tab, a raw non-ASCII byte)."""
    import io
    import logging

    from gunicorn.config import Config

    from portal.gunicorn_conf import RedactingLogger

    logger = RedactingLogger(Config())
    stream = io.StringIO()
    handler = logging.StreamHandler(stream)
    logger.error_log.addHandler(handler)
    try:
        logger.warning(
            "Invalid request from ip=%s: %s",
            "127.0.0.1",
            f"Invalid HTTP request line: 'GET /invite/{SECRET}/\\t HTTP/1.1'",
        )
    finally:
        logger.error_log.removeHandler(handler)

    assert SECRET[4:] not in stream.getvalue()
    assert "Invalid HTTP request line: 'GET /invite/[redacted]" in stream.getvalue()
