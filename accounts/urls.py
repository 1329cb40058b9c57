"""Account URLs, mounted at the site root."""

from django.contrib.auth import views as auth_views
from django.contrib.auth.decorators import login_not_required
from django.urls import path

from . import views
from .forms import LoginForm

app_name = "accounts"

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
    path("logout/", views.logout_view, name="logout"),
    path("password/", views.PasswordChangeView.as_view(), name="password_change"),
    path(
        "password/done/",
        auth_views.PasswordChangeDoneView.as_view(
            template_name="accounts/password_change_done.html"
        ),
        name="password_change_done",
    ),
    path("setup/<str:token>/", views.setup, name="setup"),
    path("invite/<str:token>/", views.invite, name="invite"),
    path("password/new/<str:token>/", views.password_link, name="password_link"),
    path("language/", views.language_set, name="language"),
    path("time-zone/", views.time_zone_set, name="time_zone"),
]
