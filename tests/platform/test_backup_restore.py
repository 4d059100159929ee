"""The restore drill: a database with finished tournaments (a season of club evenings, club
ratings, another game's evening), a league season played through the HTTP API and hand
records is backed up with ``manage.py backup_database`` (the machine's real ``pg_dump``),
restored with ``manage.py restore_database`` (real ``pg_restore``) into a new database,
and the restored one is the same: every table's rows, and what the site serves of it
(standings, league tables and rankings, club tables and ratings, deal lists, hand records,
the public pages), read by a fresh process of the site from each database. The deal
history's triggers are there after the restore and refuse a change, and the restored
database needs no migration.

Also: the retention of ``backup_database`` (by count and age, never the newest, never a
cut-off dump) and its refusals, and the repeating backup of the compose service.
"""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
from datetime import UTC, datetime, timedelta
from io import StringIO
from pathlib import Path
from typing import Any

import psycopg
import pytest
from django.core.management import CommandError, call_command
from django.db import connection

from games.models import DealAnalysis
from tests.support.served import ROOT, database_url, served
from tournaments.clubs.models import Club, Season
from tournaments.events.models import Match, Tournament
from tournaments.leagues.models import Division, League, MatchDay
from tournaments.management.commands.backup_database import backup_name, backups_in, expired
from tournaments.management.commands.restore_database import HISTORY_TRIGGERS
from tournaments.ratings.models import PlayerRating

pytestmark = [pytest.mark.slow, pytest.mark.django_db(transaction=True)]

#: A digest of every row of every table of the public schema, one per table.
TABLE_DIGESTS = """
SELECT format('SELECT %L, count(*), md5(coalesce(string_agg(t::text, %L ORDER BY t::text), %L))
               FROM %I t', tablename, chr(10), '', tablename)
FROM pg_tables WHERE schemaname = 'public' ORDER BY tablename
"""
ANALYSED_DEALS = 12


def digests(url: str) -> dict[str, tuple[int, str]]:
    with psycopg.connect(url, autocommit=True) as conn:
        queries = [row[0] for row in conn.execute(TABLE_DIGESTS).fetchall()]
        return {
            name: (count, digest)
            for name, count, digest in (conn.execute(q).fetchone() for q in queries)
        }


def site_paths() -> list[str]:
    """Everything the drill compares as the site serves it to anyone (the league's
    match-day evenings are not public: their deals count through the league's tables)."""
    paths = []
    for tournament in Tournament.objects.filter(is_public=True).order_by("pk"):
        t = tournament.pk
        paths += [
            f"/api/tournaments/{t}/standings/",
            f"/tournaments/{t}/standings/",
            f"/tournaments/{t}/standings/table/",
        ]
    for club in Club.objects.order_by("pk"):
        paths += [
            f"/api/clubs/{club.pk}/leaderboards/",
            f"/api/clubs/{club.pk}/ratings/",
            f"/clubs/{club.slug}/",
        ]
    for season in Season.objects.select_related("club").order_by("pk"):
        paths.append(f"/clubs/{season.club.slug}/seasons/{season.pk}/")
    for league in League.objects.order_by("pk"):
        paths += [f"/api/leagues/{league.pk}/ranking/", f"/leagues/{league.slug}/"]
    for division in Division.objects.order_by("pk"):
        paths.append(f"/api/divisions/{division.pk}/table/")
    for match in Match.objects.filter(round__tournament__is_public=True).order_by("pk"):
        paths.append(f"/api/matches/{match.pk}/deals/")
    public = PlayerRating.objects.filter(player__registrations__tournament__is_public=True)
    for rating in public.distinct().order_by("pk")[:10]:
        paths.append(f"/api/players/{rating.player_id}/rating-history/")
    analysed = DealAnalysis.objects.filter(
        version__deal__match__round__tournament__is_public=True
    ).select_related("version__deal")
    for analysis in analysed.order_by("pk"):
        deal = analysis.version.deal
        paths += [
            f"/matches/{deal.match_id}/deals/{deal.number}/hand/",
            f"/api/matches/{deal.match_id}/deals/{deal.number}/analysis/",
        ]
    return paths


