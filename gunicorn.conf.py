"""gunicorn reads this file when started from the project folder; see portal/gunicorn_conf.py."""

from portal.gunicorn_conf import *  # noqa: F403
