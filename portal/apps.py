"""App config for the project package (it holds the `prepare` command, no models)."""

from django.apps import AppConfig


class PortalConfig(AppConfig):
    name = "portal"
    verbose_name = "Portal"
