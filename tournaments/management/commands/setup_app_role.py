"""``manage.py setup_app_role [--role NAME]``: the PostgreSQL role the site connects as,
created or brought up to date by the role that owns the tables (the one that migrates).

The site's role may read and write rows (``SELECT``, ``INSERT``, ``UPDATE``, ``DELETE`` on
every table, ``USAGE`` on the sequences, and the same on tables later migrations create,
by default privileges) and nothing else: it owns no table, is no superuser and cannot
create roles, databases or objects in the schema. So the deal history's triggers (games
migration 0006) bind it: PostgreSQL refuses it ``ALTER TABLE ... DISABLE TRIGGER``,
``DROP TRIGGER`` and ``SET session_replication_role`` (owner or superuser only), and a
trigger refuses its ``UPDATE`` or ``DELETE`` of the history.

The role and its password come from ``APP_DATABASE_URL`` (the URL the site's processes
get as ``DATABASE_URL``, docker-compose.yml), or ``--role`` names a role without a
password (a server that authenticates otherwise). Run as often as wanted: it changes the
password to the URL's and grants again, also after a restore.
"""

from __future__ import annotations

import re
from typing import Any

import dj_database_url
from django.conf import settings
from django.core.management.base import BaseCommand, CommandError, CommandParser
from django.db import connections

from tournaments.management import postgres

ROLE_NAME = re.compile(r"^[a-z_][a-z0-9_]{0,62}$")
ATTRIBUTES = "LOGIN NOSUPERUSER NOCREATEDB NOCREATEROLE NOREPLICATION NOBYPASSRLS"
ROW_PRIVILEGES = "SELECT, INSERT, UPDATE, DELETE"


def grants(role: str, database: str) -> list[str]:
    """What the site's role gets, in the order it is granted."""
    return [
        "REVOKE CREATE ON SCHEMA public FROM PUBLIC",
        f'GRANT CONNECT, TEMPORARY ON DATABASE "{database}" TO "{role}"',
        f'GRANT USAGE ON SCHEMA public TO "{role}"',
        f'GRANT {ROW_PRIVILEGES} ON ALL TABLES IN SCHEMA public TO "{role}"',
        f'GRANT USAGE, SELECT ON ALL SEQUENCES IN SCHEMA public TO "{role}"',
        f'ALTER DEFAULT PRIVILEGES IN SCHEMA public GRANT {ROW_PRIVILEGES} ON TABLES TO "{role}"',
        f'ALTER DEFAULT PRIVILEGES IN SCHEMA public GRANT USAGE, SELECT ON SEQUENCES TO "{role}"',
    ]


def quoted(text: str) -> str:
    """A string literal (standard_conforming_strings, PostgreSQL's default since 9.1)."""
    if "\x00" in text:
        raise CommandError("a password cannot contain a NUL character")
    return "'" + text.replace("'", "''") + "'"


class Command(BaseCommand):
    help = "Create or update the PostgreSQL role the site connects as (not the tables' owner)."

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("--role", help="the role's name (default: APP_DATABASE_URL's user)")
        parser.add_argument("--database", default="default", help="the database alias")

    def handle(self, *args: Any, role: str | None, database: str, **options: Any) -> None:
        target = postgres.settings_of(database)
        role, password = self.role_and_password(role)
        if not ROLE_NAME.match(role):
            raise CommandError(
                f"{role!r} is not a role name this command creates: "
                "lower-case letters, digits and _ (at most 63)."
            )
        with connections[database].cursor() as cursor:
            self.refuse_owner(cursor, role)
            cursor.execute("SELECT 1 FROM pg_roles WHERE rolname = %s", [role])
            verb = "ALTER" if cursor.fetchone() else "CREATE"
            secret = f" PASSWORD {quoted(password)}" if password else ""
            cursor.execute(f'{verb} ROLE "{role}" {ATTRIBUTES}{secret}')
            for statement in grants(role, target["NAME"]):
                cursor.execute(statement)
        self.stdout.write(
            f"role {role} {'created' if verb == 'CREATE' else 'updated'}: reads and writes "
            f"the rows of {target['NAME']}, owns nothing"
        )

    @staticmethod
    def role_and_password(role: str | None) -> tuple[str, str]:
        if role:
            return role, ""
        if not settings.APP_DATABASE_URL:
            raise CommandError("Set APP_DATABASE_URL (the site's DATABASE_URL) or name --role.")
        url = dj_database_url.parse(settings.APP_DATABASE_URL)
        if not url.get("USER"):
            raise CommandError("APP_DATABASE_URL names no user.")
        return str(url["USER"]), str(url.get("PASSWORD") or "")

    @staticmethod
    def refuse_owner(cursor: Any, role: str) -> None:
        """The site's role must not be the migrating role, a superuser or a table owner."""
        cursor.execute(
            "SELECT current_user = %s, "
            "coalesce((SELECT rolsuper FROM pg_roles WHERE rolname = %s), false), "
            "(SELECT count(*) FROM pg_tables WHERE tableowner = %s)",
            [role, role, role],
        )
        is_current, is_super, owned = cursor.fetchone()
        if is_current or is_super or owned:
            raise CommandError(
                f"{role} owns tables or is a superuser: the site's role must be a role of "
                "its own, different from the one that migrates."
            )
