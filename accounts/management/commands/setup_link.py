"""`manage.py setup_link`: print a one-time link for creating the first instructor."""

from django.contrib.auth import get_user_model
from django.core.management.base import BaseCommand, CommandError

from accounts.services import setup_link_create
from portal.commands import refuse_unmigrated


class Command(BaseCommand):
    help = (
        "Print a one-time link, valid for 24 hours, where the first instructor chooses "
        "a username and password. Refused once any account exists."
    )

    def add_arguments(self, parser):
        parser.add_argument(
            "--if-no-accounts",
            action="store_true",
            help="Print nothing and succeed when accounts exist (used by `manage.py prepare`, "
            "which `make run` and `make serve` run).",
        )

    def handle(self, *args, **options):
        refuse_unmigrated(get_user_model())
        if get_user_model().objects.exists():
            if options["if_no_accounts"]:
                return
            raise CommandError(
                "Accounts already exist; log in, or use `manage.py createsuperuser`."
            )
        url = setup_link_create()
        self.stdout.write("No account exists yet. Create the first instructor here (24 h):")
        self.stdout.write(self.style.SUCCESS(url))
