"""Choices used by the progress models."""

from django.db import models
from django.utils.translation import gettext_lazy as _


class VerdictSource(models.TextChoices):
    """Where an attempt's effective verdict comes from."""

    ANSWER = "answer", _("as answered")
    REGRADE = "regrade", _("regrade")
    OVERRIDE = "override", _("instructor's override")
    # An instructor looked at a verdict the grader was unsure of and let it stand.
    CONFIRM = "confirm", _("instructor's confirmation")


# Entries written by a person: either ends a provisional verdict.
INSTRUCTOR_KINDS = (VerdictSource.OVERRIDE, VerdictSource.CONFIRM)
