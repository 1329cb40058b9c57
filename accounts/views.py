"""Account pages: setup link, invite, new-password link, language switch. Login, logout and password
change are Django's own views with our templates (see urls.py; logout is made here, where its
CSRF refusal offers the button again)."""

from urllib.parse import urlsplit

from django.contrib import admin, messages
from django.contrib.auth import get_user_model, login, logout
from django.contrib.auth import views as auth_views
from django.contrib.auth.decorators import login_not_required
from django.core.exceptions import ValidationError
from django.db import IntegrityError
from django.http import HttpRequest, HttpResponse, HttpResponseRedirect
from django.shortcuts import redirect, render
from django.urls import Resolver404, resolve, reverse, reverse_lazy
from django.utils import translation
from django.utils.http import url_has_allowed_host_and_scheme
from django.utils.text import capfirst, format_lazy
from django.utils.translation import get_language, get_language_info
from django.utils.translation import gettext as _
from django.views.decorators.cache import never_cache
from django.views.decorators.debug import sensitive_post_parameters

from audit.enums import AuditKind
from audit.services import audit_record
from portal.http import require_http_methods, require_POST
from portal.languages import LANGUAGE_CODES

from .enums import InviteRole, Language
from .forms import (
    AccountCreateForm,
    NewPasswordForm,
    ThrottledAdminPasswordChangeForm,
    ThrottledPasswordChangeForm,
    TimeZoneForm,
)
from .middleware import language_cookie_set
from .models import Invite, PasswordLink, SetupLink
from .services import (
    LinkUnusable,
    PasswordChangedMeanwhile,
    invite_redeem,
    link_check,
    password_link_redeem,
    password_unchanged,
    profile_language_set,
    profile_time_zone_set,
    setup_redeem,
    token_hash,
)
from .signals import SESSION_LANGUAGE
from .throttle import link_form_take
from .time_zones import SESSION_TIME_ZONE

BACKEND = "accounts.backends.ThrottledModelBackend"


def _unusable(request, unusable: LinkUnusable, model) -> HttpResponse:
    response = render(
        request,
        "accounts/link_unusable.html",
        {"reason": unusable.reason, "setup": model is SetupLink, "kind": model.__name__},
        status=unusable.status,
    )
    response["Referrer-Policy"] = "same-origin"
    return response


def _link_page(request, *, token, model, redeem, template):
    try:
        link = link_check(model=model, token=token)
    except LinkUnusable as unusable:
        return _unusable(request, unusable, model)

    language = request.LANGUAGE_CODE if request.LANGUAGE_CODE in Language.values else "en"
    form = AccountCreateForm(request.POST or None, initial={"language": language})
    held = request.method == "POST" and not link_form_take(token_hash(token))
    if held:
        # Not validated: its answer about the username is what the hold withholds. What
        # was typed comes back (the passwords never do).
        typed = {name: request.POST.get(name, "")[:150] for name in ("username", "language")}
        form = AccountCreateForm(initial={"language": language} | typed)
    if request.method == "POST" and not held and form.is_valid():
        try:
            user = redeem(
                token=token,
                username=form.cleaned_data["username"],
                password=form.cleaned_data["password1"],
                language=form.cleaned_data["language"],
                request=request,
            )
        except LinkUnusable as unusable:  # used up by someone else meanwhile
            return _unusable(request, unusable, model)
        except IntegrityError:  # the name was taken by another link's post meanwhile
            # Django's own words for a taken name, as the form's check says them.
            username = get_user_model()._meta.get_field("username")
            form.add_error("username", username.error_messages["unique"])
        except ValidationError as refused:  # one like it was made meanwhile (signals.py)
            form.add_error("username", refused)
        else:
            login(request, user, backend=BACKEND)
            # The browser that made the account is the account's own (accounts/throttle.py):
            # failures from elsewhere must not keep its owner out of it.
            request.known_device_for = user.get_username()
            # The first account is there to set the portal up, an instructor's to look at
            # a cohort: both land in the admin.
            staff = model is SetupLink or getattr(link, "role", "") == InviteRole.INSTRUCTOR
            return redirect("admin:index" if staff else "home")
    # An invite into a cohort names it: the learner sees which class they are joining.
    cohort = getattr(link, "cohort", None)
    teach = getattr(link, "role", "") == InviteRole.INSTRUCTOR
    context = {"form": form, "held": held, "cohort": cohort, "teach": teach}
    response = render(request, template, context, status=429 if held else 200)
    # The token is in this page's address: never send it to another site. ("no-referrer"
    # would also make the browser send "Origin: null", which fails the CSRF check.)
    response["Referrer-Policy"] = "same-origin"
    return response


