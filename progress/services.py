"""Writes for progress: answering a question, keeping drafts, recording attempts.

`answer_submit` and `draft_submit` hold every rule about a submission (the token, the
account, the login, the revision, retirement, the answer's shape); they raise a typed
`SubmissionRefused` that the views turn into a response, so a view only maps outcomes.
"""

from __future__ import annotations

from dataclasses import dataclass

from django.contrib.auth import get_user_model
from django.db import IntegrityError, transaction
from django.db.models import Count, OuterRef, Q, Subquery
from django.db.models.functions import Coalesce
from django.utils import timezone, translation
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy

from portal import sql
from portal.writes import write_transaction
from quizzes.enums import QuestionKind
from quizzes.grading import GRADER_VERSION, Grade
from quizzes.grading.numeric import NumberRefused, number_read, plain
from quizzes.models import Question, QuestionRevision

from .models import Attempt, Draft, LearnerPhase, LearnerQuestion, ReviewCard
from .reviews import review_card_ensure, review_card_feed
from .tokens import LOGGED_OUT_MAX_AGE, MAX_AGE, BadToken, SubmissionToken, token_read

MAX_ANSWER_CHARS = 10_000
MAX_CHOICES = 26  # option keys are letters
MAX_KEY_CHARS = 8


class SubmissionRefused(Exception):
    """A submission that records nothing. `message` is for the learner; `status` is the
    HTTP status a view answers with; `keep` is what the learner sent, to show again."""

    status = 400
    default_message = gettext_lazy("This form is out of date. Reload the page to answer.")

    def __init__(self, message: str | None = None, *, keep: dict | None = None):
        self.message = str(message or self.default_message)
        self.keep = keep
        self.revision: QuestionRevision | None = None  # the revision the form showed
        super().__init__(self.message)


class FormUnusable(SubmissionRefused):
    """Forged, expired, or made for a question or an account that no longer fits."""


class FormOfAnotherAccount(SubmissionRefused):
    status = 403
    default_message = gettext_lazy("This form was made for another account. Reload the page.")


class FormOfEndedLogin(SubmissionRefused):
    """The learner logged out or changed the password since the form was made. What was
    sent is kept as the learner's draft and the form is shown again with it."""

    status = 409
    default_message = gettext_lazy(
        "This form was made before you last logged in, so it was not sent. "
        "Your answer is kept below: check it and send it again."
    )


class QuestionRetired(SubmissionRefused):
    status = 410
    default_message = gettext_lazy("This question has been retired and takes no answers.")


class AnswerInvalid(SubmissionRefused):
    """The answer does not fit the question; the form is shown again with it."""

    status = 422


@dataclass(frozen=True)
class Answered:
    attempt: Attempt
    created: bool
    revision: QuestionRevision
    # When the attempt was just stored: the learner's standing on the question and
    # review card (None: no card) as the answer left them, so the feedback needs no
    # second read. None for a repeated submission.
    standing: LearnerQuestion | None = None
    card: ReviewCard | None = None


@dataclass(frozen=True)
class KeptWhileLoggedOut:
    """The session had expired: the answer was kept apart for the form's learner."""


def answer_raw(post) -> dict:
    """What the learner sent, unchecked but bounded, for keeping as a draft."""
    return {
        "keys": [key[:MAX_KEY_CHARS] for key in post.getlist("choice")[:MAX_CHOICES]],
        "text": post.get("text", "")[:MAX_ANSWER_CHARS].replace("\x00", ""),
    }


def _token_for(*, question: Question, raw_token: str, max_age=MAX_AGE) -> SubmissionToken:
    try:
        token = token_read(raw_token, max_age=max_age)
    except BadToken:
        raise FormUnusable() from None
    if token.question_id != question.pk:
        raise FormUnusable(_("This form does not belong to this question."))
    return token


