"""The embedded default (SQLite, Celery in-process) stores deals through its own code
path: the deal write services use plain PostgreSQL statements there and the ORM on
SQLite. ``simulate_tournament`` on a fresh SQLite database, as a new user would run it,
must store every deal exactly once (retries, duplicates and invalid first tries
included) and end with standings equal to a fresh recompute."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]

pytestmark = pytest.mark.slow


def manage(*args: str, database: Path) -> subprocess.CompletedProcess[str]:
    env = {k: v for k, v in os.environ.items() if k not in ("REDIS_URL", "DJANGO_SETTINGS_MODULE")}
    env["DATABASE_URL"] = f"sqlite:///{database}"
    return subprocess.run(
        [sys.executable, str(ROOT / "manage.py"), *args],
        capture_output=True,
        text=True,
        env=env,
        cwd=ROOT,
        timeout=300,
    )


def test_simulated_tournament_on_sqlite(tmp_path: Path) -> None:
    database = tmp_path / "embedded.sqlite3"
    migrated = manage("migrate", "-v0", database=database)
    assert migrated.returncode == 0, migrated.stderr
    done = manage(
        "simulate_tournament",
        "--players",
        "8",
        "--rounds",
        "2",
        "--deals",
        "3",
        "--seed",
        "3",
        database=database,
    )
    assert done.returncode == 0, done.stdout[-2000:] + done.stderr[-2000:]
    assert "every deal stored exactly once; all checks passed" in done.stdout