@login_not_required
@never_cache
@sensitive_post_parameters()  # passwords: as on the login page
@require_http_methods(["GET", "POST"])
def setup(request: HttpRequest, token: str) -> HttpResponse:
    return _link_page(
        request, token=token, model=SetupLink, redeem=setup_redeem, template="accounts/setup.html"
    )


@login_not_required
@never_cache
@sensitive_post_parameters()  # passwords: as on the login page
@require_http_methods(["GET", "POST"])
def invite(request: HttpRequest, token: str) -> HttpResponse:
    return _link_page(
        request, token=token, model=Invite, redeem=invite_redeem, template="accounts/invite.html"
    )


@login_not_required
@never_cache
@sensitive_post_parameters()  # passwords: as on the login page
@require_http_methods(["GET", "POST"])
def password_link(request: HttpRequest, token: str) -> HttpResponse:
    """A learner who forgot their password chooses a new one, then is logged in."""
    try:
        link = link_check(model=PasswordLink, token=token)
    except LinkUnusable as unusable:
        return _unusable(request, unusable, PasswordLink)
    learner = link.user
    held = request.method == "POST" and not link_form_take(token_hash(token))
    form = NewPasswordForm(learner, None if held or request.method != "POST" else request.POST)
    if request.method == "POST" and not held and form.is_valid():
        try:
            user = password_link_redeem(
                token=token, password=form.cleaned_data["new_password1"], request=request
            )
        except LinkUnusable as unusable:  # used, or revoked, meanwhile
            return _unusable(request, unusable, PasswordLink)
        login(request, user, backend=BACKEND)
        request.known_device_for = user.get_username()  # as a link that makes an account
        # Said in the language the next page speaks: the login brought the account's own.
        with translation.override(request.session.get(SESSION_LANGUAGE, get_language())):
            messages.success(request, _("Your new password is set. You are logged in."))
        return redirect("home")
    context = {"form": form, "held": held, "learner": learner}
    response = render(request, "accounts/password_link.html", context, status=429 if held else 200)
    response["Referrer-Policy"] = "same-origin"  # the token is in this page's address
    return response


def _answers_get(view) -> bool:
    """Whether a resolved view answers GET. Class-based views say so; function views
    restricted by portal.http's decorators carry the methods they allow."""
    view_class = getattr(view, "view_class", None)
    if view_class is not None:
        return "get" in view_class.http_method_names and hasattr(view_class, "get")
    allowed = getattr(view, "allowed_methods", None)
    return allowed is None or "GET" in allowed


def _page_to_return_to(request: HttpRequest, next_url: str) -> str:
    """`next` if it is a page of ours that answers GET, else the home page: after an
    error on a POST-only address, going back there would end in a 405."""
    if not next_url.startswith("/") or not url_has_allowed_host_and_scheme(
        next_url, allowed_hosts={request.get_host()}, require_https=request.is_secure()
    ):
        return "/"
    try:
        match = resolve(urlsplit(next_url).path)
    except Resolver404:
        return "/"
    if match.url_name == "logout":  # the admin's logout answers POST only (a function view)
        return "/"
    return next_url if _answers_get(match.func) else "/"


@login_not_required
@require_POST
def language_set(request: HttpRequest) -> HttpResponse:
    """Switch the language: kept in the session, on the profile for the next login, and
    in the language cookie, so the login page speaks it after logging out too. Logged
    out, the cookie alone keeps it: a visitor's switch must not make a session (a row
    kept for two weeks) for anyone who posts here."""
    language = request.POST.get("language", "")
    response = HttpResponseRedirect(_page_to_return_to(request, request.POST.get("next", "")))
    if language in Language.values:
        if request.user.is_authenticated:
            request.session[SESSION_LANGUAGE] = language
            profile_language_set(user=request.user, language=language)
        else:  # one left from before would win over the cookie
            request.session.pop(SESSION_LANGUAGE, None)
        language_cookie_set(response, language)
    return response


