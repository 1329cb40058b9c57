"""Writes for instructors: regrading older revisions' attempts or older graders' grades,
overriding one attempt's verdict, and confirming a verdict the grader was unsure of."""

from __future__ import annotations

from dataclasses import dataclass, field

from django.core.exceptions import ValidationError
from django.db import transaction
from django.utils.translation import gettext as _

from audit.enums import AuditKind
from audit.services import audit_record
from portal.invisible import visible
from progress.enums import INSTRUCTOR_KINDS, VerdictSource
from progress.models import Attempt, Regrade, provisional_from, verdict_newest
from progress.services import grade_feedback, graded_text, learner_question_rebuild
from progress.verdicts import doubts_column
from quizzes.changes import regradable
from quizzes.enums import QuestionKind
from quizzes.grading import GRADER_VERSION, Grade
from quizzes.models import QuestionRevision

from .impact import on_another_key
from .models import RegradeCheck

REASON_MAX = Regrade._meta.get_field("reason").max_length


@dataclass
class RegradeChange:
    attempt: Attempt
    revision: QuestionRevision
    old_correct: bool
    old_score: float
    result: Grade
    reason: str = ""


@dataclass
class RegradePlan:
    """What a regrade would change: attempts of older revisions graded again against
    the current revision's key."""

    changes: list[RegradeChange] = field(default_factory=list)
    unchanged: int = 0
    skipped: int = 0  # options no longer match by key, or the kind changed
    overridden: int = 0  # an instructor's override stands: a regrade leaves it alone
    confirmed: int = 0  # so does a verdict an instructor confirmed
    # Unchanged verdicts whose grading is now sure where it was unsure, or the other way
    # round: attempt id → its new doubts (Attempt.doubts follows the standing grading).
    doubts: dict[int, str] = field(default_factory=dict)
    # (attempt id, revision id) of every attempt looked at against the current key and
    # left as it stood: recorded by regrade_apply as RegradeCheck rows (the key-changes
    # page's "checked"). A regrade for a new grader, against each attempt's own key,
    # records none: the key-changes page never reads those.
    checked: list[tuple[int, int]] = field(default_factory=list)
    records_checks: bool = True
    # Attempt id → the id of the verdict entry that stood when it was graded (0: none).
    # regrade_apply writes nothing of an attempt whose verdict has moved since.
    seen: dict[int, int] = field(default_factory=dict)

    @property
    def to_right(self) -> int:
        return sum(1 for c in self.changes if c.result.correct and not c.old_correct)

    @property
    def to_wrong(self) -> int:
        return sum(1 for c in self.changes if c.old_correct and not c.result.correct)

    def summary(self) -> str:
        return (
            f"{len(self.changes)} attempt(s) change: {self.to_right} wrong → right, "
            f"{self.to_wrong} right → wrong, "
            f"{len(self.changes) - self.to_right - self.to_wrong} score only; "
            f"{self.unchanged} unchanged, {self.skipped} skipped (options differ by key)"
            + (f", {self.overridden} kept (overridden by an instructor)" if self.overridden else "")
            + (f", {self.confirmed} kept (confirmed by an instructor)" if self.confirmed else "")
            + (f", {len(self.doubts)} unsure marks updated" if self.doubts else "")
        )


def _regradable(old: QuestionRevision, new: QuestionRevision) -> bool:
    return regradable(
        {"kind": old.kind, "options": old.options}, {"kind": new.kind, "options": new.options}
    )


def regrade_plan(*, questions, learners=None) -> RegradePlan:
    """Plan a regrade of `questions` (Question rows) for `learners` (ids, such as
    `scope.learners_taught()`; None: everyone); reads only."""
    plan = RegradePlan()
    # Those whose verdict stands on another key than the current one: answered on an
    # older revision, or regraded by a key an edit undone since has replaced.
    attempts = (
        on_another_key(Attempt.objects.filter(question__in=questions))
        .select_related("revision", "question__current_revision")
        .prefetch_related("regrades")
        .order_by("id")
    )
    if learners is not None:
        attempts = attempts.filter(learner__in=learners)
    for attempt in attempts:
        current = attempt.question.current_revision
        if not _regradable(attempt.revision, current):
            plan.skipped += 1
            continue
        _plan_add(plan, attempt, current)
    return plan


