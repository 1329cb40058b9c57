"""App config for the instructors' side: cohorts, results, regrades and their admin."""

from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _


class TeachingConfig(AppConfig):
    name = "teaching"
    verbose_name = _("Teaching")
