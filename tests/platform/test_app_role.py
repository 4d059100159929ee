"""The history guards bind the application: the site connects as a PostgreSQL role that
``manage.py setup_app_role`` made (docker-compose.yml's web and workers), which owns no
table. Connected as that role, PostgreSQL refuses switching the deal history's triggers
off (``ALTER TABLE ... DISABLE TRIGGER``, ``DROP TRIGGER``, ``SET
session_replication_role``, redefining the guard's function, ``TRUNCATE``) and the
triggers refuse its ``UPDATE`` and ``DELETE`` of the history; yet a whole tournament is
played through the HTTP API by a site connected as that role (draws, deal entry with
retries, duplicates and invalid first tries, confirmations, standings).

The role has a name of its own per test run (roles belong to the whole server) and is
dropped afterwards with its privileges.
"""

from __future__ import annotations

import secrets
from collections.abc import Iterator
from io import StringIO
from typing import Any

import psycopg
import pytest
from django.core.management import CommandError, call_command
from django.db import connection

from games.models import Deal, DealVersion
from tests.conftest import make_event
from tests.factories import ClubFactory, summary_record
from tests.support.served import database_url
from tournaments.deals import services as deal_services
from tournaments.events.models import Tournament
from tournaments.simulation.server import local_site

pytestmark = [pytest.mark.slow, pytest.mark.django_db(transaction=True)]

REFUSED_AS_NOT_OWNER = [
    "ALTER TABLE games_dealversion DISABLE TRIGGER ALL",
    "ALTER TABLE games_dealversion DISABLE TRIGGER klammern_deal_version_guard",
    "ALTER TABLE games_deal DISABLE TRIGGER USER",
    "DROP TRIGGER klammern_deal_version_guard ON games_dealversion",
    "ALTER TABLE games_dealversion OWNER TO CURRENT_USER",
    "DROP FUNCTION klammern_deal_version_guard() CASCADE",
]
REFUSED_PRIVILEGE = [
    "CREATE OR REPLACE FUNCTION klammern_history_unlocked() RETURNS boolean "
    "LANGUAGE sql AS $$ SELECT true $$",
    "SET session_replication_role = replica",
    "SELECT set_config('session_replication_role', 'replica', false)",
    "TRUNCATE games_dealversion",
    "CREATE TABLE public.klammern_probe (id int)",
    "CREATE SCHEMA klammern_probe",
    "CREATE ROLE klammern_probe",
]
REFUSED_BY_TRIGGER = [
    "UPDATE games_dealversion SET points_0 = points_0 + 1",
    "UPDATE games_dealversion SET record = '{}'::jsonb",
    "DELETE FROM games_dealversion",
    "UPDATE games_deal SET number = number + 100",
]


@pytest.fixture
def app_role(transactional_db: Any) -> Iterator[str]:
    role = f"klammern_app_test_{secrets.token_hex(4)}"
    call_command("setup_app_role", "--role", role, stdout=StringIO())
    yield role
    with connection.cursor() as cursor:
        cursor.execute(f'DROP OWNED BY "{role}"')
        cursor.execute(f'DROP ROLE "{role}"')


def as_role(role: str) -> psycopg.Connection[Any]:
    """A connection to the test database as ``role`` (the server trusts 127.0.0.1)."""
    url = database_url({**connection.settings_dict, "USER": role, "PASSWORD": ""})
    return psycopg.connect(url, autocommit=True)


def played_deals() -> int:
    club = ClubFactory()
    event = make_event(club=club, players=8, deals=4)
    for number in (1, 2, 3):
        deal_services.submit_deal(
            match=event.match1, number=number, record=summary_record(dealer=(number - 1) % 4)
        )
    return DealVersion.objects.count()


