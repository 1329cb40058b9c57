"""Test settings: fast hashing, in-memory caches, plain static storage."""

from .base import *  # noqa: F403

DEBUG = False
# Links as a fresh clone prints them, whatever `make run` last served on this machine;
# tests never write into the project folder.
PORTAL_BASE_URL = "http://127.0.0.1:8000"
SERVED_URL_FILE = None
PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]
STORAGES = {
    "default": {"BACKEND": "django.core.files.storage.InMemoryStorage"},
    "staticfiles": {"BACKEND": "django.contrib.staticfiles.storage.StaticFilesStorage"},
}

# Serve static files from the app folders, as in development, without collectstatic.
WHITENOISE_AUTOREFRESH = True
WHITENOISE_USE_FINDERS = True
