"""Forms for logging in and for creating an account from a one-time link."""

from django import forms
from django.contrib.admin.forms import AdminAuthenticationForm
from django.contrib.auth.forms import AuthenticationForm, UserCreationForm
from django.utils import timezone
from django.utils.translation import gettext_lazy as _
from django.utils.translation import ngettext

from .enums import Language


class NoColonMixin:
    """Labels read "Password", not "Password:", for people and for screen readers."""

    def __init__(self, *args, **kwargs):
        kwargs.setdefault("label_suffix", "")
        super().__init__(*args, **kwargs)


class ThrottleMessageMixin:
    """Say plainly that the account is locked, and for how long, instead of the
    usual 'wrong username or password'."""

    def get_invalid_login_error(self):
        locked_until = getattr(self.request, "login_locked_until", None)
        if locked_until is None:
            return super().get_invalid_login_error()
        minutes = max(1, round((locked_until - timezone.now()).total_seconds() / 60))
        return forms.ValidationError(
            ngettext(
                "Too many failed logins for this username. Try again in %(minutes)d minute.",
                "Too many failed logins for this username. Try again in %(minutes)d minutes.",
                minutes,
            )
            % {"minutes": minutes},
            code="throttled",
        )


class LoginForm(NoColonMixin, ThrottleMessageMixin, AuthenticationForm):
    pass


class AdminLoginForm(ThrottleMessageMixin, AdminAuthenticationForm):
    pass


class AccountCreateForm(NoColonMixin, UserCreationForm):
    """Username and password chosen on a setup or invite link, plus the language."""

    language = forms.ChoiceField(label=_("Language"), choices=Language.choices, initial=Language.EN)

    class Meta(UserCreationForm.Meta):
        fields = ("username",)

    def save(self, commit=True):  # pragma: no cover - accounts are made by the services
        raise NotImplementedError("Use accounts.services to create accounts.")
