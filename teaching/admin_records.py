"""The instructors' admin of records: attempts, regrades, users and the audit log, each
read-only or limited to the cohorts an instructor teaches. Imported by teaching/admin.py."""

from django.contrib import admin
from django.contrib.admin.utils import unquote
from django.contrib.auth import get_user_model
from django.contrib.auth.admin import GroupAdmin, UserAdmin
from django.contrib.auth.models import Group
from django.shortcuts import redirect
from django.template.defaultfilters import linebreaksbr
from django.urls import reverse
from django.utils import translation
from django.utils.decorators import method_decorator
from django.utils.html import format_html, format_html_join
from django.utils.safestring import mark_safe
from django.utils.translation import gettext_lazy as _
from django.views.decorators.debug import sensitive_post_parameters

from accounts.enums import Language
from accounts.forms import CheckedAdminUserCreationForm, CheckedUserChangeForm
from audit.enums import AuditKind
from audit.models import AuditEvent
from audit.services import audit_record
from portal.admin import BoundedIdsAdminMixin, ChangelistInputMixin, ReadOnlyAdminMixin
from progress.enums import VerdictSource
from progress.models import Attempt, Regrade
from quizzes.grading import mention_label

from .models import Cohort, memberships
from .scope import CohortScopedAdminMixin, TaughtCohortFilter
from .to_check import doubt_words


class AttemptCohortFilter(TaughtCohortFilter):
    cohort_path = "learner__cohorts"


class LanguageShownFilter(admin.SimpleListFilter):
    """The language of the pages an attempt was answered on, by name, not code. Its
    parameter is the one Django's own filter on the field had, so links keep working."""

    title = _("language shown")
    parameter_name = "language__exact"

    def lookups(self, request, model_admin):
        return Language.choices

    def queryset(self, request, queryset):
        return queryset if self.value() is None else queryset.filter(language=self.value())


class GradedFilter(admin.BooleanFieldListFilter):
    """`correct` is the grader's verdict, which an override or a regrade may have turned:
    the filter says so rather than "correct"."""

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        self.title = _("grader's verdict")


@admin.register(Attempt)
class AttemptAdmin(
    ChangelistInputMixin, CohortScopedAdminMixin, ReadOnlyAdminMixin, admin.ModelAdmin
):
    """Attempts are evidence: nobody edits or deletes them, superusers included."""

    # The verdict that stands now (an override, a confirm or a regrade's) first, then the
    # grader's: an overridden attempt is not shown as only the grader's. The grader's
    # score is on the attempt's page (the list, narrower, fits beside its filters).
    list_display = [
        "created_at",
        "learner",
        "question",
        "verdict_now",
        "graded",
        "revision_number",
    ]
    list_filter = [
        ("correct", GradedFilter),
        LanguageShownFilter,
        "question__phase",
        AttemptCohortFilter,
    ]
    list_select_related = ["learner", "question", "revision"]
    search_fields = ["learner__username", "question__code"]
    date_hierarchy = "created_at"
    ordering = ["-created_at", "-id"]  # the latest first, as every other list of answers
    # The answer and what the grader found in words, not the JSON they are stored as.
    fields = readonly_fields = [
        "learner",
        "question",
        "revision",
        "created_at",
        "language_shown",
        "answer_given",
        "graded",
        "verdict_now",
        "score",
        "partial",
        "found",
        "grader_version",
        "token",
    ]

    @admin.display(description=_("language shown"))
    def language_shown(self, attempt):
        return dict(Language.choices).get(attempt.language, attempt.language)

    @admin.display(description=_("answer"))
    def answer_given(self, attempt):
        if attempt.keys:
            return ", ".join(attempt.keys)
        # In the language of the pages it was answered on, for a screen reader's voice.
        return format_html(
            '<span class="answer-text" lang="{}" dir="auto">{}</span>',
            attempt.language,
            linebreaksbr(attempt.text),
        )

    @admin.display(description=_("what the grader found"))
    def found(self, attempt):
        return found_lines(attempt.feedback, attempt.revision)

    @admin.display(description=_("revision"))
    def revision_number(self, attempt):
        return attempt.revision.number

    def get_queryset(self, request):
        return super().get_queryset(request).prefetch_related("regrades")

    def change_view(self, request, object_id, form_url="", extra_context=None):
        """The page links to the learner's attempts in each cohort the viewer teaches them
        in (walk 35): the override and the other attempts are there, not here."""
        attempt = self.get_object(request, unquote(object_id))  # another's: a 404
        # As every figure counts learners (memberships): a staff account or a superuser
        # among a cohort's learners has no drill-down there.
        counted = memberships(user_id=attempt.learner_id).values("cohort_id")
        cohorts = Cohort.objects.taught_by(request.user).filter(pk__in=counted)
        pages = [
            (
                reverse("admin:teaching_cohort_learner", args=[cohort.pk, attempt.learner_id])
                + f"?attempt={attempt.pk}#attempt-{attempt.pk}",
                _("%(learner)s in %(cohort)s")
                % {"learner": attempt.learner.get_username(), "cohort": cohort.name},
            )
            for cohort in cohorts
        ]
        context = {**(extra_context or {}), "learner_pages": pages}
        return super().change_view(request, object_id, form_url, context)

    @admin.display(description=_("Grader's verdict"), boolean=True, ordering="correct")
    def graded(self, attempt):
        return attempt.correct

    @admin.display(description=_("Verdict now"))
    def verdict_now(self, attempt):
        verdict = attempt.verdict()
        if verdict.is_override:
            note = _("marked by an instructor")
        elif verdict.is_confirmed:
            note = _("confirmed by an instructor")
        elif verdict.is_regrade:
            note = _("regraded")
        elif attempt.provisional():
            note = _("provisional")
        else:
            note = ""
        shown = _("right") if verdict.correct else _("wrong")
        return format_html("{} ({})", shown, note) if note else shown


