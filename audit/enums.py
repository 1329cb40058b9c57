"""Kinds of audit events."""

from django.db import models
from django.utils.translation import gettext_lazy as _


class AuditKind(models.TextChoices):
    LOGIN = "login", _("Logged in")
    LOGIN_FAILED = "login_failed", _("Login failed")
    LOGIN_REFUSED = "login_refused", _("Login refused (throttled)")
    LOGOUT = "logout", _("Logged out")
    SETUP_LINK_CREATED = "setup_link_created", _("Setup link created")
    SETUP_LINK_USED = "setup_link_used", _("Setup link used")
    INVITE_CREATED = "invite_created", _("Invite created")
    INVITE_REDEEMED = "invite_redeemed", _("Invite redeemed")
    INVITE_ENDED = "invite_ended", _("Invite ended by hand")
    PASSWORD_CHANGED = "password_changed", _("Password changed")
    PASSWORD_LINK_CREATED = "password_link_created", _("New-password link created")
    PASSWORD_LINK_USED = "password_link_used", _("New-password link used")
    PASSWORD_LINK_ENDED = "password_link_ended", _("New-password link ended by hand")
    IMPORT_RUN = "import_run", _("Quiz import run")
    REGRADE_RUN = "regrade_run", _("Regrade run")
    VERDICT_OVERRIDDEN = "verdict_overridden", _("Verdict overridden by an instructor")
    VERDICT_CONFIRMED = "verdict_confirmed", _("Verdict confirmed by an instructor")