def _plan_add(plan: RegradePlan, attempt: Attempt, revision: QuestionRevision, reason=""):
    """Grade `attempt` against `revision` and note what would change. An instructor's
    override is a judgement, not a grade: no matcher or key edit replaces it."""
    verdict = attempt.verdict()
    plan.seen[attempt.pk] = attempt.verdict_entry_id()
    if verdict.source == VerdictSource.OVERRIDE:
        plan.overridden += 1
        _checked(plan, attempt, revision)
        return
    if verdict.source == VerdictSource.CONFIRM:
        plan.confirmed += 1  # a teacher judged it right as it stands: a judgement too
        _checked(plan, attempt, revision)
        return
    # As attempt_record grades (language unknown: both stemmers), so a regrade agrees
    # with what a new answer would get.
    result = revision.grade(keys=attempt.keys, text=graded_text(attempt.answer))
    if result.correct == verdict.correct and result.score == verdict.score:
        plan.unchanged += 1
        _checked(plan, attempt, revision)
        if doubts_column(result.doubts) != attempt.doubts:
            plan.doubts[attempt.pk] = doubts_column(result.doubts)
        return
    plan.changes.append(
        RegradeChange(attempt, revision, verdict.correct, verdict.score, result, reason)
    )


def _checked(plan: RegradePlan, attempt: Attempt, revision: QuestionRevision) -> None:
    if plan.records_checks:
        plan.checked.append((attempt.pk, revision.pk))


def grader_regrade_plan(*, questions=None, learners=None) -> RegradePlan:
    """Plan a regrade of free answers graded by an older matcher
    (`grader_version` < GRADER_VERSION), each against the key its verdict stands on
    (its own revision's, or the newer one a regrade graded it by), so only the matcher's
    change shows; `questions` and `learners` (ids; None: everyone) limit
    it. Reads only."""
    plan = RegradePlan(records_checks=False)
    attempts = (
        Attempt.objects.filter(grader_version__lt=GRADER_VERSION, revision__kind=QuestionKind.FREE)
        .select_related("revision", "question")
        .prefetch_related("regrades__revision")
        .order_by("id")
    )
    if questions is not None:
        attempts = attempts.filter(question__in=questions)
    if learners is not None:
        attempts = attempts.filter(learner__in=learners)
    for attempt in attempts:
        reason = f"grader {attempt.grader_version} → {GRADER_VERSION}"
        # Against the key that now stands: a regrade's newer revision, if there was one,
        # so a new matcher never brings an old key back.
        entry = verdict_newest(attempt.regrades.all())
        revision = entry.revision if entry is not None and entry.revision_id else attempt.revision
        _plan_add(plan, attempt, revision, reason)
    return plan


