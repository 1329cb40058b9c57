"""Benchmark: the reads and writes on every phase page and answer, as the portal runs
them, against the plain ORM statement that does the same, in the same process.

Run with `python bench/data_layer_bench.py`. A throwaway SQLite file (or DATABASE_URL,
a scratch database) with the seed quizzes and one learner. Each line prints the median
microseconds per call over several timeit rounds: "portal" is the function the portal
calls, "orm" the ORM's statement for the same row(s). docs/data-layer.md keeps the
figures and what they decided.
"""

import os
import statistics
import sys
import tempfile
import timeit
from io import StringIO
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from bench.in_process import django_in_process  # noqa: E402

ROUNDS, NUMBER = 7, 300


def per_call(function) -> float:
    """Median microseconds per call of `function`."""
    function()  # warm: first-call caches, compiled statements
    times = timeit.repeat(function, number=NUMBER, repeat=ROUNDS)
    return statistics.median(times) / NUMBER * 1e6


def rolled_back(function):
    """`function` inside a transaction that is rolled back, so a write can repeat."""
    from django.db import transaction

    def run():
        with transaction.atomic():
            function()
            transaction.set_rollback(True)

    return run


def main() -> None:
    workdir = Path(tempfile.mkdtemp(prefix="data-layer-bench-"))
    django_in_process(workdir / "bench.sqlite3")
    from django.contrib.auth import get_user_model
    from django.contrib.auth.backends import ModelBackend
    from django.core.management import call_command
    from django.db import connection
    from django.db.models import F

    from accounts.backends import ThrottledModelBackend
    from progress import phase_selectors, services
    from progress.models import Attempt, LearnerQuestion
    from quizzes.models import Phase, Question

    call_command("import_quizzes", str(ROOT / "data" / "quizzes"), stdout=StringIO())
    user = get_user_model().objects.create_user("bench-learner", password="x" * 12)
    phase = Phase.objects.active().order_by("number").first()
    question = Question.objects.active().filter(phase=phase).order_by("position").first()
    revision = question.current_revision
    services.attempt_record(
        learner=user, revision=revision, nonce="bench-0", answer={"keys": ["A"]}, language="en"
    )
    attempt = Attempt.objects.get()
    backend = ThrottledModelBackend()

    def standing_orm():
        return (
            LearnerQuestion.objects.select_for_update()
            .filter(learner_id=user.pk, question_id=question.pk)
            .first()
        )

    def attempt_new(n=[0]):  # noqa: B006 - a counter across calls
        n[0] += 1
        return Attempt(
            learner=user,
            question_id=question.pk,
            revision=revision,
            token=f"bench-{n[0]}",
            answer={"keys": ["A"]},
            correct=False,
            score=0.0,
            partial=0.0,
            feedback={},
            pattern="A",
            language="en",
        )

    reads = {
        "active phase (phase page, answer)": (
            lambda: phase_selectors.active_phase(phase.number),
            lambda: Phase.objects.active().filter(number=phase.number).first(),
        ),
        "user (every request)": (
            lambda: backend.get_user(user.pk),
            lambda: ModelBackend.get_user(backend, user.pk),
        ),
        "question to answer (answer)": (
            lambda: phase_selectors.question_to_answer(question.code),
            lambda: (
                Question.objects.select_related("phase", "current_revision")
                .annotate(current_hash=F("current_revision__content_hash"))
                .filter(code=question.code)
                .first()
            ),
        ),
        "standing, locked (answer)": (
            rolled_back(lambda: services.standing_locked(attempt)),
            rolled_back(standing_orm),
        ),
        "attempt insert (answer)": (
            rolled_back(
                lambda: (
                    services.insert(attempt_new())
                    if hasattr(services, "insert")
                    else attempt_new().save()
                )
            ),
            rolled_back(lambda: attempt_new().save()),
        ),
        "phase index (phase page)": (
            lambda: phase_selectors.phase_index(learner=user, phase=phase),
            None,
        ),
    }
    print(f"{connection.vendor}, µs per call (median of {ROUNDS} × {NUMBER})")
    print(f"{'':38} {'portal':>8} {'orm':>8}")
    for name, (portal, orm) in reads.items():
        mine = per_call(portal)
        theirs = per_call(orm) if orm is not None else float("nan")
        print(f"{name:38} {mine:8.1f} {theirs:8.1f}")
    os.environ.pop("DATABASE_URL", None)


if __name__ == "__main__":
    main()
