"""Admin for instructors: cohorts and their results, attempts (read-only), regrades."""

import csv

from django.contrib import admin, messages
from django.core.paginator import Paginator
from django.db.models import Count
from django.http import Http404, StreamingHttpResponse
from django.shortcuts import get_object_or_404
from django.template.response import TemplateResponse
from django.urls import path, reverse
from django.utils.html import escape, format_html
from django.utils.safestring import mark_safe
from django.utils.text import slugify
from django.utils.translation import gettext_lazy as _

from accounts.enums import AuditKind
from accounts.services import audit_record
from quizzes.admin import QuestionAdmin, RevisionInline
from quizzes.models import Phase, Question

from .models import Attempt, Cohort, Regrade
from .results import MODES, cohort_results, export_rows, learner_attempts
from .services import regrade_apply, regrade_plan


class ReadOnlyMixin:
    def has_add_permission(self, request, obj=None):
        return False

    def has_change_permission(self, request, obj=None):
        return False

    def has_delete_permission(self, request, obj=None):
        return False


class Echo:
    """A file-like object whose write() returns the line, for streaming CSV."""

    def write(self, value):
        return value


LEARNERS_PER_PAGE = 250


def learner_rows_html(results, cohort_pk: int, rows) -> str:
    """The learner × phase table body. Built here rather than in a template loop: a
    thousand learners × ten phases is ten thousand cells, which the template engine
    renders several times slower than this. Every learner-typed value is escaped."""
    total = len(results.questions)
    width = max(1, len(results.phases)) * 16
    base = reverse("admin:progress_cohort_learner", args=[cohort_pk, 0])[: -len("0/")]
    parts = []
    for row in rows:
        strip = "".join(
            f'<rect x="{i * 16}" y="1" width="14" height="10" fill="{cell.fill}"/>'
            for i, cell in enumerate(row.cells)
        )
        cells = "".join(
            f'<td>{cell.correct}/{cell.total} <span class="answered">({cell.answered})</span></td>'
            for cell in row.cells
        )
        parts.append(
            f'<tr><th scope="row"><a href="{base}{row.learner_id}/">{escape(row.username)}</a></th>'
            f"<td>{row.correct} / {total}</td><td>{row.due} / {row.overdue}</td>"
            f'<td><svg class="strip" width="{width}" height="12" viewBox="0 0 {width} 12" '
            f'aria-hidden="true">{strip}</svg></td>{cells}</tr>'
        )
    return mark_safe("".join(parts))  # noqa: S308 - every interpolated text is escaped


def histogram_bars(histogram, height=120, base=130, step=32):
    """Geometry of the score histogram's SVG bars, computed here, not in the template."""
    top = max((n for _label, n in histogram), default=0) or 1
    bars = []
    for index, (label, n) in enumerate(histogram):
        h = round(height * n / top)
        x = index * step
        bars.append(
            {
                "x": x,
                "mid": x + 14,
                "y": base - h,
                "h": h,
                "label_y": base - h - 3,
                "label": label,
                "n": n,
                "tick": index * 10,
            }
        )
    return bars


def completion_bars(completion, row=22, width=300):
    return [
        {
            "phase": phase,
            "share": share,
            "w": round(width * share),
            "y": index * row + 3,
            "text_y": index * row + 14,
        }
        for index, (phase, share) in enumerate(completion)
    ]


