"""A bare Django site for the serving benchmark's ceiling: stock middleware (as
`startproject` writes it), one login-required view rendering a one-line template. It
shares the portal's database, secret and users, so one set of prepared learners logs
into both, and the portal's database, cache and session settings (kept connections,
REDIS_URL's cache and its cached_db sessions, portal.sessions, on their own alias), so
a ratio to it compares pages on the same topology, not connection handling."""

import os

from portal.settings.base import (  # noqa: F401
    BASE_DIR,
    CACHES,
    DATABASES,
    SESSION_CACHE_ALIAS,
    SESSION_ENGINE,
)

SECRET_KEY = os.environ["DJANGO_SECRET_KEY"]
DEBUG = False
ALLOWED_HOSTS = ["127.0.0.1"]
INSTALLED_APPS = [
    "django.contrib.auth",
    "django.contrib.contenttypes",
    "django.contrib.sessions",
    "django.contrib.messages",
]
MIDDLEWARE = [
    "django.middleware.security.SecurityMiddleware",
    "django.contrib.sessions.middleware.SessionMiddleware",
    "django.middleware.common.CommonMiddleware",
    "django.middleware.csrf.CsrfViewMiddleware",
    "django.contrib.auth.middleware.AuthenticationMiddleware",
    "django.contrib.messages.middleware.MessageMiddleware",
    "django.middleware.clickjacking.XFrameOptionsMiddleware",
]
SESSION_COOKIE_NAME = "baresession"  # beside the portal's sessionid in one Cookie header
ROOT_URLCONF = "bench.bare.urls"
TEMPLATES = [
    {
        "BACKEND": "django.template.backends.django.DjangoTemplates",
        "DIRS": [BASE_DIR / "bench" / "bare" / "templates"],
        "OPTIONS": {
            "context_processors": [
                "django.template.context_processors.request",
                "django.contrib.auth.context_processors.auth",
                "django.contrib.messages.context_processors.messages",
            ]
        },
    }
]
DEFAULT_AUTO_FIELD = "django.db.models.BigAutoField"
USE_TZ = True
