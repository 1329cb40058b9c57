"""Settings shared by every environment; development runs on these as they are.

Everything secret or machine-specific comes from the environment. The `test` and
`production` modules are thin overrides of this one.
"""

import os
import secrets
from pathlib import Path

import dj_database_url

from portal import languages

BASE_DIR = Path(__file__).resolve().parent.parent.parent


def env_bool(name: str, default: bool) -> bool:
    value = os.environ.get(name)
    if value is None:
        return default
    return value.strip().lower() in {"1", "true", "yes", "on"}


def env_list(name: str, default: list[str]) -> list[str]:
    value = os.environ.get(name)
    if value is None:
        return default
    return [item.strip() for item in value.split(",") if item.strip()]


def local_secret_key() -> str:
    """A development secret, generated once and kept out of git in `.secret_key`."""
    path = BASE_DIR / ".secret_key"
    if not path.exists():
        path.write_text(secrets.token_urlsafe(50))
        path.chmod(0o600)
    return path.read_text().strip()


def served_base_url(path: Path) -> str:
    """The address `make run` / `make serve` last served, as `prepare` kept it."""
    try:
        return path.read_text().strip()
    except OSError:
        return ""


def portal_base_url(environ, served_file: Path) -> str:
    """PORTAL_BASE_URL from the environment, else what `make run` last served."""
    url = environ.get("PORTAL_BASE_URL") or served_base_url(served_file)
    return (url or "http://127.0.0.1:8000").rstrip("/")


SECRET_KEY = os.environ.get("DJANGO_SECRET_KEY") or local_secret_key()
# Off unless asked for (`make debug`): `make run` is how a class is served from a
# laptop, and Django's debug pages show every URL and setting to anyone who asks.
DEBUG = env_bool("DJANGO_DEBUG", False)
ALLOWED_HOSTS = env_list("DJANGO_ALLOWED_HOSTS", ["127.0.0.1", "localhost", "[::1]"])

# Links printed by commands (setup link, invites) are built from this: the environment's
# (the Makefile sets it to the address it serves), else the one `prepare` kept in
# SERVED_URL_FILE, so that `manage.py invite` in another terminal names the port served.
SERVED_URL_FILE = BASE_DIR / ".served_url"
PORTAL_BASE_URL = portal_base_url(os.environ, SERVED_URL_FILE)

INSTALLED_APPS = [
    "whitenoise.runserver_nostatic",
    "django.contrib.admin",
    "django.contrib.auth",
    "django.contrib.contenttypes",
    "django.contrib.sessions",
    "django.contrib.messages",
    "django.contrib.staticfiles",
    "django_htmx",
    "template_partials",
    "portal",
    "accounts",
    "quizzes",
    "audit",
    "progress",
    "teaching",
]

MIDDLEWARE = [
    "portal.middleware.TrustedProxyMiddleware",
    "django.middleware.security.SecurityMiddleware",
    "portal.middleware.ContentSecurityPolicyMiddleware",
    "whitenoise.middleware.WhiteNoiseMiddleware",
    # After whitenoise, so static files keep their own long cache.
    "portal.middleware.NoStoreMiddleware",
    # Before the session is read: a cookie Django could not have made is dropped.
    "portal.middleware.SessionCookieMiddleware",
    "django.contrib.sessions.middleware.SessionMiddleware",
    "accounts.middleware.ProfileLocaleMiddleware",
    "accounts.middleware.KnownDeviceMiddleware",
    "accounts.time_zones.TimeZoneMiddleware",
    "django.middleware.common.CommonMiddleware",
    "portal.middleware.UnreadableRequestMiddleware",
    "django.middleware.csrf.CsrfViewMiddleware",
    "django.contrib.auth.middleware.AuthenticationMiddleware",
    # Every page needs a logged-in user unless its view says @login_not_required.
    "portal.middleware.LoginRequiredMiddleware",
    "django.contrib.messages.middleware.MessageMiddleware",
    "django.middleware.clickjacking.XFrameOptionsMiddleware",
    "django_htmx.middleware.HtmxMiddleware",
    # Innermost: an empty 405 from a view gets the portal's page, in the learner's language.
    "portal.middleware.MethodNotAllowedMiddleware",
]

# Proxies (addresses or networks) whose X-Forwarded-For is believed: the audit log and
# the login throttle then see the client's address instead of the proxy's.
TRUSTED_PROXIES = env_list("DJANGO_TRUSTED_PROXIES", [])
# Answers one learner may send a minute (progress/services/pace.py). The load benches
# raise it: a few hundred accounts stand for many more learners there.
ANSWERS_PER_MINUTE = int(os.environ.get("DJANGO_ANSWERS_PER_MINUTE") or 30)
# A cohort's admin form posts one field per learner, and cohorts of 10,000 learners
# are measured (docs/performance.md): Django's 1,000 fields a request refused to save
# any cohort past 1,000 (a 400). The body stays bounded by DATA_UPLOAD_MAX_MEMORY_SIZE.
DATA_UPLOAD_MAX_NUMBER_FIELDS = 25_000

