# Everything a newcomer needs: `make run` to use the portal, `make test` to check it.
PYTHON ?= python3
VENV := .venv
PY := $(VENV)/bin/python
MANAGE := $(PY) manage.py
HOST ?= 127.0.0.1
PORT ?= 8000

.PHONY: run test lint check-deploy serve bench messages migrate import clean

$(VENV)/.installed: requirements.txt
	test -x $(PY) || $(PYTHON) -m venv $(VENV)
	$(PY) -m pip install --quiet --disable-pip-version-check -r requirements.txt
	touch $@

$(VENV)/.installed-dev: $(VENV)/.installed requirements-dev.txt
	$(PY) -m pip install --quiet --disable-pip-version-check -r requirements-dev.txt
	touch $@

messages: $(VENV)/.installed
	$(PY) -m portal.compile_messages

migrate: $(VENV)/.installed
	$(MANAGE) migrate --verbosity 0

import: migrate
	$(MANAGE) import_quizzes

run: messages import
	$(MANAGE) setup_link --if-no-accounts
	$(MANAGE) runserver $(HOST):$(PORT)

test: $(VENV)/.installed-dev messages
	$(PY) -m pytest

# The static checks CI runs besides the tests.
lint: $(VENV)/.installed-dev
	$(VENV)/bin/ruff check .
	$(VENV)/bin/ruff format --check .
	DJANGO_SETTINGS_MODULE=portal.settings.test $(MANAGE) makemigrations --check --dry-run
	DJANGO_SETTINGS_MODULE=portal.settings.test $(MANAGE) export_mirrors --check

# Production-like serving: production settings, static files collected for whitenoise,
# gunicorn with 2 × CPUs + 1 workers. Needs DJANGO_SECRET_KEY and DJANGO_ALLOWED_HOSTS
# (and DATABASE_URL for PostgreSQL); see the README's "Deploying".
PROD := DJANGO_SETTINGS_MODULE=portal.settings.production
WORKERS ?= $(shell echo $$(( $$(nproc) * 2 + 1 )))
serve: messages
	$(PROD) $(MANAGE) migrate --verbosity 0
	$(PROD) $(MANAGE) import_quizzes
	$(PROD) $(MANAGE) collectstatic --noinput --verbosity 0
	$(PROD) $(MANAGE) setup_link --if-no-accounts
	$(PROD) $(VENV)/bin/gunicorn portal.wsgi --bind $(HOST):$(PORT) --workers $(WORKERS) \
		--access-logfile - --graceful-timeout 20

# `check --deploy` with production settings and stand-in values must print nothing.
check-deploy: $(VENV)/.installed
	$(PROD) DJANGO_SECRET_KEY=ci-$$(head -c 48 /dev/urandom | base64 | tr -d '/+=\n') \
		DJANGO_ALLOWED_HOSTS=portal.example.org \
		$(MANAGE) check --deploy --fail-level WARNING

bench: $(VENV)/.installed-dev
	$(PY) bench/import_bench.py
	$(PY) bench/results_bench.py

clean:
	rm -rf $(VENV) staticfiles .pytest_cache .ruff_cache
