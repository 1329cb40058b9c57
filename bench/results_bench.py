"""Benchmark: the cohort results view and CSV export at 1,000 learners × 100 questions ×
3 attempts (300,000 attempts). Target: the results view under 1 s on SQLite.

Run with `make bench` or `python bench/results_bench.py [--learners N]`. Uses a throwaway
SQLite file unless DATABASE_URL is set (then it must point at a scratch database).
"""

import argparse
import os
import random
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from bench.in_process import django_in_process  # noqa: E402


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--learners", type=int, default=1000)
    parser.add_argument("--attempts", type=int, default=3)
    parser.add_argument(
        "--reuse", type=Path, default=None, help="SQLite file to keep and reuse between runs."
    )
    args = parser.parse_args()

    workdir = Path(tempfile.mkdtemp(prefix="results-bench-"))
    db_file = args.reuse or workdir / "bench.sqlite3"
    reuse = args.reuse is not None and args.reuse.exists()
    django_in_process(db_file)
    from progress.models import Attempt
    from teaching.models import Cohort

    if reuse:
        cohort = Cohort.objects.get(name="Bench cohort")
        print(f"data: reusing {db_file}: {Attempt.objects.count()} attempts")
        return measure_all(cohort)
    generate(args, workdir)
    return measure_all(Cohort.objects.get(name="Bench cohort"))


def generate(args, workdir):
    from io import StringIO

    from django.contrib.auth import get_user_model
    from django.core.management import call_command
    from django.db import connection

    import bench.import_bench as import_bench
    from progress.models import Attempt, LearnerQuestion
    from progress.services import answer_pattern
    from quizzes.enums import QuestionKind
    from quizzes.models import Question
    from teaching.models import Cohort

    quiz_dir = workdir / "quizzes"
    quiz_dir.mkdir()
    import_bench.write_bank(quiz_dir, files=10, questions=10)
    call_command("import_quizzes", str(quiz_dir), stdout=StringIO())

    started = time.perf_counter()
    User = get_user_model()
    User.objects.bulk_create(
        [User(username=f"learner{n:05d}", password="!") for n in range(args.learners)],
        batch_size=2000,
    )
    learners = list(User.objects.filter(username__startswith="learner"))
    cohort = Cohort.objects.create(name="Bench cohort")
    cohort.learners.add(*learners)
    questions = list(Question.objects.select_related("current_revision"))
    rng = random.Random(7)
    batch, token = [], 0
    graded = {}

    def grade_cached(revision, answer):
        key = (revision.pk, tuple(answer.get("keys", ())), answer.get("text", ""))
        if key not in graded:
            graded[key] = revision.grade(keys=answer.get("keys", ()), text=answer.get("text", ""))
        return graded[key]

    for learner in learners:
        skill = rng.random()
        for question in questions:
            revision = question.current_revision
            for _ in range(args.attempts):
                token += 1
                if revision.kind == QuestionKind.FREE:
                    answer = {"text": "the root mean square" if rng.random() < skill else "no idea"}
                else:
                    keys = [o["key"] for o in revision.options]
                    right = revision.correct_keys
                    answer = {"keys": right if rng.random() < skill else [rng.choice(keys)]}
                result = grade_cached(revision, answer)
                batch.append(
                    Attempt(
                        pattern=answer_pattern(answer, result),
                        learner=learner,
                        question=question,
                        revision=revision,
                        token=f"t{token}",
                        answer=answer,
                        correct=result.correct,
                        score=result.score,
                        partial=result.partial,
                        feedback={"found": list(result.found), "missed": list(result.missed)},
                        language="en",
                    )
                )
            if len(batch) >= 20000:
                Attempt.objects.bulk_create(batch)
                batch = []
    Attempt.objects.bulk_create(batch)
    # The standings the services keep as attempts are written, built here in bulk.
    standings = []
    rows = Attempt.objects.order_by("learner", "question", "id").values_list(
        "id", "learner", "question", "correct", "score", "pattern"
    )
    current, group = None, []

    def flush(group):
        first, latest = group[0], group[-1]
        standings.append(
            LearnerQuestion(
                learner_id=first[1],
                question_id=first[2],
                attempts=len(group),
                first_attempt_id=first[0],
                latest_attempt_id=latest[0],
                first_correct=first[3],
                latest_correct=latest[3],
                ever_correct=any(r[3] for r in group),
                latest_score=latest[4],
                first_pattern=first[5],
                latest_pattern=latest[5],
            )
        )

    for row in rows.iterator(chunk_size=10000):
        if (row[1], row[2]) != current and group:
            flush(group)
            group = []
        current = (row[1], row[2])
        group.append(row)
    if group:
        flush(group)
    LearnerQuestion.objects.bulk_create(standings, batch_size=5000)
    with connection.cursor() as cursor:
        if connection.vendor == "sqlite":
            cursor.execute("ANALYZE")
    total = Attempt.objects.count()
    print(
        f"data: {args.learners} learners × {len(questions)} questions × {args.attempts} "
        f"attempts = {total} attempts on {connection.vendor} "
        f"(generated in {time.perf_counter() - started:.1f} s)"
    )


def measure_all(cohort):
    from django.contrib.auth import get_user_model
    from django.db import connection
    from django.test import Client
    from django.test.utils import CaptureQueriesContext

    User = get_user_model()
    admin, _ = User.objects.get_or_create(
        username="bench-admin", defaults={"is_staff": True, "is_superuser": True}
    )
    client = Client()
    client.force_login(admin)
    base = f"/admin/teaching/cohort/{cohort.pk}/results/"

    def measure(label, url, target=None, stream=False, runs=3):
        # CPU time is printed besides wall time: on SQLite the queries run in this
        # process, so CPU time is what the request costs when the machine is not
        # shared (wall time also counts waiting for a core).
        times, cpu = [], []
        for _ in range(runs):
            with CaptureQueriesContext(connection) as queries:
                start, start_cpu = time.perf_counter(), time.process_time()
                response = client.get(url)
                body = b"".join(response.streaming_content) if stream else response.content
                times.append(time.perf_counter() - start)
                cpu.append(time.process_time() - start_cpu)
            assert response.status_code == 200, (url, response.status_code)
        best, median = min(times), sorted(times)[len(times) // 2]
        verdict = "" if target is None else ("ok" if best < target else "SLOW")
        target_text = "" if target is None else f"target < {target:.1f} s"
        print(
            f"{label:<34} best {best * 1000:7.0f} ms  median {median * 1000:7.0f} ms"
            f"  cpu {min(cpu) * 1000:6.0f} ms  {len(queries):3d} queries"
            f"  {len(body) / 1e6:6.1f} MB  {target_text} {verdict}"
        )

    load = os.getloadavg()[0] if hasattr(os, "getloadavg") else float("nan")
    print(f"load average {load:.1f} on {os.cpu_count()} cores")
    measure("results, latest (default)", base, 0.3, runs=5)
    measure("results, first attempts", base + "?mode=first", 1.0)
    measure("results, all attempts", base + "?mode=all", 1.0)
    measure("results, one phase", base + "?phase=1", 1.0)
    measure("results, sorted by total", base + "?sort=-total", 1.0)
    measure("CSV export (streamed)", base + "export.csv", stream=True, runs=1)


if __name__ == "__main__":
    main()
