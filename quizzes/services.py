"""Writes to quiz content: applying a validated quiz set to the database.

Revisions are only ever added. A question whose content hash is unchanged is left
alone; one that changed gets a new revision (or points back at an earlier revision with
the same content, when an edit is undone); one missing from its phase's file is
retired. Phases whose file was not read are left alone, unless the import is of the whole
bank (`prune`): then they are retired, with their questions.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from django.db import transaction
from django.db.models import Max, OuterRef, Subquery
from django.utils import timezone

from portal.exceptions import AppError

from .changes import content_changes, key_changed, regradable, revision_content
from .loader import KnownFile, PhaseDoc, QuestionDoc, QuizSet
from .models import Phase, Question, QuestionRevision
from .signals import questions_placed


class ImportRefused(AppError):
    """The quiz set has problems; nothing was written."""

    status = 422

    def __init__(self, problems):
        self.problems = problems
        super().__init__(f"{len(problems)} problem(s) in the quiz files")


@dataclass
class ImportPlan:
    added: list[QuestionDoc] = field(default_factory=list)
    changed: list[QuestionDoc] = field(default_factory=list)
    unchanged: list[str] = field(default_factory=list)  # codes
    retired: list[Question] = field(default_factory=list)
    restored: list[str] = field(default_factory=list)  # codes: retired, in the files again
    retired_phases: list[Phase] = field(default_factory=list)  # hidden from learners
    restored_phases: list[Phase] = field(default_factory=list)  # retired, read again: shown
    # Questions whose id is now in another phase's file: (code, the phase it leaves, the
    # number it goes to, whether the file of the phase it leaves was read here).
    moved: list[tuple[str, Phase, int, bool]] = field(default_factory=list)
    # Phases read from another file than the one they were last imported from:
    # (phase, the new file's name). A renamed file, or a new file given a used number.
    refiled_phases: list[tuple[Phase, str]] = field(default_factory=list)
    dry_run: bool = False
    # For changed questions: the revision they had before this import, and the one they
    # have after it (None in a dry run when a new revision would be written).
    current_revision_ids: dict[str, int] = field(default_factory=dict)
    next_revision_ids: dict[str, int | None] = field(default_factory=dict)
    question_ids: dict[str, int] = field(default_factory=dict)
    # For changed questions: what changed, in short lines; and those whose key changed,
    # so that older attempts may be graded differently (`manage.py regrade`).
    changes: dict[str, list[str]] = field(default_factory=dict)
    key_changed: list[str] = field(default_factory=list)
    # Of those, the ones whose attempts a regrade cannot grade against the new key (its
    # kind changed, or options were added, removed or lettered again): none to suggest.
    not_regradable: list[str] = field(default_factory=list)

    @property
    def to_regrade(self) -> list[str]:
        """The questions whose key changed in a way a regrade can grade attempts by."""
        return [code for code in self.key_changed if code not in self.not_regradable]

    def summary(self) -> str:
        line = (
            f"added: {len(self.added)}, changed: {len(self.changed)}, "
            f"retired: {len(self.retired)}, unchanged: {len(self.unchanged)}"
        )
        return f"dry run: {line}" if self.dry_run else line


def imported_files() -> dict[str, KnownFile]:
    """What the database remembers of each active phase's file, for the loader to skip
    files that have not changed since (two queries, whatever the size of the bank)."""
    phases = {
        pk: (name, digest, number)
        for pk, name, digest, number in Phase.objects.active()
        .exclude(source_hash="")
        .values_list("pk", "source_file", "source_hash", "number")
    }
    codes: dict[int, list[str]] = {pk: [] for pk in phases}
    for phase_id, code in (
        Question.objects.active()
        .filter(phase__in=list(phases))
        .order_by("phase", "position")
        .values_list("phase", "code")
    ):
        codes[phase_id].append(code)
    return {
        name: KnownFile(file_hash=digest, number=number, codes=tuple(codes[pk]))
        for pk, (name, digest, number) in phases.items()
    }


def _revision_from_doc(question_id: int, doc: QuestionDoc, number: int) -> QuestionRevision:
    return QuestionRevision(
        question_id=question_id,
        number=number,
        content_hash=doc.content_hash,
        kind=doc.kind,
        title_en=doc.title["en"],
        title_es=doc.title.get("es", ""),
        prompt_en=doc.prompt.get("en", ""),
        prompt_es=doc.prompt.get("es", ""),
        explanation_en=doc.explanation["en"],
        explanation_es=doc.explanation.get("es", ""),
        options=[{"key": o.key, "text": o.text, "correct": o.correct} for o in doc.options],
        expected=[list(mention) for mention in doc.expected],
        pass_mentions=doc.pass_mentions,
        reject=[list(mention) for mention in doc.reject],
        examples=[example.content() for example in doc.examples],
        numeric=doc.numeric,
    )


def _phases_apply(phases: list[PhaseDoc], retire: list[Phase], now) -> dict[int, Phase]:
    """Create or update the phases read; retire those the plan retires."""
    existing = {phase.number: phase for phase in Phase.objects.all()}
    result: dict[int, Phase] = {}
    for doc in phases:
        values = {
            "slug": doc.slug,
            "title_en": doc.title["en"],
            "title_es": doc.title.get("es", ""),
            "source_file": doc.file_name,
            "source_hash": doc.file_hash,
            "retired_at": None,
        }
        phase = existing.pop(doc.number, None)
        if phase is None:
            phase = Phase.objects.create(number=doc.number, **values)
        elif any(getattr(phase, name) != value for name, value in values.items()):
            for name, value in values.items():
                setattr(phase, name, value)
            phase.save(update_fields=list(values))
        result[doc.number] = phase
    Phase.objects.filter(pk__in=[p.pk for p in retire], retired_at__isnull=True).update(
        retired_at=now
    )
    return result


def quiz_import(*, quiz_set: QuizSet, dry_run: bool = False, prune: bool = False) -> ImportPlan:
    """Apply `quiz_set` in one transaction and return what was (or would be) done.

    `prune`: the set is the whole bank, so a phase with no file in it is retired. Without
    it only the phases read change (a question gone from its phase's file is retired).
    Raises ImportRefused, having written nothing, when the set has problems.
    """
    if quiz_set.problems:
        raise ImportRefused(quiz_set.problems)
    plan = ImportPlan(dry_run=dry_run)
    with transaction.atomic():
        # Only what placement and retirement need: ten thousand rows read in one go,
        # locked (an answer's key share is not held up): two imports at once would
        # each add what the other adds. The second waits here, then reads the first's.
        existing = {
            q.code: q
            for q in Question.objects.select_for_update(no_key=True)
            .order_by("pk")
            .only("code", "phase_id", "position", "retired_at", "current_revision_id")
        }
        hashes = dict(
            QuestionRevision.objects.filter(
                pk__in=Question.objects.values("current_revision")
            ).values_list("pk", "content_hash")
        )
        seen: set[str] = set()
        for skipped in quiz_set.skipped:
            seen.update(skipped.codes)
            plan.unchanged.extend(skipped.codes)
        for doc in quiz_set.questions:
            seen.add(doc.code)
            question = existing.get(doc.code)
            if question is not None and question.is_retired:
                plan.restored.append(doc.code)
            if question is None:
                plan.added.append(doc)
            elif hashes.get(question.current_revision_id) != doc.content_hash:
                plan.changed.append(doc)
                plan.current_revision_ids[doc.code] = question.current_revision_id
                plan.question_ids[doc.code] = question.pk
            else:
                plan.unchanged.append(doc.code)
        read = {p.number for p in quiz_set.phases} | {s.number for s in quiz_set.skipped}
        # Every phase in one read: the active ones, and the retired ones read again.
        every = list(Phase.objects.order_by("number"))
        phases = [p for p in every if p.retired_at is None]
        read_now = {p.number for p in quiz_set.phases}
        plan.restored_phases = [p for p in every if p.retired_at and p.number in read_now]
        # A restored phase's questions are named by their phase, as retired ones are.
        shown_again = {p.pk for p in plan.restored_phases}
        plan.restored = [
            code for code in plan.restored if existing[code].phase_id not in shown_again
        ]
        if prune:
            plan.retired_phases = [p for p in phases if p.number not in read]
        in_files_read = {p.pk for p in phases if p.number in read}
        phase_by_pk = {p.pk: p for p in every}
        by_number = {p.number: p for p in every}
        plan.refiled_phases = [
            (by_number[doc.number], doc.file_name)
            for doc in quiz_set.phases
            if doc.number in by_number and by_number[doc.number].source_file != doc.file_name
        ]
        plan.moved = [
            (doc.code, was, phase.number, was.number in read)
            for phase in quiz_set.phases
            for doc in phase.questions
            if (question := existing.get(doc.code)) is not None
            and (was := phase_by_pk[question.phase_id]).number != phase.number
        ]
        plan.retired = sorted(
            (
                q
                for code, q in existing.items()
                if code not in seen and not q.is_retired and (prune or q.phase_id in in_files_read)
            ),
            key=lambda q: q.code,
        )
        _changes_describe(plan, existing)
        if not dry_run:
            _plan_apply(plan, quiz_set, existing)
    return plan


def _changes_describe(plan: ImportPlan, existing: dict[str, Question]) -> None:
    """Fill in what changed per question and where each will point after the import."""
    if not plan.changed:
        return
    changed_ids = [existing[doc.code].pk for doc in plan.changed]
    revisions = QuestionRevision.objects.filter(question__in=changed_ids)
    earlier = {
        (r.question_id, r.content_hash): r.pk for r in revisions.only("question", "content_hash")
    }
    before = {
        r.pk: revision_content(r)
        for r in revisions.filter(pk__in=list(plan.current_revision_ids.values()))
    }
    for doc in plan.changed:
        old = before[plan.current_revision_ids[doc.code]]
        new = doc.content()
        plan.changes[doc.code] = content_changes(old, new)
        if key_changed(old, new):
            plan.key_changed.append(doc.code)
            if not regradable(old, new):
                plan.not_regradable.append(doc.code)
        plan.next_revision_ids[doc.code] = earlier.get((existing[doc.code].pk, doc.content_hash))
    if plan.not_regradable:
        _earlier_regradable_drop(plan, existing, revisions)


def _earlier_regradable_drop(plan: ImportPlan, existing: dict[str, Question], revisions) -> None:
    """A regrade grades each attempt against its own revision: a key the revision it
    had until now cannot take (an option added there, removed now) may still take the
    attempts of an earlier one, whose regrade is then still to be run."""
    code_of = {existing[code].pk: code for code in plan.not_regradable}
    new = {doc.code: doc.content() for doc in plan.changed if doc.code in plan.not_regradable}
    takes = {
        code_of[r.question_id]
        for r in revisions.filter(question__in=list(code_of)).only("question", "kind", "options")
        if r.pk != plan.next_revision_ids.get(code_of[r.question_id])
        and regradable({"kind": r.kind, "options": r.options}, new[code_of[r.question_id]])
    }
    plan.not_regradable = [code for code in plan.not_regradable if code not in takes]


def _plan_apply(plan: ImportPlan, quiz_set: QuizSet, existing: dict[str, Question]) -> None:
    now = timezone.now()
    phases = _phases_apply(quiz_set.phases, plan.retired_phases, now)
    phase_of = {q.code: phases[p.number] for p in quiz_set.phases for q in p.questions}

    # New questions: the question rows, then revision 1 of each, then one UPDATE that
    # points each question at its revision 1.
    new_questions = Question.objects.bulk_create(
        [
            Question(code=doc.code, phase=phase_of[doc.code], position=doc.position)
            for doc in plan.added
        ],
        batch_size=500,
    )
    QuestionRevision.objects.bulk_create(
        [
            _revision_from_doc(q.pk, doc, 1)
            for q, doc in zip(new_questions, plan.added, strict=True)
        ],
        batch_size=200,
    )
    if new_questions:
        Question.objects.filter(current_revision__isnull=True).update(
            current_revision=Subquery(
                QuestionRevision.objects.filter(question=OuterRef("pk"), number=1).values("pk")
            )
        )

    # Changed questions: reuse an earlier revision with identical content, else add one.
    changed = [existing[doc.code] for doc in plan.changed]
    highest = dict(
        QuestionRevision.objects.filter(question__in=changed)
        .values("question")
        .annotate(top=Max("number"))
        .values_list("question", "top")
    )
    to_create = []
    for question, doc in zip(changed, plan.changed, strict=True):
        revision_id = plan.next_revision_ids[doc.code]
        if revision_id is None:
            revision = _revision_from_doc(question.pk, doc, highest[question.pk] + 1)
            to_create.append((question, revision))
        else:
            question.current_revision_id = revision_id
    QuestionRevision.objects.bulk_create([revision for _, revision in to_create])
    for question, revision in to_create:
        question.current_revision_id = revision.pk
    for question in changed:
        plan.next_revision_ids[question.code] = question.current_revision_id

    # Placement (phase, position) and retirement are not content: update in place. Changed
    # questions are written anyway; unchanged ones only if they moved or come back.
    to_update = list(changed)
    changed_codes = {doc.code for doc in plan.changed}
    placed: set[int] = set()  # phases whose active questions are no longer the same
    for doc in quiz_set.questions:
        question = existing.get(doc.code)
        if question is None:
            continue
        phase = phase_of[doc.code]
        if question.retired_at is not None or question.phase_id != phase.pk:
            placed.add(phase.pk)
            if question.retired_at is None:
                placed.add(question.phase_id)
        if (
            question.phase_id != phase.pk
            or question.position != doc.position
            or question.retired_at is not None
        ):
            question.phase, question.position, question.retired_at = phase, doc.position, None
            if doc.code not in changed_codes:
                to_update.append(question)
    for question in plan.retired:
        question.retired_at = now
        placed.add(question.phase_id)
        to_update.append(question)
    if to_update:
        Question.objects.bulk_update(
            to_update, ["current_revision", "phase", "position", "retired_at"], batch_size=500
        )
    if placed:
        questions_placed.send(sender=Question, phase_ids=sorted(placed))
