"""Admin pieces shared by the apps."""


class ReadOnlyAdminMixin:
    """Rows that are evidence or imported content: everyone with the view permission
    may look; nobody, superusers included, adds, changes or deletes one here."""

    def has_add_permission(self, request, obj=None):
        return False

    def has_change_permission(self, request, obj=None):
        return False

    def has_delete_permission(self, request, obj=None):
        return False
