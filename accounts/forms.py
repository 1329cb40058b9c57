"""Forms for logging in and for creating an account from a one-time link."""

import unicodedata
from functools import lru_cache

from confusable_homoglyphs import categories, confusables
from django import forms
from django.contrib.admin.forms import AdminAuthenticationForm, AdminPasswordChangeForm
from django.contrib.auth import get_user_model
from django.contrib.auth.forms import (
    AdminUserCreationForm,
    AuthenticationForm,
    PasswordChangeForm,
    SetPasswordForm,
    UserChangeForm,
    UserCreationForm,
)
from django.utils import timezone
from django.utils.translation import gettext_lazy as _
from django.utils.translation import ngettext

from portal.invisible import has_invisible

from .enums import Language
from .throttle import device_known, login_attempt_begin, login_attempt_finish
from .time_zones import time_zone_label, time_zone_names


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
                "Too many failed logins with this username or from this network. Try again "
                "in %(minutes)d minute.",
                "Too many failed logins with this username or from this network. Try again "
                "in %(minutes)d minutes.",
                minutes,
            )
            % {"minutes": minutes},
            code="throttled",
        )


class LoginForm(NoColonMixin, ThrottleMessageMixin, AuthenticationForm):
    pass


class AdminLoginForm(ThrottleMessageMixin, AdminAuthenticationForm):
    pass


class ThrottledOldPasswordMixin:
    """The old password of a password change is checked like a login: counted by the
    login throttle before the check, so a stolen session cannot try passwords without
    limit. Once the throttle refuses, the error has the code "throttled" and the view
    ends the session."""

    def __init__(self, user, *args, request=None, **kwargs):
        self.request = request
        super().__init__(user, *args, **kwargs)

    def clean_old_password(self):
        old_password = self.cleaned_data["old_password"]
        username = self.user.get_username()
        ticket = login_attempt_begin(
            username=username,
            address=self.request.META.get("REMOTE_ADDR") if self.request else None,
            known_device=device_known(self.request, username),
        )
        if ticket.locked_until is not None:
            raise forms.ValidationError(
                _("Too many wrong passwords. Log in again to go on."), code="throttled"
            )
        right = False
        try:
            right = self.user.check_password(old_password)
        finally:
            login_attempt_finish(ticket=ticket, succeeded=right)
        if not right:
            raise forms.ValidationError(
                self.error_messages["password_incorrect"], code="password_incorrect"
            )
        return old_password


class ThrottledPasswordChangeForm(NoColonMixin, ThrottledOldPasswordMixin, PasswordChangeForm):
    pass


class ThrottledAdminPasswordChangeForm(ThrottledOldPasswordMixin, AdminPasswordChangeForm):
    pass


def username_skeleton(username: str) -> str:
    """What a username looks like: letters from other scripts that look like Latin ones
    (Unicode's confusables: Cyrillic 'а' for 'a', Greek 'ο' for 'o') replaced by them,
    case folded, and Latin's own look-alikes ("1ucia" for "lucia", "0scar", "rnaria").
    Two names with one skeleton are the same name to a reader."""
    username = unicodedata.normalize("NFKC", username)
    if username.isascii():
        return _latin_alike(username.casefold())
    latin = {}
    # is_confusable gives False, not an empty list, when no letter looks like another.
    found_all = confusables.is_confusable(username, greedy=True, preferred_aliases=["latin"])
    for found in found_all or ():
        for glyph in found["homoglyphs"]:
            if len(glyph["c"]) == 1 and categories.alias(glyph["c"]) == "LATIN":
                latin[found["character"]] = glyph["c"]
                break
    return _latin_alike("".join(latin.get(char, char) for char in username).casefold())


# Within Latin letters and digits, what reads as what in a list of names (after case
# folding: "I" is "i" then, and "l" and "1" are the pair a reader mixes up).
_ALIKE = (("rn", "m"), ("vv", "w"), ("1", "l"), ("|", "l"), ("0", "o"))


def _latin_alike(name: str) -> str:
    for seen, read in _ALIKE:
        name = name.replace(seen, read)
    return name


