"""Benchmark: page size and time of a 740-question phase and of home with 95 phases.

The questions are the import bench's (code blocks, both languages, long explanations),
so a card weighs what a real one does (in English: the big phase's file leaves out the
Spanish explanations to stay under the loader's 1 MiB limit). A learner has answered
60 questions of the big phase and a few elsewhere. Requests go through Django's test
client, in process, on a throwaway SQLite file. Target: no page over 250 kB.

Run with `make bench` or `python bench/size_bench.py`.
"""

import statistics
import sys
import tempfile
import time
from io import StringIO
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from bench.in_process import django_in_process  # noqa: E402

QUESTIONS, PHASES, SMALL = 740, 95, 8
PAGE_LIMIT = 250_000


def write_quizzes(folder: Path) -> None:
    from bench.import_bench import question_yaml

    for phase in range(1, PHASES + 1):
        count = QUESTIONS if phase == 1 else SMALL
        lines = [
            "format: 1",
            f"phase: {phase}",
            f"slug: size-{phase}",
            f"title: {{en: Phase of the size bench number {phase}, es: Fase {phase}}}",
            "questions:",
        ]
        for n in range(1, count + 1):
            question = question_yaml(phase, n)
            # The loader refuses files over 1 MiB: the big phase goes without Spanish
            # explanations (the last two lines), which an English page never shows.
            lines += question[:-2] if count == QUESTIONS else question
        (folder / f"phase-{phase:03d}-size-{phase}.yaml").write_text(
            "\n".join(lines) + "\n", encoding="utf-8"
        )


def main() -> None:
    workdir = Path(tempfile.mkdtemp(prefix="size-bench-"))
    django_in_process(workdir / "bench.sqlite3")
    from django.conf import settings
    from django.contrib.auth import get_user_model
    from django.core.management import call_command
    from django.db import connection
    from django.test import Client
    from django.test.utils import CaptureQueriesContext

    from progress.services import attempt_record
    from quizzes.models import Question

    quiz_dir = workdir / "quizzes"
    quiz_dir.mkdir()
    write_quizzes(quiz_dir)
    call_command("import_quizzes", str(quiz_dir), stdout=StringIO())

    learner = get_user_model().objects.create_user("bench-learner")
    answered = list(Question.objects.filter(phase__number=1).order_by("position")[:60]) + list(
        Question.objects.filter(phase__number=40).order_by("position")[:3]
    )
    for question in answered:
        revision = question.current_revision
        attempt_record(
            learner=learner,
            revision=revision,
            nonce=f"bench-{question.pk}",
            answer={"text": "root mean square"} if revision.is_free else {"keys": ["B"]},
            language="en",
        )
    client = Client()
    client.force_login(learner)

    def measure(label: str, url: str, runs: int = 7) -> int:
        times = []
        for _ in range(runs):
            with CaptureQueriesContext(connection) as queries:
                start = time.perf_counter()
                response = client.get(url)
                times.append(time.perf_counter() - start)
            assert response.status_code == 200, (url, response.status_code)
        size = len(response.content)
        verdict = "ok" if size <= PAGE_LIMIT else "TOO BIG"
        print(
            f"{label:<38} {size / 1000:6.1f} kB  best {min(times) * 1000:5.0f} ms"
            f"  median {statistics.median(times) * 1000:5.0f} ms  {len(queries):2d} queries"
            f"  {verdict}"
        )
        return size

    pages = -(-QUESTIONS // settings.PHASE_PAGE_SIZE)
    measure(f"phase of {QUESTIONS}, page 1 (answered)", "/phase/1/")
    measure(f"phase of {QUESTIONS}, page 3 (continue)", "/phase/1/?page=3")
    measure(f"phase of {QUESTIONS}, page {pages} (last)", f"/phase/1/?page={pages}")
    largest = max(len(client.get(f"/phase/1/?page={n}").content) for n in range(1, pages + 1))
    print(f"largest of the {pages} pages: {largest / 1000:.1f} kB")
    html = client.get("/phase/1/").content.decode()
    index = html[html.index('<ol class="question-index">') :]
    index = index[: index.index("</ol>") + 5]
    print(f"its index of {QUESTIONS} links: {len(index.encode()) / 1000:.1f} kB")
    measure(f"home, {PHASES} phases", "/")


if __name__ == "__main__":
    main()
