"""Choices used by the accounts models."""

from django.db import models
from django.utils.translation import gettext_lazy as _


class Language(models.TextChoices):
    EN = "en", _("English")
    ES = "es", _("Spanish")


class InviteRole(models.TextChoices):
    LEARNER = "learner", _("Learner")
    INSTRUCTOR = "instructor", _("Instructor")
