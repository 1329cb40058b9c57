"""The append-only audit log."""

from django.conf import settings
from django.db import models
from django.utils import timezone
from django.utils.translation import gettext_lazy as _

from portal.db import WriteOnce

from .enums import AuditKind


class AuditEvent(WriteOnce):
    """Append-only record of security-relevant actions: logins and their failures,
    links, imports, regrades, overrides. (The login throttle counts in its own rows,
    accounts.LoginThrottle; these are the evidence.)"""

    write_once_message = "Audit events are append-only."

    kind = models.CharField(_("kind"), max_length=32, choices=AuditKind.choices)
    user = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        on_delete=models.SET_NULL,
        null=True,
        blank=True,
        related_name="+",
        verbose_name=_("user"),
    )
    # Whom the event is about: the username a login was tried with (case-folded), the
    # learner of an override.
    subject = models.CharField(_("subject"), max_length=150, blank=True)
    detail = models.JSONField(_("detail"), default=dict, blank=True)
    ip_address = models.GenericIPAddressField(_("IP address"), null=True, blank=True)
    created_at = models.DateTimeField(_("when"), default=timezone.now)

    class Meta:
        # The table the model had when it lived in accounts: moving it copied nothing.
        db_table = "accounts_auditevent"
        ordering = ["-created_at"]
        verbose_name = _("audit event")
        verbose_name_plural = _("audit events")
        indexes = [
            models.Index(fields=["kind", "subject", "created_at"], name="audit_throttle_idx"),
            models.Index(fields=["created_at"], name="audit_created_idx"),
        ]

    def __str__(self) -> str:
        return f"{self.get_kind_display()} {self.subject or self.user_id or ''}".strip()
