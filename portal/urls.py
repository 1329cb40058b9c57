"""Root URL configuration."""

from django.contrib import admin
from django.urls import include, path
from django.utils.translation import gettext_lazy

from accounts.forms import AdminLoginForm
from accounts.views import admin_password_change
from progress import views as progress_views

from . import views

# The admin logs in through the same throttle, and says so when it refuses.
admin.site.login_form = AdminLoginForm
# Translated per request (the admin renders its header in the viewer's language).
admin.site.site_header = gettext_lazy("LLM from scratch — admin")
# The browser tab's title after each page's own ("Django site admin" otherwise).
admin.site.site_title = admin.site.site_header

urlpatterns = [
    path("", progress_views.home, name="home"),
    path("healthz", views.healthz, name="healthz"),
    path("ping/", views.ping, name="ping"),
    path("", include("accounts.urls")),
    path("", include("progress.urls")),
    # Ahead of the admin's own: the old password throttled, the change audited.
    path(
        "admin/password_change/",
        admin.site.admin_view(admin_password_change),
        name="admin_password_change",
    ),
    path("admin/", admin.site.urls),
]

handler400 = "portal.errors.bad_request"
handler403 = "portal.errors.permission_denied"
handler404 = "portal.errors.page_not_found"
handler500 = "portal.errors.server_error"
