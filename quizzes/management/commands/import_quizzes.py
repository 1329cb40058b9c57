"""`manage.py import_quizzes`: validate the quiz YAML and apply it in one transaction."""

import gc
from pathlib import Path

from django.conf import settings
from django.core.management.base import BaseCommand, CommandError
from django.db.models import prefetch_related_objects
from django.utils.module_loading import import_string

from audit.enums import AuditKind
from audit.services import audit_record
from portal.commands import refuse_unmigrated
from quizzes.enums import QuestionKind
from quizzes.grading.explain import key_explain
from quizzes.loader import load_quiz_set
from quizzes.models import Question
from quizzes.services import ImportPlan, ImportRefused, imported_files, quiz_import

# Above this many files, the command reports each file as it reads it.
PROGRESS_FROM_FILES = 10


def impact_count(plan: ImportPlan) -> dict[str, tuple[int, int]]:
    """(learners, attempts) per changed question on the revisions it leaves behind, from
    the function settings.QUIZ_IMPORT_IMPACT names (quizzes knows nothing of learners)."""
    path = getattr(settings, "QUIZ_IMPORT_IMPACT", None)
    if not path or not plan.changed:
        return {}
    impact = import_string(path)
    by_id = impact(
        {plan.question_ids[d.code]: plan.next_revision_ids[d.code] for d in plan.changed}
    )
    return {
        doc.code: tuple(by_id[plan.question_ids[doc.code]])
        for doc in plan.changed
        if plan.question_ids[doc.code] in by_id
    }


def impact_counted() -> bool:
    """Whether a function counts the attempts an edit touches (QUIZ_IMPORT_IMPACT)."""
    return bool(getattr(settings, "QUIZ_IMPORT_IMPACT", None))


def regrade_due(plan: ImportPlan, impact: dict[str, tuple[int, int]]) -> list[str]:
    """The questions whose regrade is worth running: a key changed that a regrade can
    grade by, with attempts before this edit when they are counted (a question nobody
    answered yet has nothing to regrade, author walk 1 of round 2)."""
    if not impact_counted():
        return plan.to_regrade
    return [code for code in plan.to_regrade if impact.get(code, (0, 0))[1]]


def renamed_to(*, plan: ImportPlan, retired: list[Question]) -> dict[str, str]:
    """Retired question's id → an added question's, where both are of one kind with one
    English title: most likely an id renamed, which keeps no history (author walk)."""
    added = {(doc.kind, doc.title.get("en")): doc.code for doc in plan.added}
    found: dict[str, str] = {}
    if not added:
        return found
    prefetch_related_objects(retired, "current_revision")
    for question in retired:
        revision = question.current_revision
        if revision is not None and (
            same := added.get((revision.kind, revision.title_texts.get("en")))
        ):
            found[question.code] = same
    return found


