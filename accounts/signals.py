"""Audit and language hooks on Django's authentication signals; a new account's name
checked however it is made, setup links voided when an account is created, a maker's
invites ended when theirs is deleted."""

import hashlib
from datetime import timedelta

from django.conf import settings
from django.contrib.auth.signals import user_logged_in, user_logged_out, user_login_failed
from django.core.exceptions import ValidationError
from django.db.models.signals import post_save, pre_delete, pre_save
from django.dispatch import receiver
from django.utils import timezone

from audit.enums import AuditKind
from audit.services import audit_record, client_ip
from portal.counters import count_up

from .forms import check_username
from .models import Profile
from .services import invites_of_maker_end, login_key, setup_links_void
from .throttle import ANY_ACCOUNT
from .time_zones import SESSION_TIME_ZONE

SESSION_LANGUAGE = "language"


@receiver(user_logged_in)
def on_login(sender, request, user, **kwargs):
    language, time_zone = Profile.objects.filter(user=user).values_list(
        "language", "time_zone"
    ).first() or (None, None)
    if request is not None and language:
        # The language and time zone middleware read them from the session on every
        # request, at no query beyond the session's own.
        request.session[SESSION_LANGUAGE] = language
    if request is not None and time_zone:
        request.session[SESSION_TIME_ZONE] = time_zone
    audit_record(kind=AuditKind.LOGIN, request=request, user=user, subject=login_key(user.username))


@receiver(user_logged_out)
def on_logout(sender, request, user, **kwargs):
    if user is not None:
        audit_record(kind=AuditKind.LOGOUT, request=request, user=user)


@receiver(user_login_failed)
def on_login_failed(sender, credentials, request=None, **kwargs):
    username = str(credentials.get("username", ""))
    subject = login_key(username)
    locked_until = getattr(request, "login_locked_until", None) if request is not None else None
    if locked_until is not None:
        # Held whatever the username: one row for the address's wait, not one per name.
        held = ANY_ACCOUNT if getattr(request, "login_held_by", "") == ANY_ACCOUNT else subject
        if not _first_refusal(held, request, locked_until):
            return
    audit_record(
        kind=AuditKind.LOGIN_REFUSED if locked_until else AuditKind.LOGIN_FAILED,
        request=request,
        user=None,  # nobody's, even sent through a learner's open session (red team 23)
        subject=subject,
    )


def _first_refusal(subject: str, request, locked_until) -> bool:
    """Whether this refusal is the first of its wait for this username (ANY_ACCOUNT: for
    any username) and address: the log keeps one row per wait, not one per try (refused
    tries cost the sender nothing, and a row each would let anyone fill the disk).
    Failures are rows each, and the throttle bounds them. Counted where every worker
    sees it (portal/counters.py)."""
    wait = max(locked_until - timezone.now(), timedelta(0)) + timedelta(seconds=1)
    key = hashlib.sha256(f"{client_ip(request)}:{subject}".encode()).hexdigest()
    return count_up(f"login-refused:{key}", wait) == 1


@receiver(pre_save, sender=settings.AUTH_USER_MODEL)
def on_account_saving(sender, instance, raw=False, **kwargs):
    """A new account's name meets the pages' rules however it is made: `createsuperuser`
    and code calling `create_user` did not check it, and a name taken in another case
    ended in the unique index's IntegrityError, a traceback. A ValidationError is what
    `createsuperuser` reports as a one-line error. The pages' forms check first, so
    their user sees it beside the field; this second look costs an EXISTS and a scan of
    the usernames (`check_username`), when an account is made only."""
    if not instance._state.adding or raw:
        return
    username = instance.get_username()
    if sender.objects.filter(username__iexact=username).exists():
        field = sender._meta.get_field(sender.USERNAME_FIELD)
        raise ValidationError(field.error_messages["unique"], code="unique")
    check_username(username)


@receiver(post_save, sender=settings.AUTH_USER_MODEL)
def on_account_created(sender, instance, created, **kwargs):
    """Any account, however made (a setup link, an invite, `createsuperuser`, the
    admin), voids every setup link: an older link printed beside the access log must
    not make a second superuser."""
    if created:
        setup_links_void()


@receiver(pre_delete, sender=settings.AUTH_USER_MODEL)
def on_account_deleted(sender, instance, **kwargs):
    """An invite ends with its maker's right to invite (accounts.services), and a
    deleted account has none; after the delete the invite no longer says who made it."""
    invites_of_maker_end(maker=instance)
