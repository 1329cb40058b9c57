"""Admin for instructors: cohorts and their results, drill-downs, overrides and export
(attempts, regrades, users and audit events are in admin_records.py, questions in
admin_questions.py); each instructor sees only their cohorts' people."""

import csv
import itertools
from urllib.parse import urlencode

from django.contrib import admin, messages
from django.core.exceptions import PermissionDenied, ValidationError
from django.core.paginator import Paginator
from django.db.models import Q, prefetch_related_objects
from django.http import (
    Http404,
    HttpResponseNotAllowed,
    HttpResponseRedirect,
    StreamingHttpResponse,
)
from django.shortcuts import get_object_or_404
from django.template.response import TemplateResponse
from django.urls import path, reverse
from django.utils import translation
from django.utils.html import format_html
from django.utils.text import slugify
from django.utils.translation import gettext_lazy as _

from portal.admin import BoundedIdsAdminMixin, ChangelistInputMixin
from portal.http import posts_only, typed_back
from portal.moments import moment_text
from progress.models import Attempt
from quizzes.enums import QuestionKind
from quizzes.models import Phase, Question

# The question admin with the regrade actions, and the records' admins (attempts,
# regrades, users, the audit log), registered by importing them.
from . import admin_questions, admin_records  # noqa: F401
from .answer_groups import answer_groups
from .export import BOM, export_rows
from .forms import VerdictOverrideForm, seen_entry
from .item_analysis import min_learners
from .key_proposal import key_change_note, key_proposal
from .memory_admin import CohortMemoryAdminMixin
from .models import LEARNER, Cohort
from .scope import HiddenObjectAdminMixin, learners_taught
from .selectors import MODES, cohort_learner_ids, cohort_results, learner_attempts, learners_counted
from .selectors.cohort import attempt_page
from .services import VerdictMoved, verdict_override
from .to_check import to_check_counted
from .to_check_admin import CohortToCheckAdminMixin

LEARNERS_PER_PAGE = 250
ATTEMPTS_PER_PAGE = 100  # the learner drill-down: each row is a few kB of HTML


class Echo:
    """A file-like object whose write() returns the line, for streaming CSV."""

    def write(self, value):
        return value


