# Everyday commands. `make run` and `make test` work on a fresh machine: they build the
# virtual environment from the pinned requirements first.
VENV := .venv
PY := $(VENV)/bin/python
STAMP := $(VENV)/.installed

# The tests run against the real services; these defaults match the machine's own.
TEST_DATABASE_URL ?= postgres://postgres@127.0.0.1:5432/klammern
TEST_REDIS_URL ?= redis://127.0.0.1:6379/0

.PHONY: venv run demo test test-fast lint check bench clean

venv: $(STAMP)

$(STAMP): requirements.txt requirements-dev.txt
	test -x $(PY) || "$$(scripts/find-python.sh)" -m venv $(VENV)
	$(PY) -m pip install -q --upgrade pip
	$(PY) -m pip install -q -r requirements-dev.txt
	touch $(STAMP)

## run: the site on SQLite with Celery in-process and a demo club, at http://127.0.0.1:8000
run: venv
	$(PY) manage.py migrate --noinput
	$(PY) manage.py seed_demo
	$(PY) manage.py runserver 127.0.0.1:8000

## test: the whole suite against PostgreSQL and Redis (started if they are not running)
test: venv
	scripts/services.sh
	scripts/browser.sh
	DATABASE_URL=$${DATABASE_URL:-$(TEST_DATABASE_URL)} REDIS_URL=$${REDIS_URL:-$(TEST_REDIS_URL)} \
		$(PY) -m pytest -q $(PYTEST_ARGS)

## test-fast: the engine and algorithm suites only (no services needed)
test-fast: venv
	$(PY) -m pytest -q tests/engine tests/algorithms

lint: venv
	$(VENV)/bin/ruff check .

check: lint
	$(VENV)/bin/mypy --strict games/engine
	$(PY) manage.py makemigrations --check --dry-run
	DJANGO_DEBUG=0 DJANGO_SECRET_KEY=ci-only-$$(date +%s)-not-a-real-secret-key-0123456789abcdef \
		DJANGO_ALLOWED_HOSTS=klammern.example $(PY) manage.py check --deploy --fail-level WARNING

bench: venv
	$(PY) bench/engine.py
	$(PY) bench/seating.py
	$(PY) bench/standings.py

clean:
	rm -rf $(VENV) .pytest_cache .mypy_cache .ruff_cache
