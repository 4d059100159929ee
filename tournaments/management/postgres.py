"""The PostgreSQL client tools (``pg_dump``, ``pg_restore``) run for the site's database,
for the backup, restore and app-role commands (``docs/operations.md``).

It passes the connection of a database alias (``DATABASE_URL``) to the tools as libpq's
environment variables (``PGHOST``, ``PGPASSWORD``, ...), never on a command line, where
``ps`` would show the password. It checks that the client tools are at least as new as the
server, as ``pg_dump`` refuses a newer server. It does not choose what to back up or when:
the commands do.
"""

from __future__ import annotations

import os
import re
import shutil
import subprocess
from typing import Any

import psycopg
from django.core.management.base import CommandError
from django.db import connections

#: The tools print their major version like this: ``pg_dump (PostgreSQL) 15.20 (Debian ...)``
_VERSION = re.compile(r"\(PostgreSQL\)\s+(\d+)")


def settings_of(alias: str = "default") -> dict[str, Any]:
    """The alias's connection settings; a CommandError unless it is PostgreSQL."""
    connection = connections[alias]
    if connection.vendor != "postgresql":
        raise CommandError(
            "This command needs PostgreSQL (DATABASE_URL=postgres://...); "
            f"the database is {connection.vendor}."
        )
    return dict(connection.settings_dict)


def libpq_env(database: dict[str, Any], *, name: str | None = None) -> dict[str, str]:
    """The process environment with the database's connection in libpq's variables."""
    env = {k: v for k, v in os.environ.items() if not k.startswith("PG")}
    values = {
        "PGHOST": database.get("HOST") or "",
        "PGPORT": str(database.get("PORT") or ""),
        "PGUSER": database.get("USER") or "",
        "PGPASSWORD": database.get("PASSWORD") or "",
        "PGDATABASE": name or database["NAME"],
    }
    env.update({key: value for key, value in values.items() if value})
    return env


def connect(database: dict[str, Any], *, name: str | None = None) -> psycopg.Connection[Any]:
    """A connection of its own (autocommit) to the database ``name`` of that server."""
    return psycopg.connect(
        host=database.get("HOST") or None,
        port=database.get("PORT") or None,
        user=database.get("USER") or None,
        password=database.get("PASSWORD") or None,
        dbname=name or database["NAME"],
        autocommit=True,
    )


def tool(name: str) -> str:
    """The path of a client tool; a CommandError naming the package when it is missing."""
    path = shutil.which(name)
    if path is None:
        raise CommandError(
            f"{name} is not installed: install PostgreSQL's client tools "
            "(Debian: postgresql-client) of the server's major version or newer."
        )
    return path


def tool_major(name: str) -> int:
    output = subprocess.run([tool(name), "--version"], capture_output=True, text=True, check=True)
    match = _VERSION.search(output.stdout)
    if match is None:
        raise CommandError(f"cannot read the version of {name}: {output.stdout.strip()}")
    return int(match.group(1))


def server_major(alias: str = "default") -> int:
    return int(connections[alias].pg_version) // 10000


def check_tool_version(name: str, alias: str = "default") -> None:
    """``pg_dump`` cannot dump a server of a newer major version: say so before trying."""
    tool_version, server = tool_major(name), server_major(alias)
    if tool_version < server:
        raise CommandError(
            f"{name} {tool_version} cannot work with a PostgreSQL {server} server: "
            f"install postgresql-client-{server} (or newer)."
        )


def run_tool(argv: list[str], *, env: dict[str, str]) -> None:
    """Run a client tool; a CommandError with its own message when it fails."""
    result = subprocess.run(argv, env=env, capture_output=True, text=True)
    if result.returncode != 0:
        raise CommandError(f"{os.path.basename(argv[0])} failed: {result.stderr.strip()}")
