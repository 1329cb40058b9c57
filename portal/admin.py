"""Admin pieces shared by the apps."""

from django.contrib.admin.helpers import ACTION_CHECKBOX_NAME
from django.core.exceptions import BadRequest, ValidationError


class ReadOnlyAdminMixin:
    """Rows that are evidence or imported content: everyone with the view permission
    may look; nobody, superusers included, adds, changes or deletes one here."""

    def has_add_permission(self, request, obj=None):
        return False

    def has_change_permission(self, request, obj=None):
        return False

    def has_delete_permission(self, request, obj=None):
        return False


# The widest integer a database column holds: a larger id names no row, and SQLite
# refuses to even bind it (OverflowError).
INT64 = range(-(2**63), 2**63)


class ChangelistInputMixin:
    """A change list's query string and action selection as a fuzzer sends them: a
    year no date can have (`created_at__year=0`, `-1`, past 64 bits) or a selected id
    that is no id (`_selected_action=abc`) answers 400 instead of failing the page."""

    def changelist_view(self, request, extra_context=None):
        if self.date_hierarchy:
            year = request.GET.get(f"{self.date_hierarchy}__year")
            # Year 1 and 9999 too: their first or last day in another time zone is
            # outside what Python's datetime holds.
            possible = year is None or (year.isascii() and year.isdigit() and 1 < int(year) < 9999)
            if not possible:
                raise BadRequest("impossible year")
        if request.method == "POST" and "action" in request.POST:
            pk = self.model._meta.pk
            for value in request.POST.getlist(ACTION_CHECKBOX_NAME):
                try:
                    parsed = pk.to_python(value)
                except ValidationError:
                    raise BadRequest("selected id is no id") from None
                if parsed is None or (isinstance(parsed, int) and parsed not in INT64):
                    raise BadRequest("selected id is no id")
        return super().changelist_view(request, extra_context)
