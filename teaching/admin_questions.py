"""The question admin for instructors: attempts per revision, key changes, and the
regrade actions (kept in the instructors' app so the quizzes app knows nothing of
learners). Imported by teaching/admin.py."""

from django.contrib import admin, messages
from django.contrib.auth import get_user_model
from django.core.exceptions import PermissionDenied
from django.db.models import Count, Q
from django.template.response import TemplateResponse
from django.urls import path
from django.utils.translation import gettext, ngettext
from django.utils.translation import gettext_lazy as _

from audit.enums import AuditKind
from audit.services import audit_record
from quizzes.admin import QuestionAdmin, RevisionInline
from quizzes.grading import GRADER_VERSION
from quizzes.models import Question

from .impact import key_changes
from .models import Cohort
from .scope import learners_taught
from .selectors import learners_counted
from .services import grader_regrade_plan, regrade_apply, regrade_plan


class RevisionWithAttemptsInline(RevisionInline):
    fields = [*RevisionInline.fields, "attempt_count"]
    readonly_fields = fields

    def get_queryset(self, request):
        # An instructor counts their own learners' attempts, as every other figure
        # they see does; a superuser counts everyone's.
        taught = learners_taught(request.user)
        only = {} if taught is None else {"filter": Q(attempts__learner__in=taught)}
        return super().get_queryset(request).annotate(n_attempts=Count("attempts", **only))

    @admin.display(description=_("attempts"))
    def attempt_count(self, revision):
        return revision.n_attempts


admin.site.unregister(Question)


@admin.register(Question)
class QuestionWithProgressAdmin(QuestionAdmin):
    """The quiz app's question admin, plus what learners did with each revision and the
    regrade action (kept here so the quizzes app knows nothing of learners)."""

    inlines = [RevisionWithAttemptsInline]
    actions = ["regrade", "regrade_grader"]

    def get_urls(self):
        view = self.admin_site.admin_view(self.key_changes_view)
        return [
            path("key-changes/", view, name="teaching_question_key_changes"),
            *super().get_urls(),
        ]

    def key_changes_view(self, request):
        """Questions whose key changed while attempts stand on older revisions, each
        with a dry-run regrade one click away (the action's confirmation page)."""
        if not self.has_view_permission(request):
            raise PermissionDenied
        context = {
            **self.admin_site.each_context(request),
            "opts": self.model._meta,
            "title": _("Key changes with attempts on older revisions"),
            "changes": key_changes(learners=learners_taught(request.user)),
            "can_regrade": self.has_run_regrade_permission(request),
            "action_checkbox_name": admin.helpers.ACTION_CHECKBOX_NAME,
        }
        return TemplateResponse(request, "admin/teaching/key_changes.html", context)

    def has_run_regrade_permission(self, request):
        return request.user.has_perm("progress.run_regrade")

    @admin.action(description=_("Regrade older revisions' attempts"), permissions=["run_regrade"])
    def regrade(self, request, queryset):
        return self._regrade(request, queryset, grader=False)

    @admin.action(
        description=_("Regrade free answers graded by an older matcher"),
        permissions=["run_regrade"],
    )
    def regrade_grader(self, request, queryset):
        return self._regrade(request, queryset, grader=True)

    def _regrade(self, request, queryset, *, grader: bool):
        """Show the plan first; record it only when the confirmation is posted. An
        instructor's regrade covers the learners of the cohorts they teach, plan, counts
        and writes; a superuser's covers everyone."""
        learners = learners_taught(request.user)
        cohorts = _cohorts_taught(request.user)
        if grader:
            plan = grader_regrade_plan(questions=list(queryset), learners=learners)
        else:
            plan = regrade_plan(questions=list(queryset), learners=learners)
        # What the plan was worked out from: each question's current revision (and the
        # matcher's version). A confirmation posted from a page shown before an import
        # changed a key is shown again as it stands now, not recorded unseen.
        basis = ";".join(
            [f"{q.pk}:{q.current_revision_id}" for q in sorted(queryset, key=lambda q: q.pk)]
            + ([f"grader:{GRADER_VERSION}"] if grader else [])
        )
        confirmed = request.POST.get("confirm") == "yes"
        if confirmed and request.POST.get("basis") != basis:
            confirmed = False
            self.message_user(
                request,
                _(
                    "The questions changed since that plan was shown (a new import): "
                    "nothing was recorded. This is the plan as it stands now."
                ),
                messages.WARNING,
            )
        if not confirmed:
            context = {
                **self.admin_site.each_context(request),
                "opts": self.model._meta,
                "title": _("Regrade: what would change"),
                "plan": plan,
                "turns": _turns(plan),
                "changes": [] if grader else key_changes(questions=queryset, learners=learners),
                "scope": _scope_note(cohorts),
                "questions": queryset,
                "grader": GRADER_VERSION if grader else None,
                "action_name": "regrade_grader" if grader else "regrade",
                "action_checkbox_name": admin.helpers.ACTION_CHECKBOX_NAME,
                "basis": basis,
            }
            return TemplateResponse(request, "admin/teaching/regrade_confirm.html", context)
        written = regrade_apply(plan=plan, by=request.user)
        audit_record(
            kind=AuditKind.REGRADE_RUN,
            request=request,
            questions=sorted(q.code for q in queryset),
            changed=written,
            to_right=plan.to_right,
            to_wrong=plan.to_wrong,
            cohorts=None if cohorts is None else [name for name, _n in cohorts],
            **({"grader": GRADER_VERSION} if grader else {}),
        )
        said = ngettext(
            "%(n)d regrade entry recorded (%(right)d now right, %(wrong)d now wrong).",
            "%(n)d regrade entries recorded (%(right)d now right, %(wrong)d now wrong).",
            written,
        ) % {"n": written, "right": plan.to_right, "wrong": plan.to_wrong}
        # The attempts looked at and left as they stand (same verdict, or an instructor's):
        # "0 entries recorded" alone read as if nothing had run (author walk 5).
        if kept := plan.unchanged + plan.overridden + plan.confirmed:
            said = said.removesuffix(".") + ngettext(
                "; %(n)d other attempt checked: its verdict stands.",
                "; %(n)d other attempts checked: their verdicts stand.",
                kept,
            ) % {"n": kept}
        self.message_user(request, said, messages.SUCCESS)
        return None


