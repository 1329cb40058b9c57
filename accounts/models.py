"""Accounts: learner profile and one-time links (setup, invite, new password)."""

from django.conf import settings
from django.db import models
from django.db.models import Q
from django.utils import timezone
from django.utils.translation import gettext
from django.utils.translation import gettext_lazy as _

from portal.moments import moment_text

from .enums import InviteRole, Language
from .time_zones import time_zone_validate


class Profile(models.Model):
    user = models.OneToOneField(
        settings.AUTH_USER_MODEL,
        on_delete=models.CASCADE,
        related_name="profile",
        verbose_name=_("user"),
    )
    language = models.CharField(
        _("language"), max_length=5, choices=Language.choices, default=Language.EN
    )
    # An IANA name ("Europe/Madrid"); empty: the time zone the browser reports.
    time_zone = models.CharField(
        _("time zone"),
        max_length=64,
        blank=True,
        validators=[time_zone_validate],
        help_text=_("Leave empty to use the time zone of the learner's browser."),
    )

    class Meta:
        verbose_name = _("profile")
        verbose_name_plural = _("profiles")

    def __str__(self) -> str:
        return f"{self.user} ({self.language})"


class OneTimeLinkQuerySet(models.QuerySet):
    def usable(self):
        return self.filter(used_at__isnull=True, expires_at__gt=timezone.now())


class OneTimeLink(models.Model):
    """A link that works once before it expires. Only a hash of its token is stored,
    so a database leak gives no working links."""

    token_hash = models.CharField(_("token hash"), max_length=64, unique=True)
    created_at = models.DateTimeField(_("created at"), default=timezone.now)
    expires_at = models.DateTimeField(_("expires at"))
    used_at = models.DateTimeField(_("used at"), null=True, blank=True)

    objects = OneTimeLinkQuerySet.as_manager()

    class Meta:
        abstract = True


class SetupLink(OneTimeLink):
    """The link that lets the first instructor choose a username and password."""

    class Meta:
        verbose_name = _("setup link")
        verbose_name_plural = _("setup links")

    def __str__(self) -> str:
        return f"setup link {moment_text(self.created_at)}"  # in the viewer's zone


class Invite(OneTimeLink):
    """An invitation for one learner, or one instructor of the cohort, redeemed once
    within its validity."""

    created_by = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        on_delete=models.SET_NULL,
        null=True,
        blank=True,
        related_name="invites_sent",
        verbose_name=_("created by"),
    )
    note = models.CharField(_("note"), max_length=200, blank=True)
    cohort = models.ForeignKey(
        "teaching.Cohort",
        on_delete=models.SET_NULL,
        null=True,
        blank=True,
        related_name="invites",
        verbose_name=_("cohort"),
        help_text=_("Redeeming the invite makes the learner a member."),
    )
    role = models.CharField(
        _("role"),
        max_length=16,
        choices=InviteRole.choices,
        default=InviteRole.LEARNER,
        help_text=_(
            "An instructor's invite (a superuser's, valid for a day) makes a staff account "
            "in the Instructors group that teaches the cohort."
        ),
    )
    used_by = models.OneToOneField(
        settings.AUTH_USER_MODEL,
        on_delete=models.SET_NULL,
        null=True,
        blank=True,
        related_name="invite",
        verbose_name=_("used by"),
    )

    class Meta:
        ordering = ["-created_at"]
        verbose_name = _("invite")
        verbose_name_plural = _("invites")
        constraints = [
            models.CheckConstraint(
                condition=Q(used_by__isnull=True) | Q(used_at__isnull=False),
                name="invite_used_by_has_used_at",
            )
        ]

    def __str__(self) -> str:
        # In the viewer's language and time zone.
        return self.note or gettext("invite %(when)s") % {"when": moment_text(self.created_at)}


class PasswordLink(OneTimeLink):
    """A link that lets a learner who forgot their password choose a new one, made by an
    instructor of one of their cohorts (or a superuser) and handed over by them."""

    user = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        on_delete=models.CASCADE,
        related_name="password_links",
        verbose_name=_("learner"),
        # Learners only: a staff account's password, or a superuser's (staff status
        # unticked or not), is set by a superuser on its page.
        limit_choices_to={"is_staff": False, "is_superuser": False, "is_active": True},
    )
    created_by = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        on_delete=models.SET_NULL,
        null=True,
        blank=True,
        related_name="password_links_made",
        verbose_name=_("created by"),
    )
    # A keyed hash of the learner's password hash when the link was made: a password
    # changed since (the learner remembered it) ends the link (services.py). Empty in
    # links made before it was kept.
    password_mark = models.CharField(_("password mark"), max_length=64, blank=True, editable=False)

    class Meta:
        ordering = ["-created_at"]
        verbose_name = _("new-password link")
        verbose_name_plural = _("new-password links")

    def __str__(self) -> str:
        # In the viewer's language and time zone.
        return gettext("for %(user)s, %(when)s") % {
            "user": self.user,
            "when": moment_text(self.created_at),
        }


class LoginThrottle(models.Model):
    """Login attempts counted for one username from one address (`address` set) or from
    everywhere (`address` empty). An attempt is counted before its password is checked
    and given back if it succeeds, so parallel tries cannot all pass the check."""

    username = models.CharField(_("username"), max_length=150)
    address = models.CharField(_("address"), max_length=45, blank=True)
    failures = models.PositiveIntegerField(_("failures"), default=0)
    window_start = models.DateTimeField(_("window start"), default=timezone.now)
    locked_until = models.DateTimeField(_("locked until"), null=True, blank=True)

    class Meta:
        verbose_name = _("login throttle")
        verbose_name_plural = _("login throttles")
        constraints = [
            models.UniqueConstraint(fields=["username", "address"], name="throttle_key_unique")
        ]
        indexes = [models.Index(fields=["window_start"], name="throttle_window_idx")]

    def __str__(self) -> str:
        return f"{self.username} @ {self.address or '*'}: {self.failures}"
