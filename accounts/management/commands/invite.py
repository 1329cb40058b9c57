"""`manage.py invite`: print one-time invite links for learners."""

from django.core.management.base import BaseCommand, CommandError

from accounts.services import invite_create


class Command(BaseCommand):
    help = "Print one-time invite links (valid for 7 days), one per line."

    def add_arguments(self, parser):
        parser.add_argument("--count", type=int, default=1, help="How many links (1-500).")
        parser.add_argument("--note", default="", help="A note kept with each invite.")

    def handle(self, *args, **options):
        count, note = options["count"], options["note"]
        if not 1 <= count <= 500:
            raise CommandError("--count must be between 1 and 500.")
        for _ in range(count):
            _invite, url = invite_create(note=note[:200])
            self.stdout.write(url)
