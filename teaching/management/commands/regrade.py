"""`manage.py regrade QUESTION_ID…`: grade older revisions' attempts against the current key."""

from django.core.management.base import BaseCommand, CommandError

from audit.enums import AuditKind
from audit.services import audit_record
from quizzes.models import Question
from teaching.services import regrade_apply, regrade_plan


class Command(BaseCommand):
    help = (
        "Grade the attempts of older revisions of the given questions again against the "
        "current revision's key, where the options still match by key. Prints the plan "
        "first; with --dry-run, writes nothing. Attempts are never changed: each change "
        "is recorded as a regrade entry."
    )

    def add_arguments(self, parser):
        parser.add_argument("question_ids", nargs="+", help="Question ids, such as q-19-03.")
        parser.add_argument("--dry-run", action="store_true", help="Print the plan only.")

    def handle(self, *args, **options):
        codes, dry_run = options["question_ids"], options["dry_run"]
        questions = list(Question.objects.filter(code__in=codes))
        missing = sorted(set(codes) - {q.code for q in questions})
        if missing:
            raise CommandError(f"Unknown question id(s): {', '.join(missing)}")

        plan = regrade_plan(questions=questions)
        prefix = "dry run: " if dry_run else ""
        self.stdout.write(f"{prefix}{plan.summary()}")
        if dry_run:
            return
        written = regrade_apply(plan=plan)
        audit_record(
            kind=AuditKind.REGRADE_RUN,
            questions=sorted(codes),
            changed=written,
            to_right=plan.to_right,
            to_wrong=plan.to_wrong,
            via="command",
        )
        self.stdout.write(self.style.SUCCESS(f"{written} regrade entries recorded."))