# No 'unsafe-inline' anywhere: scripts and styles come from our static files only.
CONTENT_SECURITY_POLICY = {
    "default-src": ["'self'"],
    "script-src": ["'self'"],
    "style-src": ["'self'"],
    "img-src": ["'self'", "data:"],
    "font-src": ["'self'"],
    "connect-src": ["'self'"],
    "object-src": ["'none'"],
    "base-uri": ["'self'"],
    "form-action": ["'self'"],
    "frame-ancestors": ["'none'"],
}
X_FRAME_OPTIONS = "DENY"
SECURE_REFERRER_POLICY = "same-origin"
SECURE_CONTENT_TYPE_NOSNIFF = True
SESSION_COOKIE_HTTPONLY = True
CSRF_FAILURE_VIEW = "portal.errors.csrf_failure"  # a fragment for htmx, else our page
CSRF_COOKIE_HTTPONLY = False  # htmx reads no cookie; the token is in hx-headers

ROOT_URLCONF = "portal.urls"
WSGI_APPLICATION = "portal.wsgi.application"

TEMPLATES = [
    {
        "BACKEND": "django.template.backends.django.DjangoTemplates",
        "DIRS": [BASE_DIR / "templates"],
        "APP_DIRS": True,
        "OPTIONS": {
            "context_processors": [
                "django.template.context_processors.request",
                "django.contrib.auth.context_processors.auth",
                "django.contrib.messages.context_processors.messages",
                "django.template.context_processors.i18n",
                "progress.context_processors.reviews_due",
            ],
        },
    },
]

DATABASES = {
    "default": dj_database_url.config(
        env="DATABASE_URL",
        default=f"sqlite:///{BASE_DIR / 'db.sqlite3'}",
        conn_max_age=60,
    )
}
if DATABASES["default"]["ENGINE"] == "django.db.backends.sqlite3":
    # WAL lets readers and one writer work at once; IMMEDIATE takes the write lock at
    # the start of a transaction, so concurrent writers queue instead of failing
    # (docs/data-layer.md: a file lock queueing them no longer paid).
    DATABASES["default"]["OPTIONS"] = {
        "transaction_mode": "IMMEDIATE",
        "timeout": 20,
        "init_command": "PRAGMA journal_mode=WAL; PRAGMA synchronous=NORMAL;",
    }
# Connections are kept for a minute (per worker thread) rather than opened per request:
# opening SQLite and running the PRAGMAs above costs a large share of a bare page
# (docs/performance.md). The health check drops a connection a PostgreSQL restart broke.
DATABASES["default"]["CONN_HEALTH_CHECKS"] = True

DEFAULT_AUTO_FIELD = "django.db.models.BigAutoField"

AUTHENTICATION_BACKENDS = ["accounts.backends.ThrottledModelBackend"]
LOGIN_URL = "accounts:login"
LOGIN_REDIRECT_URL = "home"
LOGOUT_REDIRECT_URL = "accounts:login"
SESSION_COOKIE_AGE = 60 * 60 * 24 * 14


def cache_settings(environ) -> tuple[dict, str]:
    """CACHES and SESSION_ENGINE for the environment (docs/redis.md).

    With REDIS_URL, Django's RedisCache, which every app server shares, and sessions
    in it in front of the database (`cached_db`): a logout deletes the session from the
    cache and the table, so it ends in every worker. Without it, the embedded default: a
    bounded in-memory cache in each process, holding only what follows from content
    (its keys name what a value depends on), and sessions in the database alone, since
    a session kept in one worker's memory would outlive a logout served by another.
    DJANGO_CACHE_VERSION names a deploy whose code changes what is kept (Django's
    `VERSION`: old entries are then never read).
    """
    common = {
        "TIMEOUT": 30 * 24 * 3600,
        "VERSION": int(environ.get("DJANGO_CACHE_VERSION") or 1),
        "KEY_PREFIX": "portal",
    }
    # Sessions (SESSION_CACHE_ALIAS) are Django's data, not content the portal renders:
    # versioned by DJANGO_CACHE_VERSION, a logout on a server of the new version left the
    # session cached under the old one, alive on the servers not yet deployed (and again
    # after a rollback) for up to SESSION_COOKIE_AGE (red-team run 18).
    sessions = common | {"VERSION": 1}
    url = environ.get("REDIS_URL")
    if url:
        # Bounded by the server's maxmemory with an LRU policy (docs/redis.md).
        backend = {"BACKEND": "django.core.cache.backends.redis.RedisCache", "LOCATION": url}
        caches = {"default": backend | common, "sessions": backend | sessions}
        return caches, "portal.sessions"  # Django's cached_db, ended sessions kept ended
    backend = {
        "BACKEND": "django.core.cache.backends.locmem.LocMemCache",
        "LOCATION": "portal",
        # Least recently read entries go first (a third at a time) past this many.
        "OPTIONS": {"MAX_ENTRIES": 10_000},
    }
    # Database sessions read no cache: the alias is there for SESSION_CACHE_ALIAS alone.
    caches = {"default": backend | common, "sessions": backend | sessions}
    return caches, "django.contrib.sessions.backends.db"


