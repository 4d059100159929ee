"""docs/operations.md's commands, run as the page shows them, in its order: every
``python manage.py ...`` line of its ``sh`` blocks (the first organiser, the site's
database role, a backup, the restore, the backup before an upgrade), and the SQL of its
``psql`` line that switches the site to the restored database.

What differs from a server, and only this: ``docker compose run|exec [-e VAR] SERVICE``
is left out and the command runs here with that service's ``DATABASE_URL`` (the owner's
for ``migrate`` and ``backup``; its ``APP_DATABASE_URL`` names a role of this test), the
container's ``/backups`` is a temporary directory, and the database names ``klammern``,
``klammern_restored`` and ``klammern_before_restore`` are databases of this test. A
``manage.py`` command the test does not know fails it: a command added to the page must
be added here.
"""

from __future__ import annotations

import os
import re
import secrets
import shlex
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import psycopg
import pytest
from django.db import connection

from tests.support.served import ROOT, database_url
from tournaments.management.commands.backup_database import backups_in

pytestmark = [pytest.mark.slow, pytest.mark.django_db(transaction=True)]

DOC = ROOT / "docs" / "operations.md"
KNOWN = {"createsuperuser", "setup_app_role", "backup_database", "restore_database"}


def shell_lines() -> list[str]:
    """Every line of the page's ``sh`` blocks, continuation lines joined."""
    blocks = re.findall(r"```sh\n(.*?)```", DOC.read_text(), flags=re.DOTALL)
    return [line for b in blocks for line in re.sub(r"\\\n\s*", " ", b).splitlines()]


def manage_commands() -> list[tuple[str, list[str], list[str]]]:
    """(compose service, variables passed with -e, the command from ``python`` on)."""
    found = []
    for line in shell_lines():
        if "manage.py" not in line:
            continue
        words = shlex.split(line)
        start = words.index("python")
        prefix = words[:start]
        assert prefix[:3] in (["docker", "compose", "run"], ["docker", "compose", "exec"]), line
        passed = [prefix[i + 1] for i, w in enumerate(prefix) if w == "-e"]
        found.append((prefix[-1], passed, words[start:]))
    return found


@pytest.fixture
def names() -> Iterator[dict[str, str]]:
    base = connection.settings_dict["NAME"]
    mapping = {
        "klammern_before_restore": f"{base}_before",
        "klammern_restored": f"{base}_restored",
        "klammern": f"{base}_live",
    }

    def drop_all() -> None:
        with connection.cursor() as cursor:
            for name in mapping.values():
                cursor.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')

    drop_all()
    with connection.cursor() as cursor:
        cursor.execute(f'CREATE DATABASE "{mapping["klammern"]}"')  # the site's, to be replaced
    yield mapping
    drop_all()


@pytest.fixture
def app_role() -> Iterator[str]:
    role = f"klammern_app_doc_{secrets.token_hex(4)}"
    yield role
    with connection.cursor() as cursor:
        cursor.execute("SELECT 1 FROM pg_roles WHERE rolname = %s", [role])
        if cursor.fetchone():
            cursor.execute(f'DROP OWNED BY "{role}"')
            cursor.execute(f'DROP ROLE "{role}"')


def renamed(sql: str, names: dict[str, str]) -> str:
    pattern = re.compile(r"\b(" + "|".join(sorted(names, key=len, reverse=True)) + r")\b")
    return pattern.sub(lambda m: names[m.group(1)], sql)


def test_every_command_of_the_page_runs_as_shown(
    names: dict[str, str], app_role: str, tmp_path: Path
) -> None:
    owner_url = database_url(connection.settings_dict)
    commands = manage_commands()
    assert {command[2] for _, _, command in commands} == KNOWN
    backups = tmp_path / "backups"
    for service, passed, command in commands:
        env = {**os.environ, "DATABASE_URL": owner_url}
        env.pop("REDIS_URL", None)
        if "DJANGO_SUPERUSER_PASSWORD" in passed:
            env["DJANGO_SUPERUSER_PASSWORD"] = "doc-test-" + secrets.token_hex(8)
        if service == "migrate":
            env["APP_DATABASE_URL"] = f"postgres://{app_role}:doc-pw@127.0.0.1:5432/klammern"
        argv = [sys.executable, *command[1:]]
        argv = [str(backups) if a == "/backups" else renamed(a, names) for a in argv]
        result = subprocess.run(argv, cwd=ROOT, env=env, capture_output=True, text=True)
        assert result.returncode == 0, f"{command}:\n{result.stdout}\n{result.stderr}"

    # the first organiser, the site's role and two backups (one taken for the upgrade)
    with connection.cursor() as cursor:
        cursor.execute("SELECT is_superuser FROM auth_user WHERE username = 'admin'")
        assert cursor.fetchone() == (True,)
        cursor.execute("SELECT rolcanlogin, rolsuper FROM pg_roles WHERE rolname = %s", [app_role])
        assert cursor.fetchone() == (True, False)
    assert len(backups_in(backups)) >= 1

    # the switch: the restored database takes the site's name
    [switch] = [line for line in shell_lines() if "ALTER DATABASE" in line]
    words = shlex.split(switch)
    statements = [words[i + 1] for i, word in enumerate(words) if word == "-c"]
    assert len(statements) == 2
    with connection.cursor() as cursor:
        for statement in statements:
            cursor.execute(renamed(statement, names))
    live = database_url(connection.settings_dict, name=names["klammern"])
    with psycopg.connect(live) as conn:
        row = conn.execute("SELECT is_superuser FROM auth_user WHERE username = 'admin'")
        assert row.fetchone() == (True,)
        triggers = conn.execute("SELECT count(*) FROM pg_trigger WHERE tgname LIKE 'klammern_%'")
        assert triggers.fetchone() == (5,)
    with connection.cursor() as cursor:
        cursor.execute(
            "SELECT datname FROM pg_database WHERE datname = %s", [names["klammern_before_restore"]]
        )
        assert cursor.fetchone() is not None  # the database before the restore is kept
