"""Processes and clients for fault tests: a throwaway Redis, gunicorn and a Celery worker
against the test database, and tablet-like clients that retry with the same key.

Everything here runs as a child process of the test and is stopped by its own pid; the
machine's shared PostgreSQL and Redis servers are never stopped or flushed. PostgreSQL
faults only terminate connections to the test database (``terminate_connections``).
"""

from __future__ import annotations

import json
import os
import re
import signal
import socket
import subprocess
import sys
import threading
import time
import urllib.error
import urllib.request
import uuid
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[2]
BIN = Path(sys.executable).parent
RETRYABLE = {429, 500, 502, 503, 504}
RECOMPUTE_LINE = re.compile(
    r"Task tournaments\.tasks\.recompute_standings_task\[(?P<id>[-\w]+)\] (?P<event>\w+)"
)


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


def wait_until(check: Callable[[], bool], *, timeout: float, what: str, every: float = 0.1) -> None:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if check():
            return
        time.sleep(every)
    raise TimeoutError(f"gave up after {timeout:.0f} s waiting for {what}")


def port_open(port: int) -> bool:
    try:
        with socket.create_connection(("127.0.0.1", port), timeout=0.5):
            return True
    except OSError:
        return False


class Child:
    """A child process in its own process group, so that stopping it stops its children
    (gunicorn's and Celery's workers) and nothing else."""

    def __init__(self, name: str, argv: list[str], *, env: dict[str, str], log: Path) -> None:
        self.name, self.argv, self.env, self.log = name, argv, env, log
        self.process: subprocess.Popen[bytes] | None = None

    def start(self) -> None:
        with self.log.open("ab") as out:
            self.process = subprocess.Popen(
                self.argv,
                cwd=ROOT,
                env=self.env,
                stdout=out,
                stderr=subprocess.STDOUT,
                start_new_session=True,
            )

    def kill(self, sig: int = signal.SIGKILL) -> None:
        """Kill the whole group at once (SIGKILL: no chance to ack, flush or clean up)."""
        if self.process is None or self.process.poll() is not None:
            return
        os.killpg(self.process.pid, sig)
        self.process.wait(timeout=30)

    def stop(self) -> None:
        if self.process is None or self.process.poll() is not None:
            return
        os.killpg(self.process.pid, signal.SIGTERM)
        try:
            self.process.wait(timeout=15)
        except subprocess.TimeoutExpired:
            self.kill()

    def tail(self, lines: int = 40) -> str:
        text = self.log.read_text(errors="replace") if self.log.exists() else ""
        return "\n".join(text.splitlines()[-lines:])


class RedisServer(Child):
    """A private redis-server without persistence: killing it loses every queued task,
    like a crashed broker."""

    def __init__(self, workdir: Path) -> None:
        self.port = free_port()
        argv = [
            "redis-server",
            "--bind",
            "127.0.0.1",
            "--port",
            str(self.port),
            "--save",
            "",
            "--appendonly",
            "no",
            "--dir",
            str(workdir),
        ]
        super().__init__("redis", argv, env=dict(os.environ), log=workdir / "redis.log")

    @property
    def url(self) -> str:
        return f"redis://127.0.0.1:{self.port}/0"

    def start(self) -> None:
        super().start()
        wait_until(lambda: port_open(self.port), timeout=15, what="redis-server")


def service_env(*, database_url: str, redis_url: str) -> dict[str, str]:
    env = dict(os.environ)
    env.update(
        {
            "DATABASE_URL": database_url,
            "REDIS_URL": redis_url,
            "DJANGO_DEBUG": "1",
            "DJANGO_LOG_LEVEL": "WARNING",
            "PYTHONUNBUFFERED": "1",
            # Floods are tested elsewhere; here every refusal would only be a retry.
            "THROTTLE_ANON": "100000/min",
            "THROTTLE_USER": "100000/min",
            "THROTTLE_DEVICE": "100000/min",
            "THROTTLE_DEALS": "100000/min",
        }
    )
    return env


class Gunicorn(Child):
    def __init__(self, *, env: dict[str, str], workdir: Path, workers: int = 2) -> None:
        self.port = free_port()
        argv = [
            str(BIN / "gunicorn"),
            "klammern_site.wsgi:application",
            "--config",
            "python:klammern_site.gunicorn_conf",
            "--bind",
            f"127.0.0.1:{self.port}",
            "--workers",
            str(workers),
            "--threads",
            "4",
            "--timeout",
            "60",
            "--graceful-timeout",
            "5",
        ]
        super().__init__("gunicorn", argv, env=env, log=workdir / "gunicorn.log")

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    def start(self) -> None:
        super().start()
        wait_until(lambda: port_open(self.port), timeout=30, what="gunicorn")


