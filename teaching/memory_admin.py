"""The cohort's Memory page and its CSV, as views of the cohort admin (a mixin), scoped
like the results: another instructor's cohort is a 404."""

import csv

from django.core.paginator import Paginator
from django.http import StreamingHttpResponse
from django.template.response import TemplateResponse
from django.urls import path
from django.utils.text import slugify
from django.utils.translation import gettext_lazy as _

from quizzes.models import Phase

from .memory import HORIZON_DAYS, cohort_memory, memory_csv_rows, memory_heat_cells

# The heat map and the learner table show this many learners a page; every figure
# covers the whole cohort.
MEMORY_LEARNERS_PER_PAGE = 100


class _Echo:
    def write(self, value):
        return value


class CohortMemoryAdminMixin:
    """Adds `<pk>/memory/` and `<pk>/memory/export.csv` to the cohort admin; the admin
    provides `_cohort()` (the scoping) and `_context()`."""

    def memory_urls(self) -> list:
        view = self.admin_site.admin_view
        return [
            path("<int:pk>/memory/", view(self.memory_view), name="teaching_cohort_memory"),
            path(
                "<int:pk>/memory/export.csv",
                view(self.memory_export_view),
                name="teaching_cohort_memory_export",
            ),
        ]

    def memory_view(self, request, pk):
        cohort = self._cohort(request, pk)
        # A value that names no phase is ignored, as the results ignore it: the heat
        # map opens on its default phase (cohort_memory).
        phase = Phase.objects.active().numbered(request.GET.get("phase"))
        memory = cohort_memory(cohort=cohort, phase=phase)
        page = Paginator(memory.learners, MEMORY_LEARNERS_PER_PAGE).get_page(
            request.GET.get("page")
        )
        memory_heat_cells(memory=memory, learners=page.object_list)
        query = request.GET.copy()
        query.pop("page", None)
        context = {
            **self._context(request, cohort, _("Memory: %(cohort)s") % {"cohort": cohort.name}),
            "memory": memory,
            "page": page,
            "query": query.urlencode(),
            "horizon": HORIZON_DAYS,
        }
        return TemplateResponse(request, "admin/teaching/cohort/memory.html", context)

    def memory_export_view(self, request, pk):
        cohort = self._cohort(request, pk)
        writer = csv.writer(_Echo())
        rows = (writer.writerow(row) for row in memory_csv_rows(cohort=cohort))
        response = StreamingHttpResponse(rows, content_type="text/csv; charset=utf-8")
        name = slugify(cohort.name) or f"cohort-{cohort.pk}"
        response["Content-Disposition"] = f'attachment; filename="{name}-memory.csv"'
        return response
