# Everything a newcomer needs: `make run` to use the portal, `make test` to check it.
PYTHON ?= python3
VENV := .venv
PY := $(VENV)/bin/python
MANAGE := $(PY) manage.py
HOST ?= 127.0.0.1
PORT ?= 8000
# Links printed by `prepare`, `setup_link` and `invite` name the address actually
# served, unless PORTAL_BASE_URL is set (a deployment behind a proxy sets it).
run debug serve: export PORTAL_BASE_URL ?= http://$(if $(filter 0.0.0.0,$(HOST)),127.0.0.1,$(HOST)):$(PORT)

.PHONY: run debug test lint check-deploy serve soak bench bench-pg messages migrate import clean

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

# `prepare` migrates, imports and prints the setup link in one process (and runs the
# system checks), so runserver can skip them: start-up stays quick. DEBUG is off, so an
# error or a 404 shows the portal's own page, and whitenoise serves the static files:
# safe for a class on a laptop. `make debug` is the same with Django's debug pages and
# static files read afresh on each request.
run: messages
	$(MANAGE) prepare
	$(MANAGE) runserver --skip-checks $(HOST):$(PORT)

debug: export DJANGO_DEBUG = true
debug: messages
	$(MANAGE) prepare
	$(MANAGE) runserver --skip-checks $(HOST):$(PORT)

test: $(VENV)/.installed-dev messages
	$(PY) -m pytest

# The static checks CI runs besides the tests.
lint: $(VENV)/.installed-dev
	$(VENV)/bin/ruff check .
	$(VENV)/bin/ruff format --check .
	DJANGO_SETTINGS_MODULE=portal.settings.test $(MANAGE) makemigrations --check --dry-run
	DJANGO_SETTINGS_MODULE=portal.settings.test $(MANAGE) export_mirrors --check

# Production-like serving: production settings, static files collected for whitenoise,
# gunicorn with 2 × CPUs + 1 workers of 2 threads (gunicorn.conf.py: gthread, access
# log without one-time tokens). Needs DJANGO_SECRET_KEY and DJANGO_ALLOWED_HOSTS
# (and DATABASE_URL for PostgreSQL); see docs/deploying.md.
PROD := DJANGO_SETTINGS_MODULE=portal.settings.production
WORKERS ?= $(shell echo $$(( $$(nproc) * 2 + 1 )))
serve: messages
	$(PROD) $(MANAGE) prepare
	$(PROD) $(MANAGE) collectstatic --noinput --verbosity 0
	$(PROD) $(VENV)/bin/gunicorn portal.wsgi --bind $(HOST):$(PORT) --workers $(WORKERS) \
		--access-logfile -

# `check --deploy` with production settings and stand-in values must find no issue.
check-deploy: $(VENV)/.installed
	$(PROD) DJANGO_SECRET_KEY=ci-$$(head -c 48 /dev/urandom | base64 | tr -d '/+=\n') \
		DJANGO_ALLOWED_HOSTS=portal.example.org \
		$(MANAGE) check --deploy --fail-level WARNING

# 50 learners answering for 60 s against two gunicorn servers on one database, a
# worker of each killed midway, on SQLite and on a throwaway PostgreSQL cluster with a
# throwaway Redis (the cache and sessions the two servers share); one summary line
# each. Not part of `make test`.
SOAK_SECONDS ?= 60
soak: $(VENV)/.installed-dev messages
	$(PY) bench/soak.py --seconds $(SOAK_SECONDS) --label sqlite
	trap '.ci/postgres.sh stop; .ci/redis.sh stop' EXIT && \
		URL=$$(.ci/postgres.sh start) && REDIS=$$(.ci/redis.sh start) && \
		DATABASE_URL=$$URL REDIS_URL=$$REDIS $(PY) bench/soak.py --seconds $(SOAK_SECONDS) \
			--label postgresql+redis

# Serving is measured with wrk (Debian package `wrk`) against a bare Django page.
bench: $(VENV)/.installed-dev
	$(PY) bench/import_bench.py
	$(PY) bench/results_bench.py
	$(PY) bench/memory_bench.py
	$(PY) bench/serve_bench.py
	$(PY) bench/serve_bench.py --topology pg-redis
	$(PY) bench/grading_bench.py
	$(PY) bench/key_limits_bench.py --repeat 3
	$(PY) bench/size_bench.py

# The results and the memory page at 10,000 learners on a throwaway PostgreSQL 15 cluster, on a port of its
# own so it runs beside CI's: ~7 min, mostly generating the data and the CSV export.
BENCH_PG_PORT ?= 54339
bench-pg: $(VENV)/.installed-dev
	export PG_PORT=$(BENCH_PG_PORT) PG_STATE=/tmp/portal-bench-pg-$(BENCH_PG_PORT).dir && \
		URL=$$(.ci/postgres.sh start) && trap '.ci/postgres.sh stop' EXIT && \
		DATABASE_URL=$$URL $(PY) bench/results_bench.py --learners 10000 && \
		DATABASE_URL=$$URL $(PY) bench/memory_bench.py --learners 10000 --reuse-database

clean:
	rm -rf $(VENV) staticfiles .pytest_cache .ruff_cache
