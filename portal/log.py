"""Logs without the secret part of setup and invite links.

The links carry a one-time secret in their path. gunicorn's access log
(`portal/gunicorn_conf.py`) and Django's own request warnings ("Gone: /invite/…/")
both print paths, so both pass through `redact`.
"""

import logging
import re

SECRET_PATH = re.compile(r"/(setup|invite)/[^/\s?#\"]+")


def redact(value):
    return SECRET_PATH.sub(r"/\1/[redacted]", value) if isinstance(value, str) else value


class RedactSecretPaths(logging.Filter):
    def filter(self, record):
        message = record.getMessage()
        redacted = redact(message)
        if redacted != message:
            record.msg, record.args = redacted, ()
        return True
