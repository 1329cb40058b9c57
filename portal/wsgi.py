"""WSGI entry point; gunicorn and runserver load `application` from here."""

import os

from django.core.wsgi import get_wsgi_application

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "portal.settings.production")

application = get_wsgi_application()