@admin.register(Regrade)
class RegradeAdmin(
    ChangelistInputMixin, CohortScopedAdminMixin, ReadOnlyAdminMixin, admin.ModelAdmin
):
    scope_path = "attempt__learner"
    list_display = [
        "created_at",
        "learner",
        "question",
        "kind",
        "verdict_change",
        "reason_shown",
        "by",
    ]
    list_filter = ["kind"]
    list_select_related = ["attempt__learner", "attempt__question", "by", "revision"]
    fields = readonly_fields = [
        "attempt",
        "kind",
        "revision",
        "old_correct",
        "old_score",
        "new_correct",
        "new_score",
        "new_partial",
        "new_found",
        "reason",
        "by",
        "created_at",
    ]

    @admin.display(description=_("what the grader found"))
    def new_found(self, entry):
        return found_lines(entry.new_feedback, entry.revision or entry.attempt.revision)

    @admin.display(description=_("learner"), ordering="attempt__learner__username")
    def learner(self, entry):
        return entry.attempt.learner

    @admin.display(description=_("question"), ordering="attempt__question__code")
    def question(self, entry):
        return entry.attempt.question.code

    @admin.display(description=_("reason"), ordering="reason")
    def reason_shown(self, entry):
        # A regrade by an edited key has no reason typed: the key it applied is its reason.
        if entry.reason or entry.revision is None or entry.kind != VerdictSource.REGRADE:
            return entry.reason or self.get_empty_value_display()
        return _("the key of revision %(n)d") % {"n": entry.revision.number}

    @admin.display(description=_("old → new verdict"))
    def verdict_change(self, entry):
        def word(correct):
            return _("right") if correct else _("wrong")

        return f"{word(entry.old_correct)} → {word(entry.new_correct)}"


def found_lines(feedback: dict, revision) -> str:
    """What a grade found (progress.services.attempts.grade_feedback), a line a finding:
    the mentions found, missed and negated, named as the item analysis names them; the
    options picked right and wrong and those missed; the reject entries found; why the
    grader was unsure. A line with nothing to say is left out."""
    language = (translation.get_language() or "en")[:2]
    names = [mention_label(alternatives, language) for alternatives in revision.expected]
    negated = set(feedback.get("negated", []))

    def named(indexes) -> str:
        return "; ".join(names[i] if i < len(names) else str(i) for i in indexes)

    lines = [
        (_("found"), named(feedback.get("found", []))),
        (_("missed"), named(i for i in feedback.get("missed", []) if i not in negated)),
        (_("read as negated"), named(sorted(negated))),
        (_("picked, right"), ", ".join(feedback.get("right_picks", []))),
        (_("picked, wrong"), ", ".join(feedback.get("wrong_picks", []))),
        (_("not picked, right"), ", ".join(feedback.get("missed_keys", []))),
        (_("rejected as"), "; ".join(r["alternative"] for r in feedback.get("rejected", []))),
        (_("unsure"), "; ".join(doubt_words(code) for code in feedback.get("doubts", []))),
    ]
    shown = [(label, text) for label, text in lines if text]
    if not shown:
        return "–"
    return format_html_join(mark_safe("<br>"), "{}: {}", shown)


class UserCohortFilter(TaughtCohortFilter):
    cohort_path = "cohorts"


admin.site.unregister(get_user_model())
admin.site.unregister(Group)


@admin.register(Group)
class CheckedGroupAdmin(BoundedIdsAdminMixin, ChangelistInputMixin, GroupAdmin):
    """Django's group admin, its list refusing lookups no filter makes (a 400)."""


