"""Admin for invites and new-password links (instructors create them here) and profiles."""

from django import forms
from django.contrib import admin, messages
from django.contrib.auth import get_user_model
from django.core.exceptions import PermissionDenied
from django.utils import timezone
from django.utils.html import escape, format_html
from django.utils.safestring import mark_safe
from django.utils.translation import gettext_lazy as _
from django.utils.translation import ngettext

from portal.admin import ChangelistInputMixin
from portal.moments import moment_text
from teaching.models import Cohort
from teaching.scope import HiddenObjectAdminMixin, TaughtCohortFilter, learners_taught

from .enums import InviteRole
from .models import Invite, PasswordLink, Profile
from .services import (
    PASSWORD_LINK_VALID,
    invite_create,
    inviter_may_still_invite,
    links_end,
    password_link_allowed,
    password_link_create,
    password_link_ended,
)


def link_shown_once(request, said: str, url: str, **values) -> None:
    """Say `said` (a translated sentence with %(url)s and `values`) with the one-time link
    `url`, which exists only now (only its hash is stored), and a button to copy it."""
    shown = {name: escape(v) if isinstance(v, str) else v for name, v in values.items()}
    text = escape(said) % (shown | {"url": escape(url)})
    # The link stays plain text (to select by hand); copy.js adds a button after it.
    slot = format_html(
        '<span class="copy-slot" data-copy-text="{}" data-copy-label="{}" '
        'data-copied-label="{}" data-copy-fallback="{}"></span>',
        url,
        _("Copy link"),
        _("Copied."),
        _("Selected: press Ctrl+C (⌘C) to copy."),
    )
    messages.success(request, mark_safe(f"{text} {slot}"))  # noqa: S308 - escaped above


class InviteForm(forms.ModelForm):
    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        if "role" in self.fields:  # a superuser's form: a learner's invite unless chosen
            self.fields["role"].required = False

    def clean_role(self):
        return self.cleaned_data.get("role") or InviteRole.LEARNER

    def clean(self):
        cleaned = super().clean()
        if cleaned.get("role") == InviteRole.INSTRUCTOR and not cleaned.get("cohort"):
            self.add_error("cohort", _("An instructor's invite names the cohort they will teach."))
        return cleaned


class OneTimeLinkAdmin(ChangelistInputMixin, HiddenObjectAdminMixin, admin.ModelAdmin):
    """What the admins of one-time links share: a link is made (its token shown once,
    with a copy button) and then only looked at."""

    class Media:
        # The link's copy button (no inline script: the CSP forbids it).
        js = ["js/copy.js"]

    @admin.display(description=_("expires at"), ordering="expires_at")
    def expires(self, link):
        """With its zone, as "used" says it (UX walk 17)."""
        return moment_text(link.expires_at)

    def get_readonly_fields(self, request, obj=None):
        return [] if obj is None else self.get_fields(request, obj)

    def has_change_permission(self, request, obj=None):
        return False

    # A link handed to the wrong person, or leaked, is ended from the list by whoever
    # may make one and sees it (red team 25): deleting it is a superuser's only.
    actions = ["end_links"]

    @admin.action(description=_("End the selected links now"), permissions=["end"])
    def end_links(self, request, queryset):
        ended = links_end(links=queryset, by=request.user, request=request)
        said = ngettext(
            "%(ended)d link ended: it no longer works.",
            "%(ended)d links ended: they no longer work.",
            ended,
        )
        if ended < queryset.count():
            said += " " + _("The others were used or had expired already.")
        self.message_user(request, said % {"ended": ended})

    def has_end_permission(self, request):
        return self.has_add_permission(request)


