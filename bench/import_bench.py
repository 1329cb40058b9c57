"""Benchmark: `manage.py import_quizzes` at course-bank scale, as a whole process.

Generates 100 phase files × 100 questions (10,000; code blocks in prompts and options,
Spanish beside English, long explanations, some free questions with rejected mentions and
graded examples) and times the command in a subprocess on a fresh SQLite file: the first
import, a re-import with nothing changed, and one with one file edited. Run with
`make bench` or `python bench/import_bench.py [--files N --questions N]`.
"""

import argparse
import os
import resource
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from quizzes.enums import QuestionKind  # noqa: E402

TARGETS = {"first import": 6.0, "re-import, nothing changed": 1.5, "re-import, 1 file edited": 1.5}

CODE = """\
      ```python
      scale = x.pow(2).mean(-1, keepdim=True).add(eps).rsqrt()
      ```"""
EXPLANATION_EN = (
    "The residual stream keeps an identity path from the input to the output, so the "
    "gradient of the loss reaches early layers without shrinking through every block. "
)
EXPLANATION_ES = (
    "El flujo residual mantiene un camino de identidad de la entrada a la salida, así que "
    "el gradiente de la pérdida llega a las primeras capas sin encogerse en cada bloque. "
)


def question_yaml(phase: int, n: int) -> list[str]:
    kind = QuestionKind.values[n % 3]
    lines = [
        f"  - id: q-{phase:03d}-{n:03d}",
        f"    kind: {kind}",
        "    title:",
        f"      en: Question {n} of phase {phase}, about normalisation",
        f"      es: Pregunta {n} de la fase {phase}, sobre normalización",
        "    prompt:",
        "      en: |",
        "        What does this function compute, and why is `eps` there?",
        "",
        *("  " + line for line in CODE.splitlines()),
        "      es: |",
        "        ¿Qué calcula esta función y por qué está `eps`?",
        "",
        *("  " + line for line in CODE.splitlines()),
    ]
    if kind == QuestionKind.FREE:
        lines += [
            "    expected:",
            "      - [root mean square, rms, raíz cuadrática media]",
            "      - [division by zero, dividir por cero, divide by zero]",
            "    pass_mentions: 1",
        ]
        if n % 2:
            lines += [
                "    reject:",
                "      - [batch norm, batchnorm]",
                "    examples:",
                "      - {answer: It scales by the root mean square., right: true}",
                "      - {answer: Nada útil., right: false, lang: es}",
            ]
    else:
        lines.append("    options:")
        for key in "ABCD":
            correct = key == "B" or (kind == QuestionKind.MULTI and key == "C")
            lines += [
                f"      - key: {key}",
                "        text:",
                f"          en: Option {key}, with `x.pow(2).mean(-1)` in it",
                f"          es: Opción {key}, con `x.pow(2).mean(-1)` dentro",
            ]
            if correct:
                lines.append("        correct: true")
    lines += [
        "    explanation:",
        "      en: >",
        "        " + EXPLANATION_EN * 2,
        "      es: >",
        "        " + EXPLANATION_ES * 2,
    ]
    return lines


def write_bank(folder: Path, files: int, questions: int) -> None:
    for phase in range(1, files + 1):
        lines = [
            "format: 1",
            f"phase: {phase}",
            f"slug: bank-{phase}",
            f"title: {{en: Bank phase {phase}, es: Fase {phase} del banco}}",
            "questions:",
        ]
        for n in range(1, questions + 1):
            lines += question_yaml(phase, n)
        name = f"phase-{phase:03d}-bank-{phase}.yaml"
        (folder / name).write_text("\n".join(lines) + "\n", encoding="utf-8")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--files", type=int, default=100)
    parser.add_argument("--questions", type=int, default=100)
    args = parser.parse_args()

    workdir = Path(tempfile.mkdtemp(prefix="import-bench-"))
    env = {
        **os.environ,
        "DATABASE_URL": f"sqlite:///{workdir / 'bench.sqlite3'}",
        "DJANGO_SETTINGS_MODULE": "portal.settings.base",
    }
    manage = [sys.executable, str(ROOT / "manage.py")]
    subprocess.run([*manage, "migrate", "-v0"], check=True, env=env, cwd=ROOT)
    quiz_dir = workdir / "quizzes"
    quiz_dir.mkdir()
    write_bank(quiz_dir, args.files, args.questions)
    size = sum(p.stat().st_size for p in quiz_dir.iterdir())

    def timed(label: str) -> tuple[str, float, float, str]:
        before = resource.getrusage(resource.RUSAGE_CHILDREN)
        start = time.perf_counter()
        done = subprocess.run(
            [*manage, "import_quizzes", str(quiz_dir), "-v1"],
            env=env,
            cwd=ROOT,
            capture_output=True,
            text=True,
            check=True,
        )
        elapsed = time.perf_counter() - start
        after = resource.getrusage(resource.RUSAGE_CHILDREN)
        cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
        return label, elapsed, cpu, done.stdout.strip().splitlines()[-1]

    runs = [timed("first import"), timed("re-import, nothing changed")]
    edited = quiz_dir / f"phase-{1:03d}-bank-1.yaml"
    edited.write_text(edited.read_text().replace("Option A,", "Option A (edited),", 3), "utf-8")
    runs.append(timed("re-import, 1 file edited"))

    total = args.files * args.questions
    print(
        f"import_quizzes, {args.files} files × {args.questions} questions = {total:,}, "
        f"{size / 1e6:.1f} MB of YAML, SQLite, whole process; load average "
        f"{os.getloadavg()[0]:.1f} on {os.cpu_count()} CPUs"
    )
    # CPU time says what the import costs when other work shares the cores.
    print("| run | time | CPU time | target | result |")
    print("| --- | --- | --- | --- | --- |")
    for label, elapsed, cpu, summary in runs:
        target = TARGETS[label]
        verdict = "ok" if elapsed <= target else "SLOW"
        print(f"| {label} | {elapsed:.2f} s | {cpu:.2f} s | ≤ {target:g} s {verdict} | {summary} |")


if __name__ == "__main__":
    main()
