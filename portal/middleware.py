"""Middleware of our own: client address behind proxies, malformed session cookies,
unreadable requests, caching headers, the Content-Security-Policy, and login redirects
htmx can follow.

Django 5.2 has no CSP support of its own (6.0 does), and the policy here is one fixed
header, so a small middleware is less than another dependency. No inline scripts or
styles anywhere: htmx and our CSS come from static files.
"""

import codecs
import ipaddress
import json
import re
from urllib.parse import parse_qsl, urlencode, urlsplit

from django.conf import settings
from django.contrib import messages
from django.contrib.auth import middleware as auth_middleware
from django.contrib.auth.views import redirect_to_login
from django.core.exceptions import BadRequest, SuspiciousOperation
from django.http import QueryDict
from django.shortcuts import resolve_url
from django.utils.translation import gettext as _
from django_htmx.http import HttpResponseClientRedirect

from .errors import bad_request, method_not_allowed, problem_response
from .http import typed_back
from .links import href


def _networks(entries):
    return [ipaddress.ip_network(entry, strict=False) for entry in entries]


def _address(text: str):
    try:
        return ipaddress.ip_address(text.strip())
    except ValueError:
        return None


class TrustedProxyMiddleware:
    """Behind the proxies named in TRUSTED_PROXIES, or, with none named, behind a proxy
    on this machine (gunicorn on 127.0.0.1, `make serve`'s default), REMOTE_ADDR
    becomes the client's address: the nearest X-Forwarded-For entry that is not one of
    our proxies. Anything further left was written by the client and could be forged,
    so it is never read. From anyone else X-Forwarded-For is ignored: a client reaching
    gunicorn directly could name any address. Read as the proxy's own address, every
    client of a proxy on this machine was 127.0.0.1 to the login throttle (red team 26):
    30 failed logins by anyone held every login but a known device's, 5 held an account
    by name, and the audit log named no one's address.

    X-Forwarded-Proto (production's SECURE_PROXY_SSL_HEADER: "this came over https") is
    believed from the same proxies. From anyone else it is dropped: a client reaching
    gunicorn directly would otherwise pass plain HTTP off as HTTPS, skipping the
    redirect and getting Secure cookies over plain HTTP."""

    def __init__(self, get_response):
        self.get_response = get_response
        self.trusted = _networks(settings.TRUSTED_PROXIES)

    def _is_trusted(self, address) -> bool:
        """One of our proxies: a trusted one, or, with none named, one on this machine."""
        if address is None:
            return False
        if not self.trusted:
            return address.is_loopback
        return any(address in network for network in self.trusted)

    def __call__(self, request):
        peer = _address(request.META.get("REMOTE_ADDR", ""))
        proxied = self._is_trusted(peer)
        if not proxied:
            request.META.pop("HTTP_X_FORWARDED_PROTO", None)
        forwarded = request.META.get("HTTP_X_FORWARDED_FOR", "")
        if forwarded and proxied:
            for entry in reversed(forwarded.split(",")):
                address = _address(entry)
                if address is None:
                    break  # garbage: keep the last address we could trust
                request.META["REMOTE_ADDR"] = str(address)
                if not self._is_trusted(address):
                    break
        return self.get_response(request)


# What Django's session keys are made of (get_random_string's lowercase letters and
# digits), at most the session table's 40 characters.
SESSION_KEY = re.compile(r"[a-z0-9]{1,40}")


class SessionCookieMiddleware:
    """A session cookie Django could not have made is dropped before the session is
    read, as if none was sent: a quoted cookie's octal escape (`"abc\\000…"`) decodes to
    a NUL, which PostgreSQL refuses in the session table's lookup, so every page was a
    500 for whoever sent it."""

    def __init__(self, get_response):
        self.get_response = get_response

    def __call__(self, request):
        key = request.COOKIES.get(settings.SESSION_COOKIE_NAME)
        if key is not None and not SESSION_KEY.fullmatch(key):
            del request.COOKIES[settings.SESSION_COOKIE_NAME]
        return self.get_response(request)


