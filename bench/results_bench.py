"""Benchmark: the cohort results view and CSV export at 1,000 learners × 100 questions ×
3 attempts (300,000 attempts). Targets: the default view under 0.3 s on SQLite, the
others under 1 s; at 10,000 learners on PostgreSQL, the default view under 1 s.

Run with `make bench` or `python bench/results_bench.py [--learners N]`. Uses a throwaway
SQLite file unless DATABASE_URL is set (then it must point at a scratch database);
`make bench-pg` runs 10,000 learners on a throwaway PostgreSQL cluster.
"""

import argparse
import json
import os
import random
import sys
import time
from collections import defaultdict
from contextlib import contextmanager
from datetime import timedelta
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from bench.in_process import data_arguments, data_workspace  # noqa: E402


def main() -> None:
    parser = argparse.ArgumentParser()
    data_arguments(parser, attempts=3)
    parser.add_argument(
        "--skip-export",
        action="store_true",
        help="Leave out the CSV export (~50 s at 10,000 learners on PostgreSQL).",
    )
    args = parser.parse_args()

    workdir, reuse, external = data_workspace(args, "results-bench-")
    from django.db import connection, transaction

    from progress.models import Attempt
    from quizzes.models import Question
    from teaching.models import Cohort

    if args.reuse_database and external:
        reuse = Attempt.objects.filter(learner__cohorts__name="Bench cohort").exists()
    if reuse:
        cohort = Cohort.objects.get(name="Bench cohort")
        print(
            f"data: reusing {cohort.learners.count()} learners' "
            f"{Attempt.objects.count()} attempts on {connection.vendor}"
        )
        return measure_all(cohort, export=not args.skip_export)
    started = time.perf_counter()
    with transaction.atomic():  # a run stopped midway leaves nothing to reuse
        generate(args, workdir)
    with connection.cursor() as cursor:
        cursor.execute("VACUUM ANALYZE" if connection.vendor == "postgresql" else "ANALYZE")
    print(
        f"data: {args.learners} learners × {Question.objects.count()} questions × "
        f"{args.attempts} attempts = "
        f"{Attempt.objects.count()} attempts on {connection.vendor} "
        f"(generated in {time.perf_counter() - started:.1f} s)"
    )
    return measure_all(Cohort.objects.get(name="Bench cohort"), export=not args.skip_export)


