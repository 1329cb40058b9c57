"""Reads for the learner's pages: a fixed number of queries whatever the counts."""

from __future__ import annotations

from collections import defaultdict
from dataclasses import dataclass, field
from datetime import timedelta
from decimal import Decimal

from django.db.models import Count, OuterRef, Subquery
from django.utils import formats, timezone, translation
from django.utils.translation import gettext as _

from quizzes.grading import highlight_html
from quizzes.models import Phase, Question, QuestionRevision

from .models import (
    Attempt,
    Draft,
    LearnerQuestion,
    Regrade,
    ReviewCard,
    Verdict,
    provisional_from,
    verdict_newest,
)
from .paging import again_href, page_of, question_href
from .reviews import day_start


@dataclass(frozen=True)
class OptionFeedback:
    key: str
    text: dict
    picked: bool
    correct: bool
    multi: bool = False  # of a question with several right options

    @property
    def css(self) -> str:
        if self.picked:
            return "right-pick" if self.correct else "wrong-pick"
        return "missed-key" if self.correct else ""

    @property
    def note(self) -> str:
        """What the feedback says beside the option, if anything."""
        if self.picked:
            return _("your pick, right") if self.correct else _("your pick, wrong")
        if self.correct:
            return _("right, not picked") if self.multi else _("the right answer")
        return ""


@dataclass(frozen=True)
class MentionFeedback:
    alternatives: list[str]
    status: str  # "found" | "missed" | "negated"
    typos: tuple[tuple[str, str], ...] = ()
    negative: bool = False  # found through a negatively phrased alternative

    @property
    def found(self) -> bool:
        return self.status == "found"

    @property
    def label(self) -> str:
        return " / ".join(self.alternatives)


def _runs(text: str, spans) -> list[tuple[int, int]]:
    """The grader's spans (one per word, possibly overlapping) joined into the runs of
    text they cover: "2 Sigma", not "2" and "Sigma"; words apart stay apart."""
    runs: list[list[int]] = []
    for start, end in sorted((int(a), int(b)) for a, b in spans):
        if runs and not text[runs[-1][1] : start].strip():
            runs[-1][1] = max(runs[-1][1], end)
        else:
            runs.append([start, end])
    return [(start, end) for start, end in runs]


