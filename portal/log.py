"""Logs without the secret part of setup and invite links.

The links carry a one-time secret in their path. gunicorn's access log
(`portal/gunicorn_conf.py`) and Django's own request warnings ("Gone: /invite/…/")
both print paths, so both pass through `redact`. It reads a value percent-decoded, as
Django routes it: `/%69nvite/TOKEN/` reaches the invite page too.
"""

import logging
import re
from urllib.parse import unquote

SECRET_PATH = re.compile(r"/(setup|invite)/[^/\s?#\"]+")


def redact(value):
    if not isinstance(value, str):
        return value
    decoded = unquote(value)
    if SECRET_PATH.search(decoded) is None:
        return value
    # Logged decoded: redacting the encoded form could leave an encoded secret whole.
    return SECRET_PATH.sub(r"/\1/[redacted]", decoded)


class RedactSecretPaths(logging.Filter):
    def filter(self, record):
        message = record.getMessage()
        redacted = redact(message)
        if redacted != message:
            record.msg, record.args = redacted, ()
        return True
