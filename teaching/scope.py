"""What an instructor may see in the admin: the people of the cohorts they teach."""

from django.contrib import admin
from django.contrib.auth import get_user_model
from django.db.models import Q
from django.http import Http404
from django.utils.translation import gettext_lazy as _

from .models import Cohort, memberships


def users_in_scope(user):
    """Ids of the users whose records `user` may read: the learners of the cohorts they
    teach, and themselves. A subquery; superusers are not limited (callers check). Staff
    among a cohort's learners are left out, as of every figure (`cohort_learner_ids`):
    another instructor's audit trail tells of other cohorts (red team 10)."""
    members = memberships(cohort__in=Cohort.objects.taught_by(user))
    return (
        get_user_model()
        .objects.filter(Q(pk__in=members.values("user_id")) | Q(pk=user.pk))
        .values("pk")
    )


def learners_taught(user):
    """Ids of the learners whose attempts a regrade by `user` may touch: the members of
    the cohorts they teach, as a subquery; None (everyone) for a superuser. Staff among
    them are left out, as of every page they see: a learner promoted to teach another
    cohort, still listed, had her verdicts rewritten by a regrade that counted her on
    no page (red team 19)."""
    if user.is_superuser:
        return None
    return memberships(cohort__in=Cohort.objects.taught_by(user)).values("user_id")


class HiddenObjectAdminMixin:
    """A row outside the viewer's queryset answers 404, not the admin's redirect to
    its index with "does not exist", so another cohort's pages look like no page."""

    def get_object(self, request, object_id, from_field=None):
        obj = super().get_object(request, object_id, from_field)
        if obj is None:
            raise Http404(_("Not found."))
        return obj


class CohortScopedAdminMixin(HiddenObjectAdminMixin):
    """A ModelAdmin whose rows belong to a user (`scope_path` leads to it): an instructor
    lists only those of their cohorts' learners (and their own)."""

    scope_path = "learner"

    def get_queryset(self, request):
        queryset = super().get_queryset(request)
        if request.user.is_superuser:
            return queryset
        return queryset.filter(**{f"{self.scope_path}__in": users_in_scope(request.user)})


class TaughtCohortFilter(admin.SimpleListFilter):
    """Filter by cohort, offering only the cohorts the viewer teaches."""

    title = _("cohort")
    parameter_name = "cohort"
    cohort_path = "cohort"

    def lookups(self, request, model_admin):
        return [(str(c.pk), c.name) for c in Cohort.objects.taught_by(request.user)]

    def queryset(self, request, queryset):
        allowed = {value for value, _label in self.lookup_choices}
        if self.value() is None:
            return queryset
        if self.value() not in allowed:  # another cohort's id, or not a number
            return queryset.none()
        return queryset.filter(**{self.cohort_path: self.value()})