def _keep_logged_out(*, raw_token: str, question: Question, post) -> None:
    token = _token_for(question=question, raw_token=raw_token, max_age=LOGGED_OUT_MAX_AGE)
    learner = get_user_model().objects.filter(pk=token.learner_id, is_active=True).first()
    if learner is None:
        raise FormUnusable()  # the account is gone: nobody to keep it for
    if not token.of_account(learner):
        raise FormUnusable()  # made before a password change: it writes nothing
    draft_save(
        learner_id=token.learner_id,
        question_id=question.pk,
        answer=answer_raw(post),
        logged_out=True,
    )


def _token_of_this_login(*, user, session, question: Question, raw_token: str, post):
    token = _token_for(question=question, raw_token=raw_token)
    if token.learner_id != user.pk:
        raise FormOfAnotherAccount()
    if not token.bound_to(session=session, user=user):
        kept = answer_raw(post)
        draft_save(learner_id=user.pk, question_id=question.pk, answer=kept)
        raise FormOfEndedLogin(keep=kept)
    return token


def answer_submit(
    *, user, session, question: Question, raw_token: str, post, language: str
) -> Answered | KeptWhileLoggedOut:
    """Check one posted answer and record it as an attempt.

    Raises a `SubmissionRefused`; nothing is recorded then, except what the learner
    typed, kept as a draft where the poster may keep it.
    """
    if not user.is_authenticated:
        _keep_logged_out(raw_token=raw_token, question=question, post=post)
        return KeptWhileLoggedOut()
    token = _token_of_this_login(
        user=user, session=session, question=question, raw_token=raw_token, post=post
    )
    revision = (
        question.current_revision
        if token.revision_id == question.current_revision_id
        else QuestionRevision.objects.filter(pk=token.revision_id, question=question).first()
    )
    if revision is None:
        raise FormUnusable(_("This form does not belong to this question."))
    if question.is_retired:
        raise QuestionRetired()
    kept = answer_raw(post)
    try:
        answer = answer_parse(revision=revision, keys=kept["keys"], text=post.get("text", ""))
    except AnswerInvalid as invalid:
        invalid.keep, invalid.revision = kept, revision
        raise
    stored = _attempt_store(
        learner=user, revision=revision, nonce=token.nonce, answer=answer, language=language
    )
    return Answered(revision=revision, **stored)


def draft_submit(*, user, session, question: Question, raw_token: str, post) -> None:
    """Keep what the learner is typing, for the form's learner."""
    if not user.is_authenticated:
        _keep_logged_out(raw_token=raw_token, question=question, post=post)
        return
    try:
        _token_of_this_login(
            user=user, session=session, question=question, raw_token=raw_token, post=post
        )
    except FormOfEndedLogin:
        return  # kept as the learner's own draft all the same
    draft_save(learner_id=user.pk, question_id=question.pk, answer=answer_raw(post))
    # The learner typed on from what was kept while logged out (the form showed it):
    # their own draft now holds the newest text, so the kept one must not mask it.
    Draft.objects.filter(learner=user, question=question, logged_out=True).delete()


def _number_refusal(refused: NumberRefused, revision: QuestionRevision) -> str:
    """What to tell a learner whose answer is not read as a number: how to write it."""
    if refused.reason == "empty":
        return _("Write a number first.")
    if refused.reason == "ambiguous":
        return _(
            "“%(text)s” can be read two ways. Write a thousand as 1000 or 1 000, and "
            "decimals with one point or comma: 1.5 or 1,5."
        ) % {"text": refused.text}
    if refused.reason == "marks":
        return _(
            "Use at most one decimal point or comma, and group thousands with spaces: "
            "2 415 919 104.5."
        )
    if refused.reason == "groups":
        return _("Group digits in threes with spaces, as in 2 415 919 104, or not at all.")
    unit = revision.unit(translation.get_language() or "en")
    if refused.reason == "unit" and unit:
        return _("Write the number, in %(unit)s: for example 3.5 or 3.5 %(unit)s.") % {"unit": unit}
    if refused.reason == "unit":
        return _("Write the number alone, without a unit.")
    return _("Write a number in digits, such as 3.5, 3,5 or 2.4e9.")


