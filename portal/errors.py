"""Error answers: a whole page for a browser, a small fragment for an htmx request.

htmx swaps a 4xx answer into the element that asked (a question card), so an error
answered to htmx must be a fragment: the message and the one action that helps (reload
the page, or log in), never a second page with its own header and `<main>`.
"""

from urllib.parse import urlencode, urlsplit

from django.conf import settings
from django.core.exceptions import DisallowedHost, RequestDataTooBig
from django.http import HttpRequest, HttpResponse
from django.shortcuts import render, resolve_url
from django.template import loader
from django.urls import Resolver404, resolve, reverse
from django.utils import formats
from django.utils.http import url_has_allowed_host_and_scheme
from django.utils.translation import gettext as _
from django.views.decorators.csrf import requires_csrf_token
from django_htmx.http import reswap

from .exceptions import AppError

FRAGMENT = "_problem.html"


def _is_htmx(request: HttpRequest) -> bool:
    # Error handlers can run before django-htmx's middleware has set request.htmx.
    return request.headers.get("HX-Request") == "true"


def _page_path(request: HttpRequest) -> str:
    """The page the htmx request was made from (path and query only), to reload it."""
    try:
        current = urlsplit(request.headers.get("HX-Current-URL", ""))
    except ValueError:  # a header no browser sends ("http://["): no page to reload
        return ""
    try:
        host = request.get_host()
    except DisallowedHost:  # the 400 for a Host not served: no page of ours to name
        return ""
    if current.netloc and current.netloc != host:
        return ""
    path = current.path if current.path.startswith("/") else ""
    # "//host/…" and "/\host/…" are other sites to a browser: no page of ours (red team 17).
    if not url_has_allowed_host_and_scheme(path, allowed_hosts={host}):
        return ""
    return f"{path}?{current.query}" if path and current.query else path


def _fragment(
    request: HttpRequest, *, status: int, message: str, kept_text: str = "", action: str = ""
) -> HttpResponse:
    user = getattr(request, "user", None)
    logged_in = bool(user and user.is_authenticated)
    page = _page_path(request)
    login = resolve_url(settings.LOGIN_URL)
    if page:
        login += "?" + urlencode({"next": page})
    context = {"message": message, "reload_url": page or "/", "login_url": login}
    context["kept_text"] = kept_text
    context["action"] = action or ("reload" if logged_in else "login")
    return HttpResponse(loader.render_to_string(FRAGMENT, context, request), status=status)


def problem_response(
    request: HttpRequest, *, status: int, message: str, kept_text: str = ""
) -> HttpResponse:
    """A refusal the learner can act on: a fragment for htmx, else a page. `kept_text`,
    what the learner wrote when nothing could keep it, is shown back to be copied."""
    if _is_htmx(request):
        return _fragment(request, status=status, message=message, kept_text=kept_text)
    context = {"message": message, "kept_text": kept_text}
    return render(request, "progress/problem.html", context, status=status)


def error_response(request: HttpRequest, error: AppError) -> HttpResponse:
    """An application error answered with its status and message, and the text the
    learner sent when the error carries it (`keep`)."""
    keep = getattr(error, "keep", None) or {}
    text = keep.get("text", "") if keep.get("text", "").strip() else ""
    return problem_response(request, status=error.status, message=error.message, kept_text=text)


ANSWER_VIEWS = frozenset({"progress:answer", "progress:draft"})


def _way_back(request: HttpRequest) -> dict:
    """Where an error page leads: the admin's index from inside the admin (an instructor
    who mistyped an admin address was sent back to the learners' phases), the login
    page for someone logged out (an expired login form offered "Back to phases"), else
    home."""
    try:
        admin_index, login = reverse("admin:index"), reverse("accounts:login")
    except Exception:  # an error page must render even when the URLconf is what failed
        admin_index = login = None
    if admin_index and request.path.startswith(admin_index):
        return {"back_url": admin_index, "back_label": _("Back to the admin")}
    # An answer's or draft's address: the 405 page says the typed answer is kept.
    match = getattr(request, "resolver_match", None)
    about_answers = match is not None and match.view_name in ANSWER_VIEWS
    user = getattr(request, "user", None)
    if login and user is not None and not user.is_authenticated:
        return {
            "back_url": login,
            "back_label": _("Log in"),
            "about_answers": about_answers,
        }
    return {"back_url": "/", "back_label": _("Back to phases"), "about_answers": about_answers}