class Command(BaseCommand):
    help = (
        "Import quiz YAML files (default: the whole data/quizzes folder). Every problem "
        "in the set is listed and nothing is written unless the whole set is valid. Files "
        "unchanged since the last import are not read again. Paths import those files "
        "only; phases with no file among them are left as they are unless --prune."
    )

    def add_arguments(self, parser):
        parser.add_argument("paths", nargs="*", type=Path, help="Files or folders.")
        parser.add_argument(
            "--dry-run", action="store_true", help="Print the plan and write nothing."
        )
        parser.add_argument(
            "--explain",
            action="store_true",
            help="Print each free question's key as the matcher reads it (every file is read).",
        )
        parser.add_argument(
            "--key-warnings",
            choices=["list", "count"],
            default="list",
            help="Warnings about free-text keys that may not hold: each on a line (the "
            "default), or one line that counts them (`manage.py prepare`, for `make run`).",
        )
        parser.add_argument(
            "--prune",
            action="store_true",
            help="The paths are the whole bank: retire the phases that have no file in them "
            "(the default without paths).",
        )

    def handle(self, *args, **options):
        refuse_unmigrated(Question)
        data_dir = Path(settings.QUIZ_DATA_DIR)
        paths = options["paths"] or [data_dir]
        dry_run = options["dry_run"]
        verbosity = options["verbosity"]
        # The whole bank is the data folder itself; any other path is a part of it.
        prune = options["prune"] or [p.resolve() for p in paths] == [data_dir.resolve()]

        def on_file(index, total, path):
            if verbosity >= 1 and total > PROGRESS_FROM_FILES:
                self.stderr.write(f"[{index}/{total}] {path.name}")

        explain = options["explain"]
        known = None if explain else imported_files()
        quiz_set = load_quiz_set(paths, on_file=on_file, known=known)
        # Tens of thousands of model instances and no reference cycles: the cyclic
        # collector would only rescan them (the loader pauses it the same way).
        collecting = gc.isenabled()
        gc.disable()
        try:
            plan = quiz_import(quiz_set=quiz_set, dry_run=dry_run, prune=prune)
        except ImportRefused as refused:
            if explain and verbosity >= 1:  # how the keys read is what a refused example needs
                read = quiz_set.phases + quiz_set.examples_refused
                self.keys_explain([q for phase in read for q in phase.questions], full=True)
            for problem in refused.problems:
                self.stderr.write(self.style.ERROR(str(problem)))
            raise CommandError(
                f"{len(refused.problems)} problem(s) found; nothing was imported."
            ) from None
        finally:
            if collecting:
                gc.enable()

        if verbosity >= 1:
            warnings = self.keys_explain(quiz_set.questions, full=explain)
            if options["key_warnings"] == "list":
                for warning in warnings:
                    self.stderr.write(self.style.WARNING(warning))
            elif warnings:
                self.stderr.write(
                    self.style.WARNING(
                        f"{len(warnings)} warning(s) about free-text keys that may not hold, "
                        "for the quiz's authors: `manage.py import_quizzes --dry-run "
                        "--explain` lists them (docs/grading.md)."
                    )
                )
        impact = impact_count(plan)
        if plan.changed and verbosity >= 1:
            self.changed_write(plan, impact)
        if plan.refiled_phases and verbosity >= 1:
            # Its questions missing from the new file are retired above: say why (an
            # author walk: a copied file given a new slug, its phase number kept).
            self.stdout.write(
                self.style.MIGRATE_HEADING(
                    "Would read phases from another file than before (their questions "
                    "not in it retire):"
                    if dry_run
                    else "Read phases from another file than before (their questions "
                    "not in it retired):"
                )
            )
            for phase, name in plan.refiled_phases:
                self.stdout.write(f"  phase {phase.number}: {phase.source_file} → {name}")
        # Named at any verbosity: a question cut from a file by mistake is hidden from
        # learners, and "retired: 1" alone does not say which (UX walk). A retired
        # phase's questions are named by their phase, below.
        gone = {phase.pk for phase in plan.retired_phases}
        retired = [q for q in plan.retired if q.phase_id not in gone]
        if retired and verbosity >= 1:
            self.stdout.write(
                self.style.MIGRATE_HEADING(
                    "Would retire (hidden from learners, attempts kept):"
                    if dry_run
                    else "Retired (hidden from learners, attempts kept):"
                )
            )
            renamed = renamed_to(plan=plan, retired=retired)
            for question in retired:
                line = f"  {question.code}"
                if question.code in renamed:
                    new = renamed[question.code]
                    line += (
                        f" (added as {new}, the same title? An id is the question: its "
                        f"attempts stay with {question.code} and learners see {new} "
                        f"unanswered; keep the id to keep them)"
                    )
                self.stdout.write(line)
        if plan.restored and verbosity >= 1:
            # A question cut and put back is shown again, with its attempts: said, as a
            # retired one is, not left among the unchanged (author walk 1 of round 2).
            self.stdout.write(
                self.style.MIGRATE_HEADING(
                    "Would show again (retired until now, attempts kept):"
                    if dry_run
                    else "Shown again (retired until now, attempts kept):"
                )
            )
            for code in plan.restored:
                self.stdout.write(f"  {code}")
        if plan.moved and verbosity >= 1:
            self.moved_write(plan)
        if verbosity >= 2:
            for heading, items in (
                ("Added", [d.code for d in plan.added]),
                ("Unchanged", plan.unchanged),
            ):
                if items:
                    self.stdout.write(self.style.MIGRATE_HEADING(f"{heading}:"))
                    for code in items:
                        self.stdout.write(f"  {code}")
        if not dry_run:
            audit_record(
                kind=AuditKind.IMPORT_RUN,
                summary=plan.summary(),
                via="command",
                changes=plan.changes,
                impact={code: list(counts) for code, counts in impact.items()},
                regrade=regrade_due(plan, impact),
            )
        if plan.retired_phases and verbosity >= 1:
            verb = "Would retire" if dry_run else "Retired"
            self.stdout.write(
                self.style.WARNING(f"{verb} (hidden from learners), no file for them here:")
            )
            for phase in plan.retired_phases:
                self.stdout.write(f"  phase {phase.number} ({phase.source_file})")
        if plan.restored_phases and verbosity >= 1:
            verb = "Would show again" if dry_run else "Shown again"
            self.stdout.write(f"{verb} (retired until now, its file read here):")
            for phase in plan.restored_phases:
                self.stdout.write(f"  phase {phase.number} ({phase.source_file})")
        if verbosity >= 1:
            self.stdout.write(self.style.SUCCESS(plan.summary()))

    def changed_write(self, plan: ImportPlan, impact: dict[str, tuple[int, int]]) -> None:
        """Per changed question: who answered it before this edit, counted once (the
        attempts on the revision it had until this import are among them), and what
        changed; then the regrade to run when a key changed."""
        count = import_string(settings.QUIZ_ATTEMPT_COUNTER)
        # The revisions it had, and those it points at after: a new one has no attempts,
        # an earlier one (an edit undone) has those answered on it.
        nexts = [n for d in plan.changed if (n := plan.next_revision_ids.get(d.code))]
        attempts = count([plan.current_revision_ids[d.code] for d in plan.changed] + nexts)
        self.stdout.write(self.style.MIGRATE_HEADING("Changed:"))
        for doc in plan.changed:
            on_last = attempts.get(plan.current_revision_ids[doc.code], 0)
            if doc.code in impact:
                learners, answered = impact[doc.code]
                self.stdout.write(
                    f"  {doc.code}: {answered} attempt(s) by {learners} learner(s) before "
                    f"this edit, {on_last} of them on the revision it had until now"
                )
            elif back := attempts.get(plan.next_revision_ids.get(doc.code), 0):
                self.stdout.write(
                    f"  {doc.code}: back to an earlier revision, which {back} attempt(s) "
                    "answered (they stand on its key)"
                )
            elif impact_counted():
                self.stdout.write(f"  {doc.code}: no attempts before this edit")
            else:
                self.stdout.write(
                    f"  {doc.code}: {on_last} attempt(s) on the revision it had until now"
                )
            for line in plan.changes[doc.code]:
                self.stdout.write(f"    {line}")
        to_regrade = regrade_due(plan, impact)
        if unanswered := [c for c in plan.to_regrade if c not in to_regrade]:
            self.stdout.write(f"Key changed, no attempts to regrade: {', '.join(unanswered)}")
        if to_regrade:
            when = "after importing, " if plan.dry_run else ""
            self.stdout.write(
                f"Key changed; {when}regrade older attempts with: "
                f"manage.py regrade {' '.join(to_regrade)}"
            )
        if plan.not_regradable:
            self.stdout.write(
                f"Key changed with nothing to regrade (kind changed, or options added, "
                f"removed or lettered again): {', '.join(plan.not_regradable)}; "
                f"their attempts stand as graded under the revision they answered"
            )

    def moved_write(self, plan: ImportPlan) -> None:
        """Questions taken into another phase: the plan's counts do not show them, and
        an id copied from another phase's file takes that question over (author walk)."""
        verb = "Would move" if plan.dry_run else "Moved"
        self.stdout.write(self.style.MIGRATE_HEADING(f"{verb} to another phase (attempts kept):"))
        for code, was, number, was_read in plan.moved:
            line = f"  {code}: phase {was.number} → {number}"
            if not was_read and was.retired_at is None:
                line += (
                    f" (not in the files read: if {was.source_file} still has {code}, "
                    f"the id was copied; give the new question its own id)"
                )
            self.stdout.write(line)

    def keys_explain(self, questions, *, full: bool) -> list[str]:
        """Warnings about free keys that will not hold (see docs/grading.md), returned
        to be listed or counted; with `full`, every phrasing as the matcher reads it is
        written, each warning beside its phrasing."""
        warnings = []
        for question in questions:
            if question.kind != QuestionKind.FREE:
                continue
            explained = key_explain(expected=question.expected, reject=question.reject or ())
            if full:
                self.stdout.write(self.style.MIGRATE_HEADING(f"{question.code}:"))
            for mention in explained:
                # Located as the import's errors are: the file and the mention's line.
                lines = (
                    question.expected_lines if mention.kind == "expected" else question.reject_lines
                )
                line = lines[mention.index - 1] if mention.index <= len(lines) else question.line
                label = f"{question.path}:{line}: {question.code}: {mention.kind} {mention.index}"
                if full:
                    self.stdout.write(f"  {mention.kind} {mention.index}:")
                warnings += self.inline(full, [f"{label}: {w}" for w in mention.warnings])
                for phrasing in mention.phrasings:
                    if full:
                        for reading in phrasing.readings:
                            self.stdout.write(f"    {phrasing.text!r} → {reading}")
                    warnings += self.inline(
                        full, [f"{label}: {phrasing.text!r} {w}" for w in phrasing.warnings]
                    )
        return warnings

    def inline(self, full: bool, warnings: list[str]) -> list[str]:
        """With --explain, warnings are written where they belong, among the readings;
        otherwise they are returned, to be listed or counted."""
        if not full:
            return warnings
        for warning in warnings:
            self.stderr.write(self.style.WARNING(warning))
        return []
