"""Django's method-restricting view decorators, each leaving the methods it allows on
the view (`view.allowed_methods`), so other code can ask a resolved view whether it
answers GET without reading the decorator's closure (accounts.views._answers_get); and
`typed_back`, what a form that was not recorded carried, for the message saying so."""

import json

from django.utils.translation import gettext as _
from django.views.decorators import http

from .invisible import visible

TYPED_BACK_MAX = 500  # an override's reason is at most this long


def require_http_methods(methods):
    def decorator(view):
        restricted = http.require_http_methods(methods)(view)
        restricted.allowed_methods = frozenset(methods)
        return restricted

    return decorator


# A page that answers GET answers HEAD too, as Django's require_safe: a monitor's HEAD
# /healthz or a link checker's HEAD of a page got a 405.
require_GET = require_http_methods(["GET", "HEAD"])
require_POST = require_http_methods(["POST"])


def posts_only(view):
    """Mark a view that answers POST only but checks its method itself (after its scope
    checks, so another cohort's address is a 404 whatever the method): the admin's
    override and confirm views. Asked, it says it answers no GET."""
    view.allowed_methods = frozenset(["POST"])
    return view


def typed_back(text: str, *, json_bytes: int | None = None) -> str:
    """What was typed in a form that was not recorded (an override's reason), to add to
    the message that says so: " What you wrote: “…”", or "" for nothing typed. With
    `json_bytes`, the text is cut (and ends with "…") to at most that many bytes as the
    JSON Django's message cookie writes it (a character past ASCII is a 6-byte escape,
    12 past the BMP)."""
    typed = " ".join(visible(text).split())[:TYPED_BACK_MAX]
    if json_bytes is not None and _json_length(typed) > json_bytes:
        size = _json_length("…")
        for end, char in enumerate(typed):
            size += _json_length(char)
            if size > json_bytes:
                typed = typed[:end] + "…"
                break
    return " " + _("What you wrote: “%(text)s”") % {"text": typed} if typed else ""


def _json_length(text: str) -> int:
    return len(json.dumps(text)) - 2  # without its quotes