def regrade_apply(*, plan: RegradePlan, by=None) -> int:
    """Record one Regrade per change, in one transaction, and a RegradeCheck for each
    attempt graded again and left as it stood. An attempt's answer and first grade stay
    as they are; only its doubts follow the grading its verdict stands on.
    A change planned on a verdict that has moved since (an override or another regrade
    written meanwhile) is dropped: the newer verdict stands; so are its unsure marks and
    checks, read from a grading that verdict no longer stands on."""
    with transaction.atomic():
        touched = {c.attempt.pk for c in plan.changes} | set(plan.doubts)
        touched |= {a for a, _r in plan.checked}
        # Locked first, as overrides and confirms lock one: of two confirmations of one
        # regrade sent at once, the second reads what the first wrote, and drops it.
        list(
            Attempt.objects.select_for_update()
            .filter(pk__in=sorted(touched))
            .order_by("pk")
            .values("pk")
        )
        standing = Regrade.objects.filter(attempt_id__in=touched).newest_by_attempt()
        now = {pk: entry.pk for pk, entry in standing.items()}

        def still(pk: int) -> bool:  # the verdict the plan graded still stands
            return plan.seen.get(pk, now.get(pk, 0)) == now.get(pk, 0)

        plan.changes = [
            c
            for c in plan.changes
            if still(c.attempt.pk)
            and (
                (entry := standing.get(c.attempt.pk)) is None
                or (
                    entry.kind not in INSTRUCTOR_KINDS
                    and (entry.new_correct, entry.new_score) == (c.old_correct, c.old_score)
                )
            )
        ]
        plan.doubts = {pk: doubts for pk, doubts in plan.doubts.items() if still(pk)}
        plan.checked = [(a, r) for a, r in plan.checked if still(a)]
        Regrade.objects.bulk_create(
            [
                Regrade(
                    attempt=change.attempt,
                    kind=VerdictSource.REGRADE,
                    revision=change.revision,
                    old_correct=change.old_correct,
                    old_score=change.old_score,
                    new_correct=change.result.correct,
                    new_score=change.result.score,
                    new_partial=change.result.partial,
                    new_feedback=grade_feedback(change.result),
                    reason=change.reason,
                    by=by,
                )
                for change in plan.changes
            ]
        )
        # The attempt's doubts are those of the grading its verdict now stands on: a new
        # key that is sure of the answer ends the provisional mark (and its To check
        # row); one unsure of it starts them. A person's entry still ends them.
        by_doubts: dict[str, list[int]] = {}
        for change in plan.changes:
            doubts = doubts_column(change.result.doubts)
            if doubts != change.attempt.doubts:
                by_doubts.setdefault(doubts, []).append(change.attempt.pk)
        for pk, doubts in plan.doubts.items():  # verdicts unchanged, doubts not
            by_doubts.setdefault(doubts, []).append(pk)
        for doubts, pks in by_doubts.items():
            Attempt.objects.filter(pk__in=pks).update(doubts=doubts)
        # Checked against this revision before: its time is now, as a regrade by another
        # key since then made the older check stale (impact.key_changes).
        RegradeCheck.objects.bulk_create(
            [RegradeCheck(attempt_id=a, revision_id=r) for a, r in plan.checked],
            update_conflicts=True,
            unique_fields=["attempt", "revision"],
            update_fields=["checked_at"],
        )
        learner_question_rebuild(
            pairs={(c.attempt.learner_id, c.attempt.question_id) for c in plan.changes}
        )
    return len(plan.changes)


def _locked_verdict(attempt: Attempt):
    """Inside a transaction: the attempt locked (overrides and confirms of one attempt
    serialise, so "old" is the verdict each replaced and two clicks act once), its
    verdict entries, the newest of them, and the verdict that stands."""
    attempt = Attempt.objects.select_for_update().get(pk=attempt.pk)
    entries = list(attempt.regrades.all())
    newest = verdict_newest(entries)
    return attempt, entries, newest, attempt.verdict_from(newest)


class VerdictMoved(ValidationError):
    """Another verdict was recorded on the attempt since the page was shown (`seen`):
    another tab, a colleague, a regrade, or a second click of the same form."""


