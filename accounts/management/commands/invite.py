"""`manage.py invite`: print one-time invite links for learners."""

from django.core.management.base import BaseCommand, CommandError

from accounts.models import Invite
from accounts.services import INVITE_VALID, invite_create
from portal.commands import refuse_unmigrated
from teaching.models import Cohort

NOTE_MAX = Invite._meta.get_field("note").max_length


class Command(BaseCommand):
    help = f"Print one-time invite links (valid for {INVITE_VALID.days} days), one per line."

    def add_arguments(self, parser):
        parser.add_argument("--count", type=int, default=1, help="How many links (1-500).")
        parser.add_argument(
            "--note",
            default="",
            help=f"A note kept with each invite (at most {NOTE_MAX} characters).",
        )
        parser.add_argument("--cohort", default=None, help="Name of the cohort to join.")

    def handle(self, *args, **options):
        refuse_unmigrated(Invite)
        count, note, cohort_name = options["count"], options["note"], options["cohort"]
        if not 1 <= count <= 500:
            raise CommandError("--count must be between 1 and 500.")
        if len(note) > NOTE_MAX:
            # Cut short, the note would no longer say what its author wrote.
            raise CommandError(f"--note must be at most {NOTE_MAX} characters ({len(note)} given).")
        cohort = None
        if cohort_name:
            cohort = Cohort.objects.filter(name=cohort_name).first()
            if cohort is None:
                raise CommandError(f"No cohort named {cohort_name!r}; create it in the admin.")
        for _ in range(count):
            _invite, url = invite_create(note=note, cohort=cohort)
            self.stdout.write(url)