class UnreadableRequestMiddleware:
    """An address whose path or query holds a NUL character (%00) is a 400: no page
    takes one, and PostgreSQL refuses it in any text it is asked to compare, so a
    lookup or an admin filter built from it failed with a 500.

    A form body Django refuses to parse (a charset other than UTF-8, too many
    fields) is a 400 with our page. Left to the CSRF check, the same error is raised
    again inside Django's own 400 handler and gunicorn answers with a bare 500.

    So is a form whose text is not valid UTF-8: Django would read each bad byte as
    U+FFFD and an answer would be stored so. Browsers always send UTF-8; the portal takes
    no file uploads, so a multipart body is text through and through too."""

    def __init__(self, get_response):
        self.get_response = get_response

    def __call__(self, request):
        if "\x00" in request.path or "%00" in request.META.get("QUERY_STRING", ""):
            return problem_response(
                request,
                status=400,
                message=_("This address holds a NUL character, which no page takes."),
            )
        if request.GET.get(TO_FIELD_VAR) == "":
            # The admin checks a `_to_field` only when it is not empty; an empty one then
            # names no field, and every change, delete and history page was a 500.
            return bad_request(request)
        if request.method == "POST":
            try:
                body = request.body  # read first, so the form is parsed from it
                request.POST  # noqa: B018 - parsing is the check
            except (BadRequest, SuspiciousOperation, LookupError, ValueError) as error:
                # LookupError, ValueError: a codec that fails on this body's own bytes
                # (portal.wsgi refuses the ones that are no text encoding at all).
                request.POST = QueryDict()  # so the 400 view's CSRF check reads no body
                return bad_request(request, error)  # a fragment for htmx, else our page
            if request.POST.get(TO_FIELD_VAR) == "":
                return bad_request(request)
            if not _is_utf8(body, form=request.content_type == URLENCODED) or (
                request.content_type == MULTIPART and not _multipart_utf8(request, body)
            ):
                request.POST = QueryDict()  # what Django would have read, never an answer
                return problem_response(
                    request,
                    status=400,
                    message=_("This form holds text that is not valid UTF-8. Nothing was saved."),
                )
        return self.get_response(request)


URLENCODED = "application/x-www-form-urlencoded"
TO_FIELD_VAR = "_to_field"  # the admin's name for it (django.contrib.admin.options)
MULTIPART = "multipart/form-data"


def _is_utf8(body: bytes, *, form: bool) -> bool:
    """Whether `body` is UTF-8 and, for a urlencoded form, so is every value's
    percent-escaped bytes."""
    try:
        text = body.decode("utf-8")
        if form:
            parse_qsl(text, keep_blank_values=True, encoding="utf-8", errors="strict")
    except UnicodeDecodeError:
        return False
    return True


def _multipart_utf8(request, body: bytes) -> bool:
    """A multipart form read as UTF-8: no other charset named (latin-1 turned "café"
    into "cafÃ©"), and no more U+FFFD in its values than the body holds as such (a part
    sent in base64, decoded by Django with each bad byte replaced, passed the check of
    the raw body, even beside one real U+FFFD)."""
    if not _utf8_compatible(request.content_params.get("charset", "utf-8")):
        return False
    replaced = sum(value.count("\ufffd") for _, values in request.POST.lists() for value in values)
    return replaced <= body.count("\ufffd".encode())


def _utf8_compatible(charset: str) -> bool:
    try:
        return codecs.lookup(charset.strip()).name in ("utf-8", "ascii")
    except LookupError:
        return False


class NoStoreMiddleware:
    """Every response Django makes is `Cache-Control: private, no-store` unless its view
    chose otherwise. Pages carry CSRF and submission tokens or a learner's answers, and
    the few anonymous ones (login, links, errors) gain nothing from a cache. Static
    files never reach this middleware: whitenoise, listed before it, answers them with
    its one-year immutable cache."""

    def __init__(self, get_response):
        self.get_response = get_response

    def __call__(self, request):
        response = self.get_response(request)
        if "Cache-Control" not in response:
            response["Cache-Control"] = "private, no-store"
        return response


class MethodNotAllowedMiddleware:
    """Django answers a method a view does not take (`require_POST`) with an empty 405,
    which a browser shows as its own error page. A 405 with no body gets the portal's
    page (or, for htmx, its fragment) instead; its `Allow` header stays."""

    def __init__(self, get_response):
        self.get_response = get_response

    def __call__(self, request):
        response = self.get_response(request)
        if response.status_code != 405 or response.content:
            return response
        page = method_not_allowed(request)
        if "Allow" in response:
            page["Allow"] = response["Allow"]
        return page


