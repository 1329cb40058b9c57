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

# The query counts the tests assert include each request's session read from the
# table, so sessions stay database ones whatever REDIS_URL selects (the cache follows
# it); tests/portal/test_sessions.py checks `cached_db` itself, on that cache.
SESSION_ENGINE = "django.contrib.sessions.backends.db"
