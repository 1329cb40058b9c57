"""`manage.py regrade QUESTION_ID… | --grader`: grade older revisions' attempts against
the current key, or older graders' free answers with the current matcher."""

from django.contrib.auth import get_user_model
from django.core.management.base import BaseCommand, CommandError

from audit.enums import AuditKind
from audit.services import audit_record
from portal.commands import refuse_unmigrated
from progress.models import Attempt
from quizzes.grading import GRADER_VERSION
from quizzes.models import Question
from teaching.services import grader_regrade_plan, regrade_apply, regrade_plan


class Command(BaseCommand):
    help = (
        "Grade the attempts of older revisions of the given questions again against the "
        "current revision's key, where the options still match by key; or, with --grader, "
        "grade free answers that an older matcher graded again with the current one, on "
        "the key each verdict stands on (the answer's revision's, or the newer one a "
        "regrade graded it by; all free questions, or the given ones). Prints the "
        "plan first; with --dry-run, writes nothing. An attempt's answer and first grade are "
        "never changed: each change is recorded as a regrade entry (the attempt's doubts "
        "follow the new grading), and an instructor's override is kept."
    )

    def add_arguments(self, parser):
        parser.add_argument("question_ids", nargs="*", help="Question ids, such as q-19-03.")
        parser.add_argument(
            "--grader",
            action="store_true",
            help=f"Re-grade free answers graded before grader version {GRADER_VERSION}.",
        )
        parser.add_argument("--dry-run", action="store_true", help="Print the plan only.")

    def handle(self, *args, **options):
        refuse_unmigrated(Attempt)
        codes, grader, dry_run = options["question_ids"], options["grader"], options["dry_run"]
        if not codes and not grader:
            raise CommandError("Name the questions to regrade, or pass --grader.")
        questions = list(Question.objects.filter(code__in=codes))
        missing = sorted(set(codes) - {q.code for q in questions})
        if missing:
            raise CommandError(f"Unknown question id(s): {', '.join(missing)}")

        if grader:
            plan = grader_regrade_plan(questions=questions or None)
        else:
            plan = regrade_plan(questions=questions)
        prefix = "dry run: " if dry_run else ""
        self.stdout.write(f"{prefix}{plan.summary()}")
        if options["verbosity"] >= 2:
            # The learner by name: an id told the instructor nothing (author walk 1 of
            # round 2); the names in one query, at -v 2 only.
            learners = {change.attempt.learner_id for change in plan.changes}
            names = dict(
                get_user_model()
                .objects.filter(pk__in=learners)
                .values_list("pk", get_user_model().USERNAME_FIELD)
            )
            for change in plan.changes:
                attempt = change.attempt
                self.stdout.write(
                    f"  {attempt.question.code} attempt {attempt.pk} of "
                    f"{names[attempt.learner_id]}: {word(change.old_correct)} → "
                    f"{word(change.result.correct)}"
                    + (f" ({change.reason})" if change.reason else "")
                )
        if dry_run:
            return
        written = regrade_apply(plan=plan)
        audit_record(
            kind=AuditKind.REGRADE_RUN,
            questions=sorted(codes) or "all free questions",
            changed=written,
            to_right=plan.to_right,
            to_wrong=plan.to_wrong,
            via="command",
            **({"grader": GRADER_VERSION} if grader else {}),
        )
        self.stdout.write(
            self.style.SUCCESS(
                f"{written} regrade {'entry' if written == 1 else 'entries'} recorded."
            )
        )


def word(correct: bool) -> str:
    return "right" if correct else "wrong"