def test_the_app_role_cannot_lift_the_history_guards(app_role: str) -> None:
    versions = played_deals()
    assert versions == 3
    with as_role(app_role) as conn:
        user, is_super = conn.execute(
            "SELECT current_user, rolsuper FROM pg_roles WHERE rolname = current_user"
        ).fetchone()
        assert user == app_role and is_super is False
        for statement in REFUSED_AS_NOT_OWNER:
            with pytest.raises(psycopg.errors.InsufficientPrivilege, match="must be owner"):
                conn.execute(statement)
        for statement in REFUSED_PRIVILEGE:
            with pytest.raises(psycopg.errors.InsufficientPrivilege):
                conn.execute(statement)
        with pytest.raises(psycopg.errors.InsufficientPrivilege), conn.transaction():
            conn.execute("SET LOCAL session_replication_role = replica")
        for statement in REFUSED_BY_TRIGGER:
            with pytest.raises(psycopg.errors.RaiseException, match="klammern: Cannot"):
                conn.execute(statement)
        # the session setting alone lifts nothing (only the transaction's own id does)
        conn.execute("SELECT set_config('klammern.delete_history', 'on', false)")
        with pytest.raises(psycopg.errors.RaiseException, match="append-only"):
            conn.execute("DELETE FROM games_dealversion")
        assert conn.execute("SHOW session_replication_role").fetchone() == ("origin",)
        # ... and it reads and writes rows where the site does
        assert conn.execute("SELECT count(*) FROM games_dealversion").fetchone() == (versions,)
        conn.execute("UPDATE tournaments_tournament SET name = name")
    with connection.cursor() as cursor:
        cursor.execute(
            "SELECT count(*) FROM pg_trigger WHERE tgname LIKE 'klammern_%%' AND tgenabled = 'O'"
        )
        assert cursor.fetchone() == (5,)
    assert DealVersion.objects.count() == versions


def test_a_tournament_is_played_through_a_site_connected_as_the_app_role(
    app_role: str, django_user_model: Any, monkeypatch: pytest.MonkeyPatch, settings: Any
) -> None:
    club = ClubFactory(slug="app-role-club")
    # a hash the child process (the settings' own hashers) can check
    settings.PASSWORD_HASHERS = ["django.contrib.auth.hashers.PBKDF2PasswordHasher"]
    organiser = django_user_model.objects.create_user("app-role-organiser", password="pw-app-1")
    club.organisers.add(organiser)
    app_url = database_url({**connection.settings_dict, "USER": app_role, "PASSWORD": ""})
    monkeypatch.setenv("DATABASE_URL", app_url)
    out = StringIO()
    with local_site(settings.BASE_DIR) as base_url:
        call_command(
            "simulate_tournament",
            *("--players", "8", "--rounds", "2", "--deals", "3", "--seed", "9"),
            *("--chaos", "0.5", "--concurrency", "2", "--base-url", base_url),
            *("--organiser-user", "app-role-organiser", "--organiser-password", "pw-app-1"),
            *("--club", "app-role-club"),
            stdout=out,
            stderr=StringIO(),
        )
    assert "all checks passed" in out.getvalue()
    tournament = Tournament.objects.get(club=club)
    assert tournament.status == Tournament.Status.FINISHED
    # a thrown-in deal is recorded but is no planned deal: one deal more
    assert Deal.objects.filter(match__round__tournament=tournament).count() >= 2 * 2 * 3


def test_the_owner_or_a_superuser_is_no_app_role(transactional_db: Any) -> None:
    owner = connection.settings_dict["USER"]
    with pytest.raises(CommandError, match="owns tables or is a superuser"):
        call_command("setup_app_role", "--role", owner, stdout=StringIO())
    with pytest.raises(CommandError, match="not a role name"):
        call_command("setup_app_role", "--role", 'x"; DROP', stdout=StringIO())


def test_the_role_comes_from_app_database_url(settings: Any, transactional_db: Any) -> None:
    role = f"klammern_app_test_{secrets.token_hex(4)}"
    settings.APP_DATABASE_URL = f"postgres://{role}:it%27s-secret@db:5432/klammern"
    try:
        out = StringIO()
        call_command("setup_app_role", stdout=out)
        call_command("setup_app_role", stdout=out)  # again: updated, not refused
        assert f"role {role} created" in out.getvalue()
        assert f"role {role} updated" in out.getvalue()
        with connection.cursor() as cursor:
            cursor.execute(
                "SELECT rolcanlogin, rolsuper, rolcreaterole, rolcreatedb, rolpassword IS NOT NULL"
                " FROM pg_authid WHERE rolname = %s",
                [role],
            )
            assert cursor.fetchone() == (True, False, False, False, True)
    finally:
        with connection.cursor() as cursor:
            cursor.execute(f'DROP OWNED BY "{role}"')
            cursor.execute(f'DROP ROLE "{role}"')
    settings.APP_DATABASE_URL = ""
    with pytest.raises(CommandError, match="Set APP_DATABASE_URL"):
        call_command("setup_app_role")