@pytest.fixture
def restored_name() -> Any:
    name = f"{connection.settings_dict['NAME']}_restore"
    drop = f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)'
    with connection.cursor() as cursor:
        cursor.execute(drop)
    yield name
    with connection.cursor() as cursor:
        cursor.execute(drop)


def build_evenings(live_server: Any) -> None:
    """Finished tournaments, a club season and ratings (seed_demo), a league season of two
    clubs through the HTTP API (simulate_league), hand records (analyse_deals)."""
    quiet = {"stdout": StringIO(), "stderr": StringIO()}
    call_command("seed_demo", "--force", **quiet)
    call_command(
        "simulate_league", "--clubs", "2", "--seed", "4", "--base-url", live_server.url, **quiet
    )
    call_command("analyse_deals", "--limit", str(ANALYSED_DEALS), **quiet)
    assert Tournament.objects.filter(status=Tournament.Status.FINISHED).count() >= 3
    assert set(MatchDay.objects.values_list("status", flat=True)) == {MatchDay.Status.FINAL}
    assert PlayerRating.objects.exists() and Season.objects.exists()
    assert DealAnalysis.objects.count() == ANALYSED_DEALS


def test_a_backup_restores_to_the_same_site(
    live_server: Any, restored_name: str, tmp_path: Path
) -> None:
    build_evenings(live_server)
    original = database_url(connection.settings_dict)
    restored = database_url(connection.settings_dict, name=restored_name)

    out = StringIO()
    call_command("backup_database", "--dir", str(tmp_path), "--keep", "3", stdout=out)
    [backup] = backups_in(tmp_path)
    assert f"backup written: {backup}" in out.getvalue()
    call_command("restore_database", "--dir", str(tmp_path), "--into", restored_name, stdout=out)
    assert f"into the new database {restored_name}" in out.getvalue()

    before, after = digests(original), digests(restored)
    assert before["games_dealversion"][0] > 100 and before["games_dealanalysis"][0] > 0
    assert after == before

    paths = site_paths()
    served_before, served_after = served(original, paths), served(restored, paths)
    assert {p: a[0] for p, a in served_before.items()} == dict.fromkeys(paths, 200)
    assert sum("/hand/" in p for p in paths) > 0 and sum("/table/" in p for p in paths) > 0
    assert served_after == served_before

    with psycopg.connect(restored, autocommit=True) as conn:
        names = {r[0] for r in conn.execute("SELECT tgname FROM pg_trigger WHERE tgenabled = 'O'")}
        assert names >= HISTORY_TRIGGERS
        with pytest.raises(psycopg.errors.RaiseException, match="append-only"):
            conn.execute("DELETE FROM games_dealversion")
        with pytest.raises(psycopg.errors.RaiseException, match="truncate"):
            conn.execute("TRUNCATE games_deal CASCADE")
    check = subprocess.run(
        [sys.executable, "manage.py", "migrate", "--check"],
        cwd=ROOT,
        env={**os.environ, "DATABASE_URL": restored},
        capture_output=True,
        text=True,
    )
    assert check.returncode == 0, check.stdout + check.stderr


def test_a_restore_never_overwrites_a_database(tmp_path: Path) -> None:
    call_command("backup_database", "--dir", str(tmp_path), stdout=StringIO())
    existing = connection.settings_dict["NAME"]
    with pytest.raises(CommandError, match=f"the database {existing} exists"):
        call_command("restore_database", "--dir", str(tmp_path), "--into", existing)
    with pytest.raises(CommandError, match="not a database name"):
        call_command("restore_database", "--dir", str(tmp_path), "--into", 'x"; DROP')
    with pytest.raises(CommandError, match="no backup in"):
        call_command("restore_database", "--dir", str(tmp_path / "none"), "--into", "x")


