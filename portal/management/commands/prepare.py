"""`manage.py prepare`: what `make run` and `make serve` do before serving, in one process.

Migrate, import the quizzes, and print the instructor setup link if no account exists.
One Django start-up instead of three keeps `make run` quick. The address about to be
served (PORTAL_BASE_URL, set by the Makefile) is kept in settings.SERVED_URL_FILE, for the
links that commands run later in another terminal print (`manage.py invite`).
"""

import os

from django.conf import settings
from django.core.management import call_command
from django.core.management.base import BaseCommand


class Command(BaseCommand):
    help = "Migrate, import data/quizzes and print the setup link when no account exists."

    def handle(self, *args, **options):
        verbosity = options["verbosity"]
        served = os.environ.get("PORTAL_BASE_URL")
        if served and settings.SERVED_URL_FILE:
            settings.SERVED_URL_FILE.write_text(served.rstrip("/") + "\n")
        call_command("migrate", verbosity=0, stdout=self.stdout, stderr=self.stderr)
        call_command("import_quizzes", verbosity=verbosity, stdout=self.stdout, stderr=self.stderr)
        call_command("setup_link", if_no_accounts=True, stdout=self.stdout, stderr=self.stderr)