def answer_parse(*, revision: QuestionRevision, keys: list[str], text: str) -> dict:
    """Check a submitted answer against the question's shape and return it as stored:
    a numeric answer keeps the text as typed and its reading in plain notation."""
    if revision.kind == QuestionKind.NUMERIC:
        if "\x00" in text:
            raise AnswerInvalid(_("The answer contains characters that cannot be stored."))
        try:
            value = number_read(text, units=revision.numeric_key.units)
        except NumberRefused as refused:
            raise AnswerInvalid(_number_refusal(refused, revision)) from None
        return {"text": text, "value": plain(value)}
    if revision.kind == QuestionKind.FREE:
        if "\x00" in text:
            raise AnswerInvalid(_("The answer contains characters that cannot be stored."))
        if len(text) > MAX_ANSWER_CHARS:
            raise AnswerInvalid(
                _("The answer is too long (at most %(max)d characters).")
                % {"max": MAX_ANSWER_CHARS}
            )
        if not text.strip():
            raise AnswerInvalid(_("Write an answer first."))
        return {"text": text}
    valid = {option["key"] for option in revision.options}
    chosen = list(dict.fromkeys(keys))
    if not chosen:
        raise AnswerInvalid(
            _("Choose an option first.")
            if revision.kind == QuestionKind.SINGLE
            else _("Choose at least one option.")
        )
    if any(key not in valid for key in chosen):
        raise AnswerInvalid(_("That option is not part of this question."))
    if revision.kind == QuestionKind.SINGLE and len(chosen) != 1:
        raise AnswerInvalid(_("Choose only one option."))
    return {"keys": sorted(chosen)}


def answer_pattern(answer: dict, result: Grade) -> str:
    if "value" in answer:  # numeric: the value as read, to count answers alike
        return answer["value"][:64]
    if "keys" in answer:
        return "".join(sorted(answer["keys"]))[:64]
    return ",".join(str(i) for i in result.missed)[:64]


def graded_text(answer: dict) -> str:
    """The text a stored answer is graded by: a numeric answer's reading (plain
    notation, readable whatever the question's unit becomes), else what was typed."""
    return answer.get("value", answer.get("text", ""))


def grade_feedback(result: Grade) -> dict:
    """What a grade found, as stored with an attempt or a regrade."""
    return {
        "right_picks": list(result.right_picks),
        "wrong_picks": list(result.wrong_picks),
        "missed_keys": list(result.missed_keys),
        "found": list(result.found),
        "missed": list(result.missed),
        "negated": list(result.negated),
        # Per mention, what the grader saw, so the feedback can show it in place.
        "mentions": [
            {
                "status": m.status,
                "spans": [list(s) for s in m.spans],
                "typos": list(m.typos),
                # Found as a negative statement ("not recomputed"): the feedback says so.
                **({"negative": True} if m.negative else {}),
            }
            for m in result.mentions
        ],
        "rejected": [
            {"alternative": r.alternative, "spans": [list(s) for s in r.spans]}
            for r in result.rejected
        ],
        # Why the grader is unsure (quizzes.grading.DOUBTS): the verdict is provisional.
        "doubts": list(result.doubts),
    }


def attempt_record(
    *, learner, revision: QuestionRevision, nonce: str, answer: dict, language: str
) -> tuple[Attempt, bool]:
    """Grade and store one submission; a repeated nonce returns the stored attempt.

    Returns (attempt, created).
    """
    stored = _attempt_store(
        learner=learner, revision=revision, nonce=nonce, answer=answer, language=language
    )
    return stored["attempt"], stored["created"]


