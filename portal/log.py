"""Logs without the secret part of setup, invite and new-password links.

The links carry a one-time secret in their path. gunicorn's access log
(`portal/gunicorn_conf.py`) and Django's own request warnings ("Gone: /invite/…/")
both print paths, so both pass through `redact`. It reads a value percent-decoded, as
Django routes it: `/%69nvite/TOKEN/` reaches the invite page too; and it takes out any
word as long as a secret, whatever path it stands in (`/INVITE/TOKEN/` is a 404 whose
token still works at `/invite/TOKEN/`).
"""

import logging
import re
from urllib.parse import unquote

# A link's secret, whole or broken (an e-mail's line break or a space inside it, sent
# as %0A or %20): everything after /setup/, /invite/ or /password/new/ up to the query,
# the fragment, a quote or the request line's " HTTP/", a last "/" kept. Not the admin's
# own pages of the invites (/admin/accounts/invite/add/, …/12/change/), which hold no
# secret.
SECRET_PATH = re.compile(
    r"(?<!/admin/accounts)/(setup|invite|password/new)/(?:(?!\sHTTP/)[^?#\"'])+?(?=/?(?:[?#\"']|\sHTTP/|$))",
    re.IGNORECASE,
)
# A one-time secret wherever it stands, for a path that only looks like a link
# ("/INVITE/…/", "/invite;x/…/" are warned about as 404s, their token still live): a
# word of exactly the secret's length (`secrets.token_urlsafe(32)`: 43 characters).
SECRET_WORD = re.compile(r"(?<![A-Za-z0-9_-])[A-Za-z0-9_-]{43}(?![A-Za-z0-9_-])")


ENDS_ENCODED = re.compile(r"%(3[fF]|23|22|27)")


def _printable(text: str) -> str:
    """Control characters written as escapes (a decoded "%0A" would start a forged log
    line), as Django and gunicorn write them in the paths they log."""
    if text.isprintable():
        return text
    return "".join(c if c.isprintable() else c.encode("unicode_escape").decode() for c in text)


def redact(value):
    if not isinstance(value, str):
        return value
    # Decoded as Django routes it, but for the characters that end a secret's match: an
    # encoded "?" inside a path is part of the path, and must not cut the secret short.
    decoded = unquote(ENDS_ENCODED.sub(r"%25\1", value))
    if SECRET_PATH.search(decoded) is None and SECRET_WORD.search(decoded) is None:
        return value
    # Logged decoded: redacting the encoded form could leave an encoded secret whole.
    redacted = SECRET_WORD.sub("[redacted]", SECRET_PATH.sub(r"/\1/[redacted]", decoded))
    return _printable(redacted)


class RedactSecretPaths(logging.Filter):
    def filter(self, record):
        message = record.getMessage()
        redacted = redact(message)
        if redacted != message:
            record.msg, record.args = redacted, ()
        return True


class NoTracebackForClientErrors(logging.Filter):
    """A 4xx is the client's error, not the code's: Django logs a refused permission
    (403) with the exception's traceback, thirty lines a refusal that hide the 500s a
    reader looks for. The one line stays; a 5xx keeps its traceback."""

    def filter(self, record):
        status = getattr(record, "status_code", None)
        if status is not None and status < 500:
            record.exc_info, record.exc_text = None, None
        return True
