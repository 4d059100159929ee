# Everyday commands. `make run` and `make test` work on a fresh machine: they build the
# virtual environment from the pinned requirements first. `make run` (and `make venv`)
# installs what the site needs (requirements.txt, and requirements-build.txt to compile the
# engine); the targets that test and check install the development tools on top
# (requirements-dev.txt: pytest, Playwright, schemathesis, linters, stubs).
VENV := .venv
PY := $(VENV)/bin/python
SITE_STAMP := $(VENV)/.installed-site
DEV_STAMP := $(VENV)/.installed

# The tests run against the real services; these defaults match the machine's own.
TEST_DATABASE_URL ?= postgres://postgres@127.0.0.1:5432/klammern
TEST_REDIS_URL ?= redis://127.0.0.1:6379/0

.PHONY: venv venv-dev engine run demo test fuzz test-fast lint check bench clean

## venv: the site's virtual environment (runtime and engine-compile requirements)
venv: $(SITE_STAMP)

## venv-dev: the same with the test and tooling requirements
venv-dev: $(DEV_STAMP)

$(SITE_STAMP): requirements.txt requirements-build.txt
	test -x $(PY) || "$$(scripts/find-python.sh)" -m venv $(VENV)
	$(PY) -m pip install -q --upgrade pip
	$(PY) -m pip install -q -r requirements.txt -r requirements-build.txt
	touch $(SITE_STAMP)

# requirements-dev.txt includes the other two: one install, and both stamps are current
$(DEV_STAMP): requirements.txt requirements-dev.txt requirements-build.txt
	test -x $(PY) || "$$(scripts/find-python.sh)" -m venv $(VENV)
	$(PY) -m pip install -q --upgrade pip
	$(PY) -m pip install -q -r requirements-dev.txt
	touch $(SITE_STAMP) $(DEV_STAMP)

## engine: the rules engine compiled with mypyc (build/engine-native); skipped when current.
## The sources run as they are without it, only slower (games/engine/native.py).
engine: venv
	$(PY) scripts/build_engine.py

## run: the site on SQLite with Celery in-process and a demo club, at http://127.0.0.1:8000
run: venv
	$(PY) scripts/build_engine.py || echo "make run: the engine is not compiled; it runs interpreted"
	$(PY) manage.py migrate --noinput
	$(PY) manage.py seed_demo
	$(PY) manage.py analyse_deals  # tasks run in-process here: deals are analysed now, not on entry
	$(PY) manage.py runserver 127.0.0.1:8000

## test: the whole suite against PostgreSQL and Redis (started if they are not running)
## (the engine's own suite runs twice: compiled, with everything else, and interpreted; the
## interpreted pass needs no service and runs beside the main one at a lower CPU priority,
## its output printed when both are done)
test: venv-dev engine
	scripts/services.sh
	scripts/browser.sh
	scripts/nginx.sh
	mkdir -p artifacts
	export DATABASE_URL=$${DATABASE_URL:-$(TEST_DATABASE_URL)} REDIS_URL=$${REDIS_URL:-$(TEST_REDIS_URL)}; \
	KLAMMERN_ENGINE=python nice -n 10 $(PY) -m pytest -q -p no:cacheprovider tests/engine \
		> artifacts/interpreted-engine.log 2>&1 & interpreted=$$!; \
	$(PY) -m pytest -q $(PYTEST_ARGS); main=$$?; \
	wait $$interpreted; engine=$$?; \
	echo "--- the engine's suite, interpreted (KLAMMERN_ENGINE=python) ---"; \
	cat artifacts/interpreted-engine.log; \
	test $$main -eq 0 && test $$engine -eq 0

## fuzz: the schemathesis suite with many random examples (about 5 minutes; not in CI)
fuzz: venv-dev engine
	scripts/services.sh
	DATABASE_URL=$${DATABASE_URL:-$(TEST_DATABASE_URL)} REDIS_URL=$${REDIS_URL:-$(TEST_REDIS_URL)} \
		FUZZ_EXAMPLES=$${FUZZ_EXAMPLES:-100} FUZZ_SEQUENCES=$${FUZZ_SEQUENCES:-150} FUZZ_RANDOM=1 \
		$(PY) -m pytest -q -p no:cacheprovider tests/fuzz

## test-fast: the engine and algorithm suites only (no services needed)
test-fast: venv-dev engine
	$(PY) -m pytest -q tests/engine tests/algorithms

lint: venv-dev
	$(VENV)/bin/ruff check .
	$(VENV)/bin/ruff format --check .

check: lint
	$(VENV)/bin/lint-imports
	$(VENV)/bin/mypy --strict games/engine games/profiles
	$(PY) manage.py makemigrations --check --dry-run
	DATABASE_URL=$(TEST_DATABASE_URL) $(PY) manage.py makemigrations --check --dry-run
	DJANGO_DEBUG=0 DJANGO_SECRET_KEY=ci-only-$$(date +%s)-not-a-real-secret-key-0123456789abcdef \
		DJANGO_ALLOWED_HOSTS=klammern.example $(PY) manage.py check --deploy --fail-level WARNING

bench: engine
	$(PY) bench/engine.py
	$(PY) bench/seating.py
	$(PY) bench/standings.py

clean:
	rm -rf $(VENV) build .pytest_cache .mypy_cache .ruff_cache
