"""Account URLs, mounted at the site root."""

from django.contrib.auth import forms as auth_forms
from django.contrib.auth import views as auth_views
from django.contrib.auth.decorators import login_not_required
from django.urls import path, reverse_lazy

from . import views
from .forms import LoginForm, NoColonMixin

app_name = "accounts"


class PasswordChangeForm(NoColonMixin, auth_forms.PasswordChangeForm):
    pass


class PasswordChangeView(auth_views.PasswordChangeView):
    template_name = "accounts/password_change.html"
    form_class = PasswordChangeForm
    success_url = reverse_lazy("accounts:password_change_done")

    def form_valid(self, form):
        response = super().form_valid(form)
        views.password_changed_audit(self.request)
        return response


urlpatterns = [
    path(
        "login/",
        login_not_required(
            auth_views.LoginView.as_view(
                template_name="accounts/login.html",
                authentication_form=LoginForm,
                redirect_authenticated_user=True,
            )
        ),
        name="login",
    ),
    path("logout/", auth_views.LogoutView.as_view(), name="logout"),
    path("password/", PasswordChangeView.as_view(), name="password_change"),
    path(
        "password/done/",
        auth_views.PasswordChangeDoneView.as_view(
            template_name="accounts/password_change_done.html"
        ),
        name="password_change_done",
    ),
    path("setup/<str:token>/", views.setup, name="setup"),
    path("invite/<str:token>/", views.invite, name="invite"),
    path("language/", views.language_set, name="language"),
]
