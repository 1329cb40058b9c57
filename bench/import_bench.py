"""Benchmark: import_quizzes on 40 generated phases × 10 questions, then a no-op re-import.

Run with `make bench` (or `python bench/import_bench.py`). Uses a throwaway SQLite file
unless DATABASE_URL is set. Targets: first import under 2 s, no-op re-import under 0.5 s.
"""

import os
import sys
import tempfile
import time
from io import StringIO
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

PHASES, QUESTIONS = 40, 10


def write_phases(folder: Path) -> None:
    kinds = ["single", "multi", "free"]
    for phase in range(1, PHASES + 1):
        lines = [
            "format: 1",
            f"phase: {phase}",
            f"slug: generated-{phase}",
            f"title: {{en: Generated phase {phase}, es: Fase generada {phase}}}",
            "questions:",
        ]
        for n in range(1, QUESTIONS + 1):
            kind = kinds[n % 3]
            lines += [
                f"  - id: q-{phase:02d}-{n:02d}",
                f"    kind: {kind}",
                f"    title: {{en: Question {n} of phase {phase}, es: Pregunta {n}}}",
                "    prompt: {en: 'A prompt with `code` and σ, long enough to be realistic.'}",
            ]
            if kind == "free":
                lines += ["    expected:", "      - [identity, identidad]", "      - residual"]
            else:
                lines.append("    options:")
                for key in "ABCD":
                    lines.append(f"      - key: {key}")
                    lines.append(f"        text: {{en: Option {key}, es: Opción {key}}}")
                    if key == "B" or (kind == "multi" and key == "C"):
                        lines.append("        correct: true")
            lines.append("    explanation: {en: Because., es: Porque.}")
        name = f"phase-{phase:02d}-generated-{phase}.yaml"
        (folder / name).write_text("\n".join(lines) + "\n", encoding="utf-8")


def main() -> None:
    workdir = Path(tempfile.mkdtemp(prefix="import-bench-"))
    os.environ.setdefault("DATABASE_URL", f"sqlite:///{workdir / 'bench.sqlite3'}")
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "portal.settings.base")
    import django

    django.setup()
    from django.core.management import call_command
    from django.db import connection
    from django.test.utils import CaptureQueriesContext

    call_command("migrate", verbosity=0)
    quiz_dir = workdir / "quizzes"
    quiz_dir.mkdir()
    write_phases(quiz_dir)

    def timed(label: str, target: float) -> None:
        out = StringIO()
        with CaptureQueriesContext(connection) as queries:
            start = time.perf_counter()
            call_command("import_quizzes", str(quiz_dir), stdout=out, stderr=StringIO())
            elapsed = time.perf_counter() - start
        verdict = "ok" if elapsed < target else "SLOW"
        print(
            f"{label:<22} {elapsed * 1000:8.1f} ms  {len(queries):5d} queries  "
            f"target < {target * 1000:.0f} ms  {verdict}   [{out.getvalue().strip()}]"
        )

    print(f"import_quizzes, {PHASES} files × {QUESTIONS} questions, {connection.vendor}")
    timed("first import", 2.0)
    timed("no-op re-import", 0.5)
    path = quiz_dir / "phase-01-generated-1.yaml"
    path.write_text(path.read_text().replace("Option A", "Option A (edited)"), "utf-8")
    timed("re-import, 1 file edited", 2.0)


if __name__ == "__main__":
    main()
