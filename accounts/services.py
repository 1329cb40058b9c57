"""Writes for accounts: one-time links (setup, invite, new password), redeeming them,
audit events, the login throttle."""

from __future__ import annotations

import hashlib
import secrets
from collections.abc import Iterator
from contextlib import contextmanager
from datetime import timedelta

from django.conf import settings
from django.contrib.auth import get_user_model
from django.contrib.auth.models import AbstractBaseUser, Group
from django.db import transaction
from django.urls import reverse
from django.utils import timezone
from django.utils.crypto import constant_time_compare, salted_hmac
from django.utils.translation import gettext_lazy

from audit.enums import AuditKind
from audit.services import audit_record
from portal.exceptions import AppError
from teaching.models import Cohort

from .enums import InviteRole
from .models import Invite, OneTimeLink, PasswordLink, Profile, SetupLink
from .time_zones import time_zone_validate

SETUP_LINK_VALID = timedelta(hours=24)
INSTRUCTORS_GROUP = "Instructors"  # made by a migration (teaching 0002)
INVITE_VALID = timedelta(days=7)
# An instructor's invite makes a staff account: a day, as the setup link.
INSTRUCTOR_INVITE_VALID = timedelta(days=1)
# A day, as the setup link: it is handed over by a person, and it takes an account.
PASSWORD_LINK_VALID = timedelta(hours=24)


class LinkUnusable(AppError):
    """A one-time link's token that is unknown, used, expired or revoked."""

    def __init__(self, reason: str):
        # "unknown", "used", "expired", "account_exists", "revoked", "password_changed"
        # or "logged_in"
        self.reason = reason
        # Unknown: there is nothing at this address; the others existed once.
        self.status = 404 if reason == "unknown" else 410
        super().__init__(reason)


class PasswordChangedMeanwhile(AppError):
    """The account's password changed since the form checked the old one (another tab)."""

    status = 409
    default_message = gettext_lazy(
        "Your password was changed meanwhile (in another tab?): this change was not made."
    )


@contextmanager
def password_unchanged(*, user) -> Iterator[None]:
    """A transaction in which `user`'s row is locked and its password is still the one
    the form checked the old password against: of two changes sent at once with one old
    password (two tabs), the second raises PasswordChangedMeanwhile and changes nothing."""
    with transaction.atomic():
        stored = (
            get_user_model()
            .objects.select_for_update()
            .filter(pk=user.pk)
            .values_list("password", flat=True)
            .first()
        )
        if stored != user.password:
            raise PasswordChangedMeanwhile()
        yield


def token_hash(raw: str) -> str:
    return hashlib.sha256(raw.encode()).hexdigest()


def absolute_url(path: str, request=None) -> str:
    """The address of `path` as the link's reader will open it. Made on a page (the
    admin), from the address that page was asked at: the instructor reached the portal
    there, and `make run HOST=0.0.0.0` leaves PORTAL_BASE_URL naming 127.0.0.1, which
    no learner's machine reaches. Printed by a command, from PORTAL_BASE_URL."""
    if request is not None:
        return request.build_absolute_uri(path)
    return settings.PORTAL_BASE_URL + path


def _link_lookup(model: type[OneTimeLink], raw: str) -> OneTimeLink:
    """The link for `raw`, locked for update; raises LinkUnusable with the reason."""
    link = model.objects.select_for_update().filter(token_hash=token_hash(raw)).first()
    if link is None:
        raise LinkUnusable("unknown")
    if model is SetupLink and get_user_model().objects.exists():
        # Creating an account marks every setup link used (signals.py); this also
        # covers an account written without signals (a bulk load, raw SQL).
        raise LinkUnusable("account_exists")
    if link.used_at is not None:
        raise LinkUnusable("used")
    if link.expires_at <= timezone.now():
        raise LinkUnusable("expired")
    if model is Invite and not inviter_may_still_invite(link):
        raise LinkUnusable("revoked")
    if model is PasswordLink and (reason := password_link_ended(link, link.user)):
        raise LinkUnusable(reason)
    return link