def generate(args, workdir):
    """The quiz bank, the learners in one cohort and their attempts, with the standings
    the services would have kept. Rows are written with explicit ids in bulk (COPY on
    PostgreSQL, executemany on SQLite) and each standing is built as its attempts are
    made: 3,000,000 attempts took ~17 min through bulk_create and a pass over them."""
    from io import StringIO

    from django.contrib.auth import get_user_model
    from django.core.management import call_command
    from django.db import connection
    from django.utils import timezone

    import bench.import_bench as import_bench
    from progress.models import Attempt, LearnerPhase, LearnerQuestion
    from progress.services import answer_pattern, learner_phase_recount
    from quizzes.enums import QuestionKind
    from quizzes.grading import GRADER_VERSION
    from quizzes.models import Question
    from teaching.models import Cohort

    quiz_dir = workdir / "quizzes"
    quiz_dir.mkdir()
    import_bench.write_bank(quiz_dir, files=10, questions=10)
    call_command("import_quizzes", str(quiz_dir), stdout=StringIO())

    User = get_user_model()
    User.objects.bulk_create(
        [User(username=f"learner{n:05d}", password="!") for n in range(args.learners)],
        batch_size=2000,
    )
    learner_ids = list(
        User.objects.filter(username__startswith="learner")
        .order_by("username")
        .values_list("pk", flat=True)
    )
    cohort = Cohort.objects.create(name="Bench cohort")
    Cohort.learners.through.objects.bulk_create(
        [Cohort.learners.through(cohort=cohort, user_id=pk) for pk in learner_ids],
        batch_size=5000,
    )
    questions = list(Question.objects.select_related("current_revision").order_by("pk"))
    rng = random.Random(7)
    graded = {}

    def grade_cached(revision, answer):
        key = (revision.pk, tuple(answer.get("keys", ())), answer.get("text", ""))
        if key not in graded:
            result = revision.grade(keys=answer.get("keys", ()), text=answer.get("text", ""))
            feedback = json.dumps({"found": list(result.found), "missed": list(result.missed)})
            graded[key] = (result, feedback, answer_pattern(answer, result))
        return graded[key]

    attempt_columns = [
        "id", "learner_id", "question_id", "revision_id", "token", "answer", "correct",
        "score", "partial", "feedback", "pattern", "language", "grader_version", "created_at",
        "doubts",
    ]  # fmt: skip
    standing_columns = [
        "learner_id", "question_id", "attempts", "first_attempt_id", "latest_attempt_id",
        "first_correct", "latest_correct", "ever_correct", "latest_score", "first_pattern",
        "latest_pattern", "first_answered_at", "has_card", "phase_first_right",
    ]  # fmt: skip
    count_columns = [
        "learner_id", "phase_id", "answered", "first_right", "latest_right", "ever_right"
    ]  # fmt: skip
    base_time = timezone.now()
    adapt_time = connection.ops.adapt_datetimefield_value
    next_id = (Attempt.objects.order_by("-pk").values_list("pk", flat=True).first() or 0) + 1

    def learner_rows(learner_id):
        """The attempts, standings and counts per phase of one learner."""
        nonlocal next_id
        skill = rng.random()
        attempts, standings = [], []
        counts = defaultdict(lambda: [0, 0, 0, 0])
        for question in questions:
            revision = question.current_revision
            made = []
            for _ in range(args.attempts):
                if revision.kind == QuestionKind.FREE:
                    answer = {"text": "the root mean square" if rng.random() < skill else "no idea"}
                else:
                    keys = [o["key"] for o in revision.options]
                    right = revision.correct_keys
                    answer = {"keys": right if rng.random() < skill else [rng.choice(keys)]}
                result, feedback, pattern = grade_cached(revision, answer)
                pk, next_id = next_id, next_id + 1
                at = adapt_time(base_time + timedelta(microseconds=pk))
                made.append((pk, result.correct, result.score, pattern, at))
                attempts.append(
                    (
                        pk, learner_id, question.pk, revision.pk, f"t{pk}", json.dumps(answer),
                        result.correct, result.score, result.partial, feedback, pattern, "en",
                        GRADER_VERSION, at, "",
                    )
                )  # fmt: skip
            first, latest = made[0], made[-1]
            ever = any(m[1] for m in made)
            standings.append(
                [
                    learner_id, question.pk, len(made), first[0], latest[0], first[1],
                    latest[1], ever, latest[2], first[3], latest[3], first[4], False,
                    question.phase_id,
                ]
            )  # fmt: skip
            count = counts[question.phase_id]
            for index, value in enumerate((True, first[1], latest[1], ever)):
                count[index] += value
        for standing in standings:  # the phase's first-try total, as the services copy it
            standing[-1] = counts[standing[-1]][1]
        return attempts, standings, [(learner_id, p, *c) for p, c in counts.items()]

    # One COPY at a time on a connection: the standings wait in memory (a tuple each).
    all_standings, all_counts = [], []
    writer = _copy_writer if connection.vendor == "postgresql" else _insert_writer
    with writer(Attempt._meta.db_table, attempt_columns) as write_attempts:
        for learner_id in learner_ids:
            attempts, standings, counts = learner_rows(learner_id)
            write_attempts(attempts)
            all_standings.extend(standings)
            all_counts.extend(counts)
    with writer(LearnerQuestion._meta.db_table, standing_columns) as write_standings:
        write_standings(all_standings)
    with writer(LearnerPhase._meta.db_table, count_columns) as write_counts:
        write_counts(all_counts)
    # The kept counts written here must be what the services would keep: a recount of a
    # few learners gives them again.
    sample = learner_ids[:: max(1, len(learner_ids) // 20)]
    made = _kept_counts(sample)
    learner_phase_recount(learner_ids=sample)
    assert _kept_counts(sample) == made, "the bench's counts differ from a recount"
    if connection.vendor == "postgresql":
        with connection.cursor() as cursor:
            cursor.execute(
                "SELECT setval(pg_get_serial_sequence(%s, 'id'), %s)",
                [Attempt._meta.db_table, next_id - 1],
            )


def _kept_counts(learner_ids):
    from progress.models import LearnerPhase, LearnerQuestion

    return (
        sorted(
            LearnerPhase.objects.filter(learner_id__in=learner_ids).values_list(
                "learner", "phase", "answered", "first_right", "latest_right", "ever_right"
            )
        ),
        sorted(
            LearnerQuestion.objects.filter(learner_id__in=learner_ids).values_list(
                "learner", "question", "phase_first_right"
            )
        ),
    )


@contextmanager
def _copy_writer(table, columns):
    """Rows into `table` through one COPY (psycopg 3), fed as they are made."""
    from django.db import connection

    with connection.cursor() as cursor:
        sql = f"COPY {table} ({', '.join(columns)}) FROM STDIN"
        with cursor.cursor.copy(sql) as copy:

            def write(rows):
                for row in rows:
                    copy.write_row(row)

            yield write


@contextmanager
def _insert_writer(table, columns):
    """Rows into `table` with executemany, in batches."""
    from django.db import connection

    sql = (
        f"INSERT INTO {table} ({', '.join(columns)}) "  # noqa: S608 - our own names
        f"VALUES ({', '.join(['%s'] * len(columns))})"
    )
    batch = []
    with connection.cursor() as cursor:

        def write(rows):
            batch.extend(rows)
            if len(batch) >= 20000:
                cursor.executemany(sql, batch)
                batch.clear()

        yield write
        if batch:
            cursor.executemany(sql, batch)


def measure_all(cohort, *, export=True):
    from django.db import connection

    from bench.in_process import admin_page_measurer

    measure = admin_page_measurer()
    base = f"/admin/teaching/cohort/{cohort.pk}/results/"

    load = os.getloadavg()[0] if hasattr(os, "getloadavg") else float("nan")
    print(f"load average {load:.1f} on {os.cpu_count()} cores")
    # Issue #14's targets: the default view under 0.3 s at 1,000 learners on SQLite,
    # under 1 s at 10,000 on PostgreSQL; the other views under 1 s on SQLite.
    sqlite = connection.vendor == "sqlite"
    measure("results, latest (default)", base, 0.3 if sqlite else 1.0, runs=5)
    other = 1.0 if sqlite else None
    measure("results, first attempts", base + "?mode=first", other)
    measure("results, all attempts", base + "?mode=all", other)
    measure("results, one phase", base + "?phase=1", other)
    measure("results, sorted by total", base + "?sort=-total", other)
    if export:
        measure("CSV export (streamed)", base + "export.csv", stream=True, runs=1)


if __name__ == "__main__":
    main()
