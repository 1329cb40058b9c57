"""Choices used by the accounts models."""

from django.db import models
from django.utils.translation import gettext_lazy as _

# AuditKind moved to the audit app; re-exported while other code still imports it here.
from audit.enums import AuditKind  # noqa: F401


class Language(models.TextChoices):
    EN = "en", _("English")
    ES = "es", _("Spanish")
