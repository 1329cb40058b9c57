"""Choices used by the progress models."""

from django.db import models
from django.utils.translation import gettext_lazy as _


class VerdictSource(models.TextChoices):
    """Where an attempt's effective verdict comes from."""

    ANSWER = "answer", _("as answered")
    REGRADE = "regrade", _("regrade")
    OVERRIDE = "override", _("instructor's override")