class ContentSecurityPolicyMiddleware:
    def __init__(self, get_response):
        self.get_response = get_response
        self.policy = "; ".join(
            f"{directive} {' '.join(sources)}".strip()
            for directive, sources in settings.CONTENT_SECURITY_POLICY.items()
        )

    def __call__(self, request):
        response = self.get_response(request)
        response.headers.setdefault("Content-Security-Policy", self.policy)
        return response


class LoginRequiredMiddleware(auth_middleware.LoginRequiredMiddleware):
    """Django's, except that an htmx request is sent to the login page as a whole page.

    Redirected normally, htmx would follow the redirect and swap the login form into
    the question card, where it cannot log in. The login page then says that the
    session expired and returns to the page the learner was on.
    """

    def process_view(self, request, view_func, view_args, view_kwargs):
        if request.method == "POST" and not request.user.is_authenticated:
            admin_index, login = href("admin:index"), href("admin:login")
            if request.path.startswith(admin_index) and request.path not in (
                login,
                href("admin:logout"),
            ):
                # An admin form sent after the session ended (an override and its
                # reason): the admin would log in back to this address, which takes
                # POSTs only (a 405). Back to the page the form was on instead, saying
                # nothing was kept.
                message = _("Your session had ended, so that form was not recorded. Send it again.")
                _visitor_message(request, message, request.POST.get("reason", ""))
                htmx = request.headers.get("HX-Request") == "true"
                page = request.headers.get("HX-Current-URL" if htmx else "Referer", "")
                back = _page_on_this_site(request, page, admin_index)
                to_login = redirect_to_login(back or admin_index, login)
                # htmx would follow a redirect and swap the login page into the row
                # (To check's override): the whole tab goes to the login instead.
                return HttpResponseClientRedirect(to_login.url) if htmx else to_login
        return super().process_view(request, view_func, view_args, view_kwargs)

    def handle_no_permission(self, request, view_func):
        if request.headers.get("HX-Request") != "true":
            return super().handle_no_permission(request, view_func)
        next_path = _page_on_this_site(request, request.headers.get("HX-Current-URL", "")) or "/"
        query = urlencode({"next": next_path, "reason": "expired"})
        return HttpResponseClientRedirect(f"{resolve_url(self.get_login_url(view_func))}?{query}")


# A logged-out visitor's messages as JSON, and what a typed reason may take of it: Django
# signs the messages' JSON in base64 (4 bytes for 3) within a cookie of 2,048 bytes, and
# keeps what does not fit in a session, which it makes for the visitor.
VISITOR_MESSAGES_JSON = 1_400
VISITOR_TYPED_JSON = 1_100
MESSAGE_JSON_FRAME = 40  # ["__json_message",0,30,"…"] and a comma, around each text


def _visitor_message(request, message: str, typed: str) -> None:
    """Add `message` and what was `typed` (cut to fit) to a logged-out visitor's
    messages, keeping of those already there (other forms sent logged out, their cookie
    sent back) the latest that fit beside it: a message too large for the cookie made
    a session row, kept 14 days, for each post of anyone (red team 23)."""
    text = message + typed_back(typed, json_bytes=VISITOR_TYPED_JSON)
    room = VISITOR_MESSAGES_JSON - len(json.dumps(text)) - MESSAGE_JSON_FRAME
    kept = []
    for earlier in reversed(list(messages.get_messages(request))):  # read: not kept as is
        tags = earlier.extra_tags or ""  # None when a message was stored without tags
        size = len(json.dumps(str(earlier.message))) + len(tags) + MESSAGE_JSON_FRAME
        if size > room:
            break
        kept.insert(0, (earlier, tags))
        room -= size
    for earlier, tags in kept:
        messages.add_message(request, earlier.level, earlier.message, tags)
    messages.warning(request, text)


def _page_on_this_site(request, url: str, under: str = "/") -> str:
    """`url`'s path and query when it is a page of this site under `under`, else ""."""
    try:
        page = urlsplit(url)
    except ValueError:  # a header no browser sends ("http://["): no page of ours
        return ""
    if (page.netloc and page.netloc != request.get_host()) or not page.path.startswith(under):
        return ""
    return page.path + (f"?{page.query}" if page.query else "")
