"""Admin pieces shared by the apps."""

from django import forms
from django.contrib import messages
from django.contrib.admin import SimpleListFilter
from django.contrib.admin.helpers import ACTION_CHECKBOX_NAME
from django.contrib.admin.views.main import SEARCH_VAR
from django.contrib.admin.widgets import url_params_from_lookup_dict
from django.core.exceptions import BadRequest, ValidationError
from django.db import DataError, models
from django.db.models.constants import LOOKUP_SEP
from django.utils.text import smart_split
from django.utils.translation import gettext as _
from django.utils.translation import gettext_noop

# Django admin's own messages whose Spanish the portal's catalogue replaces (its own
# reads "El invitación … fue agregado", "Eliminar invitaciones seleccionado/s"), named
# here so that `makemessages` keeps them in locale/es rather than marking them obsolete.
DJANGO_ADMIN_MESSAGES = (
    gettext_noop("The {name} “{obj}” was added successfully."),
    gettext_noop("You may edit it again below."),
    gettext_noop("The {name} “{obj}” was added successfully. You may add another {name} below."),
    gettext_noop("The {name} “{obj}” was changed successfully. You may edit it again below."),
    gettext_noop("The {name} “{obj}” was changed successfully. You may add another {name} below."),
    gettext_noop("The {name} “{obj}” was changed successfully."),
    gettext_noop("The %(name)s “%(obj)s” was deleted successfully."),
    gettext_noop("Added {name} “{object}”."),
    gettext_noop("Deleted {name} “{object}”."),
    gettext_noop("Delete selected %(verbose_name_plural)s"),
    gettext_noop("Successfully deleted %(count)d %(items)s."),
    gettext_noop(
        "Are you sure you want to delete the selected %(objects_name)s? All of the "
        "following objects and their related items will be deleted:"
    ),
    gettext_noop(
        "Deleting the selected %(objects_name)s would require deleting the following "
        "protected related objects:"
    ),
    gettext_noop(
        'Are you sure you want to delete the %(object_name)s "%(escaped_object)s"? '
        "All of the following related items will be deleted:"
    ),
    gettext_noop("Yes, I’m sure"),
    gettext_noop("Save and add another"),
)


def _is_simple_filter(spec) -> bool:
    return isinstance(spec, type) and issubclass(spec, SimpleListFilter)


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


def _integer_past_64_bits(value) -> bool:
    # int() is what the lookup does with the value, so it decides what is a number:
    # full-width and Arabic-Indic digits and underscores between digits are.
    text = str(value)
    try:
        number = int(text)
    except ValueError:
        # Digits past the thousands int() converts at all are past 64 bits too.
        return text.strip().lstrip("+-").replace("_", "").isdigit()
    return number not in INT64


class BoundedIdsField(forms.ModelMultipleChoiceField):
    """A multiple choice of rows (a cohort's learners, a user's groups) that refuses an id
    no column holds as any unknown choice ("Select a valid choice"): past 64 bits, SQLite
    cannot bind it and the form's lookup failed as a 500."""

    def clean(self, value):
        for pk in value or ():
            if _integer_past_64_bits(pk):
                raise ValidationError(
                    self.error_messages["invalid_choice"],
                    code="invalid_choice",
                    params={"value": pk},
                )
        return super().clean(value)


class BoundedIdsAdminMixin:
    """An admin whose many-to-many choices refuse ids past 64 bits with the form's error."""

    formfield_overrides = {models.ManyToManyField: {"form_class": BoundedIdsField}}


# The lookups the admin's own filter links make, after the field they filter: a value
# ("kind=free"), exact, isnull, a date range (gte, lt), isempty, and a related row's id.
FILTER_LOOKUPS = {"exact", "isnull", "gte", "lt", "isempty"}
DATE_PARTS = {"year", "month", "day"}
MAX_SEARCH_WORDS = 20  # a username, a question code, a few words of an answer


