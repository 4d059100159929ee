"""``manage.py backup_database --dir DIR [--keep N] [--max-age-days D] [--every-hours H]``:
a backup of the site's PostgreSQL database with ``pg_dump`` in its custom format, one file
per run named by the time it started (``klammern-20261206T030000Z.dump``), then the old
backups in DIR thinned out by count and by age.

A dump is written under a temporary name, checked with ``pg_restore --list`` and only then
renamed: a failed or cut-off dump never looks like a backup, and never makes the
retention delete a good one. The newest backup is never deleted. ``--every-hours`` repeats
the backup in this process (docker-compose.yml's ``backup`` service runs it daily); the
restore is ``manage.py restore_database`` (``docs/operations.md``).
"""

from __future__ import annotations

import time
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

from django.core.management.base import BaseCommand, CommandError, CommandParser

from tournaments.management import postgres

PREFIX, SUFFIX = "klammern-", ".dump"
STAMP = "%Y%m%dT%H%M%SZ"


def backup_name(at: datetime) -> str:
    return f"{PREFIX}{at.astimezone(UTC).strftime(STAMP)}{SUFFIX}"


def taken_at(path: Path) -> datetime | None:
    """When the backup named ``path`` was started; None for any other file."""
    name = path.name
    if not (name.startswith(PREFIX) and name.endswith(SUFFIX)):
        return None
    try:
        return datetime.strptime(name[len(PREFIX) : -len(SUFFIX)], STAMP).replace(tzinfo=UTC)
    except ValueError:
        return None


def backups_in(directory: Path) -> list[Path]:
    """The backups in ``directory``, oldest first (their names sort by time)."""
    return sorted(p for p in directory.iterdir() if p.is_file() and taken_at(p) is not None)


def expired(
    backups: list[Path], *, keep: int | None, max_age_days: float | None, now: datetime
) -> list[Path]:
    """Backups beyond the newest ``keep`` or older than ``max_age_days``; never the newest."""
    older = backups[:-1]
    doomed: set[Path] = set()
    if keep is not None:
        doomed.update(older[: max(len(backups) - keep, 0)])
    if max_age_days is not None:
        limit = now - timedelta(days=max_age_days)
        doomed.update(p for p in older if (taken_at(p) or now) < limit)
    return [p for p in older if p in doomed]


class Command(BaseCommand):
    help = "Back up the PostgreSQL database with pg_dump (custom format) and prune old backups."

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("--dir", required=True, type=Path, help="where the backups go")
        parser.add_argument("--keep", type=int, help="keep the newest N backups (N >= 1)")
        parser.add_argument("--max-age-days", type=float, help="delete backups older than this")
        parser.add_argument(
            "--every-hours", type=float, help="repeat every H hours (a service's loop)"
        )
        parser.add_argument("--database", default="default", help="the database alias")

    def handle(self, *args: Any, **options: Any) -> None:
        directory: Path = options["dir"]
        keep, max_age = options["keep"], options["max_age_days"]
        if keep is not None and keep < 1:
            raise CommandError("--keep must be at least 1.")
        if max_age is not None and max_age <= 0:
            raise CommandError("--max-age-days must be more than 0.")
        every = options["every_hours"]
        if every is not None and every <= 0:
            raise CommandError("--every-hours must be more than 0.")
        directory.mkdir(parents=True, exist_ok=True)
        while True:
            started = time.monotonic()
            self.backup(directory, alias=options["database"])
            self.prune(directory, keep=keep, max_age_days=max_age)
            if every is None:
                return
            time.sleep(max(every * 3600 - (time.monotonic() - started), 0))

    def backup(self, directory: Path, *, alias: str) -> Path:
        database = postgres.settings_of(alias)
        postgres.check_tool_version("pg_dump", alias)
        target = directory / backup_name(datetime.now(UTC))
        partial = target.with_name(f".{target.name}.partial")
        env = postgres.libpq_env(database)
        try:
            postgres.run_tool(
                [postgres.tool("pg_dump"), "--format=custom", "--no-password", "-f", str(partial)],
                env=env,
            )
            postgres.run_tool([postgres.tool("pg_restore"), "--list", str(partial)], env=env)
            partial.rename(target)
        finally:
            partial.unlink(missing_ok=True)
        size = target.stat().st_size
        self.stdout.write(f"backup written: {target} ({size} bytes)")
        return target

    def prune(self, directory: Path, *, keep: int | None, max_age_days: float | None) -> None:
        backups = backups_in(directory)
        now = datetime.now(UTC)
        for path in expired(backups, keep=keep, max_age_days=max_age_days, now=now):
            path.unlink()
            self.stdout.write(f"old backup deleted: {path}")
