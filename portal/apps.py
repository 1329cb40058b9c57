"""App config for the project package (the `prepare` command, the `WindowCount` table)."""

import logging

from django.apps import AppConfig
from django.conf import settings

logger = logging.getLogger(__name__)


class PortalConfig(AppConfig):
    name = "portal"
    verbose_name = "Portal"

    def ready(self):
        # Every start path (manage.py, gunicorn, a container) sets Django up, so the
        # catalogs are compiled here rather than only by `make`. Up to date, it is a
        # few stat() calls.
        from .compile_messages import compile_all

        for locale_dir in settings.LOCALE_PATHS:
            try:
                compile_all(locale_dir)
            except OSError as error:  # a read-only file system: use what is there
                logger.warning("could not compile translations in %s: %s", locale_dir, error)