@admin.register(Cohort)
class CohortAdmin(
    CohortToCheckAdminMixin,
    CohortMemoryAdminMixin,
    BoundedIdsAdminMixin,
    ChangelistInputMixin,
    HiddenObjectAdminMixin,
    admin.ModelAdmin,
):
    list_display = [
        "name",
        "learner_count",
        "created_at",
        "results_link",
        "to_check_link",
        "memory_link",
    ]
    search_fields = ["name"]
    filter_horizontal = ["learners", "instructors"]
    readonly_fields = ["created_at"]

    def get_fields(self, request, obj=None):
        fields = super().get_fields(request, obj)
        # A cohort being added has no creation time yet: the add form showed "-".
        return fields if obj is not None else [f for f in fields if f != "created_at"]

    def get_form(self, request, obj=None, change=False, **kwargs):
        """The learners' picker (a superuser's: instructors may only view a cohort)
        offers learners: a staff account is left out of every figure of the cohort, so
        offering it only let someone be added who then never showed (UX walk). A staff
        account already among the learners stays listed, so saving the form does not
        drop it unasked."""
        form = super().get_form(request, obj, change=change, **kwargs)
        field = form.base_fields.get("learners")
        if field is not None:
            offered = Q(**LEARNER)
            if obj is not None:
                offered |= Q(pk__in=obj.learners.values("pk"))
            field.queryset = field.queryset.filter(offered)
            field.help_text = _("Learner accounts only: staff accounts have no results.")
        if "instructors" in form.base_fields:  # without the select box's "Hold down Control"
            help_text = Cohort._meta.get_field("instructors").help_text
            form.base_fields["instructors"].help_text = help_text
        return form

    def get_queryset(self, request):
        cohorts = Cohort.objects.taught_by(request.user).order_by("name")
        match = request.resolver_match
        if match is None or match.url_name != "teaching_cohort_changelist":
            return cohorts  # a cohort's own pages need none of the list's counts
        # Each count its own subquery, one per listed cohort: a JOIN for the learners
        # would put the To check subquery in the GROUP BY, once per learner row.
        return cohorts.annotate(n_learners=learners_counted(), n_to_check=to_check_counted())

    @admin.display(description=_("to check"), ordering="n_to_check")
    def to_check_link(self, cohort):
        url = reverse("admin:teaching_cohort_to_check", args=[cohort.pk])
        return format_html('<a href="{}">{} ({})</a>', url, _("To check"), cohort.n_to_check)

    @admin.display(description=_("learners"), ordering="n_learners")
    def learner_count(self, cohort):
        return cohort.n_learners

    @admin.display(description=_("results"))
    def results_link(self, cohort):
        url = reverse("admin:teaching_cohort_results", args=[cohort.pk])
        return format_html('<a href="{}">{}</a>', url, _("Results"))

    @admin.display(description=_("memory"))
    def memory_link(self, cohort):
        url = reverse("admin:teaching_cohort_memory", args=[cohort.pk])
        return format_html('<a href="{}">{}</a>', url, _("Memory"))

    def get_urls(self):
        view = self.admin_site.admin_view
        return [
            path("<int:pk>/results/", view(self.results_view), name="teaching_cohort_results"),
            path(
                "<int:pk>/results/learner/<int:learner_id>/",
                view(self.learner_view),
                name="teaching_cohort_learner",
            ),
            path(
                "<int:pk>/results/answers/<int:question_id>/",
                view(self.answers_view),
                name="teaching_cohort_answers",
            ),
            path(
                "<int:pk>/results/learner/<int:learner_id>/attempt/<int:attempt_id>/override/",
                posts_only(view(self.override_view)),
                name="teaching_cohort_override",
            ),
            path(
                "<int:pk>/results/attempt/<int:attempt_id>/key-change/",
                view(self.key_change_view),
                name="teaching_cohort_key_change",
            ),
            path(
                "<int:pk>/results/export.csv",
                view(self.export_view),
                name="teaching_cohort_export",
            ),
            *self.to_check_urls(),
            *self.memory_urls(),
            *super().get_urls(),
        ]

    def _cohort(self, request, pk) -> Cohort:
        # Another instructor's cohort is a 404, as if it did not exist.
        cohort = get_object_or_404(self.get_queryset(request), pk=pk)
        if not self.has_view_permission(request, cohort):
            raise Http404
        return cohort

    def _context(self, request, cohort, title) -> dict:
        return {
            **self.admin_site.each_context(request),
            "opts": self.model._meta,
            "original": cohort,
            "title": title,
        }

    def results_view(self, request, pk):
        cohort = self._cohort(request, pk)
        results = cohort_results(
            cohort=cohort,
            mode=request.GET.get("mode", "latest"),
            phase=Phase.objects.active().numbered(request.GET.get("phase")),
            sort=request.GET.get("sort", "learner"),
        )
        # Every figure covers the whole cohort; only the learner table is paged.
        page = Paginator(results.rows, LEARNERS_PER_PAGE).get_page(request.GET.get("page"))
        query = request.GET.copy()
        query.pop("page", None)
        context = {
            **self._context(request, cohort, _("Results: %(cohort)s") % {"cohort": cohort.name}),
            "results": results,
            "modes": MODES,
            "all_phases": Phase.objects.active().order_by("number"),
            "page": page,
            "query": query.urlencode(),
            "min_learners": min_learners(),
        }
        return TemplateResponse(request, "admin/teaching/cohort/results.html", context)

    def learner_view(self, request, pk, learner_id):
        cohort = self._cohort(request, pk)
        learner = get_object_or_404(cohort.counted_learners(), pk=learner_id)
        title = _("%(learner)s in %(cohort)s") % {
            "learner": learner.get_username(),
            "cohort": cohort.name,
        }
        attempts = learner_attempts(cohort=cohort, learner_id=learner.pk)
        number = attempt_page(attempts, request.GET, ATTEMPTS_PER_PAGE)
        page = Paginator(attempts, ATTEMPTS_PER_PAGE).get_page(number)
        done = request.GET.get("done", "")  # the attempt an override just recorded
        context = {
            **self._context(request, cohort, title),
            "learner": learner,
            "page": page,
            "can_override": self.has_override_permission(request),
            "done": int(done) if done.isascii() and done.isdigit() and len(done) < 19 else 0,
        }
        return TemplateResponse(request, "admin/teaching/cohort/learner.html", context)

    def answers_view(self, request, pk, question_id):
        """One free question's answers grouped by normalised text: the fragment the
        results page loads into its fold (htmx), or a page of its own."""
        cohort = self._cohort(request, pk)
        question = get_object_or_404(
            Question.objects.active().select_related("current_revision"),
            pk=question_id,
            current_revision__kind=QuestionKind.FREE,
        )
        mode = request.GET.get("mode", "latest")
        mode = mode if mode in MODES else "latest"
        answers = answer_groups(
            learner_ids=cohort_learner_ids(cohort), question_ids=[question.pk], mode=mode
        ).get(question.pk)
        title = _("Answers to %(question)s") % {"question": question.code}
        context = {
            **self._context(request, cohort, title),
            "question": question,
            "answers": answers,
            "mode": mode,
        }
        template = "admin/teaching/cohort/answers.html"
        if request.htmx:
            template += "#answer-groups"
        return TemplateResponse(request, template, context)

    def has_override_permission(self, request) -> bool:
        # An override is a regrade of one attempt by hand: the same permission.
        return request.user.has_perm("progress.run_regrade")

    def override_view(self, request, pk, learner_id, attempt_id):
        """Mark one attempt right or wrong with a reason. Only an attempt of a learner
        in a cohort the instructor teaches: anything else is a 404."""
        cohort = self._cohort(request, pk)
        learner = get_object_or_404(cohort.counted_learners(), pk=learner_id)
        attempt = get_object_or_404(
            Attempt.objects.select_related("question"), pk=attempt_id, learner=learner
        )
        if not self.has_override_permission(request):
            raise PermissionDenied
        # After the scope checks: another cohort's attempt is a 404 whatever the method.
        if request.method != "POST":
            return HttpResponseNotAllowed(["POST"])
        back = reverse("admin:teaching_cohort_learner", args=[cohort.pk, learner.pk])
        query = {"done": attempt.pk}
        page = request.POST.get("page", "")
        if page.isascii() and page.isdigit() and page != "1" and len(page) < 10:
            query["page"] = page  # back on the page the form was on
        done = f"?{urlencode(query)}#attempt-{attempt.pk}"
        return self._override(request, cohort, attempt, back=back, done=done)

    def _override(self, request, cohort, attempt, *, back: str, done: str = ""):
        """The override's form posted: record it, say so, and go back (recorded: to
        `back` + `done`, the drill-down's row saying so; refused: to the top of `back`,
        where the message names the answer). An answer the grader had wrong marked
        right comes with a link to the key change it suggests."""
        prefetch_related_objects([attempt], "regrades")  # read by both checks below
        # Another tab (or instructor) recorded a verdict since this form was shown.
        if (seen := seen_entry(request.POST)) != attempt.verdict_entry_id():
            return self._verdict_moved(request, attempt, back)
        was_right = attempt.verdict().correct
        form = VerdictOverrideForm(request.POST)
        if not form.is_valid():
            problems = "; ".join(
                f"{form.fields[name].label}: {error}"
                for name, errors in form.errors.items()
                for error in errors
            )
            self._override_refused(request, attempt, problems)
            return HttpResponseRedirect(back)
        try:
            verdict_override(
                attempt=attempt,
                correct=form.cleaned_data["verdict"] == "right",
                reason=form.cleaned_data["reason"],
                by=request.user,
                seen=seen,  # checked again under the lock: posts sent at once
                request=request,
            )
        except VerdictMoved:
            return self._verdict_moved(request, attempt, back)
        except ValidationError as error:  # a reason of characters no one sees, say
            self._override_refused(request, attempt, "; ".join(error.messages))
            return HttpResponseRedirect(back)
        self.message_user(
            request,
            _("Attempt by %(learner)s at %(question)s of %(when)s marked %(verdict)s.")
            % {
                "learner": attempt.learner.get_username(),
                "question": attempt.question.code,
                "when": moment_text(attempt.created_at),
                "verdict": _("right") if form.cleaned_data["verdict"] == "right" else _("wrong"),
            },
            messages.SUCCESS,
        )
        # A key change is proposed for a free answer to a question still free (its page,
        # key_change_view, is a 404 otherwise: an edit may have changed the kind).
        free = attempt.revision.is_free and attempt.question.current_revision.is_free
        if form.cleaned_data["verdict"] == "right" and not was_right and free:
            url = reverse("admin:teaching_cohort_key_change", args=[cohort.pk, attempt.pk])
            self.message_user(request, key_change_note(attempt=attempt, url=url), messages.INFO)
        return HttpResponseRedirect(f"{back}{done}")

    def _verdict_moved(self, request, attempt, back: str):
        # Named, with the verdict it has now: on To check, its row is gone by then.
        now = Attempt.objects.get(pk=attempt.pk).verdict().correct
        moved = _(
            "The verdict on %(learner)s's answer at %(question)s changed since the page was "
            "shown (it is now %(verdict)s): nothing was recorded. Override it again if need be."
        ) % {
            "learner": attempt.learner.get_username(),
            "question": attempt.question.code,
            "verdict": _("right") if now else _("wrong"),
        }
        typed = typed_back(request.POST.get("reason", ""))
        self.message_user(request, f"{moved}{typed}", messages.ERROR)
        return HttpResponseRedirect(back)  # the top, where the message is

    def _override_refused(self, request, attempt, problems: str) -> None:
        """Named: the message stands at the top of a page of many such forms."""
        self.message_user(
            request,
            _("Nothing was recorded for %(learner)s's answer at %(question)s. %(problems)s")
            % {
                "learner": attempt.learner.get_username(),
                "question": attempt.question.code,
                "problems": problems,
            },
            messages.ERROR,
        )

    def _cohort_attempt(self, request, cohort, attempt_id) -> Attempt:
        """An attempt of one of the cohort's learners (staff left out), else a 404."""
        return get_object_or_404(
            Attempt.objects.select_related("question", "learner", "revision"),
            pk=attempt_id,
            learner_id__in=cohort_learner_ids(cohort),
        )

    def key_change_view(self, request, pk, attempt_id):
        """The key change a free answer suggests, with its dry run over the stored
        answers: every learner's for a superuser, else those of the cohorts taught."""
        cohort = self._cohort(request, pk)
        attempt = self._cohort_attempt(request, cohort, attempt_id)
        if not attempt.revision.is_free:
            raise Http404
        proposal = key_proposal(attempt=attempt, learner_ids=learners_taught(request.user))
        if proposal is None:
            raise Http404
        title = _("Key change for %(question)s") % {"question": attempt.question.code}
        context = self._context(request, cohort, title)
        language = translation.get_language_info(proposal.language)["name_translated"]
        if (translation.get_language() or "en").startswith("es"):
            language = language.lower()  # Spanish writes a language's name in lower case
        context |= {"proposal": proposal, "attempt": attempt, "answer_language": language}
        return TemplateResponse(request, "admin/teaching/cohort/key_change.html", context)

    def export_view(self, request, pk):
        cohort = self._cohort(request, pk)
        writer = csv.writer(Echo())
        rows = (writer.writerow(row) for row in export_rows(cohort=cohort))
        name = slugify(cohort.name) or f"cohort-{cohort.pk}"
        if request.GET.get("bom") == "1":
            rows = itertools.chain([BOM], rows)
            name += "-excel"  # the two downloads side by side are told apart
        response = StreamingHttpResponse(rows, content_type="text/csv; charset=utf-8")
        response["Content-Disposition"] = f'attachment; filename="{name}-attempts.csv"'
        return response