@admin.register(Invite)
class InviteAdmin(OneTimeLinkAdmin):
    # One column says whether the invite was used, by whom and when: seven columns left
    # "used at" and "used by" off a 1280 px screen (UX walk). The name of an invite
    # without a note is its creation time; its page shows every field.
    form = InviteForm
    list_display = ["__str__", "cohort", "role", "created_by", "expires", "state"]
    list_filter = [TaughtCohortFilter]
    list_select_related = ["created_by", "used_by", "cohort"]

    def get_list_display(self, request):
        # "state" reads its maker's rights once per maker and cohort in this list.
        state = self.state_column()
        return [state if name == "state" else name for name in self.list_display]

    def state_column(self):
        rights = {}  # (maker, cohort, role) -> may the maker still invite into it

        @admin.display(description=_("state"), ordering="used_at")
        def state(invite):
            if invite.used_at is None and invite.expires_at > timezone.now():
                key = (invite.created_by_id, invite.cohort_id, invite.role)
                if key not in rights:
                    rights[key] = inviter_may_still_invite(invite)
                if not rights[key]:  # what its link answers (410) says too
                    return _("Revoked: its maker can no longer invite into this class")
            return self.state(invite)

        return state

    def state(self, invite):
        if invite.used_at is None:
            return _("Expired") if invite.expires_at <= timezone.now() else _("Not used yet")
        when = moment_text(invite.used_at)
        if invite.used_by is None:  # the account was deleted since
            return _("Used %(when)s") % {"when": when}
        return _("Used by %(user)s, %(when)s") % {"user": invite.used_by, "when": when}

    def get_fields(self, request, obj=None):
        if obj is None:  # an instructor's invite is a superuser's to make
            return ["note", "cohort", "role"] if request.user.is_superuser else ["note", "cohort"]
        return [
            "note",
            "cohort",
            "role",
            "created_by",
            "created_at",
            "expires_at",
            "used_at",
            "used_by",
        ]

    def get_queryset(self, request):
        queryset = super().get_queryset(request)
        if request.user.is_superuser:
            return queryset
        # Those into the cohorts they teach, whoever made them. Not their own into a
        # cohort they have left (or one deleted since): those named the cohort and the
        # learners who used them, nothing else of which they may see (red team 19).
        return queryset.filter(cohort__in=Cohort.objects.taught_by(request.user))

    def formfield_for_foreignkey(self, db_field, request, **kwargs):
        # An instructor invites into the cohorts they teach, not into anyone's, and into
        # one of them: a learner in no cohort would be in none of their lists (UX walk).
        if db_field.name == "cohort" and not request.user.is_superuser:
            kwargs["queryset"] = Cohort.objects.taught_by(request.user)
            kwargs["required"] = True
        return super().formfield_for_foreignkey(db_field, request, **kwargs)

    def get_changeform_initial_data(self, request):
        """An instructor of one cohort invites into it: chosen already (UX walk 14)."""
        initial = super().get_changeform_initial_data(request)
        if not request.user.is_superuser and "cohort" not in initial:
            taught = list(Cohort.objects.taught_by(request.user).values_list("pk", flat=True)[:2])
            if len(taught) == 1:
                initial["cohort"] = taught[0]
        return initial

    def save_model(self, request, obj, form, change):
        # The link's token exists only now: show it once, store only its hash.
        invite, url = invite_create(
            created_by=request.user,
            note=form.cleaned_data["note"],
            cohort=form.cleaned_data.get("cohort"),
            # The field is a superuser's only: anyone else's post makes a learner's invite.
            role=form.cleaned_data.get("role") or InviteRole.LEARNER,
            request=request,
        )
        obj.pk = invite.pk
        obj.refresh_from_db()
        days = (invite.expires_at - invite.created_at).days
        said = ngettext(
            "Invite link (shown only now, valid for %(days)d day): %(url)s",
            "Invite link (shown only now, valid for %(days)d days): %(url)s",
            days,
        )
        link_shown_once(request, said, url, days=days)


@admin.register(Profile)
class ProfileAdmin(ChangelistInputMixin, admin.ModelAdmin):
    list_display = ["user", "language"]
    list_select_related = ["user"]
    search_fields = ["user__username"]


@admin.register(PasswordLink)
class PasswordLinkAdmin(OneTimeLinkAdmin):
    """A learner who forgot their password is given a link to choose a new one: made here
    by an instructor of their cohort (or a superuser), shown once, handed over."""

    list_display = ["user", "created_by", "expires", "state"]
    list_select_related = ["user", "created_by"]
    search_fields = ["user__username"]

    # Why a link still unused and unexpired no longer works (password_link_ended).
    ENDED = {
        "revoked": _("Revoked: its maker can no longer give this learner a new password"),
        "password_changed": _("Ended: the password was changed after it was made"),
        "logged_in": _("Ended: the learner logged in after it was made"),
    }

    @admin.display(description=_("state"), ordering="used_at")
    def state(self, link):
        if link.used_at is not None:
            return _("Used %(when)s") % {"when": moment_text(link.used_at)}
        if link.expires_at <= timezone.now():
            return _("Expired")
        # What its link answers (410) says too. Checked only for the links still usable,
        # a few: a newer link for the same learner ends the older.
        return self.ENDED.get(password_link_ended(link, link.user), _("Not used yet"))

    def get_fields(self, request, obj=None):
        if obj is None:
            return ["user"]
        return ["user", "created_by", "created_at", "expires_at", "used_at"]

    def get_queryset(self, request):
        queryset = super().get_queryset(request)
        if request.user.is_superuser:
            return queryset
        # Those for the learners of the cohorts they teach, whoever made them.
        return queryset.filter(user__in=learners_taught(request.user))

    def formfield_for_foreignkey(self, db_field, request, **kwargs):
        # The learners they may give a new password: those of the cohorts they teach,
        # none who teaches a cohort (password_link_allowed).
        if db_field.name == "user":
            learners = get_user_model().objects.filter(cohorts_taught__isnull=True)
            if not request.user.is_superuser:
                learners = learners.filter(pk__in=learners_taught(request.user))
            kwargs["queryset"] = learners
        return super().formfield_for_foreignkey(db_field, request, **kwargs)

    def save_model(self, request, obj, form, change):
        learner = form.cleaned_data["user"]
        if not password_link_allowed(maker=request.user, learner=learner):
            raise PermissionDenied  # the field offered them no other: a crafted post
        link, url = password_link_create(learner=learner, created_by=request.user, request=request)
        obj.pk = link.pk
        obj.refresh_from_db()
        hours = int(PASSWORD_LINK_VALID.total_seconds() // 3600)
        said = ngettext(
            "New-password link for %(name)s (shown only now, valid for %(hours)d hour): %(url)s",
            "New-password link for %(name)s (shown only now, valid for %(hours)d hours): %(url)s",
            hours,
        )
        link_shown_once(request, said, url, hours=hours, name=learner.get_username())