def _attempt_store(
    *, learner, revision: QuestionRevision, nonce: str, answer: dict, language: str
) -> dict:
    """`attempt_record`, also returning the standing and review card it wrote (for a
    new attempt): {"attempt", "created", "standing", "card"}."""
    result = revision.grade(keys=answer.get("keys", ()), text=graded_text(answer))
    attempt = Attempt(
        learner=learner,
        question_id=revision.question_id,
        revision=revision,
        token=nonce,
        answer=answer,
        correct=result.correct,
        score=result.score,
        partial=result.partial,
        feedback=grade_feedback(result),
        pattern=answer_pattern(answer, result),
        language=language,
        grader_version=GRADER_VERSION,
        doubts=",".join(result.doubts)[:64],
    )
    try:
        with write_transaction(Attempt):
            attempt.save()
            standing = _standing_add(attempt)
            card = review_card_feed(attempt=attempt)
            sql.write(Draft, _DRAFTS_DELETE, [learner.pk, revision.question_id])
    except IntegrityError:
        existing = Attempt.objects.filter(token=nonce, learner=learner).first()
        if existing is None:
            raise
        return {"attempt": existing, "created": False, "standing": None, "card": None}
    return {"attempt": attempt, "created": True, "standing": standing, "card": card}


def _standing_add(attempt: Attempt) -> LearnerQuestion:
    """Fold a new attempt into the learner's standing on its question and into the
    learner's counts in its phase; returns the standing."""
    standing, created = _standing_locked(attempt), False
    if standing is None:
        standing, created = LearnerQuestion.objects.select_for_update().get_or_create(
            learner_id=attempt.learner_id,
            question_id=attempt.question_id,
            defaults={
                "attempts": 1,
                "first_attempt": attempt,
                "latest_attempt": attempt,
                "first_correct": attempt.correct,
                "latest_correct": attempt.correct,
                "ever_correct": attempt.correct,
                "latest_score": attempt.score,
                "first_pattern": attempt.pattern,
                "latest_pattern": attempt.pattern,
            },
        )
    if created:
        _phase_counts_add(attempt)
        # The phase's first-try total on the standings that carry it: each of the
        # learner's in the phase when this first try was right, else only the new one.
        _phase_first_right_copy(
            LearnerQuestion.objects.filter(
                learner_id=attempt.learner_id, question__phase__questions=attempt.question_id
            )
            if attempt.correct
            else LearnerQuestion.objects.filter(pk=standing.pk)
        )
        return standing
    latest_change = int(attempt.correct) - int(standing.latest_correct)
    ever_change = int(attempt.correct and not standing.ever_correct)
    standing.attempts += 1
    standing.latest_attempt = attempt
    standing.latest_correct = attempt.correct
    standing.latest_score = attempt.score
    standing.latest_pattern = attempt.pattern
    standing.ever_correct = standing.ever_correct or attempt.correct
    sql.write(
        LearnerQuestion,
        _STANDING_UPDATE,
        [
            standing.attempts,
            attempt.pk,
            attempt.correct,
            attempt.score,
            attempt.pattern,
            standing.ever_correct,
            standing.pk,
        ],
    )
    if latest_change or ever_change:
        sql.write(
            LearnerPhase,
            _COUNTS_MOVE,
            [latest_change, ever_change, attempt.learner_id, attempt.question_id],
            question=Question,
        )
    return standing


def _standing_locked(attempt: Attempt) -> LearnerQuestion | None:
    """The learner's standing on the attempt's question, locked until the transaction
    ends where the database locks rows (PostgreSQL; on SQLite the transaction holds
    the whole database), or None before a first answer."""
    return (
        LearnerQuestion.objects.select_for_update()
        .filter(learner_id=attempt.learner_id, question_id=attempt.question_id)
        .first()
    )