def check_username(username: str, *, other_than: int | None = None) -> None:
    """Refuse a username a reader could take for another: invisible characters, mixed
    alphabets that look alike, or the look of a name already taken (by any account but
    `other_than`)."""
    if has_invisible(username):
        raise forms.ValidationError(
            _("This username has characters that cannot be seen. Choose another."),
            code="invisible",
        )
    if confusables.is_dangerous(username):
        raise forms.ValidationError(
            _("This username mixes alphabets in a way that looks like another name."),
            code="confusable",
        )
    skeleton = username_skeleton(username)
    # Compared in Python: a few thousand names, read only when an account is made.
    for existing in (
        get_user_model().objects.exclude(pk=other_than).values_list("username", flat=True)
    ):
        if username_skeleton(existing) == skeleton:
            raise forms.ValidationError(
                _("This username looks the same as one already taken. Choose another."),
                code="confusable",
            )


class UsernameChecksMixin:
    """A form's username checked by `check_username`: the setup and invite pages, and the
    admin's add and change pages (a name changed there is checked against the others)."""

    def clean_username(self):
        parent = getattr(super(), "clean_username", None)
        username = parent() if parent else self.cleaned_data.get("username")
        if not username:  # Django's check already refused it (taken in another case)
            return username
        if self.instance.pk is None or "username" in self.changed_data:
            check_username(username, other_than=self.instance.pk)
        return username


PASSWORD_FIELD = "password1"  # noqa: S105 - a field's name
NEW_PASSWORD_FIELD = "new_password1"  # noqa: S105 - a field's name


class AccountCreateForm(NoColonMixin, UsernameChecksMixin, UserCreationForm):
    """Username and password chosen on a setup or invite link, plus the language."""

    language = forms.ChoiceField(label=_("Language"), choices=Language.choices, initial=Language.EN)

    def validate_password_for_user(self, user, **kwargs):
        # Django puts "too short", "too common"… under the confirmation field; they are
        # about the password itself. A mismatch stays under the confirmation.
        super().validate_password_for_user(user, password_field_name=PASSWORD_FIELD)

    class Meta(UserCreationForm.Meta):
        fields = ("username",)

    def full_clean(self):
        """The focus goes to the first field in error, not back to the username Django
        always focuses; a password error to the first password box, since both come back
        empty."""
        super().full_clean()
        errant = next((name for name in self.fields if name in self.errors), None)
        if errant is None:
            return
        for field in self.fields.values():
            field.widget.attrs.pop("autofocus", None)
        self.fields["password1" if errant == "password2" else errant].widget.attrs["autofocus"] = (
            True
        )

    def save(self, commit=True):  # pragma: no cover - accounts are made by the services
        raise NotImplementedError("Use accounts.services to create accounts.")


class NewPasswordForm(NoColonMixin, SetPasswordForm):
    """The new password chosen on a new-password link, twice."""

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        self.fields["new_password1"].widget.attrs["autofocus"] = True

    def validate_password_for_user(self, user, *args, **kwargs):
        # As on the account form: "too short", "too common"… are about the password
        # itself, so they go under it, not under its confirmation.
        super().validate_password_for_user(user, password_field_name=NEW_PASSWORD_FIELD)


class CheckedAdminUserCreationForm(UsernameChecksMixin, AdminUserCreationForm):
    """The admin's "Add user" form, its username checked as on the setup page."""


class CheckedUserChangeForm(UsernameChecksMixin, UserChangeForm):
    """The admin's user form, a changed username checked as on the setup page."""


# The regions of the IANA zones a person lives in ("Europe/Madrid"); left out are the
# legacy aliases ("Cuba", "US/Eastern"), "Etc/GMT+5" (which is UTC-5) and "localtime".
REGIONS = {"Africa", "America", "Antarctica", "Arctic", "Asia", "Atlantic", "Australia"}
REGIONS |= {"Europe", "Indian", "Pacific"}


@lru_cache(maxsize=1)
def _offered_zones() -> tuple[tuple[str, str], ...]:
    offered = sorted(n for n in time_zone_names() if n.split("/", 1)[0] in REGIONS)
    return (("UTC", "UTC"), *((name, time_zone_label(name)) for name in offered))


def _time_zone_choices() -> list[tuple[str, str]]:
    # The first label is read in the request's language; the zones are sorted once.
    return [("", _("My browser's (automatic)")), *_offered_zones()]


class TimeZoneForm(NoColonMixin, forms.Form):
    """The zone a learner's dates are shown in: a named one, or the browser's."""

    time_zone = forms.ChoiceField(label=_("Time zone"), choices=_time_zone_choices, required=False)