class CeleryWorker(Child):
    """A worker with the beat scheduler embedded (``-B``), as one process group. One pool
    process and late acks (prefetch 1): a task the worker logs as received is running."""

    def __init__(self, *, env: dict[str, str], workdir: Path) -> None:
        argv = [
            str(BIN / "celery"),
            "-A",
            "tests.support.celery_app",
            "worker",
            "-B",
            "--schedule",
            str(workdir / "beat-schedule"),
            "--concurrency",
            "1",
            "--loglevel",
            "INFO",
            "--without-mingle",
            "--without-gossip",
        ]
        super().__init__("celery", argv, env=env, log=workdir / "celery.log")

    def count(self, text: str) -> int:
        return self.log.read_text(errors="replace").count(text) if self.log.exists() else 0

    def start(self) -> None:
        already = self.count(" ready.")
        super().start()
        wait_until(lambda: self.count(" ready.") > already, timeout=60, what="the Celery worker")

    def recomputes(self) -> tuple[set[str], set[str]]:
        """Ids of standings recomputes received, and of those that ended."""
        text = self.log.read_text(errors="replace") if self.log.exists() else ""
        received, ended = set(), set()
        for match in RECOMPUTE_LINE.finditer(text):
            (received if match["event"] == "received" else ended).add(match["id"])
        return received, ended

    def kill_mid_recompute(self, *, since: set[str] | None = None, timeout: float = 30) -> None:
        """Wait until a standings recompute received after ``since`` (ids of
        ``recomputes()`` taken earlier; by default: now) is running, let it get into its
        work, then SIGKILL the worker and its beat."""
        before = self.recomputes()[0] if since is None else since

        def running() -> bool:
            received, ended = self.recomputes()
            return bool(received - before - ended)

        wait_until(running, timeout=timeout, what="a standings recompute", every=0.05)
        time.sleep(0.5)  # the test hook makes the recompute last 2 s
        assert running(), "the recompute ended before the kill"
        self.kill()


def terminate_connections(database: str) -> int:
    """Terminate every connection to ``database`` (the test database only) except ours."""
    from django.db import connection

    with connection.cursor() as cursor:
        cursor.execute(
            "SELECT count(pg_terminate_backend(pid)) FROM pg_stat_activity "
            "WHERE datname = %s AND pid <> pg_backend_pid()",
            [database],
        )
        return int(cursor.fetchone()[0])


# --- HTTP clients -----------------------------------------------------------------------


def http(
    method: str,
    url: str,
    *,
    body: Any = None,
    headers: dict[str, str] | None = None,
    timeout: float = 30,
) -> tuple[int, dict[str, str], Any]:
    """One request; connection errors are status 0."""
    data = None if body is None else json.dumps(body).encode()
    request = urllib.request.Request(
        url,
        data=data,
        method=method,
        headers={
            "Content-Type": "application/json",
            "Accept": "application/json",
            **(headers or {}),
        },
    )
    try:
        with urllib.request.urlopen(request, timeout=timeout) as response:
            return response.status, dict(response.headers), parse(response.read())
    except urllib.error.HTTPError as error:
        return error.code, dict(error.headers), parse(error.read())
    except (urllib.error.URLError, ConnectionError, TimeoutError, OSError) as error:
        return 0, {}, {"error": repr(error)}


def parse(raw: bytes) -> Any:
    try:
        return json.loads(raw)
    except ValueError:
        return {"raw": raw[:200].decode(errors="replace")}


@dataclass
class Submission:
    """One deal a tablet enters, with every status it saw until a final answer."""

    match_id: int
    number: int
    record: dict[str, Any]
    key: str = field(default_factory=lambda: str(uuid.uuid4()))
    statuses: list[int] = field(default_factory=list)
    body: Any = None

    @property
    def final(self) -> int:
        return self.statuses[-1] if self.statuses else -1


def submit(base: str, auth: str, item: Submission, *, deadline: float) -> Submission:
    """Enter a deal like a tablet: on a connection error, 5xx or 429 send it again with the
    same Idempotency-Key (after a short back-off) until a final answer or the deadline."""
    url = f"{base}/api/matches/{item.match_id}/deals/{item.number}/"
    headers = {"Authorization": auth, "Idempotency-Key": item.key}
    pause = 0.1
    while True:
        status, response_headers, body = http("POST", url, body=item.record, headers=headers)
        item.statuses.append(status)
        item.body = body
        if (status and status not in RETRYABLE) or time.monotonic() > deadline:
            return item
        retry_after = response_headers.get("Retry-After")
        time.sleep(min(float(retry_after), 2.0) if retry_after else pause)
        pause = min(pause * 2, 1.0)


class Progress:
    """Counts acknowledged deals so a fault can be injected mid-burst, deterministically
    after the first ``n`` acknowledgements rather than after a guessed delay."""

    def __init__(self) -> None:
        self._done = 0
        self._lock = threading.Condition()

    def add(self) -> None:
        with self._lock:
            self._done += 1
            self._lock.notify_all()

    def wait_for(self, n: int, *, timeout: float) -> bool:
        with self._lock:
            return self._lock.wait_for(lambda: self._done >= n, timeout=timeout)


def run_tablet(
    base: str,
    auth: str,
    items: list[Submission],
    progress: Progress,
    *,
    deadline: float,
    pace: float = 0.0,
) -> None:
    for item in items:
        submit(base, auth, item, deadline=deadline)
        progress.add()
        if pace:
            time.sleep(pace)


def burst(
    base: str,
    plan: dict[str, list[Submission]],
    *,
    fault: Callable[[], None],
    after: int,
    budget: float = 60.0,
    pace: float = 0.0,
) -> None:
    """Every tablet enters its deals in its own thread; ``fault`` runs (in this thread)
    once ``after`` deals were acknowledged, while the others are still being sent."""
    deadline = time.monotonic() + budget
    progress = Progress()
    threads = [
        threading.Thread(
            target=run_tablet,
            args=(base, auth, items, progress),
            kwargs={"deadline": deadline, "pace": pace},
            daemon=True,
        )
        for auth, items in plan.items()
    ]
    for thread in threads:
        thread.start()
    if not progress.wait_for(after, timeout=budget):
        raise TimeoutError(f"fewer than {after} deals were acknowledged within {budget:.0f} s")
    fault()
    for thread in threads:
        thread.join(timeout=max(deadline - time.monotonic(), 0) + 35)
    assert not any(thread.is_alive() for thread in threads), "a tablet never got an answer"