# The statements every answer runs inside its write transaction, in SQL (`portal.sql`):
# the ORM builds each of them anew on every answer, and SQLite runs one write
# transaction at a time (docs/data-layer.md). tests/progress/test_phase_totals.py and
# test_answer.py hold their results to counts made from scratch.
_STANDING_UPDATE = (
    "UPDATE {table} SET {table.attempts} = %s, {table.latest_attempt} = %s, "
    "{table.latest_correct} = %s, {table.latest_score} = %s, {table.latest_pattern} = %s, "
    "{table.ever_correct} = %s WHERE {table.id} = %s"
)
# A retired question counts in no phase, as a recount leaves it out.
_COUNTS_MOVE = (
    "UPDATE {table} SET {table.latest_right} = {table.latest_right} + %s, "
    "{table.ever_right} = {table.ever_right} + %s "
    "WHERE {table.learner} = %s AND {table.phase} IN (SELECT {question.phase} FROM {question} "
    "WHERE {question.id} = %s AND {question.retired_at} IS NULL)"
)
# A first answer makes the row or adds to it in one statement, so two at once both count.
_COUNTS_ADD = (
    "INSERT INTO {table} ({table.learner}, {table.phase}, {table.answered}, "
    "{table.first_right}, {table.latest_right}, {table.ever_right}) "
    "SELECT %s, {question.phase}, 1, %s, %s, %s FROM {question} "
    "WHERE {question.id} = %s AND {question.retired_at} IS NULL "
    "ON CONFLICT ({table.learner}, {table.phase}) DO UPDATE SET "
    "{table.answered} = {table}.{table.answered} + 1, "
    "{table.first_right} = {table}.{table.first_right} + excluded.{table.first_right}, "
    "{table.latest_right} = {table}.{table.latest_right} + excluded.{table.latest_right}, "
    "{table.ever_right} = {table}.{table.ever_right} + excluded.{table.ever_right}"
)
_DRAFTS_DELETE = "DELETE FROM {table} WHERE {table.learner} = %s AND {table.question} = %s"


def _phase_counts_add(attempt: Attempt) -> None:
    """Count a first answer into the learner's counts in the question's phase, leaving
    a retired question out, as a recount does."""
    right = int(attempt.correct)
    sql.write(
        LearnerPhase,
        _COUNTS_ADD,
        [attempt.learner_id, right, right, right, attempt.question_id],
        question=Question,
    )


def _phase_first_right_copy(standings) -> None:
    """Copy each learner's kept first-try total in the question's phase onto the given
    standings (LearnerQuestion.phase_first_right), 0 where none is kept. Run after the
    counts are written: in the same transaction, a concurrent first answer in the phase
    waits on the counts' row and then copies the total with both tries in it."""
    total = LearnerPhase.objects.filter(
        learner_id=OuterRef("learner_id"), phase__questions=OuterRef("question_id")
    ).values("first_right")[:1]
    standings.update(phase_first_right=Coalesce(Subquery(total), 0))


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
        _phase_first_right_copy(standings)
    return len(written)


def learner_question_rebuild(*, pairs=None) -> int:
    """Recompute standings from attempts and regrades: for the given (learner_id,
    question_id) pairs, or for everything. Returns how many standings were written."""
    attempts = Attempt.objects.order_by("id").prefetch_related("regrades")
    if pairs is not None:
        pairs = set(pairs)
        attempts = attempts.filter(
            learner_id__in={p[0] for p in pairs}, question_id__in={p[1] for p in pairs}
        )
    grouped: dict[tuple[int, int], list[Attempt]] = {}
    for attempt in attempts:
        key = (attempt.learner_id, attempt.question_id)
        if pairs is None or key in pairs:
            grouped.setdefault(key, []).append(attempt)

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
                    "latest_attempt": items[-1],
                    "first_correct": grades[0][0],
                    "latest_correct": grades[-1][0],
                    "ever_correct": any(g[0] for g in grades),
                    "latest_score": grades[-1][1],
                    "first_pattern": items[0].pattern,
                    "latest_pattern": items[-1].pattern,
                },
            )
            if not grades[-1][0]:  # wrong as it now stands: back into the reviews
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


def draft_save(
    *, learner_id: int, question_id: int, answer: dict, logged_out: bool = False
) -> None:
    with write_transaction(Draft):
        Draft.objects.update_or_create(
            learner_id=learner_id,
            question_id=question_id,
            logged_out=logged_out,
            defaults={"answer": answer},
        )
