"""Learners' attempts and unsent drafts. Attempts are append-only."""

from django.conf import settings
from django.db import models
from django.db.models import Q
from django.db.models.functions import Coalesce
from django.utils import timezone
from django.utils.translation import gettext_lazy as _

from portal.db import WriteOnce
from portal.moments import moment_text
from quizzes.models import Phase, Question, QuestionRevision

from .enums import VerdictSource
from .verdicts import Verdict, provisional_from, verdict_newest


class AttemptQuerySet(models.QuerySet):
    def with_verdict(self):
        """Annotate `verdict_correct`: the effective verdict, the newest regrade's or
        override's where there is one (the rule of `verdict_newest`), in the query."""
        newest = Regrade.objects.filter(attempt=models.OuterRef("pk")).order_by("-id")
        return self.annotate(
            verdict_correct=Coalesce(
                models.Subquery(newest.values("new_correct")[:1]), models.F("correct")
            )
        )


class Attempt(WriteOnce):
    """One graded submission, pinned to the revision the learner was shown."""

    write_once_message = "Attempts are never modified; a regrade writes new rows."

    learner = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        on_delete=models.PROTECT,
        related_name="attempts",
        verbose_name=_("learner"),
    )
    question = models.ForeignKey(
        Question, on_delete=models.PROTECT, related_name="attempts", verbose_name=_("question")
    )
    revision = models.ForeignKey(
        QuestionRevision,
        on_delete=models.PROTECT,
        related_name="attempts",
        verbose_name=_("revision"),
    )
    # The nonce of the rendered form: a repeated submission of one form is one attempt.
    token = models.CharField(_("submission token"), max_length=64, unique=True)
    # {"keys": ["A", "C"]} for choice questions, {"text": "..."} for free ones.
    answer = models.JSONField(_("answer"))
    correct = models.BooleanField(_("correct"))
    score = models.FloatField(_("score"))
    partial = models.FloatField(_("partial score"))
    # What the grader found: right/wrong picks, missed keys, mentions found and missed.
    feedback = models.JSONField(_("feedback"), default=dict)
    # A short key for counting answers alike in item analysis: the picked keys ("AC")
    # of a choice answer, the missed mention numbers ("0,2") of a free one.
    pattern = models.CharField(_("answer pattern"), max_length=64, blank=True)
    language = models.CharField(_("language shown"), max_length=5)
    # Which matcher graded it (quizzes.grading.GRADER_VERSION): a changed matcher never
    # rewrites old grades; a regrade on request does, as new rows.
    grader_version = models.PositiveSmallIntegerField(_("grader version"), default=1)
    # Why the grader was unsure of a free-text verdict (quizzes.grading.DOUBTS codes,
    # comma-separated; empty when sure): the verdict is provisional until an instructor
    # confirms or overrides it. A column, not only in `feedback`, so the to-check list
    # reads a partial index instead of every attempt's JSON.
    doubts = models.CharField(_("grader's doubts"), max_length=64, blank=True, default="")
    created_at = models.DateTimeField(_("answered at"), default=timezone.now)

    objects = AttemptQuerySet.as_manager()

    class Meta:
        ordering = ["created_at", "id"]
        verbose_name = _("attempt")
        verbose_name_plural = _("attempts")
        indexes = [
            models.Index(
                fields=["learner", "question", "created_at"], name="attempt_learner_q_idx"
            ),
            models.Index(fields=["question", "created_at"], name="attempt_question_idx"),
            # Covers item analysis over all attempts: group by question and pattern.
            models.Index(fields=["question", "pattern", "learner"], name="attempt_pattern_idx"),
            # The few attempts the grader was unsure of, for the instructors' to-check list.
            models.Index(
                fields=["learner", "question"], condition=~Q(doubts=""), name="attempt_unsure_idx"
            ),
        ]
        constraints = [
            models.CheckConstraint(
                condition=Q(score__gte=0, score__lte=1, partial__gte=0, partial__lte=1),
                name="attempt_scores_in_range",
            )
        ]

    def __str__(self) -> str:  # the admin's title and links: no ids, the viewer's zone
        return f"{self.learner} · {self.question} · {moment_text(self.created_at)}"

    @property
    def keys(self) -> list[str]:
        return self.answer.get("keys", [])

    @property
    def text(self) -> str:
        return self.answer.get("text", "")

    @property
    def doubt_codes(self) -> list[str]:
        return self.doubts.split(",") if self.doubts else []

    def provisional(self) -> bool:
        """Whether the verdict still waits for an instructor: the grader was unsure and
        no instructor has confirmed or overridden it since. Reads `self.regrades`."""
        return provisional_from(self, self.regrades.all())

    def verdict(self) -> "Verdict":
        """The effective verdict and its source. Reads `self.regrades`: prefetch them."""
        return self.verdict_from(verdict_newest(self.regrades.all()))

    def verdict_entry_id(self) -> int:
        """The standing regrade or override's id, 0 if none (an override form's `seen`)."""
        return getattr(verdict_newest(self.regrades.all()), "pk", 0)

    def verdict_from(self, entry) -> "Verdict":
        """The verdict, given the regrade or override that stands on it (or None)."""
        if entry is None:
            return Verdict(self.correct, self.score, VerdictSource.ANSWER, self.created_at)
        return Verdict(
            entry.new_correct,
            entry.new_score,
            VerdictSource(entry.kind),
            entry.created_at,
            entry.by_id,
            entry.reason,
        )