@dataclass
class QuestionState:
    question: Question
    tries: int = 0
    latest: Attempt | None = None
    draft: dict | None = None
    # What was sent for this question while the session had expired, kept apart from
    # the learner's own draft until the learner checks it and sends it.
    kept: dict | None = None
    next_code: str | None = None
    # Where "Next question" goes when the next question is on another page of the phase.
    next_url: str = ""
    # Set by the view for a question whose form is shown.
    token: str = ""
    show_form: bool = False
    error: str = ""
    # The revision the form shows: the current one, unless a form of an older
    # revision is shown again with the learner's input (its token names that one).
    form_revision: QuestionRevision | None = None
    # The learner's review card for the question, where the feedback says when it
    # comes back (loaded for the answer's feedback only).
    card: ReviewCard | None = None
    # What the form starts from when nothing was kept: the previous free answer.
    prefill: dict | None = None
    # The regrade or override that stands on the latest attempt, if any.
    verdict_entry: Regrade | None = None
    # Whether an instructor has confirmed or overridden the latest attempt's verdict
    # (read only where the grader was unsure of it).
    checked: bool = False

    @property
    def grading(self) -> dict:
        """What the grader found (picks, mentions), as it now stands."""
        entry = self.verdict_entry
        if entry is not None and entry.new_feedback:
            return entry.new_feedback
        return self.latest.feedback

    @property
    def partial(self) -> float:
        entry = self.verdict_entry
        if entry is not None and entry.new_partial is not None:
            return entry.new_partial
        return self.latest.partial

    @property
    def verdict(self) -> Verdict | None:
        """The latest attempt's effective verdict: what every page shows."""
        if self.latest is None:
            return None
        return self.latest.verdict_from(self.verdict_entry)

    @property
    def provisional(self) -> bool:
        """The grader was unsure of the latest verdict and no instructor has looked at
        it yet: the learner is told it may be revised."""
        return self.latest is not None and bool(self.latest.doubts) and not self.checked

    @property
    def review_note(self) -> dict | None:
        """When the question comes back for review, and whether this answer was a
        review or practice (a card rates one answer a day, when due)."""
        card, attempt = self.card, self.latest
        if card is None or attempt is None or card.learned_at is not None:
            return {"learned": True} if card is not None and card.learned_at else None
        due_day = timezone.localdate(card.due)
        return {
            "rated": card.scheduled_by(attempt),
            "days": max((due_day - timezone.localdate()).days, 0),
            "due": card.due,
        }

    # "reviews" when shown on the reviews page: "next" then means the next due card.
    context: str = ""

    @property
    def next_href(self) -> str:
        return self.next_url or f"#{self.next_code}"

    @property
    def revision(self):
        return self.form_revision or self.question.current_revision

    @property
    def form_answer(self) -> dict | None:
        """What the form is filled with: what was kept while logged out (the newest
        typing, shown with a note to check it), else the learner's draft, else the
        previous answer when answering again."""
        return self.kept or self.draft or self.prefill

    @property
    def again_href(self) -> str:
        return again_href(phase_number=self.question.phase.number, code=self.question.code)

    @property
    def graded_revision(self):
        """The revision whose key the standing verdict applied: a regrade's newer one,
        else the one the learner answered. Feedback reads its key from here."""
        entry = self.verdict_entry
        if entry is not None and entry.revision_id:
            return entry.revision
        return self.latest.revision

    @property
    def options_feedback(self) -> list[OptionFeedback]:
        """The latest attempt's revision's options, each with whether it was picked."""
        if self.latest is None:
            return []
        picked = set(self.latest.keys)
        right = {o["key"] for o in self.graded_revision.options if o.get("correct")}
        multi = self.latest.revision.is_multi
        return [
            OptionFeedback(o["key"], o["text"], o["key"] in picked, o["key"] in right, multi)
            for o in self.latest.revision.options
        ]

    @property
    def mentions_feedback(self) -> list[MentionFeedback]:
        if self.latest is None:
            return []
        feedback = self.grading
        details = feedback.get("mentions") or []
        found = set(feedback.get("found", []))
        result = []
        for index, alternatives in enumerate(self.graded_revision.expected):
            if index < len(details):  # graded by a matcher that explains itself
                detail = details[index]
                typos = tuple(tuple(pair) for pair in detail.get("typos", []))
                result.append(
                    MentionFeedback(
                        list(alternatives), detail["status"], typos, detail.get("negative", False)
                    )
                )
            else:
                status = "found" if index in found else "missed"
                result.append(MentionFeedback(list(alternatives), status))
        return result

    @property
    def answer_marked(self) -> str:
        """The learner's free answer, escaped, with the words that matched marked."""
        feedback = self.grading
        spans = [
            tuple(span)
            for item in [*feedback.get("mentions", []), *feedback.get("rejected", [])]
            for span in item.get("spans", [])
        ]
        return highlight_html(text=self.latest.text, spans=spans)

    @property
    def rejected(self) -> list[str]:
        """What made the answer wrong, in the learner's own words (the grader's spans
        into their text), else the key's phrasing of it."""
        text = self.latest.text
        quoted = []
        for item in self.grading.get("rejected", []):
            words = " … ".join(text[start:end] for start, end in _runs(text, item.get("spans", [])))
            quoted.append(words or item["alternative"])
        return quoted

    @property
    def partial_parts(self) -> dict[str, int]:
        """A multiple-answer score explained: right picks − wrong picks, of the right keys."""
        right = len(self.grading.get("right_picks", []))
        wrong = len(self.grading.get("wrong_picks", []))
        total = len(self.graded_revision.correct_keys)
        return {"right": right, "wrong": wrong, "net": max(right - wrong, 0), "total": total}

    @property
    def numeric_feedback(self) -> dict[str, str]:
        """A numeric answer as read and the key that graded it, in the viewer's language
        and number format: {"read", "right", "tolerance", "low", "high"} ("3,5 GB",
        "14 GB", "8 %"...); "tolerance" is "" when only the exact value is right."""
        revision, value = self.graded_revision, self.latest.answer.get("value")
        key = revision.numeric_key
        unit = revision.unit(translation.get_language() or "en")

        def shown(number: Decimal) -> str:
            text = formats.number_format(number.normalize(), use_l10n=True)
            return f"{text} {unit}" if unit else text

        feedback = {
            "read": shown(Decimal(value)) if value is not None else self.latest.text,
            "right": shown(key.answer),
            "tolerance": "",
        }
        if key.tolerance:
            tolerance = formats.number_format(key.tolerance.normalize(), use_l10n=True)
            relative = _("%(number)s%%") % {"number": tolerance}
            feedback["tolerance"] = relative if key.relative else shown(key.tolerance)
            feedback["low"] = shown(key.answer - key.margin)
            feedback["high"] = shown(key.answer + key.margin)
        return feedback

    @property
    def mentions_needed(self) -> int:
        revision = self.graded_revision if self.latest else self.revision
        return revision.pass_mentions or len(revision.expected)


