"""Writes to quiz content: applying a validated quiz set to the database.

Revisions are only ever added. A question whose content hash is unchanged is left
alone; one that changed gets a new revision (or points back at an earlier revision with
the same content, when an edit is undone); one missing from the files is retired.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from django.db import transaction
from django.db.models import Max
from django.utils import timezone

from .loader import PhaseDoc, QuestionDoc, QuizSet
from .models import Phase, Question, QuestionRevision


class ImportRefused(Exception):
    """The quiz set has problems; nothing was written."""

    def __init__(self, problems):
        self.problems = problems
        super().__init__(f"{len(problems)} problem(s) in the quiz files")


@dataclass
class ImportPlan:
    added: list[QuestionDoc] = field(default_factory=list)
    changed: list[QuestionDoc] = field(default_factory=list)
    unchanged: list[QuestionDoc] = field(default_factory=list)
    retired: list[Question] = field(default_factory=list)
    dry_run: bool = False
    # For changed questions: the revision they had before this import.
    current_revision_ids: dict[str, int] = field(default_factory=dict)

    def summary(self) -> str:
        line = (
            f"added: {len(self.added)}, changed: {len(self.changed)}, "
            f"retired: {len(self.retired)}, unchanged: {len(self.unchanged)}"
        )
        return f"dry run: {line}" if self.dry_run else line


def _revision_from_doc(question: Question, doc: QuestionDoc, number: int) -> QuestionRevision:
    return QuestionRevision(
        question=question,
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
    )


def _phases_apply(phases: list[PhaseDoc], now) -> dict[int, Phase]:
    existing = {phase.number: phase for phase in Phase.objects.all()}
    result: dict[int, Phase] = {}
    for doc in phases:
        values = {
            "slug": doc.slug,
            "title_en": doc.title["en"],
            "title_es": doc.title.get("es", ""),
            "source_file": doc.file_name,
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
    Phase.objects.filter(pk__in=[p.pk for p in existing.values()], retired_at__isnull=True).update(
        retired_at=now
    )
    return result


def quiz_import(*, quiz_set: QuizSet, dry_run: bool = False) -> ImportPlan:
    """Apply `quiz_set` in one transaction and return what was (or would be) done.

    Raises ImportRefused, having written nothing, when the set has problems.
    """
    if quiz_set.problems:
        raise ImportRefused(quiz_set.problems)
    plan = ImportPlan(dry_run=dry_run)
    with transaction.atomic():
        existing = {
            q.code: q for q in Question.objects.select_related("current_revision").order_by()
        }
        seen: set[str] = set()
        for doc in quiz_set.questions:
            seen.add(doc.code)
            question = existing.get(doc.code)
            if question is None:
                plan.added.append(doc)
            elif question.current_revision.content_hash != doc.content_hash:
                plan.changed.append(doc)
                plan.current_revision_ids[doc.code] = question.current_revision_id
            else:
                plan.unchanged.append(doc)
        plan.retired = sorted(
            (q for code, q in existing.items() if code not in seen and not q.is_retired),
            key=lambda q: q.code,
        )
        if dry_run:
            return plan
        _plan_apply(plan, quiz_set, existing)
    return plan


def _plan_apply(plan: ImportPlan, quiz_set: QuizSet, existing: dict[str, Question]) -> None:
    now = timezone.now()
    phases = _phases_apply(quiz_set.phases, now)
    phase_of = {q.code: phases[p.number] for p in quiz_set.phases for q in p.questions}

    # New questions: the question rows first, then revision 1 of each, then the link.
    new_questions = Question.objects.bulk_create(
        [
            Question(code=doc.code, phase=phase_of[doc.code], position=doc.position)
            for doc in plan.added
        ]
    )
    revisions = QuestionRevision.objects.bulk_create(
        [_revision_from_doc(q, doc, 1) for q, doc in zip(new_questions, plan.added, strict=True)]
    )
    for question, revision in zip(new_questions, revisions, strict=True):
        question.current_revision = revision

    # Changed questions: reuse an earlier revision with identical content, else add one.
    changed = [existing[doc.code] for doc in plan.changed]
    earlier = {
        (r.question_id, r.content_hash): r
        for r in QuestionRevision.objects.filter(question__in=changed).only(
            "id", "question_id", "content_hash"
        )
    }
    highest = dict(
        QuestionRevision.objects.filter(question__in=changed)
        .values("question")
        .annotate(top=Max("number"))
        .values_list("question", "top")
    )
    to_create = []
    for question, doc in zip(changed, plan.changed, strict=True):
        revision = earlier.get((question.pk, doc.content_hash))
        if revision is None:
            revision = _revision_from_doc(question, doc, highest[question.pk] + 1)
            to_create.append(revision)
        question.current_revision = revision
    QuestionRevision.objects.bulk_create(to_create)

    # Placement (phase, position) and retirement are not content: update in place. Changed
    # questions are written anyway; unchanged ones only if they moved or come back.
    to_update = changed + new_questions
    for doc, already in [(d, True) for d in plan.changed] + [(d, False) for d in plan.unchanged]:
        question = existing[doc.code]
        phase = phase_of[doc.code]
        if (
            question.phase_id != phase.pk
            or question.position != doc.position
            or question.retired_at is not None
        ):
            question.phase, question.position, question.retired_at = phase, doc.position, None
            if not already:
                to_update.append(question)
    for question in plan.retired:
        question.retired_at = now
        to_update.append(question)
    Question.objects.bulk_update(
        to_update, ["current_revision", "phase", "position", "retired_at"], batch_size=500
    )