def password_link_ended(link: PasswordLink, user) -> str | None:
    """Why `link`, unused and unexpired, no longer works for its learner `user`, as its
    page (410) and its list say it: "revoked" (its maker may no longer give `user` a
    new password), "password_changed" or "logged_in" (since it was made); None while it
    works. The one place these are checked: on the lookup, on the locked account, in
    the list."""
    if not password_link_allowed(maker=link.created_by, learner=user):
        return "revoked"
    if not password_link_current(link, user):
        return "password_changed"
    if not password_link_before_login(link, user):
        return "logged_in"
    return None


def password_link_before_login(link: PasswordLink, user) -> bool:
    """Whether `user` has not logged in since `link` was made: a login with their
    password says the learner has it after all, and the link, still in a chat or a mail,
    would take the account from whoever holds it (red team 25; Django's own reset links
    end so too)."""
    return user.last_login is None or user.last_login <= link.created_at


def password_mark(user) -> str:
    """A keyed hash of `user`'s password hash, kept on a new-password link."""
    return salted_hmac("accounts.password_link", user.password).hexdigest()


def password_link_current(link: PasswordLink, user) -> bool:
    """Whether `user`'s password is still the one `link` was made to replace: once the
    learner changed it (remembered it after all) or a superuser set it, the link, still
    in a chat or a mail, would take the account from whoever holds it (red team 25)."""
    return not link.password_mark or constant_time_compare(link.password_mark, password_mark(user))


def inviter_may_still_invite(invite: Invite) -> bool:
    """Whether the instructor who made `invite` could make it now: an invite is their
    right to add a learner to their cohort, and it ends with that right (deactivated,
    no longer staff or an instructor, no longer teaching the cohort, the cohort
    deleted), not 7 days later. Invites made on the server (`manage.py invite`) name
    no maker. An instructor's invite is a superuser's right alone, into a cohort."""
    inviter = invite.created_by
    if invite.role == InviteRole.INSTRUCTOR:
        return (
            inviter is not None
            and inviter.is_active
            and inviter.is_superuser
            and invite.cohort_id is not None
        )
    if inviter is None:
        return True
    if not inviter.is_active:
        return False
    if inviter.is_superuser:
        return True
    return (
        inviter.is_staff
        and inviter.has_perm("accounts.add_invite")
        and invite.cohort is not None
        and invite.cohort.instructors.filter(pk=inviter.pk).exists()
    )


def password_link_allowed(*, maker, learner) -> bool:
    """Whether `maker` may give `learner` a new password: `learner` an active account
    that is no staff, no superuser and teaches no cohort (theirs is set by a superuser,
    on its page; a superuser or an instructor without staff status is no learner either:
    red team 24), and `maker` an active superuser or an instructor who may make such
    links and teaches a cohort `learner` is in. Checked when a link is made and again
    when it is used: the link ends with that right, and with a maker deleted since."""
    if maker is None or not maker.is_active or not learner.is_active:
        return False
    if learner.is_staff or learner.is_superuser or learner.cohorts_taught.exists():
        # An instructor whose staff status was unticked, still listed as teaching, is no
        # learner either: ticked again, their account would be the link maker's.
        return False
    if maker.is_superuser:
        return True
    return (
        maker.is_staff
        and maker.has_perm("accounts.add_passwordlink")
        and Cohort.objects.taught_by(maker).filter(learners=learner).exists()
    )


def link_check(*, model: type[OneTimeLink], token: str) -> OneTimeLink:
    """The link `token` names, for showing its form; LinkUnusable if it cannot be
    redeemed now."""
    with transaction.atomic():
        return _link_lookup(model, token)


