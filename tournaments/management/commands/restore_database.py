"""``manage.py restore_database (--file PATH | --dir DIR) --into NAME``: a backup of
``backup_database`` restored with ``pg_restore`` into a new database NAME on the same
server, never over the database the site runs on.

The command creates NAME (it must not exist yet), restores into it in one transaction
(``--single-transaction --exit-on-error``: it is all there or, on any error, the new
database is dropped again) and checks that the deal history's triggers came with it. Table
ownership and privileges are not taken from the backup (``--no-owner --no-privileges``):
the restoring role owns everything, so the backup restores on a fresh server whose roles
differ; ``manage.py setup_app_role`` grants the site's role its privileges again (the
``migrate`` service of docker-compose.yml does it on every start). Switching the site to
the restored database is ``docs/operations.md``'s last step of a restore.
"""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

from django.core.management.base import BaseCommand, CommandError, CommandParser
from django.db import connections

from tournaments.management import postgres
from tournaments.management.commands.backup_database import backups_in

DATABASE_NAME = re.compile(r"^[a-z_][a-z0-9_]{0,62}$")
#: The deal history's guards (games migration 0006): a restore without them is refused.
HISTORY_TRIGGERS = frozenset(
    {
        "klammern_deal_version_guard",
        "klammern_deal_version_no_truncate",
        "klammern_deal_version_successor",
        "klammern_deal_keeps_its_number",
        "klammern_deal_no_truncate",
    }
)
TRIGGERS_SQL = "SELECT tgname FROM pg_trigger WHERE NOT tgisinternal AND tgenabled <> 'D'"


class Command(BaseCommand):
    help = "Restore a backup of backup_database into a new PostgreSQL database."

    def add_arguments(self, parser: CommandParser) -> None:
        source = parser.add_mutually_exclusive_group(required=True)
        source.add_argument("--file", type=Path, help="the backup file")
        source.add_argument("--dir", type=Path, help="restore the newest backup in DIR")
        parser.add_argument("--into", required=True, help="the new database's name")
        parser.add_argument("--database", default="default", help="the database alias")

    def handle(self, *args: Any, **options: Any) -> None:
        name, alias = options["into"], options["database"]
        if not DATABASE_NAME.match(name):
            raise CommandError(
                f"{name!r} is not a database name this command creates: "
                "lower-case letters, digits and _ (at most 63)."
            )
        backup = self.backup_file(options["file"], options["dir"])
        database = postgres.settings_of(alias)
        postgres.check_tool_version("pg_restore", alias)
        self.create(name, alias=alias)
        try:
            postgres.run_tool(
                [
                    postgres.tool("pg_restore"),
                    "--no-password",
                    "--no-owner",
                    "--no-privileges",
                    "--single-transaction",
                    "--exit-on-error",
                    "--dbname",
                    name,
                    str(backup),
                ],
                env=postgres.libpq_env(database, name=name),
            )
            missing = HISTORY_TRIGGERS - self.triggers(database, name)
            if missing:
                raise CommandError(f"the restored database lacks triggers: {sorted(missing)}")
        except BaseException:
            self.drop(name, alias=alias)
            raise
        self.stdout.write(f"restored {backup} into the new database {name}")

    @staticmethod
    def backup_file(file: Path | None, directory: Path | None) -> Path:
        if file is not None:
            if not file.is_file():
                raise CommandError(f"no backup file {file}")
            return file
        assert directory is not None
        backups = backups_in(directory) if directory.is_dir() else []
        if not backups:
            raise CommandError(f"no backup in {directory}")
        return backups[-1]

    @staticmethod
    def create(name: str, *, alias: str) -> None:
        with connections[alias].cursor() as cursor:
            cursor.execute("SELECT 1 FROM pg_database WHERE datname = %s", [name])
            if cursor.fetchone():
                raise CommandError(
                    f"the database {name} exists: restore into a new name, or drop it first."
                )
            cursor.execute(f'CREATE DATABASE "{name}"')

    @staticmethod
    def drop(name: str, *, alias: str) -> None:
        with connections[alias].cursor() as cursor:
            cursor.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')

    @staticmethod
    def triggers(database: dict[str, Any], name: str) -> set[str]:
        """The enabled triggers of the database ``name``, read through a new connection."""
        with postgres.connect(database, name=name) as connection:
            return {row[0] for row in connection.execute(TRIGGERS_SQL).fetchall()}