def verdict_override(
    *, attempt: Attempt, correct: bool, reason: str, by, seen: int | None = None, request=None
) -> Regrade:
    """An instructor marks one attempt right or wrong, with a reason: a new Regrade row
    (the attempt stays as it is), audited, and the learner's standing follows it, all in
    one transaction; marked wrong, the question comes back into the learner's reviews
    (marked right, a card already in review stays until it is reviewed). Right counts
    as full marks, wrong as none: the verdict is the instructor's, not a partial grade.
    Raises ValidationError for a missing or too long reason, VerdictMoved when `seen`
    (the standing entry's id the form was shown with, 0 for none) no longer stands:
    checked under the attempt's lock, so of two posts of one form at once one records."""
    reason = " ".join(visible(reason).split())  # no direction override reverses it
    if not reason:
        raise ValidationError(_("Give a reason for the new verdict."))
    if len(reason) > REASON_MAX:
        raise ValidationError(_("Keep the reason under %(n)d characters.") % {"n": REASON_MAX + 1})
    with transaction.atomic():
        attempt, _entries, newest, verdict = _locked_verdict(attempt)
        if seen is not None and seen != getattr(newest, "pk", 0):
            raise VerdictMoved(_("The verdict on this attempt changed since it was shown."))
        entry = Regrade(
            attempt=attempt,
            kind=VerdictSource.OVERRIDE,
            revision=None,
            old_correct=verdict.correct,
            old_score=verdict.score,
            new_correct=correct,
            new_score=1.0 if correct else 0.0,
            new_partial=1.0 if correct else 0.0,
            # The grader's explanation stays readable next to the instructor's verdict.
            new_feedback=newest.new_feedback if newest else attempt.feedback,
            reason=reason,
            by=by,
        )
        # An old attempt may have stored empty feedback, which is fine here.
        entry.full_clean(exclude=["new_feedback"])
        entry.save()
        audit_record(
            kind=AuditKind.VERDICT_OVERRIDDEN,
            request=request,
            user=by,
            subject=attempt.learner.get_username(),
            attempt=attempt.pk,
            question=attempt.question.code,
            old_correct=verdict.correct,
            new_correct=correct,
            reason=reason,
        )
        learner_question_rebuild(pairs={(attempt.learner_id, attempt.question_id)})
    return entry


def _already_checked(entries, by) -> str:
    """Why a verdict is not waiting to be checked: who checked it (a second tab, or a
    colleague who got there first), or, where nobody did, that the grader was sure."""
    checked = [entry for entry in entries if entry.kind in INSTRUCTOR_KINDS]
    if not checked:
        return _("This verdict is not waiting to be checked: the grader was sure of it.")
    last = max(checked, key=lambda entry: entry.pk)
    if last.by_id == by.pk:
        who = _("You have already checked this verdict.")
    elif last.by_id is None:
        who = _("An instructor has already checked this verdict.")
    else:
        who = _("%(name)s has already checked this verdict.") % {"name": last.by.get_username()}
    # What it is now: an override in another tab may have turned it (author walk 5).
    now = _("Verdict now: %(verdict)s.") % {
        "verdict": _("right") if last.new_correct else _("wrong")
    }
    return f"{who} {now}"


def verdict_confirm(*, attempt: Attempt, by, seen: int | None = None, request=None) -> Regrade:
    """An instructor lets a verdict the grader was unsure of stand: a new Regrade row
    of kind confirm carrying the verdict as it stands (the attempt stays as it is),
    audited, so the verdict is no longer provisional. Nothing else moves: the grade
    is the same. Raises ValidationError when the verdict is not provisional (the grader
    was sure, or an instructor has already confirmed or overridden it), or when `seen`
    (the standing entry's id the page showed, 0 for none) is no longer the standing
    one: a regrade changed the verdict the button named."""
    with transaction.atomic():
        attempt, entries, newest, verdict = _locked_verdict(attempt)
        if not provisional_from(attempt, entries):
            raise ValidationError(_already_checked(entries, by))
        if seen is not None and seen != getattr(newest, "pk", 0):
            raise ValidationError(
                _(
                    "The verdict on this answer changed since the page was shown (it is "
                    "now %(verdict)s): nothing was recorded. Check it again on the list."
                )
                % {"verdict": _("right") if verdict.correct else _("wrong")}
            )
        entry = Regrade(
            attempt=attempt,
            kind=VerdictSource.CONFIRM,
            # The key the standing verdict applied, so the feedback reads the same key.
            revision_id=newest.revision_id
            if newest and newest.revision_id
            else attempt.revision_id,
            old_correct=verdict.correct,
            old_score=verdict.score,
            new_correct=verdict.correct,
            new_score=verdict.score,
            new_partial=newest.new_partial if newest else attempt.partial,
            new_feedback=newest.new_feedback if newest else attempt.feedback,
            by=by,
        )
        entry.save()
        audit_record(
            kind=AuditKind.VERDICT_CONFIRMED,
            request=request,
            user=by,
            subject=attempt.learner.get_username(),
            attempt=attempt.pk,
            question=attempt.question.code,
            correct=verdict.correct,
            doubts=attempt.doubt_codes,
        )
    return entry