def _link_create(model: type[OneTimeLink], valid: timedelta, **fields) -> tuple[OneTimeLink, str]:
    """A new one-time link of `model`, valid for `valid` from now, and its token: 32
    random bytes, of which only the hash is stored."""
    raw, now = secrets.token_urlsafe(32), timezone.now()
    link = model.objects.create(
        token_hash=token_hash(raw), created_at=now, expires_at=now + valid, **fields
    )
    return link, raw


def setup_link_create() -> str:
    """A one-time link for the first instructor, valid for 24 hours."""
    _link, raw = _link_create(SetupLink, SETUP_LINK_VALID)
    audit_record(kind=AuditKind.SETUP_LINK_CREATED)
    return absolute_url(reverse("accounts:setup", args=[raw]))


def invite_create(
    *, created_by=None, note: str = "", cohort=None, role=InviteRole.LEARNER, request=None
) -> tuple[Invite, str]:
    instructor = role == InviteRole.INSTRUCTOR
    invite, raw = _link_create(
        Invite,
        INSTRUCTOR_INVITE_VALID if instructor else INVITE_VALID,
        created_by=created_by,
        note=note,
        cohort=cohort,
        role=role,
    )
    audit_record(
        kind=AuditKind.INVITE_CREATED,
        request=request,
        user=created_by,
        invite=invite.pk,
        note=note,
        cohort=cohort.name if cohort else None,
        **({"role": role} if instructor else {}),
    )
    return invite, absolute_url(reverse("accounts:invite", args=[raw]), request)


def links_end(*, links, by, request=None) -> int:
    """End at once the links of `links` (a queryset of Invite or PasswordLink) still
    unused and unexpired, as a newer new-password link ends the older: they expire now
    and their pages answer 410. One audit event each, naming who ended it. How many."""
    model = links.model
    with transaction.atomic():
        usable = model.objects.usable().select_for_update().filter(pk__in=links.values("pk"))
        # Each link's cohort or learner read for all at once, after the lock (FOR UPDATE
        # cannot join an invite's cohort, which may be none).
        named = usable.select_related(None).prefetch_related(
            "cohort" if model is Invite else "user"
        )
        ended = list(named)
        model.objects.filter(pk__in=[link.pk for link in ended]).update(expires_at=timezone.now())
        for link in ended:
            if model is Invite:
                cohort = link.cohort.name if link.cohort_id else None
                detail = {"kind": AuditKind.INVITE_ENDED, "invite": link.pk, "cohort": cohort}
            else:
                detail = {"kind": AuditKind.PASSWORD_LINK_ENDED, "link": link.pk}
                detail["subject"] = link.user.get_username()
            audit_record(request=request, user=by, **detail)
    return len(ended)


def password_link_create(*, learner, created_by, request=None) -> tuple[PasswordLink, str]:
    """A one-time link for `learner` to choose a new password, valid for a day; the
    links made for them before it stop working (the newest one handed over counts)."""
    with transaction.atomic():
        # The learner's row locked first: of two links made at once (two instructors),
        # the second waits for the first to commit, then ends it; each would otherwise
        # miss the other's, and both would work.
        users = get_user_model().objects.select_for_update()
        users.filter(pk=learner.pk).values_list("pk", flat=True).first()
        PasswordLink.objects.usable().filter(user=learner).update(expires_at=timezone.now())
        link, raw = _link_create(
            PasswordLink,
            PASSWORD_LINK_VALID,
            user=learner,
            created_by=created_by,
            password_mark=password_mark(learner),
        )
        audit_record(
            kind=AuditKind.PASSWORD_LINK_CREATED,
            request=request,
            user=created_by,
            subject=learner.get_username(),
            link=link.pk,
        )
    return link, absolute_url(reverse("accounts:password_link", args=[raw]), request)