@dataclass
class PhaseProgress:
    phase: Phase
    total: int = 0
    answered: int = 0
    correct: int = 0  # questions whose latest attempt is right
    score: float = 0.0  # sum of latest scores
    first_tries: int = 0
    first_try_correct: int = 0
    continue_code: str | None = None
    continue_page: int = 1  # the page of the phase that holds continue_code
    question_codes: list[str] = field(default_factory=list)
    last_attempt_id: int = 0  # the learner's newest answer in the phase, 0 if none

    @property
    def first_try_rate(self) -> float | None:
        return self.first_try_correct / self.first_tries if self.first_tries else None

    @property
    def continue_href(self) -> str:
        return question_href(
            phase_number=self.phase.number, code=self.continue_code, page=self.continue_page
        )

    @property
    def status(self) -> str:
        """ "done" (every question answered), "started" or "new"."""
        if self.total and self.answered == self.total:
            return "done"
        return "started" if self.answered else "new"


def _drafts_attach(*, learner, states: dict[int, QuestionState]) -> None:
    """One query: each state's draft, and what was kept while logged out."""
    for question_id, answer, logged_out in Draft.objects.filter(
        learner=learner, question__in=list(states)
    ).values_list("question_id", "answer", "logged_out"):
        if logged_out:
            states[question_id].kept = answer
        else:
            states[question_id].draft = answer


def _standings_attach(*, states: dict[int, QuestionState], standings) -> None:
    """Each state's tries and latest attempt, the regrade or override standing on it,
    and whether an instructor checked it. A standing keeps the effective grade, so only
    where it differs from the attempt's own grade, or where the grader was unsure, is
    there an entry to read: no query in the common case, one otherwise."""
    differ = {}
    for standing in standings:
        state = states[standing.question_id]
        state.tries, state.latest = standing.attempts, standing.latest_attempt
        attempt = standing.latest_attempt
        # A verdict the grader was unsure of needs its entries too: an instructor's
        # confirmation keeps the grade, so only the entries say it is no longer provisional.
        if attempt.doubts or (standing.latest_correct, standing.latest_score) != (
            attempt.correct,
            attempt.score,
        ):
            differ[attempt.pk] = state
    if differ:
        entries = list(
            Regrade.objects.filter(attempt_id__in=list(differ))
            .select_related("revision")
            .order_by("id")
        )
        by_attempt: dict[int, list[Regrade]] = defaultdict(list)
        for entry in entries:
            by_attempt[entry.attempt_id].append(entry)
        for attempt_id, state in differ.items():
            state.verdict_entry = verdict_newest(by_attempt[attempt_id])
            state.checked = not provisional_from(state.latest, by_attempt[attempt_id])


def question_state(
    *, learner, question: Question, with_card: bool = False, with_drafts: bool = False
) -> QuestionState:
    """One question's state, for the HTMX fragments; `with_card` also reads its review
    card, for the feedback right after an answer; `with_drafts` its drafts, for a form."""
    standing = next(iter(_standings(learner=learner, questions=[question])), None)
    # The next question with how many active questions come before it, in one query:
    # when it starts the next page of the phase, "Next question" links to that page.
    before = (
        Question.objects.active()
        .filter(phase_id=OuterRef("phase_id"), position__lt=OuterRef("position"))
        .order_by()
        .values("phase_id")
        .annotate(n=Count("pk"))
        .values("n")
    )
    following = (
        Question.objects.active()
        .filter(phase_id=question.phase_id, position__gt=question.position)
        .order_by("position")
        .annotate(before=Subquery(before))
        .values_list("code", "before")
        .first()
    )
    card = (
        ReviewCard.objects.filter(learner=learner, question=question).first() if with_card else None
    )
    state = QuestionState(question=question, next_code=following and following[0], card=card)
    if following is not None:
        code, ordinal = following
        own = ordinal - 1 if question.retired_at is None else ordinal
        if page_of(ordinal=ordinal) != page_of(ordinal=own):
            state.next_url = question_href(
                phase_number=question.phase.number, code=code, page=page_of(ordinal=ordinal)
            )
    _standings_attach(states={question.pk: state}, standings=[standing] if standing else [])
    if with_drafts:
        _drafts_attach(learner=learner, states={question.pk: state})
    return state


def _standings(*, learner, questions) -> list[LearnerQuestion]:
    """The learner's standings on `questions`, each with its latest attempt and that
    attempt's revision: one row per question answered, not one per attempt. An
    attempt on the question's current revision shares the revision the question
    brought along; only older ones are read, in a second query."""
    by_id = {question.pk: question for question in questions}
    standings = list(
        LearnerQuestion.objects.filter(learner=learner, question__in=list(by_id)).select_related(
            "latest_attempt"
        )
    )
    current = Question._meta.get_field("current_revision")
    older: dict[int, list[Attempt]] = defaultdict(list)
    for standing in standings:
        attempt, question = standing.latest_attempt, by_id[standing.question_id]
        if attempt.revision_id == question.current_revision_id and current.is_cached(question):
            attempt.revision = question.current_revision
        else:
            older[attempt.revision_id].append(attempt)
    if older:
        for revision in QuestionRevision.objects.filter(pk__in=list(older)):
            for attempt in older[revision.pk]:
                attempt.revision = revision
    return standings