class LearnerQuestion(models.Model):
    """A learner's standing on one question, kept up to date as attempts and regrades
    are written, so results and item analysis read one narrow row per learner and
    question instead of every attempt. Everything here can be rebuilt from attempts
    and regrades (services.learner_question_rebuild)."""

    learner = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        on_delete=models.CASCADE,
        related_name="question_standings",
        verbose_name=_("learner"),
    )
    question = models.ForeignKey(
        Question, on_delete=models.CASCADE, related_name="standings", verbose_name=_("question")
    )
    attempts = models.PositiveIntegerField(_("attempts"), default=0)
    first_attempt = models.ForeignKey(
        Attempt, on_delete=models.PROTECT, related_name="+", verbose_name=_("first attempt")
    )
    latest_attempt = models.ForeignKey(
        Attempt, on_delete=models.PROTECT, related_name="+", verbose_name=_("latest attempt")
    )
    # Read by the Memory page instead of joining the attempts and the cards, its largest
    # costs (docs/memory.md). reviews.py, which makes cards, sets has_card.
    first_answered_at = models.DateTimeField(_("first answered at"))
    has_card = models.BooleanField(_("has a review card"), default=False)
    # Effective grades: a regrade's result where there is one.
    first_correct = models.BooleanField(_("right on first try"))
    latest_correct = models.BooleanField(_("right on latest try"))
    ever_correct = models.BooleanField(_("ever right"))
    latest_score = models.FloatField(_("latest score"))
    # The first and latest attempts' answer patterns, for item analysis without a join.
    first_pattern = models.CharField(_("first answer pattern"), max_length=64, blank=True)
    latest_pattern = models.CharField(_("latest answer pattern"), max_length=64, blank=True)
    # The learner's first-try total in the question's phase (LearnerPhase.first_right),
    # copied onto each standing for item statistics without a join: every standing
    # needs it, and the join was the statistics query's largest cost on a large cohort
    # (docs/performance.md). Services copy it whenever the running total changes.
    phase_first_right = models.PositiveIntegerField(_("right on first try in the phase"), default=0)

    class Meta:
        verbose_name = _("learner standing on a question")
        verbose_name_plural = _("learner standings on questions")
        constraints = [
            models.UniqueConstraint(fields=["learner", "question"], name="learner_question_unique")
        ]
        indexes = [models.Index(fields=["question"], name="learner_question_q_idx")]

    def __str__(self) -> str:
        return f"{self.learner_id} on {self.question_id}"