CACHES, SESSION_ENGINE = cache_settings(os.environ)
SESSION_CACHE_ALIAS = "sessions"
# Counts that bound a client (answers a minute, a link's refused posts: portal/counters.py)
# go where every worker sees them: Redis when there is one, else the database, since the
# embedded cache is each worker's own.
COUNTS_IN_CACHE = bool(os.environ.get("REDIS_URL"))

AUTH_PASSWORD_VALIDATORS = [
    {"NAME": "django.contrib.auth.password_validation.UserAttributeSimilarityValidator"},
    {"NAME": "django.contrib.auth.password_validation.MinimumLengthValidator"},
    {"NAME": "django.contrib.auth.password_validation.CommonPasswordValidator"},
    {"NAME": "django.contrib.auth.password_validation.NumericPasswordValidator"},
]
PASSWORD_HASHERS = [
    "django.contrib.auth.hashers.Argon2PasswordHasher",
    "django.contrib.auth.hashers.PBKDF2PasswordHasher",
]

LANGUAGE_CODE = "en"
LANGUAGES = list(languages.LANGUAGES)
LOCALE_PATHS = [BASE_DIR / "locale"]
USE_I18N = True
# The language switch also sets this cookie, so a logged-out visitor keeps the language.
LANGUAGE_COOKIE_AGE = 60 * 60 * 24 * 365
LANGUAGE_COOKIE_HTTPONLY = True
LANGUAGE_COOKIE_SAMESITE = "Lax"
TIME_ZONE = "UTC"
USE_TZ = True

STATIC_URL = "static/"
STATICFILES_DIRS = [BASE_DIR / "static"]
STORAGES = {
    "default": {"BACKEND": "django.core.files.storage.FileSystemStorage"},
    "staticfiles": {"BACKEND": "django.contrib.staticfiles.storage.StaticFilesStorage"},
}
# `make run` needs no collectstatic: whitenoise serves the static files from the app
# folders, found once at start-up (again on each request while debugging). Production
# settings serve the collected, hashed and compressed files instead, from STATIC_ROOT
# (set there only: whitenoise warns at start-up about a STATIC_ROOT not yet collected).
WHITENOISE_USE_FINDERS = True
WHITENOISE_AUTOREFRESH = DEBUG

# Where the quiz YAML lives; `import_quizzes` and `export_mirrors` read it by default.
QUIZ_DATA_DIR = BASE_DIR / "data" / "quizzes"
QUIZ_MIRROR_DIR = BASE_DIR / "docs" / "quizzes"
# How the importer's report (a dry run's and an import's) counts the attempts on each
# changed question's revisions, without the quizzes app knowing about learners: a dotted
# path to a function(revision_ids) -> {id: count}.
QUIZ_ATTEMPT_COUNTER = "progress.selectors.attempt_counts_for_revisions"

LOGGING = {
    "version": 1,
    "disable_existing_loggers": False,
    "filters": {
        "redact": {"()": "portal.log.RedactSecretPaths"},
        "client_errors": {"()": "portal.log.NoTracebackForClientErrors"},
    },
    "handlers": {
        "console": {"class": "logging.StreamHandler", "filters": ["redact", "client_errors"]}
    },
    "root": {"handlers": ["console"], "level": "WARNING"},
    # Django's own console handler would print a 500 a second time: everything goes
    # through the root logger instead, once.
    "loggers": {"django": {"handlers": [], "level": "INFO", "propagate": True}},
}

# Spaced repetition of failed questions (py-fsrs). No minute-level learning steps:
# learners come back daily, so a question answered wrong is first due the next day.
REVIEW_SCHEDULER = {
    "desired_retention": 0.9,
    "learning_steps": (),
    "relearning_steps": (),
    "maximum_interval": 365,
    "enable_fuzzing": True,
}
# Right reviews in a row after which a question counts as learned.
REVIEW_LEARNED_AFTER = 2

# Questions per page of a phase page: a phase of hundreds stays a page of ~100 kB.
PHASE_PAGE_SIZE = 25

# Who a quiz edit touches, for import_quizzes' report: the quizzes app knows nothing of
# learners, so the count is the instructors' app's (see docs/quiz-format.md).
QUIZ_IMPORT_IMPACT = "teaching.impact.import_impact"