def learner_progress(*, learner) -> list[PhaseProgress]:
    """Per active phase: totals, the learner's latest results and first-try results.
    Reads one standing per question answered (regrades included), not every attempt."""
    phases = list(Phase.objects.active().order_by("number"))
    progress = {p.pk: PhaseProgress(phase=p) for p in phases}
    questions = Question.objects.active().filter(phase__in=phases).order_by("phase", "position")
    codes_by_phase: dict[int, list[tuple[int, str]]] = defaultdict(list)
    for question_id, code, phase_id in questions.values_list("id", "code", "phase_id"):
        codes_by_phase[phase_id].append((question_id, code))
        progress[phase_id].question_codes.append(code)
        progress[phase_id].total += 1

    rows = LearnerQuestion.objects.filter(
        learner=learner, question__retired_at__isnull=True
    ).values_list(
        "question_id", "latest_correct", "latest_score", "first_correct", "latest_attempt_id"
    )
    standings = {row[0]: row[1:] for row in rows}
    for phase_id, items in codes_by_phase.items():
        summary = progress[phase_id]
        for ordinal, (question_id, code) in enumerate(items):
            if question_id in standings:
                correct, score, first_correct, attempt_id = standings[question_id]
                summary.answered += 1
                summary.correct += correct
                summary.score += score
                summary.first_tries += 1
                summary.first_try_correct += first_correct
                summary.last_attempt_id = max(summary.last_attempt_id, attempt_id)
            elif summary.continue_code is None:
                summary.continue_code = code
                summary.continue_page = page_of(ordinal=ordinal)
    return [progress[p.pk] for p in phases]


def phase_in_progress(*, phases: list[PhaseProgress]) -> PhaseProgress | None:
    """The phase to go on with: the one answered in last, while it has questions left;
    else the next one after it with questions left (from the first, for a newcomer);
    None once every question is answered."""
    left = [p for p in phases if p.continue_code is not None]
    if not left:
        return None
    latest = max(phases, key=lambda p: p.last_attempt_id)
    after = latest.phase.number if latest.last_attempt_id else 0
    if latest.last_attempt_id and latest.continue_code is not None:
        return latest
    return next((p for p in left if p.phase.number > after), left[0])


HISTORY_LIMIT = 200


def attempt_history(*, learner, limit: int = HISTORY_LIMIT) -> list[Attempt]:
    return list(
        Attempt.objects.for_learner(learner)
        .select_related("question", "revision", "question__phase")
        .prefetch_related("regrades")
        .order_by("-created_at", "-id")[:limit]
    )


def attempt_counts_for_revisions(revision_ids) -> dict[int, int]:
    """Attempts per revision; the importer's dry run shows what an edit touches."""
    return dict(
        Attempt.objects.filter(revision_id__in=list(revision_ids))
        .order_by()
        .values("revision")
        .annotate(n=Count("id"))
        .values_list("revision", "n")
    )


@dataclass(frozen=True)
class ActivityDay:
    day: object  # a date in the learner's time zone
    answers: int
    right: int


def activity_by_day(*, learner, days: int = 28) -> list[ActivityDay]:
    """Answers and right answers (as they now stand: regrades and overrides count) per
    day over the last `days` days, oldest first, in the learner's time zone. One query
    over those days' attempts only."""
    today = timezone.localdate()
    first = today - timedelta(days=days - 1)
    since = day_start() - timedelta(days=days - 1)
    counts = {first + timedelta(days=n): [0, 0] for n in range(days)}
    rows = (
        Attempt.objects.filter(learner=learner, created_at__gte=since)
        .with_verdict()
        .values_list("created_at", "verdict_correct")
    )
    for created_at, correct in rows:
        day = counts.get(timezone.localdate(created_at))
        if day is not None:
            day[0] += 1
            day[1] += correct
    return [ActivityDay(day, answers, right) for day, (answers, right) in counts.items()]


def attempt_was_review(*, attempt: Attempt) -> bool:
    """`ReviewCard.reviewed_by`, asked of the database when the card is not loaded."""
    return ReviewCard.objects.filter(
        learner_id=attempt.learner_id,
        question_id=attempt.question_id,
        last_review_at=attempt.created_at,
    ).exists()
