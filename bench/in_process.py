"""Django set up inside a bench's own process, on a SQLite file of its own: the
benches that call views through the test client (results, page sizes) start here."""

import os
from pathlib import Path


def django_in_process(db_file: Path) -> None:
    """Development settings with DEBUG off, any host, plain static storage (the
    benches measure views, not collectstatic), and the database migrated."""
    os.environ.setdefault("DATABASE_URL", f"sqlite:///{db_file}")
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "portal.settings.base")
    os.environ["DJANGO_DEBUG"] = "false"
    import django

    django.setup()
    from django.conf import settings
    from django.core.management import call_command

    settings.ALLOWED_HOSTS = ["*"]
    settings.STORAGES["staticfiles"] = {
        "BACKEND": "django.contrib.staticfiles.storage.StaticFilesStorage"
    }
    call_command("migrate", verbosity=0)