class LearnerPhase(models.Model):
    """A learner's counts in one phase, over its active questions: answered, right on
    the latest try, on the first, ever (effective grades, regrades included). The
    results read them instead of grouping every standing by learner and phase, and item
    statistics need the first-try total for every standing (copied onto each, as
    LearnerQuestion.phase_first_right), which a window function computed as they read:
    those were most of the results page's time. Running counts, updated by the
    services that write standings (an answer, a regrade, an override) and recounted for
    the phases an import changes (a question retired, moved or back); a recount
    (services.learner_phase_recount) rebuilds them from the standings. A learner who
    answered none of a phase's active questions has no row."""

    learner = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        on_delete=models.CASCADE,
        related_name="phase_counts",
        verbose_name=_("learner"),
    )
    phase = models.ForeignKey(
        Phase, on_delete=models.CASCADE, related_name="learner_counts", verbose_name=_("phase")
    )
    answered = models.PositiveIntegerField(_("questions answered"), default=0)
    first_right = models.PositiveIntegerField(_("right on first try"), default=0)
    latest_right = models.PositiveIntegerField(_("right on latest try"), default=0)
    ever_right = models.PositiveIntegerField(_("ever right"), default=0)

    class Meta:
        verbose_name = _("learner's counts in a phase")
        verbose_name_plural = _("learners' counts in phases")
        constraints = [
            models.UniqueConstraint(fields=["learner", "phase"], name="learner_phase_unique")
        ]

    def __str__(self) -> str:
        return f"{self.learner_id} in phase {self.phase_id}: {self.latest_right}/{self.answered}"


class Draft(models.Model):
    """What a learner typed but has not submitted yet, so an expired session or a
    closed tab loses nothing."""

    learner = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        on_delete=models.CASCADE,
        related_name="drafts",
        verbose_name=_("learner"),
    )
    question = models.ForeignKey(
        Question, on_delete=models.CASCADE, related_name="drafts", verbose_name=_("question")
    )
    answer = models.JSONField(_("answer"))
    # Sent while logged out (the session had expired): anyone holding the form's token
    # could have sent it, so it is kept apart from the learner's own draft and only
    # offered back, marked, for the learner to check and send.
    logged_out = models.BooleanField(_("kept while logged out"), default=False)
    updated_at = models.DateTimeField(_("updated at"), auto_now=True)

    class Meta:
        verbose_name = _("draft")
        verbose_name_plural = _("drafts")
        constraints = [
            models.UniqueConstraint(
                fields=["learner", "question", "logged_out"], name="draft_one_per_question"
            )
        ]

    def __str__(self) -> str:
        return f"draft {self.learner_id} {self.question_id}"


class RegradeQuerySet(models.QuerySet):
    def newest_by_attempt(self) -> dict[int, "Regrade"]:
        """{attempt id: the entry that stands}, for many attempts in one query."""
        newest: dict[int, Regrade] = {}
        for entry in self.order_by("id"):
            newest[entry.attempt_id] = entry  # a later id replaces an earlier one
        return newest


class Regrade(WriteOnce):
    """A new verdict on one attempt: a regrade against a newer revision's key, an
    instructor's override, or an instructor's confirmation of a verdict the grader was
    unsure of (the same verdict, kept as it stood). The attempt's answer and first grade
    are never changed (its `doubts` follow the grading its verdict stands on); its
    effective verdict is the newest entry's (verdict_newest), and every page, the
    standings and the review schedule read that one. This table is in progress, not in
    the instructors' app that writes it, because the learner's record needs it to know
    its own verdicts and progress must not import the instructors' app."""

    write_once_message = "Regrade entries are never modified."

    attempt = models.ForeignKey(
        Attempt, on_delete=models.PROTECT, related_name="regrades", verbose_name=_("attempt")
    )
    kind = models.CharField(
        _("kind"), max_length=16, choices=VerdictSource.choices, default=VerdictSource.REGRADE
    )
    # The revision whose key a regrade applied; none for an override.
    revision = models.ForeignKey(
        QuestionRevision,
        on_delete=models.PROTECT,
        null=True,
        blank=True,
        related_name="regrades",
        verbose_name=_("graded against"),
    )
    old_correct = models.BooleanField(_("was correct"))
    old_score = models.FloatField(_("old score"))
    new_correct = models.BooleanField(_("now correct"))
    new_score = models.FloatField(_("new score"))
    new_partial = models.FloatField(_("new partial score"))
    new_feedback = models.JSONField(_("new feedback"), default=dict)
    reason = models.CharField(_("reason"), max_length=500, blank=True)
    by = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        on_delete=models.SET_NULL,
        null=True,
        blank=True,
        related_name="+",
        verbose_name=_("by"),
    )
    created_at = models.DateTimeField(_("when"), default=timezone.now)

    objects = RegradeQuerySet.as_manager()

    class Meta:
        ordering = ["-created_at", "-id"]
        verbose_name = _("regrade")
        verbose_name_plural = _("regrades")
        permissions = [("run_regrade", _("Can run a regrade"))]
        indexes = [models.Index(fields=["attempt", "-id"], name="regrade_attempt_idx")]
        constraints = [
            models.CheckConstraint(
                condition=Q(kind=VerdictSource.OVERRIDE) | Q(revision__isnull=False),
                name="regrade_has_revision",
            )
        ]

    def __str__(self) -> str:
        verdict = _("right") if self.new_correct else _("wrong")
        return f"{self.get_kind_display()}: {verdict}"