def _cohorts_taught(user) -> list[tuple[str, int]] | None:
    """(name, learners) of each cohort `user` teaches; None for a superuser (everyone)."""
    if user.is_superuser:
        return None
    return list(
        Cohort.objects.taught_by(user)
        .annotate(n=learners_counted())  # staff left out, as the regrade leaves them
        .order_by("name")
        .values_list("name", "n")
    )


def _scope_note(cohorts: list[tuple[str, int]] | None) -> str:
    """Whom a regrade touches, said on its confirmation page."""
    if cohorts is None:
        return gettext("It touches every learner, in every cohort.")
    if not cohorts:
        return gettext("You teach no cohort: it touches no one.")
    named = ", ".join(
        f"{name} ({ngettext('%(n)d learner', '%(n)d learners', n) % {'n': n}})"
        for name, n in cohorts
    )
    return gettext("It touches only the learners of the cohorts you teach: %(cohorts)s.") % {
        "cohorts": named
    }


# The verdicts a regrade plan turns that its confirmation names, at most.
TURNS_SHOWN = 100


def _turns(plan) -> list[dict]:
    """Whose verdict a regrade would turn, by name (author walk 4: "1 attempt goes from
    wrong to right" and no more, where `regrade -v 2` names them): one query."""
    changes = plan.changes[:TURNS_SHOWN]
    User = get_user_model()
    names = dict(
        User.objects.filter(pk__in={c.attempt.learner_id for c in changes}).values_list(
            "pk", User.USERNAME_FIELD
        )
    )
    return [
        {
            "learner": names.get(c.attempt.learner_id, ""),
            "code": c.attempt.question.code,
            "old": c.old_correct,
            "new": c.result.correct,
        }
        for c in changes
    ]
