"""Independent reference for the cohort results' item analysis, from the raw attempts
and their regrade entries, by the textbook definitions (no portal code reused)."""

from __future__ import annotations

import math

from progress.models import Attempt
from quizzes.models import Question


def effective(attempt) -> bool:
    entries = sorted(attempt.regrades.all(), key=lambda e: e.pk)
    return entries[-1].new_correct if entries else attempt.correct


def pearson(xs, ys):
    n = len(xs)
    mx, my = sum(xs) / n, sum(ys) / n
    sxy = sum((x - mx) * (y - my) for x, y in zip(xs, ys, strict=True))
    sxx = sum((x - mx) ** 2 for x in xs)
    syy = sum((y - my) ** 2 for y in ys)
    if sxx <= 1e-12 or syy <= 1e-12:
        return None
    return sxy / math.sqrt(sxx * syy)


def pvar(xs):
    m = sum(xs) / len(xs)
    return sum((x - m) ** 2 for x in xs) / len(xs)


def kr20(matrix):
    """matrix: list of learner rows of 0/1 items. Population variances."""
    k = len(matrix[0]) if matrix else 0
    if k < 2:
        return None
    totals = [sum(row) for row in matrix]
    var_t = pvar(totals)
    if var_t <= 1e-12:
        return None
    n = len(matrix)
    spq = 0.0
    for j in range(k):
        p = sum(row[j] for row in matrix) / n
        spq += p * (1 - p)
    return k / (k - 1) * (1 - spq / var_t)


def reference(cohort, *, mode: str):
    """Every figure of the results page, recomputed. Returns dict with 'items' and
    'phases'."""
    members = {u.pk: u.username for u in cohort.learners.filter(is_staff=False)}
    questions = list(
        Question.objects.active()
        .select_related("current_revision", "phase")
        .order_by("phase__number", "position")
    )
    attempts = (
        Attempt.objects.filter(learner_id__in=members, question__in=questions)
        .prefetch_related("regrades")
        .order_by("created_at", "id")
    )
    per = {}  # (learner, question) -> list of attempts in order
    for a in attempts:
        per.setdefault((a.learner_id, a.question_id), []).append(a)
    first = {k: effective(v[0]) for k, v in per.items()}
    latest = {k: effective(v[-1]) for k, v in per.items()}
    ever = {k: any(effective(a) for a in v) for k, v in per.items()}
    chosen = {"first": first, "latest": latest, "all": ever}[mode]
    totals_mode = {lid: sum(chosen.get((lid, q.pk), 0) for q in questions) for lid in members}
    by_phase = {}
    for q in questions:
        by_phase.setdefault(q.phase_id, []).append(q)
    items, phases = {}, {}
    for phase_id, qs in by_phase.items():
        learners = sorted(lid for lid in members if any((lid, q.pk) in per for q in qs))
        matrix = [[int(first.get((lid, q.pk), False)) for q in qs] for lid in learners]
        phases[phase_id] = {"n": len(learners), "k": len(qs), "kr20": kr20(matrix)}
        tot = [sum(row) for row in matrix]
        for j, q in enumerate(qs):
            x = [row[j] for row in matrix]
            rest = [t - xi for t, xi in zip(tot, x, strict=True)]
            tried = [lid for lid in members if (lid, q.pk) in per]
            right = sum(first[(lid, q.pk)] for lid in tried)
            option_r = {}
            for o in q.current_revision.options:
                picks = [
                    int(o["key"] in per[(lid, q.pk)][0].answer.get("keys", []))
                    if (lid, q.pk) in per
                    else 0
                    for lid in learners
                ]
                option_r[o["key"]] = pearson(picks, rest) if learners else None
            counts = {}
            for lid in members:
                got = per.get((lid, q.pk))
                if not got:
                    continue
                shown = {"first": got[:1], "latest": got[-1:], "all": got}[mode]
                for a in shown:
                    for key in a.answer.get("keys", []):
                        counts[key] = counts.get(key, 0) + 1
            items[q.code] = {
                "learners": len(tried),
                "first_right": right,
                "attempts": sum(len(per.get((lid, q.pk), [])) for lid in members),
                "facility": right / len(tried) if tried else None,
                "item_rest": pearson(x, rest) if learners else None,
                "option_r": option_r,
                "kr20_without": kr20([row[:j] + row[j + 1 :] for row in matrix]),
                "picks": counts,
            }
    return {
        "items": items,
        "phases": phases,
        "totals_mode": totals_mode,
        "members": members,
        "per": per,
        "first": first,
    }


def upper_lower(ref, code, *, ranked_ids, group):
    """(right in the top `group` of ranked_ids − right in the bottom) / group, first tries."""
    first = ref["first"]
    question = Question.objects.get(code=code)
    lower, upper = ranked_ids[:group], ranked_ids[-group:]
    up = sum(first.get((lid, question.pk), False) for lid in upper)
    low = sum(first.get((lid, question.pk), False) for lid in lower)
    return (up - low) / group
