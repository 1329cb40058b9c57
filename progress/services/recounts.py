"""Standings and per-phase counts counted again from attempts (after regrades,
overrides, imports)."""

from __future__ import annotations

from django.db import transaction
from django.db.models import Count, Q
from django.utils import timezone

from quizzes.models import Question

from ..models import Attempt, LearnerPhase, LearnerQuestion, ReviewCard
from ..reviews import review_card_ensure
from .standings import phase_first_right_copy

RECOUNT_LEARNERS = 2000  # learners per statement: SQLite takes at most 32,766 params


def learner_phase_recount(*, phase_ids=None, learner_ids=None) -> int:
    """Count the kept counts per learner and phase (LearnerPhase) again from the
    standings: of the given phases (ids or a subquery), or all, for the given learners,
    or all. Returns how many rows were written."""
    if learner_ids is None:
        return _recount(phase_ids=phase_ids, learner_ids=None)
    learner_ids = sorted(set(learner_ids))
    return sum(
        _recount(phase_ids=phase_ids, learner_ids=learner_ids[i : i + RECOUNT_LEARNERS])
        for i in range(0, len(learner_ids), RECOUNT_LEARNERS)
    )


def _recount(*, phase_ids, learner_ids) -> int:
    kept = LearnerPhase.objects.all()
    standings = LearnerQuestion.objects.all()
    if phase_ids is not None:
        kept = kept.filter(phase_id__in=phase_ids)
        standings = standings.filter(question__phase_id__in=phase_ids)
    if learner_ids is not None:
        kept = kept.filter(learner_id__in=learner_ids)
        standings = standings.filter(learner_id__in=learner_ids)
    counts = (
        standings.filter(question__retired_at__isnull=True)
        .order_by()
        .values_list("learner", "question__phase")
        .annotate(
            answered=Count("id"),
            first_right=Count("id", filter=Q(first_correct=True)),
            latest_right=Count("id", filter=Q(latest_correct=True)),
            ever_right=Count("id", filter=Q(ever_correct=True)),
        )
    )
    with transaction.atomic():
        # The standings counted, locked first: an answer that changed one and has yet
        # to move the counts finishes first; else its move would find the row deleted.
        list(standings.select_for_update(of=("self",)).order_by("pk").values_list("pk"))
        kept.delete()
        written = LearnerPhase.objects.bulk_create(
            [
                LearnerPhase(
                    learner_id=learner,
                    phase_id=phase,
                    answered=answered,
                    first_right=first,
                    latest_right=latest,
                    ever_right=ever,
                )
                for learner, phase, answered, first, latest, ever in counts
            ],
            batch_size=5000,
        )
        phase_first_right_copy(standings)
    return len(written)


def _of_pairs(rows, pairs):
    """Rows of any (learner, question) table narrowed to the learners and questions of
    `pairs` (a superset of the pairs: callers keep only theirs); all of them for None."""
    if pairs is None:
        return rows
    return rows.filter(
        learner_id__in={learner for learner, _ in pairs},
        question_id__in={question for _, question in pairs},
    )


def learner_question_rebuild(*, pairs=None) -> int:
    """Recompute standings from attempts and regrades: for the given (learner_id,
    question_id) pairs, or for everything. Returns how many standings were written."""
    if pairs is not None:
        pairs = set(pairs)
    with transaction.atomic():
        # The standings locked before the attempts are read, as an answer locks its
        # standing before it adds to it: an answer stored meanwhile waits, or is read.
        # All those the recount after it locks, in one go in their order: two overrides
        # of one learner's phase, each holding only its own, waited for each other there.
        locked = LearnerQuestion.objects.select_for_update(of=("self",))
        if pairs is not None:
            locked = locked.filter(
                learner_id__in={learner for learner, _ in pairs},
                question__phase__questions__in={question for _, question in pairs},
            )
        list(locked.order_by("pk").values_list("pk", flat=True))
        return _rebuild(pairs)


def _rebuild(pairs) -> int:
    attempts = _of_pairs(Attempt.objects.order_by("id").prefetch_related("regrades"), pairs)
    grouped: dict[tuple[int, int], list[Attempt]] = {}
    for attempt in attempts:
        key = (attempt.learner_id, attempt.question_id)
        if pairs is None or key in pairs:
            grouped.setdefault(key, []).append(attempt)
    carded = set(
        _of_pairs(ReviewCard.objects.all(), pairs).values_list("learner_id", "question_id")
    )
    # How each standing stood before: only a verdict that turns wrong brings the
    # question back into the reviews, not one that was wrong already.
    standings = _of_pairs(LearnerQuestion.objects.all(), pairs)
    rows = standings.values_list("learner_id", "question_id", "latest_correct")
    was_right = {(learner, question): right for learner, question, right in rows}

    def effective(attempt: Attempt) -> tuple[bool, float]:
        verdict = attempt.verdict()
        return verdict.correct, verdict.score

    with transaction.atomic():
        for (learner_id, question_id), items in grouped.items():
            grades = [effective(a) for a in items]
            LearnerQuestion.objects.update_or_create(
                learner_id=learner_id,
                question_id=question_id,
                defaults={
                    "attempts": len(items),
                    "first_attempt": items[0],
                    "first_answered_at": items[0].created_at,
                    "has_card": (learner_id, question_id) in carded,
                    "latest_attempt": items[-1],
                    "first_correct": grades[0][0],
                    "latest_correct": grades[-1][0],
                    "ever_correct": any(g[0] for g in grades),
                    "latest_score": grades[-1][1],
                    "first_pattern": items[0].pattern,
                    "latest_pattern": items[-1].pattern,
                },
            )
            # Turned wrong (or never had a standing): back into the reviews.
            if not grades[-1][0] and was_right.get((learner_id, question_id), True):
                review_card_ensure(
                    learner_id=learner_id, question_id=question_id, now=timezone.now()
                )
        # A grade may have changed: the counts of those learners and phases follow.
        if pairs is None:
            learner_phase_recount()
        elif grouped:
            learner_phase_recount(
                phase_ids=Question.objects.filter(pk__in={q for _l, q in grouped}).values(
                    "phase_id"
                ),
                learner_ids={learner for learner, _q in grouped},
            )
    return len(grouped)
