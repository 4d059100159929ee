"""An upgrade: a database at the previous release's migrations, with data in it, migrated to
today's, and the site serves the same figures after as before.

"The previous release" is the state of ``tournaments`` at ``0022_duplicate`` (commit
5afd845, the duplicate tournaments), every other app as today, and DRF's
``rest_framework.authtoken`` installed, whose one-token-per-user table scripts used then.
The data goes in through today's code (a league season played through the HTTP API,
finished tournaments, a club season, ratings and hand records), since today's models
cannot write at an older schema; what the site serves (standings, league tables and
rankings, club tables and ratings, deal lists, hand records, the public pages) is read by
a fresh process of the site and every table's rows are digested. Then the database is
migrated back to that release (Django unapplies every later migration: the tables and
columns are those 0022 made, with the data in them), DRF's token table is made as DRF's
own migrations made it with a script's token, ``manage.py migrate`` runs as an upgrade
runs it, and everything is read again: the same pages and figures, the same rows, and
the token of the old release still signs its script in (migration 0024 carries it over).

Afterwards the test database is at today's migrations again, whatever happened.
"""

from __future__ import annotations

from collections.abc import Iterator
from io import StringIO
from typing import Any

import pytest
from django.core.management import call_command
from django.db import connection

from games.analysis_services import analyse_deal_version, versions_lacking_analysis
from tests.platform.test_backup_restore import ANALYSED_DEALS, digests, site_paths
from tests.support.clients import APIClient
from tests.support.served import database_url, served
from tournaments.events.models import Tournament
from tournaments.leagues.models import MatchDay

pytestmark = [pytest.mark.slow, pytest.mark.django_db(transaction=True)]

PREVIOUS_RELEASE = ("tournaments", "0022_duplicate")
#: DRF 3.x's ``authtoken`` migrations 0001-0004 as the previous release's database has them.
DRF_TOKEN_TABLE = """
CREATE TABLE authtoken_token (
    key varchar(40) NOT NULL PRIMARY KEY,
    created timestamp with time zone NOT NULL,
    user_id integer NOT NULL UNIQUE REFERENCES auth_user (id) DEFERRABLE INITIALLY DEFERRED
)
"""
OLD_TOKEN = "0123456789abcdef0123456789abcdef01234567"
#: Tables whose rows the upgrade changes on purpose: the migration log, and DRF's tokens
#: (carried over into ``tournaments_apitoken``, then deleted by migration 0024).
CHANGED = {"django_migrations", "authtoken_token", "tournaments_apitoken"}


@pytest.fixture
def at_previous_release(transactional_db: Any) -> Iterator[None]:
    try:
        yield
    finally:
        with connection.cursor() as cursor:
            cursor.execute("DROP TABLE IF EXISTS authtoken_token")
        call_command("migrate", verbosity=0)


def test_an_upgrade_serves_the_same_figures(
    live_server: Any, at_previous_release: None, django_user_model: Any
) -> None:
    quiet = {"stdout": StringIO(), "stderr": StringIO()}
    call_command(
        "simulate_league", "--clubs", "2", "--seed", "6", "--base-url", live_server.url, **quiet
    )
    call_command("seed_demo", "--force", **quiet)
    public = versions_lacking_analysis().filter(deal__match__round__tournament__is_public=True)
    for version_id in list(public[:ANALYSED_DEALS]):
        analyse_deal_version(version_id=version_id)  # hand records of public evenings
    assert Tournament.objects.filter(status=Tournament.Status.FINISHED).count() >= 3
    assert set(MatchDay.objects.values_list("status", flat=True)) == {MatchDay.Status.FINAL}
    script_user = django_user_model.objects.create_user("scoreboard", password="pw")

    url = database_url(connection.settings_dict)
    paths = site_paths()
    before, rows_before = served(url, paths), digests(url)
    assert {p: a[0] for p, a in before.items()} == dict.fromkeys(paths, 200)
    assert sum("/hand/" in p for p in paths) > 0

    call_command("migrate", *PREVIOUS_RELEASE, verbosity=0)
    with connection.cursor() as cursor:
        cursor.execute("SELECT to_regclass('tournaments_apitoken')")
        assert cursor.fetchone() == (None,)  # the previous release's schema
        cursor.execute("SELECT to_regclass('tournaments_historyimport')")
        assert cursor.fetchone() == (None,)
        cursor.execute(DRF_TOKEN_TABLE)
        cursor.execute(
            "INSERT INTO authtoken_token (key, created, user_id) VALUES (%s, now(), %s)",
            [OLD_TOKEN, script_user.pk],
        )

    out = StringIO()
    call_command("migrate", "--noinput", stdout=out)
    assert "Applying tournaments.0025_user_language... OK" in out.getvalue()

    after, rows_after = served(url, paths), digests(url)
    assert after == before
    unchanged = {t: d for t, d in rows_before.items() if t not in CHANGED}
    assert {t: rows_after[t] for t in unchanged} == unchanged
    assert rows_after["authtoken_token"][0] == 0 and "authtoken_token" not in rows_before

    client = APIClient()
    client.credentials(HTTP_AUTHORIZATION=f"Token {OLD_TOKEN}")
    response = client.get("/api/auth/tokens/")
    assert response.status_code == 200, response.content
    assert [t["name"] for t in response.json()["results"]] == ["earlier API token"]
