# Everything a newcomer needs: `make run` to use the portal, `make test` to check it.
PYTHON ?= python3
VENV := .venv
PY := $(VENV)/bin/python
MANAGE := $(PY) manage.py
HOST ?= 127.0.0.1
PORT ?= 8000

.PHONY: run test lint check-all bench messages migrate import clean

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

bench: $(VENV)/.installed-dev
	$(PY) bench/import_bench.py
	$(PY) bench/results_bench.py

clean:
	rm -rf $(VENV) staticfiles .pytest_cache .ruff_cache
