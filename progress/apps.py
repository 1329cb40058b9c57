"""App config for learners' progress: attempts, review and cohorts."""

from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _


class ProgressConfig(AppConfig):
    name = "progress"
    verbose_name = _("Progress")

    def ready(self):
        from . import signals  # noqa: F401 - connects the importer's receivers
