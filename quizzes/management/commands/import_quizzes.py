"""`manage.py import_quizzes`: validate the quiz YAML and apply it in one transaction."""

from pathlib import Path

from django.conf import settings
from django.core.management.base import BaseCommand, CommandError
from django.utils.module_loading import import_string

from accounts.enums import AuditKind
from accounts.services import audit_record
from quizzes.loader import load_quiz_set
from quizzes.services import ImportRefused, quiz_import

# Above this many files, the command reports each file as it reads it.
PROGRESS_FROM_FILES = 10


class Command(BaseCommand):
    help = (
        "Import quiz YAML files (default: data/quizzes). Every problem in the set is "
        "listed and nothing is written unless the whole set is valid."
    )

    def add_arguments(self, parser):
        parser.add_argument("paths", nargs="*", type=Path, help="Files or folders.")
        parser.add_argument(
            "--dry-run", action="store_true", help="Print the plan and write nothing."
        )

    def handle(self, *args, **options):
        paths = options["paths"] or [Path(settings.QUIZ_DATA_DIR)]
        dry_run = options["dry_run"]
        verbosity = options["verbosity"]

        def on_file(index, total, path):
            if verbosity >= 1 and total > PROGRESS_FROM_FILES:
                self.stderr.write(f"[{index}/{total}] {path.name}")

        quiz_set = load_quiz_set(paths, on_file=on_file)
        try:
            plan = quiz_import(quiz_set=quiz_set, dry_run=dry_run)
        except ImportRefused as refused:
            for problem in refused.problems:
                self.stderr.write(self.style.ERROR(str(problem)))
            raise CommandError(
                f"{len(refused.problems)} problem(s) found; nothing was imported."
            ) from None

        if plan.changed and (dry_run or verbosity >= 2):
            # What the edit touches: attempts stay on the revision they answered.
            count = import_string(settings.QUIZ_ATTEMPT_COUNTER)
            attempts = count([plan.current_revision_ids[d.code] for d in plan.changed])
            self.stdout.write(
                self.style.MIGRATE_HEADING("Changed (attempts on the current revision):")
            )
            for doc in plan.changed:
                revision_id = plan.current_revision_ids[doc.code]
                self.stdout.write(f"  {doc.code}: {attempts.get(revision_id, 0)} attempt(s)")
        if verbosity >= 2:
            for heading, items in (
                ("Added", [d.code for d in plan.added]),
                ("Retired", [q.code for q in plan.retired]),
                ("Unchanged", [d.code for d in plan.unchanged]),
            ):
                if items:
                    self.stdout.write(self.style.MIGRATE_HEADING(f"{heading}:"))
                    for code in items:
                        self.stdout.write(f"  {code}")
        if not dry_run:
            audit_record(kind=AuditKind.IMPORT_RUN, summary=plan.summary(), via="command")
        if verbosity >= 1:
            self.stdout.write(self.style.SUCCESS(plan.summary()))
