"""Benchmark: the cohort's Memory page and its CSV at 1,000 learners × 100 questions,
with review cards for every question a learner first got wrong. Targets (issue #23):
the page under 0.5 s at 1,000 learners on SQLite, under 2 s at 10,000 on PostgreSQL.

Run with `make bench` or `python bench/memory_bench.py [--learners N]`. The data is the
results bench's (bench/results_bench.py: attempts, standings, kept counts, written in
bulk) plus the cards, made by the fsrs library from random review histories and
written in bulk. Uses a throwaway SQLite file unless DATABASE_URL is set (then it must
point at a scratch database); `make bench-pg` runs it at 10,000 learners on PostgreSQL.
"""

import argparse
import json
import os
import random
import sys
import time
from datetime import timedelta
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from bench.in_process import data_arguments, data_workspace  # noqa: E402


def main() -> None:
    parser = argparse.ArgumentParser()
    data_arguments(parser, attempts=1)
    args = parser.parse_args()

    workdir, reuse, external = data_workspace(args, "memory-bench-")
    from django.db import connection, transaction

    import bench.results_bench as results_bench
    from progress.models import ReviewCard
    from teaching.models import Cohort

    if args.reuse_database and external:
        # `make bench-pg` runs the results bench first: its data is reused, the cards
        # are added once.
        reuse = Cohort.objects.filter(name="Bench cohort").exists()
    has_cards = reuse and ReviewCard.objects.filter(learner__cohorts__name="Bench cohort").exists()
    if not has_cards:
        started = time.perf_counter()
        with transaction.atomic():
            if not reuse:
                results_bench.generate(args, workdir)
            cards_generate()
        with connection.cursor() as cursor:
            cursor.execute("VACUUM ANALYZE" if connection.vendor == "postgresql" else "ANALYZE")
        print(f"data generated in {time.perf_counter() - started:.1f} s")
    cohort = Cohort.objects.get(name="Bench cohort")
    print(
        f"data: {cohort.learners.count()} learners, "
        f"{ReviewCard.objects.count()} review cards on {connection.vendor}"
    )
    measure_all(cohort)


def cards_generate() -> None:
    """A card for each standing first answered wrong, from one of 500 review histories
    the library played (wrong first, then 0–3 reviews rated at random, over the last
    90 days), some learned; the standing marked as having it."""
    from django.db import connection
    from django.utils import timezone
    from fsrs import Card, Rating

    import bench.results_bench as results_bench
    from progress.models import LearnerQuestion, ReviewCard
    from progress.reviews import scheduler

    rng = random.Random(23)
    now = timezone.now()
    histories = []
    for _ in range(500):
        at = now - timedelta(days=rng.randint(0, 90), hours=rng.randint(0, 23))
        card, _log = scheduler().review_card(Card(), Rating.Again, at)
        reviews = 1
        for _ in range(rng.randint(0, 3)):
            at = max(at, card.due)
            if at > now:
                break
            rating = rng.choice((Rating.Again, Rating.Hard, Rating.Good, Rating.Good))
            card, _log = scheduler().review_card(card, rating, at)
            reviews += 1
        learned = at if reviews > 2 and rng.random() < 0.3 else None
        histories.append(
            (
                json.dumps(card.to_dict()), card.due, int(card.state), reviews, learned,
                card.stability, card.last_review,
            )
        )  # fmt: skip
    adapt = connection.ops.adapt_datetimefield_value
    columns = [
        "learner_id", "question_id", "fsrs", "due", "state", "streak", "learned_at",
        "reviews", "last_review_at", "created_at", "updated_at", "stability", "rated_at",
    ]  # fmt: skip
    writer = (
        results_bench._copy_writer
        if connection.vendor == "postgresql"
        else results_bench._insert_writer
    )
    # Read before the COPY starts: nothing else may run on its connection meanwhile.
    wrong = list(
        LearnerQuestion.objects.filter(first_correct=False).values_list("learner_id", "question_id")
    )
    with writer(ReviewCard._meta.db_table, columns) as write:
        rows = []
        for learner_id, question_id in wrong:
            fsrs, due, state, reviews, learned, stability, rated = rng.choice(histories)
            rows.append(
                (
                    learner_id, question_id, fsrs, adapt(due), state, 0, adapt(learned),
                    reviews, None, adapt(now), adapt(now), stability, adapt(rated),
                )
            )  # fmt: skip
            if len(rows) >= 10000:
                write(rows)
                rows = []
        write(rows)
    # As reviews.py marks a standing whose learner has a card.
    LearnerQuestion.objects.filter(first_correct=False).update(has_card=True)


def measure_all(cohort) -> None:
    from django.db import connection

    from bench.in_process import admin_page_measurer
    from teaching.memory import cohort_memory
    from teaching.memory_admin import MEMORY_LEARNERS_PER_PAGE

    measure = admin_page_measurer()
    base = f"/admin/teaching/cohort/{cohort.pk}/memory/"

    load = os.getloadavg()[0] if hasattr(os, "getloadavg") else float("nan")
    print(f"load average {load:.1f} on {os.cpu_count()} cores")
    sqlite = connection.vendor == "sqlite"
    target = 0.5 if sqlite else 2.0
    times = []
    for _ in range(3):
        start = time.perf_counter()
        cohort_memory(cohort=cohort)
        times.append(time.perf_counter() - start)
    print(f"{'memory selector alone':<34} best {min(times) * 1000:7.0f} ms")
    measure("memory page (first phase)", base, target, runs=5)
    measure("memory page, another phase", base + "?phase=2", target)
    last = -(-cohort.learners.count() // MEMORY_LEARNERS_PER_PAGE)
    measure("memory page, last learner page", f"{base}?page={last}", target)
    measure("memory CSV (streamed)", base + "export.csv", stream=True, runs=1)


if __name__ == "__main__":
    main()
