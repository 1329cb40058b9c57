"""`manage.py export_mirrors`: write (or check) the Markdown mirrors of the quiz YAML."""

from pathlib import Path

from django.conf import settings
from django.core.management.base import BaseCommand, CommandError

from quizzes.loader import load_quiz_set
from quizzes.mirrors import mirror_source_exists, render_all


class Command(BaseCommand):
    help = "Write an English and a Spanish Markdown mirror of each quiz file."

    def add_arguments(self, parser):
        parser.add_argument("--out", type=Path, default=None, help="Folder for the mirrors.")
        parser.add_argument("--source", type=Path, default=None, help="Folder of quiz YAML.")
        parser.add_argument(
            "--check",
            action="store_true",
            help="Write nothing; fail if the mirrors on disk differ from the YAML.",
        )

    def handle(self, *args, **options):
        out = options["out"] or Path(settings.QUIZ_MIRROR_DIR)
        source = options["source"] or Path(settings.QUIZ_DATA_DIR)
        check = options["check"]

        quiz_set = load_quiz_set([source])
        if quiz_set.problems:
            for problem in quiz_set.problems:
                self.stderr.write(self.style.ERROR(str(problem)))
            raise CommandError("The quiz files have problems; no mirrors were written.")
        base_dir = Path(settings.BASE_DIR)
        wanted = render_all(phases=quiz_set.phases, base_dir=base_dir)
        on_disk = {
            p.name
            for p in (out.glob("phase-*.md") if out.is_dir() else ())
            if p.name in wanted or not mirror_source_exists(mirror=p, base_dir=base_dir)
        }

        if check:
            stale = sorted(
                name
                for name, text in wanted.items()
                if not (out / name).is_file() or (out / name).read_text("utf-8") != text
            )
            extra = sorted(on_disk - set(wanted))
            if stale or extra:
                for name in stale:
                    self.stderr.write(f"out of date: {out / name}")
                for name in extra:
                    self.stderr.write(f"no YAML behind: {out / name}")
                raise CommandError(
                    "Mirrors differ from the YAML; run `python manage.py export_mirrors`."
                )
            self.stdout.write(self.style.SUCCESS(f"{len(wanted)} mirrors up to date."))
            return

        out.mkdir(parents=True, exist_ok=True)
        written = 0
        for name, text in wanted.items():
            path = out / name
            if not path.is_file() or path.read_text("utf-8") != text:
                path.write_text(text, encoding="utf-8")
                written += 1
                if options["verbosity"] >= 2:
                    self.stdout.write(f"wrote {path}")
        for name in sorted(on_disk - set(wanted)):
            (out / name).unlink()
            self.stdout.write(f"removed {out / name} (its YAML is gone)")
        self.stdout.write(self.style.SUCCESS(f"{written} of {len(wanted)} mirrors written."))