class ReviewCardQuerySet(models.QuerySet):
    def in_review(self):
        """Cards still being reviewed: not learned, and their question not retired
        (a retired question's card is suspended, kept but out of the queue)."""
        return self.filter(learned_at__isnull=True, question__retired_at__isnull=True)

    def due_before(self, cutoff):
        return self.in_review().filter(due__lt=cutoff)


class ReviewCard(models.Model):
    """A question a learner got wrong, scheduled for review with FSRS. The scheduler's
    own state is kept as its JSON; due time and state have columns for queries."""

    learner = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        on_delete=models.CASCADE,
        related_name="review_cards",
        verbose_name=_("learner"),
    )
    question = models.ForeignKey(
        Question, on_delete=models.CASCADE, related_name="review_cards", verbose_name=_("question")
    )
    fsrs = models.JSONField(_("scheduler state"))
    due = models.DateTimeField(_("due"))
    state = models.PositiveSmallIntegerField(_("FSRS state"))
    # Right reviews in a row; two make the question learned.
    streak = models.PositiveSmallIntegerField(_("right in a row"), default=0)
    learned_at = models.DateTimeField(_("learned at"), null=True, blank=True)
    reviews = models.PositiveIntegerField(_("reviews"), default=0)
    # When the card was last rated: at most once a day, and only when it was due.
    last_review_at = models.DateTimeField(_("last reviewed at"), null=True, blank=True)
    # The JSON's stability and last_review (a review, or the lapse that started the card),
    # copied by reviews._rate for the Memory page; None until the card is rated.
    stability = models.FloatField(_("stability"), null=True, blank=True)
    rated_at = models.DateTimeField(_("last rated at"), null=True, blank=True)
    created_at = models.DateTimeField(_("created at"), default=timezone.now)
    updated_at = models.DateTimeField(_("updated at"), auto_now=True)

    objects = ReviewCardQuerySet.as_manager()

    class Meta:
        ordering = ["due"]
        verbose_name = _("review card")
        verbose_name_plural = _("review cards")
        constraints = [
            models.UniqueConstraint(fields=["learner", "question"], name="review_card_unique")
        ]
        indexes = [
            models.Index(fields=["learner", "learned_at", "due"], name="review_queue_idx"),
            models.Index(fields=["state"], name="review_state_idx"),
        ]

    def __str__(self) -> str:
        return f"card {self.learner_id} {self.question_id} due {self.due:%Y-%m-%d}"

    # Two questions about one answer, told apart on purpose: a first wrong answer (or a
    # learned question forgotten) schedules the card without being a review of it.
    def scheduled_by(self, attempt) -> bool:
        """Whether `attempt` set the card's schedule: a review or the lapse that
        (re)started the card. The feedback then says when it comes back."""
        return self.fsrs.get("last_review") == attempt.created_at.isoformat()

    def reviewed_by(self, attempt) -> bool:
        """Whether `attempt` was the day's review of a due card: it leaves today's count."""
        return self.last_review_at == attempt.created_at