# The header's two forms, from a page opened before a new login on this browser, fail the
# CSRF check: the refusal (portal.errors.csrf_failure, which calls these for a logged-in
# user) offers the same button again, with a token that passes. It had no header and only
# said to go back and reload: a learner who asked to log out stayed logged in, with no
# button to do it (learner walk 37).
def _language_again(request: HttpRequest) -> dict | None:
    language = request.POST.get("language", "")
    if language not in LANGUAGE_CODES:
        return None
    message = _(
        "For your safety the portal did not accept that form, probably because someone "
        "logged in on this browser after the page was opened, so the language did not change."
    )
    # Named in itself, as the header's switch names it: "English", "Español".
    label = capfirst(get_language_info(language)["name_local"])
    button = {"label": label, "name": "language", "value": language}
    return {
        "again": {
            **button,
            "action": reverse("accounts:language"),
            "message": message,
            "next": request.POST.get("next", ""),
        }
    }


language_set.csrf_kept = _language_again

# The login page it lands on says the logout happened (UX walk 34).
logout_view = auth_views.LogoutView.as_view(
    next_page=format_lazy("{}?reason=logged_out", reverse_lazy("accounts:login"))
)


def _logout_again(request: HttpRequest) -> dict:
    message = _(
        "For your safety the portal did not accept that form, probably because someone "
        "logged in on this browser after the page was opened, so you are still logged in "
        "as %(username)s."
    ) % {"username": request.user.get_username()}
    return {
        "again": {"action": reverse("accounts:logout"), "label": _("Log out"), "message": message}
    }


logout_view.csrf_kept = _logout_again


@require_http_methods(["GET", "HEAD", "POST"])
def time_zone_set(request: HttpRequest) -> HttpResponse:
    """The zone the learner's dates are shown in, for a browser that does not report
    one (JavaScript off) or a learner who wants another: kept on the profile for the
    next login and in the session now."""
    current = request.session.get(SESSION_TIME_ZONE, "")
    form = TimeZoneForm(request.POST or None, initial={"time_zone": current})
    # Back where the link was (the admin's "Times in …"), else My progress, whose note
    # links here.
    next_url = request.POST.get("next") or request.GET.get("next") or ""
    if request.method == "POST" and form.is_valid():
        name = form.cleaned_data["time_zone"]
        language = (get_language() or "en")[:2]  # one of LANGUAGES: the middleware's
        profile_time_zone_set(user=request.user, time_zone=name, language=language)
        if name:
            request.session[SESSION_TIME_ZONE] = name
        else:  # the browser's, reported by static/js/tz.js
            request.session.pop(SESSION_TIME_ZONE, None)
        messages.success(request, _("Your time zone is saved."))
        back = _page_to_return_to(request, next_url)
        return redirect(back if back != "/" else "progress:my_progress")
    context = {"form": form, "next": next_url}
    return render(request, "accounts/time_zone.html", context, status=400 if form.errors else 200)


def password_changed_audit(request: HttpRequest, **detail) -> None:
    audit_record(kind=AuditKind.PASSWORD_CHANGED, request=request, **detail)


class PasswordChangeView(auth_views.PasswordChangeView):
    """Django's password change: the old password counted by the login throttle (a
    session that keeps guessing it is ended), the change audited."""

    template_name = "accounts/password_change.html"
    form_class = ThrottledPasswordChangeForm
    success_url = reverse_lazy("accounts:password_change_done")
    audit_detail: dict = {}

    def get_form_kwargs(self):
        return super().get_form_kwargs() | {"request": self.request}

    def form_valid(self, form):
        try:
            with password_unchanged(user=form.user):
                response = super().form_valid(form)
        except PasswordChangedMeanwhile as refused:
            form.add_error(None, refused.message)
            return self.form_invalid(form)
        password_changed_audit(self.request, **self.audit_detail)
        return response

    def form_invalid(self, form):
        if form.has_error("old_password", "throttled"):
            logout(self.request)
            messages.error(
                self.request, _("Too many wrong passwords: you were logged out. Log in again.")
            )
            return redirect("accounts:login")
        return super().form_invalid(form)


def admin_password_change(request: HttpRequest) -> HttpResponse:
    """The admin's own password change (AdminSite.password_change, with the throttled
    form and the audit event): routed before admin.site.urls in portal/urls.py."""
    request.current_app = admin.site.name
    return PasswordChangeView.as_view(
        form_class=ThrottledAdminPasswordChangeForm,
        template_name="registration/password_change_form.html",
        success_url=reverse("admin:password_change_done"),
        extra_context=admin.site.each_context(request),
        audit_detail={"via": "admin"},
    )(request)
