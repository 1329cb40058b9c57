"""Read-only admin for quiz content: it is edited in YAML and imported, never here."""

from django.contrib import admin
from django.utils.translation import gettext_lazy as _

from portal.admin import ChangelistInputMixin, ReadOnlyAdminMixin

from .models import Phase, Question, QuestionRevision


class ReadOnlyAdmin(ChangelistInputMixin, ReadOnlyAdminMixin, admin.ModelAdmin):
    pass


class RetiredFilter(admin.SimpleListFilter):
    title = _("status")
    parameter_name = "status"

    def lookups(self, request, model_admin):
        return [("active", _("Active")), ("retired", _("Retired"))]

    def queryset(self, request, queryset):
        if self.value() == "active":
            return queryset.filter(retired_at__isnull=True)
        if self.value() == "retired":
            return queryset.filter(retired_at__isnull=False)
        return queryset


@admin.register(Phase)
class PhaseAdmin(ReadOnlyAdmin):
    list_display = ["number", "title_en", "title_es", "source_file", "retired_at"]
    list_filter = [RetiredFilter]


class RevisionInline(admin.TabularInline):
    model = QuestionRevision
    fields = ["number", "kind", "title_en", "content_hash", "created_at", "is_current"]
    readonly_fields = fields
    extra = 0
    can_delete = False
    show_change_link = True

    def has_add_permission(self, request, obj=None):
        return False

    def get_queryset(self, request):
        return super().get_queryset(request).select_related("question")

    @admin.display(boolean=True, description=_("current"))
    def is_current(self, revision):
        return revision.question.current_revision_id == revision.pk


@admin.register(Question)
class QuestionAdmin(ReadOnlyAdmin):
    list_display = ["code", "phase", "position", "current_revision_number", "retired_at"]
    list_filter = [RetiredFilter, "phase"]
    list_select_related = ["phase", "current_revision"]
    search_fields = ["code", "current_revision__title_en", "current_revision__title_es"]
    inlines = [RevisionInline]

    @admin.display(description=_("current revision"), ordering="current_revision__number")
    def current_revision_number(self, question):
        return question.current_revision.number if question.current_revision else None


@admin.register(QuestionRevision)
class QuestionRevisionAdmin(ReadOnlyAdmin):
    list_display = ["question", "number", "kind", "title_en", "created_at"]
    list_filter = ["kind"]
    list_select_related = ["question"]
    search_fields = ["question__code", "title_en", "title_es"]
