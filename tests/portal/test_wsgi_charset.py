"""A Content-Type naming a codec that is no text encoding never reaches Django: it
failed while Django built the request, before any middleware (red team 7)."""

import io

import pytest

from portal.wsgi import application


def _call(method: str, content_type: str):
    environ = {
        "REQUEST_METHOD": method,
        "PATH_INFO": "/login/",
        "QUERY_STRING": "next=/",
        "SERVER_NAME": "testserver",
        "SERVER_PORT": "80",
        "SERVER_PROTOCOL": "HTTP/1.1",
        "HTTP_HOST": "testserver",
        "CONTENT_TYPE": content_type,
        "CONTENT_LENGTH": "1",
        "wsgi.input": io.BytesIO(b"x"),
        "wsgi.url_scheme": "http",
        "wsgi.errors": io.StringIO(),
    }
    seen = {}

    def start_response(status, headers):
        seen["status"] = status

    body = b"".join(application(environ, start_response))
    return seen["status"], body


@pytest.mark.parametrize("charset", ["rot13", "undefined", "zlib", "base64"])
@pytest.mark.parametrize("method", ["GET", "POST"])
def test_a_codec_that_is_no_text_encoding_is_a_400(method, charset):
    status, body = _call(method, f"text/plain; charset={charset}")

    assert status.startswith("400")
    assert b"no text encoding" in body


@pytest.mark.parametrize(
    "content_type",
    ["text/plain; CHARSET=rot13", "text/plain; Charset=zlib", "text/plain; charset*=bogus''rot13"],
)
@pytest.mark.parametrize("method", ["GET", "POST"])
def test_a_parameter_named_in_any_case_or_encoding_is_checked(method, content_type):
    status, _body = _call(method, content_type)

    assert status.startswith("400")


@pytest.mark.parametrize(
    "content_type",
    ["text/plain; x*=bogus''y", "multipart/form-data; boundary*=bogus''b"],
)
@pytest.mark.parametrize("method", ["GET", "POST"])
def test_a_parameter_in_an_unknown_rfc2231_encoding_is_a_400(method, content_type):
    """Django's parser raised ValueError on it while building the request (red team 10)."""
    status, body = _call(method, content_type)

    assert status.startswith("400")
    assert b"cannot be read" in body


@pytest.mark.django_db
def test_a_text_encoding_goes_on_to_django():
    status, _body = _call("GET", "text/plain; charset=latin-1")

    assert not status.startswith("400") and not status.startswith("5")
