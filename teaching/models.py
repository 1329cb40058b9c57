"""Cohorts: groups of learners followed by their instructors."""

from django.conf import settings
from django.db import models
from django.utils import timezone
from django.utils.translation import gettext_lazy as _

from portal.invisible import refuse_invisible


class CohortQuerySet(models.QuerySet):
    def taught_by(self, user):
        """The cohorts `user` may look at: all for a superuser, else those they teach."""
        if user.is_superuser:
            return self
        return self.filter(instructors=user)


class Cohort(models.Model):
    """A group of learners followed by its instructors."""

    name = models.CharField(_("name"), max_length=150, unique=True, validators=[refuse_invisible])
    learners = models.ManyToManyField(
        settings.AUTH_USER_MODEL, related_name="cohorts", blank=True, verbose_name=_("learners")
    )
    # An instructor works in the admin: every form offers staff accounts only (a learner
    # picked by mistake would see nothing, and vanish from the cohort's figures).
    instructors = models.ManyToManyField(
        settings.AUTH_USER_MODEL,
        related_name="cohorts_taught",
        blank=True,
        limit_choices_to={"is_staff": True},
        verbose_name=_("instructors"),
        # A staff account outside the group has no admin permissions: the admin shows
        # it nothing, and nothing said why (the UX walk).
        help_text=_(
            "Staff accounts only. An instructor also needs the Instructors group (Users, "
            "the account, Groups) to open the cohort's pages."
        ),
    )
    created_at = models.DateTimeField(_("created at"), default=timezone.now)

    objects = CohortQuerySet.as_manager()

    class Meta:
        # The table the model had in progress (its learner and instructor tables follow
        # the name, progress_cohort_learners and progress_cohort_instructors).
        db_table = "progress_cohort"
        ordering = ["name"]
        verbose_name = _("cohort")
        verbose_name_plural = _("cohorts")

    def __str__(self) -> str:
        return self.name

    def counted_learners(self):
        """The cohort's learners as every figure, list and regrade counts them (see
        `memberships`)."""
        return self.learners.filter(**LEARNER)


# Who among a cohort's learners counts as one (see `memberships`): one rule for the
# cohort's users, its membership rows and the learners' picker.
LEARNER = {"is_staff": False, "is_superuser": False}


def memberships(**where):
    """Membership rows of cohorts, filtered by `where` (cohort=..., cohort__in=...), as
    the portal counts learners: staff accounts among a cohort's learners (an instructor
    trying the quizzes, a learner promoted to teach another cohort) are left out of
    every figure, list and regrade, and of what an instructor may read (red teams 10
    and 19); so are superusers, staff status ticked or not (red team 25)."""
    learners = {f"user__{field}": value for field, value in LEARNER.items()}  # a join
    return Cohort.learners.through.objects.filter(**learners, **where)


class RegradeCheck(models.Model):
    """An attempt a regrade graded again against a revision's key and left as it stood
    (the same verdict, or an instructor's that no key replaces). A regrade writes a
    Regrade entry only for a change; this records the rest, so the key-changes page
    stops listing attempts a regrade has already looked at."""

    attempt = models.ForeignKey(
        "progress.Attempt",
        on_delete=models.CASCADE,
        related_name="+",
        verbose_name=_("attempt"),
        db_index=False,  # the unique constraint's index starts with it
    )
    revision = models.ForeignKey(
        "quizzes.QuestionRevision",
        on_delete=models.CASCADE,
        related_name="+",
        verbose_name=_("graded against"),
    )
    checked_at = models.DateTimeField(_("when"), default=timezone.now)

    class Meta:
        verbose_name = _("regrade check")
        verbose_name_plural = _("regrade checks")
        constraints = [
            models.UniqueConstraint(fields=["attempt", "revision"], name="regrade_check_once")
        ]

    def __str__(self) -> str:
        return f"attempt {self.attempt_id} checked against revision {self.revision_id}"
