"""`manage.py prepare`: what `make run` and `make serve` do before serving, in one process.

Migrate, import the quizzes, print the instructor setup link if no account exists, and
clear the ended windows of the counts that bound clients (`portal/counters.py`).
Warnings about free-text keys are counted on one line, not listed: they are for the
quiz's authors (`import_quizzes` lists them), not for whoever starts the portal.
One Django start-up instead of three keeps `make run` quick. The address about to be
served (PORTAL_BASE_URL, set by the Makefile) is kept in settings.SERVED_URL_FILE, for the
links that commands run later in another terminal print (`manage.py invite`). Run by
hand without PORTAL_BASE_URL, it does not know what will be served: an address kept by
an earlier `make run` would be stale, so it is dropped and links name runserver's
default, http://127.0.0.1:8000.
"""

import os

from django.conf import settings
from django.core.management import call_command
from django.core.management.base import BaseCommand

from portal.counters import counts_clear_ended
from portal.settings.base import portal_base_url


class Command(BaseCommand):
    help = "Migrate, import data/quizzes and print the setup link when no account exists."

    def handle(self, *args, **options):
        verbosity = options["verbosity"]
        served = os.environ.get("PORTAL_BASE_URL")
        if served and settings.SERVED_URL_FILE:
            settings.SERVED_URL_FILE.write_text(served.rstrip("/") + "\n")
        elif settings.SERVED_URL_FILE and settings.SERVED_URL_FILE.exists():
            settings.SERVED_URL_FILE.unlink()
            settings.PORTAL_BASE_URL = portal_base_url(os.environ, settings.SERVED_URL_FILE)
        call_command("migrate", verbosity=0, stdout=self.stdout, stderr=self.stderr)
        call_command(
            "import_quizzes",
            verbosity=verbosity,
            key_warnings="count",
            stdout=self.stdout,
            stderr=self.stderr,
        )
        call_command("setup_link", if_no_accounts=True, stdout=self.stdout, stderr=self.stderr)
        counts_clear_ended()
