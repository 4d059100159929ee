"""The site started as a child process on a free loopback port, for runs without a base
URL: ``manage.py runserver --noreload`` with the caller's own settings and database. The
simulation is one organiser and a room of tablets on one machine, so the API's rate
limits are lifted for that child process only (``THROTTLE_*``)."""

from __future__ import annotations

import os
import socket
import subprocess
import sys
import tempfile
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import IO

import requests

UNLIMITED = "1000000/min"
START_TIMEOUT = 60.0


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


@contextmanager
def local_site(base_dir: Path) -> Iterator[str]:
    """Yields the base URL of a running site; stops it afterwards. It serves requests
    in threads even on SQLite: the site's SQLite settings (IMMEDIATE transactions, a
    20-s busy timeout, WAL) make a second writer wait for the first instead of failing
    with "database is locked"."""
    port = free_port()
    # Without REDIS_URL the child runs Celery tasks (the round draw, standings) in-process,
    # so no worker is needed; the database is the caller's own.
    env = {
        **os.environ,
        "THROTTLE_ANON": UNLIMITED,
        "THROTTLE_USER": UNLIMITED,
        "THROTTLE_DEVICE": UNLIMITED,
        "THROTTLE_DEALS": UNLIMITED,
        "DJANGO_LOG_LEVEL": os.environ.get("DJANGO_LOG_LEVEL", "WARNING"),
    }
    env.pop("REDIS_URL", None)
    command = [
        sys.executable,
        str(base_dir / "manage.py"),
        "runserver",
        "--noreload",
        f"127.0.0.1:{port}",
    ]
    with tempfile.TemporaryFile() as log:
        process = subprocess.Popen(command, env=env, stdout=log, stderr=log, cwd=base_dir)
        try:
            url = f"http://127.0.0.1:{port}"
            wait_until_up(url, process, log)
            yield url
        finally:
            process.terminate()
            try:
                process.wait(timeout=10)
            except subprocess.TimeoutExpired:
                process.kill()
                process.wait()


def wait_until_up(url: str, process: subprocess.Popen[bytes], log: IO[bytes]) -> None:
    deadline = time.monotonic() + START_TIMEOUT
    while time.monotonic() < deadline:
        if process.poll() is not None:
            log.seek(0)
            raise RuntimeError(f"the site did not start:\n{log.read().decode()[-2000:]}")
        try:
            if requests.get(f"{url}/api/clubs/", timeout=5).status_code == 200:
                return
        except requests.RequestException:
            pass
        time.sleep(0.2)
    raise RuntimeError(f"the site did not answer within {START_TIMEOUT:.0f} s")