class ChangelistInputMixin:
    """A change list's query string and action selection as a fuzzer sends them, each
    refused with a 400 instead of failing the page:

    - a lookup no filter of the list makes: Django's admin allows any lookup on a
      model's own fields (`id__regex=(`, `pk__in=<past 64 bits>`, `created_at__year=`
      on a field with no date hierarchy, `answer__contains` on SQLite), and each failed
      as a 500 or ran a pattern of the sender's in the database;
    - a year no date can have (`created_at__year=0`, `-1`, past 64 bits);
    - a value of an allowed lookup the database cannot take (a related id past 64 bits,
      refused before the list's count runs);
    - a selected id that is no id (`_selected_action=abc`)."""

    def lookup_allowed(self, lookup, value, request=None):
        if _integer_past_64_bits(value):
            # A related id or a number no column holds: SQLite refuses to bind it (a
            # 500 from the list's count), PostgreSQL finds nothing: a 400 on both.
            return False
        field, *rest = lookup.split(LOOKUP_SEP)
        for fk_lookup in self.model._meta.related_fkey_lookups:
            # A related field's limit_choices_to, which its raw-id popup sends.
            fk_lookup = fk_lookup() if callable(fk_lookup) else fk_lookup
            if (lookup, value) in url_params_from_lookup_dict(fk_lookup).items():
                return True
        filters = self.get_list_filter(request) if request is not None else self.list_filter
        if lookup in {f.parameter_name for f in filters if _is_simple_filter(f)}:
            return super().lookup_allowed(lookup, value, request)
        if field == self.date_hierarchy and len(rest) == 1 and rest[0] in DATE_PARTS:
            return super().lookup_allowed(lookup, value, request)
        filtered = {f if isinstance(f, str) else f[0] for f in filters if not _is_simple_filter(f)}
        # "question__phase" filters the phase of the question: its lookups follow it.
        path = next((p for p in filtered if lookup == p or lookup.startswith(p + LOOKUP_SEP)), None)
        if path is None:
            return False
        tail = lookup[len(path) :].split(LOOKUP_SEP)[1:]
        if tail and (tail[-1] not in FILTER_LOOKUPS or len(tail) > 2):
            return False
        return super().lookup_allowed(lookup, value, request)

    def changelist_view(self, request, extra_context=None):
        self._refuse_bad_input(request)
        self._search_capped(request)
        if request.method not in ("GET", "HEAD"):  # an action: its errors are its own
            return super().changelist_view(request, extra_context)
        # The list's count runs in the view, its rows while it renders: the database's
        # refusals of a filter value are ours in both. (Rendered here, so a subclass that
        # changes context_data afterwards changes nothing.)
        try:
            response = super().changelist_view(request, extra_context)
            if hasattr(response, "render") and not response.is_rendered:
                response.render()
        except (OverflowError, DataError) as error:
            raise BadRequest("a filter value the database cannot take") from error
        return response

    def _search_capped(self, request) -> None:
        """Search with the first MAX_SEARCH_WORDS words, and say so: each word adds a
        condition per search field, and SQLite refuses a thousand words' query (an
        expression tree too deep: a 500)."""
        # Terms as the admin's search reads them: a quoted phrase is one.
        words = list(smart_split(request.GET.get(SEARCH_VAR, "")))
        if len(words) <= MAX_SEARCH_WORDS:
            return
        request.GET = request.GET.copy()
        request.GET[SEARCH_VAR] = " ".join(words[:MAX_SEARCH_WORDS])
        messages.warning(
            request,
            _("Only the first %(n)s words of the search were used.") % {"n": MAX_SEARCH_WORDS},
        )

    def _refuse_bad_input(self, request) -> None:
        if self.date_hierarchy:
            # Year 1 and 9999 too: their first or last day in another time zone is
            # outside what Python's datetime holds. A month or day past a C long raised
            # OverflowError inside Django's date hierarchy, which only catches ValueError.
            for part, low, high in (("year", 2, 9998), ("month", 1, 12), ("day", 1, 31)):
                value = request.GET.get(f"{self.date_hierarchy}__{part}")
                if value is None:
                    continue
                if not (value.isascii() and value.isdigit() and low <= int(value) <= high):
                    raise BadRequest(f"impossible {part}")
        if request.method == "POST" and "action" in request.POST:
            pk = self.model._meta.pk
            for value in request.POST.getlist(ACTION_CHECKBOX_NAME):
                try:
                    parsed = pk.to_python(value)
                except ValidationError:
                    raise BadRequest("selected id is no id") from None
                if parsed is None or (isinstance(parsed, int) and parsed not in INT64):
                    raise BadRequest("selected id is no id")
