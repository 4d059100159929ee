"""Settings come from the environment: local defaults, production, deploy checks."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
PROBE = (
    "import django, json; django.setup(); from django.conf import settings as s; "
    "print(json.dumps({'db': s.DATABASES['default']['ENGINE'], "
    "'name': str(s.DATABASES['default']['NAME']), 'eager': s.CELERY_TASK_ALWAYS_EAGER, "
    "'broker': s.CELERY_BROKER_URL, 'cache': s.CACHES['default']['BACKEND'], "
    "'debug': s.DEBUG, 'ssl': s.SECURE_SSL_REDIRECT, 'lang': s.LANGUAGE_CODE}))"
)
# Settings the probes set themselves, and test-only switches that must not leak into a
# "production" check (the browser tests allow async-unsafe ORM calls in their process).
ENV_NAMES = [
    "DATABASE_URL",
    "REDIS_URL",
    "DJANGO_DEBUG",
    "DJANGO_SECRET_KEY",
    "DJANGO_ALLOWED_HOSTS",
    "DJANGO_ALLOW_ASYNC_UNSAFE",
]


def run(args: list[str], **env: str) -> subprocess.CompletedProcess[str]:
    clean = {k: v for k, v in os.environ.items() if k not in ENV_NAMES}
    clean["DJANGO_SETTINGS_MODULE"] = "klammern_site.settings"
    return subprocess.run(
        [sys.executable, *args],
        cwd=ROOT,
        env={**clean, **env},
        capture_output=True,
        text=True,
        timeout=120,
    )


def probe(**env: str) -> dict[str, object]:
    result = run(["-c", PROBE], **env)
    assert result.returncode == 0, result.stderr
    return json.loads(result.stdout.strip().splitlines()[-1])


def test_local_defaults_sqlite_and_eager_celery() -> None:
    values = probe()
    assert values["db"] == "django.db.backends.sqlite3"
    assert values["name"] == str(ROOT / "db.sqlite3")
    assert values["eager"] is True and values["debug"] is True
    assert values["cache"].endswith("LocMemCache")
    assert values["lang"] == "de"


def test_postgres_and_redis_from_environment() -> None:
    values = probe(DATABASE_URL="postgres://u@db:5432/k", REDIS_URL="redis://r:6379/0")
    assert values["db"] == "django.db.backends.postgresql"
    assert values["eager"] is False and values["broker"] == "redis://r:6379/0"
    assert values["cache"] == "django_redis.cache.RedisCache"


def test_production_needs_a_secret_key() -> None:
    result = run(["-c", PROBE], DJANGO_DEBUG="0")
    assert result.returncode != 0 and "DJANGO_SECRET_KEY" in result.stderr


def test_deploy_check_is_clean_in_production() -> None:
    result = run(
        ["manage.py", "check", "--deploy", "--fail-level", "WARNING"],
        DJANGO_DEBUG="0",
        DJANGO_ALLOWED_HOSTS="klammern.example.org",
        DJANGO_SECRET_KEY="p" + "x9Kq2LmZ7vR4tY8wB3nD6hJ1sF5gA0cE-_pQrStUvWxYz" * 2,
    )
    assert result.returncode == 0, result.stdout + result.stderr
    assert "System check identified no issues" in result.stdout


def test_migrations_are_complete() -> None:
    result = run(["manage.py", "makemigrations", "--check", "--dry-run"])
    assert result.returncode == 0, result.stdout + result.stderr
