"""Reads about who a quiz edit touches: attempts standing on older revisions, and
questions whose key changed since those attempts were graded."""

from __future__ import annotations

from collections import defaultdict
from dataclasses import dataclass, field

from django.db.models import Count, Exists, F, IntegerField, OuterRef, Q, QuerySet, Subquery
from django.db.models.functions import Coalesce
from django.utils.translation import gettext

from progress.enums import VerdictSource
from progress.models import Attempt, Regrade
from quizzes.changes import content_changes, revision_content
from quizzes.enums import QuestionKind
from quizzes.models import Question, QuestionRevision

from .models import RegradeCheck


def with_graded_revision(attempts: QuerySet) -> QuerySet:
    """Annotate `graded_revision`: the revision whose key the standing verdict applied,
    the newest entry's where it names one (a regrade), else the one answered: what the
    learner's card reads (AttemptState.graded_revision). An attempt whose edit was undone
    stands on the newer key it was regraded by, not on the revision it answered."""
    newest = Regrade.objects.filter(attempt=OuterRef("pk")).order_by("-id")
    return attempts.annotate(
        graded_revision=Coalesce(
            Subquery(newest.values("revision_id")[:1]),
            F("revision_id"),
            output_field=IntegerField(),
        )
    )


def on_another_key(attempts: QuerySet) -> QuerySet:
    """Of `attempts`, those whose verdict stands on another key than their question's
    current revision (annotated with `graded_revision`). The plain test first: an
    attempt on the current revision with no regrade, the common case, needs no
    subquery."""
    current = F("question__current_revision_id")
    regraded = Regrade.objects.filter(attempt=OuterRef("pk"))
    narrowed = attempts.filter(~Q(revision_id=current) | Exists(regraded))
    return with_graded_revision(narrowed).exclude(graded_revision=current)


def import_impact(next_revisions: dict[int, int | None]) -> dict[int, tuple[int, int]]:
    """The importer's QUIZ_IMPORT_IMPACT hook: for {question id: the revision it points at
    after the import (None: a new one, in a dry run)}, {question id: (learners, attempts)}
    of the attempts whose verdict stands on any other revision's key. One query."""
    rows = (
        with_graded_revision(Attempt.objects.filter(question_id__in=list(next_revisions)))
        .order_by()
        .values_list("question_id", "graded_revision", "learner_id")
        .annotate(n=Count("id"))
    )
    learners: dict[int, set[int]] = defaultdict(set)
    attempts: dict[int, int] = defaultdict(int)
    for question_id, revision_id, learner_id, n in rows:
        if revision_id != next_revisions[question_id]:
            learners[question_id].add(learner_id)
            attempts[question_id] += n
    return {q: (len(learners[q]), attempts[q]) for q in attempts}


def key_of(revision: QuestionRevision) -> str:
    """The key as an instructor reads it: the right options' keys, the expected
    mentions of a free question, or a numeric question's value ± tolerance."""
    if revision.kind == QuestionKind.FREE:
        return " + ".join(" / ".join(alternatives) for alternatives in revision.expected)
    if revision.kind == QuestionKind.NUMERIC:
        tolerance = revision.numeric.get("tolerance") or 0
        return f"{revision.numeric.get('answer')} ± {tolerance}"
    return ", ".join(revision.correct_keys)


@dataclass
class KeyChange:
    question: Question
    old_keys: list[str] = field(default_factory=list)  # of the older revisions answered
    new_key: str = ""
    learners: int = 0
    attempts: int = 0
    # What changed in the key, from each older revision answered to the current one, as
    # the import plan says it ("mention “identity”: alternatives added: …").
    what_changed: list[str] = field(default_factory=list)


def key_changes(*, questions=None, learners=None) -> list[KeyChange]:
    """Questions whose current key differs from the key of an older revision that
    attempts still stand on, with how many learners and attempts that touches; of
    `learners` (ids; None: everyone) only. An attempt already regraded against the
    current revision stands on it, and one a regrade graded against it and left as it
    stood has been looked at: neither is counted, unless a regrade by another key has
    moved its verdict since (an edit undone and made again)."""
    # A regrade by a key, after the entry or check: what it says no longer stands. (An
    # override names no key; a confirmation lets the verdict stand where it stood.)
    moved_since = Regrade.objects.filter(
        attempt=OuterRef("attempt"), revision__isnull=False
    ).exclude(kind=VerdictSource.CONFIRM)
    regraded = Regrade.objects.filter(
        attempt=OuterRef("pk"), revision_id=OuterRef("question__current_revision_id")
    ).exclude(Exists(moved_since.filter(id__gt=OuterRef("id"))))
    checked = RegradeCheck.objects.filter(
        attempt=OuterRef("pk"), revision_id=OuterRef("question__current_revision_id")
    ).exclude(Exists(moved_since.filter(created_at__gt=OuterRef("checked_at"))))
    older = (
        on_another_key(Attempt.objects.all())
        .exclude(Exists(regraded))
        .exclude(Exists(checked))
        .order_by()
        .values("question_id", "graded_revision")
        .annotate(learners=Count("learner_id", distinct=True), attempts=Count("id"))
    )
    if questions is not None:
        older = older.filter(question__in=questions)
    if learners is not None:
        older = older.filter(learner__in=learners)
    rows = list(older)
    revisions = QuestionRevision.objects.in_bulk({r["graded_revision"] for r in rows})
    found: dict[int, KeyChange] = {}
    learners: dict[int, int] = defaultdict(int)
    since: dict[int, list[tuple[int, list[str]]]] = defaultdict(list)  # revision, lines
    current = Question.objects.select_related("current_revision").in_bulk(
        {r["question_id"] for r in rows}
    )
    for row in rows:
        question = current[row["question_id"]]
        new_key, old_key = (
            key_of(question.current_revision),
            key_of(revisions[row["graded_revision"]]),
        )
        if old_key == new_key:
            continue
        change = found.setdefault(question.pk, KeyChange(question=question, new_key=new_key))
        if old_key not in change.old_keys:
            change.old_keys.append(old_key)
            old = revisions[row["graded_revision"]]
            lines = content_changes(
                revision_content(old), revision_content(question.current_revision), wording=False
            )
            since[question.pk].append((old.number, lines))
        change.attempts += row["attempts"]
        # A learner may have attempts on two older revisions: an upper bound then.
        learners[question.pk] += row["learners"]
    for pk, change in found.items():
        change.learners = learners[pk]
        # Each older revision's lines, named by it when there are several (author walk
        # 4: "alternatives added: a, b" then "…: b", with nothing to tell them apart).
        for number, lines in sorted(since[pk]):
            for line in lines:
                if len(since[pk]) > 1:
                    line = gettext("since revision %(n)s: %(line)s") % {"n": number, "line": line}
                if line not in change.what_changed:
                    change.what_changed.append(line)
    return sorted(found.values(), key=lambda c: c.question.code)
