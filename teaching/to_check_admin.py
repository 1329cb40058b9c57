"""The cohort's To check list, and Confirm and Override from it, as views of the cohort
admin (a mixin), scoped like the results: another instructor's cohort is a 404."""

from django.contrib import messages
from django.core.exceptions import PermissionDenied, ValidationError
from django.http import HttpResponseNotAllowed, HttpResponseRedirect
from django.template.response import TemplateResponse
from django.urls import path, reverse
from django.utils.http import urlencode
from django.utils.translation import gettext_lazy as _

from portal.http import posts_only
from progress.models import Attempt
from quizzes.models import Question

from .agreement import grader_agreement
from .forms import seen_entry
from .models import Cohort
from .services import verdict_confirm
from .to_check import to_check, to_check_questions

# One character longer than any question's code: a longer value, cut to it, still matches
# no question, and is not carried whole into a hidden field or an address.
_CODE_CUT = Question._meta.get_field("code").max_length + 1


def question_asked(data) -> str | None:
    """The question code the list is narrowed to (`?question=`, or the field a row's
    forms carry to come back to it), or None for every question (also for a value with
    a NUL, which no code holds and no address takes: UnreadableRequestMiddleware)."""
    code = (data.get("question") or "").strip()[:_CODE_CUT]
    return code if code and "\x00" not in code else None


def list_url(cohort: Cohort, question: str | None) -> str:
    url = reverse("admin:teaching_cohort_to_check", args=[cohort.pk])
    return f"{url}?{urlencode({'question': question})}" if question else url


class CohortToCheckAdminMixin:
    """Adds `<pk>/to-check/` and its confirm and override actions to the cohort admin;
    the admin provides `_cohort()` (the scoping), `_cohort_attempt()`, `_context()`,
    `_override()` and `has_override_permission()`."""

    def to_check_urls(self) -> list:
        view = self.admin_site.admin_view
        return [
            path("<int:pk>/to-check/", view(self.to_check_view), name="teaching_cohort_to_check"),
            path(
                "<int:pk>/to-check/<int:attempt_id>/confirm/",
                posts_only(view(self.confirm_view)),
                name="teaching_cohort_confirm",
            ),
            path(
                "<int:pk>/to-check/<int:attempt_id>/override/",
                posts_only(view(self.to_check_override_view)),
                name="teaching_cohort_to_check_override",
            ),
        ]

    def to_check_view(self, request, pk):
        """The cohort's verdicts the grader was unsure of, waiting for an instructor."""
        cohort = self._cohort(request, pk)
        question = question_asked(request.GET)
        questions = self._questions_context(cohort, question)
        # Nothing waits: no need to ask for the rows.
        items = to_check(cohort=cohort, question=question) if questions["total"] else []
        context = {
            **self._context(request, cohort, _("To check: %(cohort)s") % {"cohort": cohort.name}),
            **questions,
            "items": items,
            "shown": len(items),
            "can_override": self.has_override_permission(request),
            "agreement": grader_agreement(cohort=cohort),
        }
        return TemplateResponse(request, "admin/teaching/cohort/to_check.html", context)

    def _checkable(self, request, pk, attempt_id) -> tuple[Cohort, Attempt]:
        """The cohort and one of its learners' attempts, for an instructor who may
        override verdicts: another cohort's attempt is a 404, whatever the method."""
        cohort = self._cohort(request, pk)
        attempt = self._cohort_attempt(request, cohort, attempt_id)
        if not self.has_override_permission(request):
            raise PermissionDenied
        return cohort, attempt

    def confirm_view(self, request, pk, attempt_id):
        """Let a provisional verdict stand. With htmx, the row answers with what was
        done; without, the list again with a message."""
        cohort, attempt = self._checkable(request, pk, attempt_id)
        if request.method != "POST":
            return HttpResponseNotAllowed(["POST"])
        question = question_asked(request.POST)
        back = list_url(cohort, question)
        # The standing entry the page showed: a regrade since may have turned the
        # verdict its button named.
        seen = seen_entry(request.POST)
        try:
            entry = verdict_confirm(attempt=attempt, by=request.user, seen=seen, request=request)
        except ValidationError as error:
            problem = "; ".join(error.messages)
            if request.htmx:
                return self._row_done(request, cohort, attempt, problem, question, 409)
            self.message_user(request, problem, messages.ERROR)
            return HttpResponseRedirect(back)
        message = _("Verdict on %(learner)s's answer at %(question)s confirmed: %(verdict)s.") % {
            "learner": attempt.learner.get_username(),
            "question": attempt.question.code,
            "verdict": _("right") if entry.new_correct else _("wrong"),
        }
        if request.htmx:
            return self._row_done(request, cohort, attempt, message, question)
        self.message_user(request, message, messages.SUCCESS)
        return HttpResponseRedirect(back)

    def _row_done(self, request, cohort, attempt, message, question, status=200):
        """A checked row saying what was done, and the list's count and its questions
        again (out of band)."""
        context = self._questions_context(cohort, question)
        # The rows on the page stay as they were (this one checked): the count says how
        # many wait in all, not how many a reload would show ("shown" = all: no clause).
        context |= {"attempt": attempt, "message": message, "shown": context["total"]}
        return TemplateResponse(
            request, "admin/teaching/cohort/to_check.html#row-done", context, status=status
        )

    def to_check_override_view(self, request, pk, attempt_id):
        """Override a provisional verdict from the to-check list, as on the drill-down."""
        cohort, attempt = self._checkable(request, pk, attempt_id)
        if request.method != "POST":
            return HttpResponseNotAllowed(["POST"])
        back = list_url(cohort, question_asked(request.POST))
        return self._override(request, cohort, attempt, back=back)  # its row is gone

    @staticmethod
    def _questions_context(cohort, question: str | None) -> dict:
        """The questions verdicts wait at, for the list's links narrowing it to one;
        the question it is narrowed to; how many wait in all, and in the list (at that
        question, when narrowed)."""
        questions = to_check_questions(cohort=cohort)
        waiting = {w.question.code: w.count for w in questions}
        total_all = sum(waiting.values())
        return {
            "list_url": list_url(cohort, None),
            "questions": questions,
            "question": question,
            "total_all": total_all,
            "total": waiting.get(question, 0) if question else total_all,
        }
