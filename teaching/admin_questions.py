"""The question admin for instructors: attempts per revision, key changes, and the
regrade actions (kept in the instructors' app so the quizzes app knows nothing of
learners). Imported by teaching/admin.py."""

from django.contrib import admin, messages
from django.core.exceptions import PermissionDenied
from django.db.models import Count
from django.template.response import TemplateResponse
from django.urls import path
from django.utils.translation import gettext_lazy as _

from audit.enums import AuditKind
from audit.services import audit_record
from quizzes.admin import QuestionAdmin, RevisionInline
from quizzes.grading import GRADER_VERSION
from quizzes.models import Question

from .impact import key_changes
from .services import grader_regrade_plan, regrade_apply, regrade_plan


class RevisionWithAttemptsInline(RevisionInline):
    fields = [*RevisionInline.fields, "attempt_count"]
    readonly_fields = fields

    def get_queryset(self, request):
        return super().get_queryset(request).annotate(n_attempts=Count("attempts"))

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
            "changes": key_changes(),
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
        """Show the plan first; record it only when the confirmation is posted."""
        if grader:
            plan = grader_regrade_plan(questions=list(queryset))
        else:
            plan = regrade_plan(questions=list(queryset))
        if request.POST.get("confirm") != "yes":
            context = {
                **self.admin_site.each_context(request),
                "opts": self.model._meta,
                "title": _("Regrade: what would change"),
                "plan": plan,
                "changes": [] if grader else key_changes(questions=queryset),
                "questions": queryset,
                "grader": GRADER_VERSION if grader else None,
                "action_name": "regrade_grader" if grader else "regrade",
                "action_checkbox_name": admin.helpers.ACTION_CHECKBOX_NAME,
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
            **({"grader": GRADER_VERSION} if grader else {}),
        )
        self.message_user(
            request,
            _("%(n)d regrade entries recorded (%(right)d now right, %(wrong)d now wrong).")
            % {"n": written, "right": plan.to_right, "wrong": plan.to_wrong},
            messages.SUCCESS,
        )
        return None