def password_link_redeem(*, token: str, password: str, request=None):
    """Use a new-password link: set its learner's password (which ends their other
    sessions) and the link. Returns the learner."""
    with transaction.atomic():
        link = _link_lookup(PasswordLink, token)
        user = get_user_model().objects.select_for_update().get(pk=link.user_id)
        # Checked again on the locked row: made staff, its password changed or logged in
        # between the lookup and the lock (PostgreSQL runs the two apart; red teams 24
        # and 25).
        if reason := password_link_ended(link, user):
            raise LinkUnusable(reason)
        user.set_password(password)
        user.save(update_fields=["password"])
        link.used_at = timezone.now()
        link.save(update_fields=["used_at"])
        audit_record(kind=AuditKind.PASSWORD_LINK_USED, request=request, user=user, link=link.pk)
    return user


def _user_create(*, username: str, password: str, language: str, **flags) -> AbstractBaseUser:
    user = get_user_model().objects.create_user(username=username, password=password, **flags)
    Profile.objects.create(user=user, language=language)
    return user


def setup_redeem(*, token: str, username: str, password: str, language: str, request=None):
    """Use the setup link: create the first instructor (a superuser). Only while no
    account exists: every setup link is locked first, so two links redeemed at once
    cannot both see an empty user table."""
    with transaction.atomic():
        list(SetupLink.objects.select_for_update().order_by("pk").values_list("pk", flat=True))
        link = _link_lookup(SetupLink, token)
        user = _user_create(
            username=username,
            password=password,
            language=language,
            is_staff=True,
            is_superuser=True,
        )
        link.used_at = timezone.now()
        link.save(update_fields=["used_at"])
        audit_record(kind=AuditKind.SETUP_LINK_USED, request=request, user=user)
    return user


def invite_redeem(*, token: str, username: str, password: str, language: str, request=None):
    """Use an invite: create the learner's account, or the instructor's (staff, in the
    Instructors group, teaching the invite's cohort)."""
    with transaction.atomic():
        invite = _link_lookup(Invite, token)
        instructor = invite.role == InviteRole.INSTRUCTOR
        user = _user_create(
            username=username, password=password, language=language, is_staff=instructor
        )
        invite.used_at = timezone.now()
        invite.used_by = user
        invite.save(update_fields=["used_at", "used_by"])
        if instructor:
            user.groups.add(Group.objects.get_or_create(name=INSTRUCTORS_GROUP)[0])
            invite.cohort.instructors.add(user)
        elif invite.cohort_id:
            invite.cohort.learners.add(user)
        audit_record(kind=AuditKind.INVITE_REDEEMED, request=request, user=user, invite=invite.pk)
    return user


def invites_of_maker_end(*, maker) -> int:
    """End the unused invites `maker` made, as their account is deleted: the invites'
    maker is then set to none, which reads as an invite made on the server, valid for
    7 days whoever made it (`inviter_may_still_invite`)."""
    now = timezone.now()
    unused = Invite.objects.filter(created_by=maker, used_at__isnull=True, expires_at__gt=now)
    return unused.update(expires_at=now)


def setup_links_void() -> int:
    """Mark every unused setup link used: once any account exists, none may make another
    superuser. Called whenever an account is created (signals.py)."""
    return SetupLink.objects.filter(used_at__isnull=True).update(used_at=timezone.now())


def login_key(username: str) -> str:
    """Usernames are compared case-insensitively by the throttle, so `Ana` and `ANA`
    share one counter."""
    return username.strip().casefold()[:150]


def profile_language_set(*, user, language: str) -> None:
    Profile.objects.update_or_create(user=user, defaults={"language": language})


def profile_time_zone_set(*, user, time_zone: str, language: str) -> None:
    """The zone the learner's dates are shown in ("" for the browser's), validated. An
    account made without a profile (in the admin) gets one in `language`, the one it
    reads now, not the default, which the next login would switch it to."""
    time_zone_validate(time_zone)
    Profile.objects.update_or_create(
        user=user,
        defaults={"time_zone": time_zone},
        create_defaults={"time_zone": time_zone, "language": language},
    )
