"""Audit and language hooks on Django's authentication signals."""

from django.contrib.auth.signals import user_logged_in, user_logged_out, user_login_failed
from django.dispatch import receiver

from .enums import AuditKind
from .models import Profile
from .services import audit_record, login_key

SESSION_LANGUAGE = "language"


@receiver(user_logged_in)
def on_login(sender, request, user, **kwargs):
    language = Profile.objects.filter(user=user).values_list("language", flat=True).first()
    if request is not None and language:
        # The language middleware reads it from the session on every request.
        request.session[SESSION_LANGUAGE] = language
    audit_record(kind=AuditKind.LOGIN, request=request, user=user, subject=login_key(user.username))


@receiver(user_logged_out)
def on_logout(sender, request, user, **kwargs):
    if user is not None:
        audit_record(kind=AuditKind.LOGOUT, request=request, user=user)


@receiver(user_login_failed)
def on_login_failed(sender, credentials, request=None, **kwargs):
    username = str(credentials.get("username", ""))
    refused = request is not None and getattr(request, "login_locked_until", None)
    audit_record(
        kind=AuditKind.LOGIN_REFUSED if refused else AuditKind.LOGIN_FAILED,
        request=request,
        user=None,
        subject=login_key(username),
    )