def test_a_broken_backup_leaves_no_database(tmp_path: Path, restored_name: str) -> None:
    broken = tmp_path / backup_name(datetime.now(UTC))
    broken.write_bytes(b"PGDMP not really")
    with pytest.raises(CommandError, match="pg_restore failed"):
        call_command(
            "restore_database", "--file", str(broken), "--into", restored_name, stdout=StringIO()
        )
    with connection.cursor() as cursor:
        cursor.execute("SELECT 1 FROM pg_database WHERE datname = %s", [restored_name])
        assert cursor.fetchone() is None


def test_retention_by_count_and_age_keeps_the_newest(tmp_path: Path) -> None:
    now = datetime(2026, 12, 6, 3, 0, tzinfo=UTC)
    names = [backup_name(now - timedelta(days=d)) for d in (40, 20, 10, 2, 1, 0)]
    for name in [*names, "notes.txt", "klammern-garbage.dump"]:
        (tmp_path / name).write_bytes(b"x")
    backups = backups_in(tmp_path)
    assert [p.name for p in backups] == names  # oldest first; other files are no backups

    assert [p.name for p in expired(backups, keep=4, max_age_days=None, now=now)] == names[:2]
    by_age = expired(backups, keep=None, max_age_days=15, now=now)
    assert [p.name for p in by_age] == names[:2]
    assert [p.name for p in expired(backups, keep=2, max_age_days=5, now=now)] == names[:4]
    # the newest survives any rule, even one that every backup is too old for
    old = backups_in(tmp_path)
    assert [p.name for p in expired(old, keep=None, max_age_days=0.0001, now=now)] == names[:5]


def test_the_command_prunes_after_a_good_backup_only(tmp_path: Path) -> None:
    old = tmp_path / backup_name(datetime.now(UTC) - timedelta(days=30))
    old.write_bytes(b"an old backup")
    call_command("backup_database", "--dir", str(tmp_path), "--keep", "1", stdout=StringIO())
    [kept] = backups_in(tmp_path)
    assert kept != old and not old.exists()
    listing = subprocess.run(["pg_restore", "--list", str(kept)], capture_output=True, text=True)
    assert listing.returncode == 0 and "klammern_deal_version_guard" in listing.stdout
    assert not list(tmp_path.glob(".*partial"))

    with pytest.raises(CommandError, match="--keep must be at least 1"):
        call_command("backup_database", "--dir", str(tmp_path), "--keep", "0")
    missing = database_url(connection.settings_dict, name="no_such_database_klammern")
    failed = subprocess.run(
        [sys.executable, "manage.py", "backup_database", "--dir", str(tmp_path), "--keep", "1"],
        cwd=ROOT,
        env={**os.environ, "DATABASE_URL": missing},
        capture_output=True,
        text=True,
    )
    assert failed.returncode != 0 and "no_such_database_klammern" in failed.stderr
    assert backups_in(tmp_path) == [kept] and not list(tmp_path.glob(".*partial"))


def test_the_service_backs_up_again_and_again(tmp_path: Path) -> None:
    """docker-compose.yml's ``backup`` service: ``--every-hours`` repeats in one process."""
    env = {**os.environ, "DATABASE_URL": database_url(connection.settings_dict)}
    argv = [sys.executable, "manage.py", "backup_database", "--dir", str(tmp_path)]
    child = subprocess.Popen(
        [*argv, "--keep", "2", "--every-hours", str(1.5 / 3600)],
        cwd=ROOT,
        env=env,
        stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT,
        start_new_session=True,
    )
    try:
        deadline = time.monotonic() + 120
        lines: list[bytes] = []

        def done() -> bool:
            written = sum(b"backup written" in x for x in lines)
            return written >= 3 and any(b"old backup deleted" in x for x in lines)

        while time.monotonic() < deadline and not done():
            line = child.stdout.readline() if child.stdout else b""
            if not line:
                break
            lines.append(line)
        assert sum(b"backup written" in x for x in lines) >= 3, b"".join(lines).decode()
        assert any(b"old backup deleted" in x for x in lines)
    finally:
        os.killpg(child.pid, signal.SIGTERM)
        child.wait(timeout=30)
    assert 1 <= len(backups_in(tmp_path)) <= 2