@admin.register(get_user_model())
class ScopedUserAdmin(
    BoundedIdsAdminMixin, ChangelistInputMixin, CohortScopedAdminMixin, UserAdmin
):
    """Django's user admin, limited for instructors to their cohorts' learners; a username
    typed there is checked as on the setup page (no invisible or look-alike names)."""

    add_form = CheckedAdminUserCreationForm
    form = CheckedUserChangeForm

    scope_path = "pk"
    list_filter = [*UserAdmin.list_filter, UserCohortFilter]

    @method_decorator(sensitive_post_parameters())
    def user_change_password(self, request, id, form_url=""):
        """Django's page that sets another user's password, audited when it did. Their
        own password goes through the admin's change page, which asks for the old one
        and counts the wrong guesses: a borrowed session does not take the account
        (red team 10)."""
        if str(request.user.pk) == unquote(id):
            return redirect("admin:password_change")
        user = self.get_object(request, unquote(id)) if request.method == "POST" else None
        response = super().user_change_password(request, id, form_url)
        if user is not None:
            old_hash = user.password
            user.refresh_from_db(fields=["password"])
            if user.password != old_hash:
                audit_record(
                    kind=AuditKind.PASSWORD_CHANGED,
                    request=request,
                    subject=user.get_username(),
                    via="admin user page",
                )
        return response


@admin.register(AuditEvent)
class AuditEventAdmin(
    ChangelistInputMixin, CohortScopedAdminMixin, ReadOnlyAdminMixin, admin.ModelAdmin
):
    """The audit log. An instructor sees only events of their cohorts' learners (and
    their own): no one else's logins, failures or addresses."""

    scope_path = "user"
    list_display = ["created_at", "kind", "user", "subject", "ip_address", "detail_text"]
    list_filter = ["kind"]
    list_select_related = ["user"]
    search_fields = ["subject", "user__username"]
    date_hierarchy = "created_at"

    def get_queryset(self, request):
        """A failed or refused login is nobody's event, though one recorded before red
        team 23 names the learner whose open session it came through, and with it what
        someone else typed at the admin's login: superusers only."""
        events = super().get_queryset(request)
        if request.user.is_superuser:
            return events
        return events.exclude(kind__in=[AuditKind.LOGIN_FAILED, AuditKind.LOGIN_REFUSED])

    @admin.display(description=_("detail"))
    def detail_text(self, event):
        return detail_text(event.detail)


DETAIL_CHARS = 300  # the list's cell; the event's own page shows the whole detail
DETAIL_ITEMS = 10  # of a list or a mapping inside the detail
# The detail's keys in the viewer's language; a key not named here shows itself, its
# underscores as spaces. "impact" counts learners and attempts answered before an edit.
DETAIL_LABELS = {
    "attempt": _("attempt"),
    "changed": _("changed"),
    "changes": _("changes"),
    "cohort": _("cohort"),
    "cohorts": _("cohorts"),
    "correct": _("right"),
    "doubts": _("doubts"),
    "impact": _("answered before (learners, attempts)"),
    "invite": _("invite"),
    "kind": _("kind"),
    "new_correct": _("now right"),
    "note": _("note"),
    "old_correct": _("was right"),
    "question": _("question"),
    "questions": _("questions"),
    "reason": _("reason"),
    "regrade": _("to regrade"),
    "summary": _("summary"),
    "to_right": _("turned right"),
    "to_wrong": _("turned wrong"),
    "via": _("via"),
}


def _value_text(value) -> str:
    if isinstance(value, bool):
        return str(_("yes") if value else _("no"))
    if isinstance(value, list):
        more = ", …" if len(value) > DETAIL_ITEMS else ""
        return ", ".join(_value_text(v) for v in value[:DETAIL_ITEMS]) + more
    if isinstance(value, dict):
        items = sorted(value.items())[:DETAIL_ITEMS]
        return "(" + ", ".join(f"{k.replace('_', ' ')} {_value_text(v)}" for k, v in items) + ")"
    return str(value)


def _worded(key: str, value):
    """The grader's doubt codes in the viewer's words ("one mention short of …")."""
    if key == "doubts" and isinstance(value, list):
        return [doubt_words(code) for code in value]
    return value


def detail_text(detail) -> str:
    """An audit event's detail as a line to read ("changed: 2; questions: q-10-01;
    via: command"), not JSON; keys in alphabetical order (PostgreSQL's jsonb keeps no
    order of its own), empty values left out, cut at DETAIL_CHARS."""
    if not isinstance(detail, dict):
        return _value_text(detail)
    text = "; ".join(
        f"{DETAIL_LABELS.get(key, key.replace('_', ' '))}: {_value_text(_worded(key, value))}"
        for key, value in sorted(detail.items())
        if value not in (None, "", [], {})
    )
    return text if len(text) <= DETAIL_CHARS else text[: DETAIL_CHARS - 1] + "…"
