"""Choices used by the quiz models."""

from django.db import models
from django.utils.translation import gettext_lazy as _


class QuestionKind(models.TextChoices):
    SINGLE = "single", _("Single answer")
    MULTI = "multi", _("Multiple answers")
    FREE = "free", _("Free text")
    NUMERIC = "numeric", _("Number")