@admin.register(Cohort)
class CohortAdmin(admin.ModelAdmin):
    list_display = ["name", "learner_count", "created_at", "results_link"]
    search_fields = ["name"]
    filter_horizontal = ["learners", "instructors"]

    def get_queryset(self, request):
        queryset = (
            super().get_queryset(request).annotate(n_learners=Count("learners", distinct=True))
        )
        if request.user.is_superuser:
            return queryset
        return queryset.filter(instructors=request.user)

    @admin.display(description=_("learners"), ordering="n_learners")
    def learner_count(self, cohort):
        return cohort.n_learners

    @admin.display(description=_("results"))
    def results_link(self, cohort):
        url = reverse("admin:progress_cohort_results", args=[cohort.pk])
        return format_html('<a href="{}">{}</a>', url, _("Results"))

    def get_urls(self):
        view = self.admin_site.admin_view
        return [
            path("<int:pk>/results/", view(self.results_view), name="progress_cohort_results"),
            path(
                "<int:pk>/results/learner/<int:learner_id>/",
                view(self.learner_view),
                name="progress_cohort_learner",
            ),
            path(
                "<int:pk>/results/export.csv",
                view(self.export_view),
                name="progress_cohort_export",
            ),
            *super().get_urls(),
        ]

    def _cohort(self, request, pk) -> Cohort:
        cohort = get_object_or_404(self.get_queryset(request), pk=pk)
        if not self.has_view_permission(request, cohort):
            raise Http404
        return cohort

    def results_view(self, request, pk):
        cohort = self._cohort(request, pk)
        phase = None
        if request.GET.get("phase"):
            phase = Phase.objects.active().filter(number=request.GET["phase"]).first()
        results = cohort_results(
            cohort=cohort,
            mode=request.GET.get("mode", "latest"),
            phase=phase,
            sort=request.GET.get("sort", "learner"),
        )
        # Every figure covers the whole cohort; only the learner table is paged.
        page = Paginator(results.rows, LEARNERS_PER_PAGE).get_page(request.GET.get("page"))
        query = request.GET.copy()
        query.pop("page", None)
        context = {
            **self.admin_site.each_context(request),
            "opts": self.model._meta,
            "original": cohort,
            "title": _("Results: %(cohort)s") % {"cohort": cohort.name},
            "results": results,
            "modes": MODES,
            "all_phases": Phase.objects.active().order_by("number"),
            "histogram_bars": histogram_bars(results.histogram),
            "completion_bars": completion_bars(results.completion),
            "completion_height": 22 * len(results.completion) + 4,
            "learner_rows": learner_rows_html(results, cohort.pk, page.object_list),
            "page": page,
            "query": query.urlencode(),
        }
        return TemplateResponse(request, "admin/progress/cohort/results.html", context)

    def learner_view(self, request, pk, learner_id):
        cohort = self._cohort(request, pk)
        learner = get_object_or_404(cohort.learners.all(), pk=learner_id)
        context = {
            **self.admin_site.each_context(request),
            "opts": self.model._meta,
            "original": cohort,
            "title": _("%(learner)s in %(cohort)s")
            % {"learner": learner.get_username(), "cohort": cohort.name},
            "learner": learner,
            "attempts": learner_attempts(cohort=cohort, learner_id=learner.pk),
        }
        return TemplateResponse(request, "admin/progress/cohort/learner.html", context)

    def export_view(self, request, pk):
        cohort = self._cohort(request, pk)
        writer = csv.writer(Echo())
        rows = (writer.writerow(row) for row in export_rows(cohort=cohort))
        response = StreamingHttpResponse(rows, content_type="text/csv; charset=utf-8")
        name = slugify(cohort.name) or f"cohort-{cohort.pk}"
        response["Content-Disposition"] = f'attachment; filename="{name}-attempts.csv"'
        return response


@admin.register(Attempt)
class AttemptAdmin(ReadOnlyMixin, admin.ModelAdmin):
    """Attempts are evidence: nobody edits or deletes them, superusers included."""

    list_display = ["created_at", "learner", "question", "revision_number", "correct", "score"]
    list_filter = ["correct", "language", "question__phase"]
    list_select_related = ["learner", "question", "revision"]
    search_fields = ["learner__username", "question__code"]
    date_hierarchy = "created_at"

    @admin.display(description=_("revision"))
    def revision_number(self, attempt):
        return attempt.revision.number


@admin.register(Regrade)
class RegradeAdmin(ReadOnlyMixin, admin.ModelAdmin):
    list_display = [
        "created_at",
        "attempt",
        "revision",
        "old_correct",
        "new_correct",
        "old_score",
        "new_score",
        "by",
    ]
    list_select_related = ["attempt", "revision__question", "by"]


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
    actions = ["regrade"]

    def has_run_regrade_permission(self, request):
        return request.user.has_perm("progress.run_regrade")

    @admin.action(description=_("Regrade older revisions' attempts"), permissions=["run_regrade"])
    def regrade(self, request, queryset):
        plan = regrade_plan(questions=list(queryset))
        if request.POST.get("confirm") != "yes":
            context = {
                **self.admin_site.each_context(request),
                "opts": self.model._meta,
                "title": _("Regrade: what would change"),
                "plan": plan,
                "questions": queryset,
                "action_checkbox_name": admin.helpers.ACTION_CHECKBOX_NAME,
            }
            return TemplateResponse(request, "admin/progress/regrade_confirm.html", context)
        written = regrade_apply(plan=plan, by=request.user)
        audit_record(
            kind=AuditKind.REGRADE_RUN,
            request=request,
            questions=sorted(q.code for q in queryset),
            changed=written,
            to_right=plan.to_right,
            to_wrong=plan.to_wrong,
        )
        self.message_user(
            request,
            _("%(n)d regrade entries recorded (%(right)d now right, %(wrong)d now wrong).")
            % {"n": written, "right": plan.to_right, "wrong": plan.to_wrong},
            messages.SUCCESS,
        )
        return None
