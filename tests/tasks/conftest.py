"""A real Celery worker for tests marked ``worker``.

The worker is a ``celery -A klammern_site worker --pool solo`` subprocess in its own
process group, pointed at the pytest-django test database (``DATABASE_URL``) and at a
dedicated Redis database (``WORKER_REDIS_DB``, default 15, flushed before and after each
test) that serves as broker and cache for both the worker and this test process. Tests
use ``transactional_db`` so every write is committed and visible to the worker.
Without Redis these tests skip locally; with ``CI=true`` they fail.
"""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest
import redis
from django.db import connection

from klammern_site.celery import app

ROOT = Path(__file__).resolve().parents[2]
READY_TIMEOUT = 30.0


def worker_redis_url() -> str:
    """The broker this process publishes to (``REDIS_URL``): the worker consumes there."""
    return str(app.conf.broker_url or "")


def database_url() -> str:
    s = connection.settings_dict
    if s["ENGINE"] != "django.db.backends.postgresql":
        if os.environ.get("CI", "").lower() == "true":
            pytest.fail("worker tests need PostgreSQL (DATABASE_URL)")
        pytest.skip("worker tests need PostgreSQL")
    user = s["USER"] or "postgres"
    auth = f"{user}:{s['PASSWORD']}" if s["PASSWORD"] else user
    return f"postgres://{auth}@{s['HOST'] or '127.0.0.1'}:{s['PORT'] or 5432}/{s['NAME']}"


def wait_until(condition: Callable[[], Any], *, timeout: float, what: str) -> Any:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        value = condition()
        if value:
            return value
        time.sleep(0.2)
    raise AssertionError(f"timed out after {timeout:.0f} s waiting for {what}")


class Worker:
    """One worker subprocess; ``kill`` is SIGKILL to its whole process group."""

    def __init__(self, log: Path, env: dict[str, str], command: list[str] | None = None) -> None:
        """Starts ``command`` (the test worker by default) in the project's directory."""
        self.log = log
        command = command or [
            sys.executable,
            "-m",
            "celery",
            "-A",
            "tests.support.celery_app",
            "worker",
            "--pool",
            "solo",
            "--loglevel",
            "INFO",
            "--without-gossip",
            "--without-mingle",
            "--without-heartbeat",
            "-n",
            f"test-{os.getpid()}-{time.monotonic_ns()}@%h",
        ]
        with open(log, "ab") as out:
            self.process = subprocess.Popen(  # noqa: S603 - fixed command
                command,
                cwd=ROOT,
                env=env,
                stdout=out,
                stderr=subprocess.STDOUT,
                start_new_session=True,
            )
        wait_until(self._ready, timeout=READY_TIMEOUT, what=f"{command[:4]} to start ({log})")

    def output(self) -> str:
        return self.log.read_text(errors="replace")

    def _ready(self) -> bool:
        if self.process.poll() is not None:
            raise AssertionError(f"the worker exited early:\n{self.output()[-3000:]}")
        return " ready." in self.output()

    def kill(self) -> None:
        if self.process.poll() is None:
            os.killpg(self.process.pid, signal.SIGKILL)
        self.process.wait(timeout=10)

    def stop(self) -> None:
        if self.process.poll() is None:
            os.killpg(self.process.pid, signal.SIGTERM)
            try:
                self.process.wait(timeout=15)
            except subprocess.TimeoutExpired:
                self.kill()


@pytest.fixture
def worker_redis() -> Iterator[redis.Redis]:
    if not worker_redis_url().startswith("redis"):
        if os.environ.get("CI", "").lower() == "true":
            pytest.fail("worker tests need REDIS_URL in CI")
        pytest.skip("worker tests need REDIS_URL (the broker the worker consumes)")
    client = redis.Redis.from_url(worker_redis_url(), socket_connect_timeout=3)
    try:
        client.ping()
    except redis.RedisError as error:
        if os.environ.get("CI", "").lower() == "true":
            pytest.fail(f"Redis is required in CI: {error}")
        pytest.skip(f"no Redis at {worker_redis_url()}: {error}")
    client.flushdb()
    yield client
    client.flushdb()


@pytest.fixture
def real_celery(worker_redis: redis.Redis, settings: Any) -> Iterator[str]:
    """This process publishes to the worker's Redis database and shares its cache."""
    url = worker_redis_url()
    settings.CACHES = {"default": {"BACKEND": "django_redis.cache.RedisCache", "LOCATION": url}}
    saved = app.conf.task_always_eager
    app.conf.task_always_eager = False
    yield url
    app.conf.task_always_eager = saved


@pytest.fixture
def start_worker(
    real_celery: str, transactional_db: Any, tmp_path: Path
) -> Iterator[Callable[..., Worker]]:
    """``start_worker(**env)`` starts a worker (extra environment variables allowed);
    every worker started is stopped at teardown."""
    workers: list[Worker] = []
    base_env = {
        **os.environ,
        "DATABASE_URL": database_url(),
        "REDIS_URL": real_celery,
        "CONN_MAX_AGE": "0",
        "PYTHONUNBUFFERED": "1",
    }
    base_env.pop("KLAMMERN_TEST_RECOMPUTE_DELAY", None)

    def start(**env: str) -> Worker:
        worker = Worker(tmp_path / f"worker-{len(workers)}.log", {**base_env, **env})
        workers.append(worker)
        return worker

    yield start
    for worker in workers:
        worker.kill()
