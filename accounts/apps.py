"""App config for accounts: setup link, invites, profile, login throttle and audit."""

from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _


class AccountsConfig(AppConfig):
    name = "accounts"
    verbose_name = _("Accounts")

    def ready(self):
        from . import signals  # noqa: F401 - connects the auth signal receivers
