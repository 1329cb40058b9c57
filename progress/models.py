"""Learners' attempts and unsent drafts. Attempts are append-only."""

from django.conf import settings
from django.db import models
from django.db.models import Q
from django.utils import timezone
from django.utils.translation import gettext_lazy as _

from quizzes.models import Question, QuestionRevision


class AttemptQuerySet(models.QuerySet):
    def for_learner(self, learner):
        return self.filter(learner=learner)


class Attempt(models.Model):
    """One graded submission, pinned to the revision the learner was shown."""

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
    language = models.CharField(_("language shown"), max_length=5)
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
        ]
        constraints = [
            models.CheckConstraint(
                condition=Q(score__gte=0, score__lte=1, partial__gte=0, partial__lte=1),
                name="attempt_scores_in_range",
            )
        ]

    def __str__(self) -> str:
        return f"{self.learner_id} {self.question_id} {self.created_at:%Y-%m-%d %H:%M}"

    def save(self, *args, **kwargs):
        if not self._state.adding:
            raise ValueError("Attempts are never modified; a regrade writes new rows.")
        super().save(*args, **kwargs)

    @property
    def keys(self) -> list[str]:
        return self.answer.get("keys", [])

    @property
    def text(self) -> str:
        return self.answer.get("text", "")


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
    updated_at = models.DateTimeField(_("updated at"), auto_now=True)

    class Meta:
        verbose_name = _("draft")
        verbose_name_plural = _("drafts")
        constraints = [
            models.UniqueConstraint(fields=["learner", "question"], name="draft_one_per_question")
        ]

    def __str__(self) -> str:
        return f"draft {self.learner_id} {self.question_id}"