def _page(request: HttpRequest, template: str, status: int, extra: dict | None = None):
    """An error page, with its way back (or the one `extra` names)."""
    context = {**_way_back(request), **(extra or {})}
    return HttpResponse(loader.render_to_string(template, context, request), status=status)


def _handler(template: str, status: int, message):
    @requires_csrf_token
    def view(request: HttpRequest, exception=None) -> HttpResponse:
        if _is_htmx(request):
            return _fragment(request, status=status, message=str(message()))
        return _page(request, template, status)

    return view


_bad_request = _handler(
    "400.html",
    400,
    lambda: _("The portal could not understand that request. Reload the page and try again."),
)


@requires_csrf_token
def bad_request(request: HttpRequest, exception=None) -> HttpResponse:
    """A body past DATA_UPLOAD_MAX_MEMORY_SIZE (megabytes pasted into an answer box) is
    never read, so nothing can keep it: say so, and with htmx put the message above the
    answer's form instead of in its place, the text still in its box (a reload would
    lose it). A draft, sent as the learner types, swaps nothing, as its markup says."""
    if not isinstance(exception, RequestDataTooBig):
        return _bad_request(request, exception)
    size = formats.number_format(settings.DATA_UPLOAD_MAX_MEMORY_SIZE / 2**20, 1)
    message = _(
        "What you sent is too large (over %(size)s MB): nothing was recorded. Shorten "
        "what you wrote, in its box on the page, and send it again."
    ) % {"size": size}
    if not _is_htmx(request):
        return problem_response(request, status=413, message=message)
    response = _fragment(request, status=413, message=message, action="none")
    return response if _is_draft(request) else reswap(response, "beforebegin")


def _is_draft(request: HttpRequest) -> bool:
    # Refused before the address is resolved (portal.middleware reads the body first).
    try:
        return resolve(request.path_info).view_name == "progress:draft"
    except Resolver404:
        return False


permission_denied = _handler("403.html", 403, lambda: _("Your account cannot open this page."))
page_not_found = _handler("404.html", 404, lambda: _("There is nothing at this address."))
_server_error = _handler(
    "500.html",
    500,
    lambda: _(
        "The portal hit an error and has logged it. Your saved answers are safe; "
        "try again in a moment."
    ),
)


method_not_allowed = _handler(
    "405.html",
    405,
    lambda: _(
        "This address takes only what its page sends. Go back to the page and use its button."
    ),
)


def server_error(request: HttpRequest) -> HttpResponse:
    return _server_error(request)


def csrf_failure(request: HttpRequest, reason: str = "") -> HttpResponse:
    """CSRF_FAILURE_VIEW: usually a page left open across a logout or a new login.

    A view may answer its own posts that fail the check, for a logged-in user, through
    attributes of the view function. With htmx, `csrf_refused` gives the answer's card
    its form back with what the learner typed, so the text box is not swapped away (a
    post from another site cannot send the HX-Request header). Without it, `csrf_kept`
    gives the page the text to copy and the way back, having checked that the post came
    from a form it made for this user."""
    match = getattr(request, "resolver_match", None)
    user = getattr(request, "user", None)
    if match is not None and user is not None and user.is_authenticated:
        hook = getattr(match.func, "csrf_refused" if _is_htmx(request) else "csrf_kept", None)
        answered = hook(request, *match.args, **match.kwargs) if hook is not None else None
        if isinstance(answered, HttpResponse):
            return answered
        if answered:
            return _page(request, "403_csrf.html", 403, answered)
    return _csrf_refused(request)


_csrf_refused = _handler(
    "403_csrf.html",
    403,
    lambda: _(
        "For your safety the portal did not accept that form, probably because the "
        "page was open for a long time or you logged in elsewhere. Reload the page "
        "and send it again; what you typed in an answer is kept as a draft."
    ),
)
