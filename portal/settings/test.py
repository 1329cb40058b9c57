"""Test settings: fast hashing, database sessions, plain static files, an SQLite file a run."""

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

# SQLite tests run on a file, as the portal does, not Django's default shared-cache
# memory database: there two requests at once (the live server's browser tests: a
# draft's beacon and the language switch) fail at once with "database table is locked"
# instead of waiting their turn under the timeout above, a 500 the portal never gives.
# One file per test process, so that two runs on one machine never share it; Django
# removes it when the run ends.
if DATABASES["default"]["ENGINE"] == "django.db.backends.sqlite3":  # noqa: F405
    import os
    import tempfile

    DATABASES["default"]["TEST"] = {  # noqa: F405
        "NAME": os.path.join(tempfile.gettempdir(), f"portal-test-{os.getpid()}.sqlite3")
    }
