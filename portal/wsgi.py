"""WSGI entry point; gunicorn and runserver load `application` from here.

`application` is Django's, behind one check Django cannot make itself: a Content-Type
naming a codec that is no text encoding (`charset=rot13`, `undefined`) is answered 400
here. Django takes the name as the request's encoding while it builds the request, and
reading the query string with it raised a LookupError there, before any middleware: a
bare 500 on any address, logged out (the red team's round 7). A parameter Django cannot
read at all (an RFC 2231 value in an unknown encoding, `x*=bogus''y`) is answered 400 here
too: Django's parser raised ValueError while building the request (round 10, which also
found `CHARSET=` in capitals passing the check).
"""

import os

from django.core.wsgi import get_wsgi_application
from django.utils.http import parse_header_parameters

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "portal.settings.production")

django_application = get_wsgi_application()

REFUSED = b"The request names a character set that is no text encoding.\n"
UNREADABLE = b"The request's Content-Type cannot be read.\n"


def text_encoding(charset: str) -> bool:
    """Whether `charset` names a text encoding ("rot13", "zlib" are codecs, not that)."""
    try:
        "".encode(charset)
        b"".decode(charset)
    except (LookupError, ValueError):
        return False
    return True


def application(environ, start_response):
    content_type = environ.get("CONTENT_TYPE", "")
    if ";" in content_type:  # parsed only then: most requests (every GET) have no parameters
        try:
            charset = parse_header_parameters(content_type)[1].get("charset")  # names lowered
        except ValueError:
            return _refuse(start_response, UNREADABLE)
        if charset is not None and not text_encoding(charset):
            return _refuse(start_response, REFUSED)
    return django_application(environ, start_response)


def _refuse(start_response, message: bytes):
    start_response(
        "400 Bad Request",
        [("Content-Type", "text/plain; charset=utf-8"), ("Content-Length", str(len(message)))],
    )
    return [message]
