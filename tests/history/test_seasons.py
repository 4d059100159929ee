"""Whole past seasons from the history import (issue 39): the preview names the seasons it
creates, the confirmation creates them (or counts into the club's season of that name),
their season tables and the title's history count the imported evenings as played ones
(hand-computed), they are marked as imported, and removing the import removes the
seasons it created and nothing else."""

from __future__ import annotations

from datetime import date
from typing import Any

import pytest

from tests.conftest import Event
from tests.history.files import HEADER, csv_bytes
from tests.history.played import finish_with_one_game
from tests.history.test_import_api import SMALL, imports_url, upload
from tests.support.clients import APIClient, Client
from tournaments.clubs.models import Club, Player, Season
from tournaments.events.models import Tournament
from tournaments.history.models import HistoryImport, ImportedEvening
from tournaments.results import seasons, snapshots

pytestmark = pytest.mark.django_db

SEASON = [[*HEADER, "season"], *[[*row, "2024/25"] for row in SMALL[1:]]]


def confirm(client: APIClient, club: Club, rows: list[list[Any]]) -> dict[str, Any]:
    preview = upload(client, club, csv_bytes(rows)).json()
    response = client.post(imports_url(club), {"token": preview["token"]}, format="json")
    assert response.status_code == 201, response.content
    return {"preview": preview, "import": response.json()}


def test_the_preview_names_the_season_it_creates(organiser_client: APIClient, club_a: Club) -> None:
    body = upload(organiser_client, club_a, csv_bytes(SEASON)).json()
    assert body["seasons"] == ["2024/25"]
    assert body["new_seasons"] == [
        {"name": "2024/25", "starts_on": "2025-01-10", "ends_on": "2025-01-24", "evenings": 3}
    ]
    assert body["matched_seasons"] == []
    assert not Season.objects.filter(club=club_a).exists()  # nothing written yet


def test_an_imported_season_has_its_table_counted_as_played(
    organiser_client: APIClient, club_a: Club
) -> None:
    done = confirm(organiser_client, club_a, SEASON)
    season = Season.objects.get(club=club_a)
    assert (season.name, season.starts_on, season.ends_on) == (
        "2024/25",
        date(2025, 1, 10),
        date(2025, 1, 24),
    )
    assert done["import"]["created_seasons"] == [{"id": season.pk, "name": "2024/25"}]
    assert set(ImportedEvening.objects.values_list("club_season", flat=True)) == {season.pk}
    # by hand, 2 tournament points per game won: Anna 4 + 0; Bernd 2 + 6; Carla 2 + 2 + 0;
    # Dora 0. Ties on the total by evenings played: Carla (3) before Anna (2).
    table = seasons.season_table(season)
    shown = [(r["name"], r["rank"], r["evenings"], r["total"], r["best"]) for r in table["rows"]]
    assert shown == [
        ("Bernd", 1, 2, 8, 6),
        ("Carla", 2, 3, 4, 2),
        ("Anna", 3, 2, 4, 4),
        ("Dora", 4, 1, 0, 0),
    ]
    assert table["imported"] == 3
    assert [(e["name"], e["imported"], e["tournament"]) for e in table["evenings"]] == [
        ("2024/25 2025-01-10", True, None),
        ("2024/25 2025-01-17", True, None),
        ("2024/25 2025-01-24", True, None),
    ]
    assert table["rows"][0]["scores"] == [2, None, 6]
    # the title's history names the season with each of its evenings
    history = snapshots.compute_club_leaderboards(club_id=club_a.pk)["boss"]["history"]
    assert [(h["tournament_name"], h["imported"]) for h in history] == [
        ("2024/25 2025-01-10", True),
        ("2024/25 2025-01-17", True),
        ("2024/25 2025-01-24", True),
    ]


def test_the_imported_season_shows_where_seasons_show(
    organiser_client: APIClient, club_a: Club, client: Client
) -> None:
    confirm(organiser_client, club_a, SEASON)
    season = Season.objects.get(club=club_a)
    english = {"HTTP_ACCEPT_LANGUAGE": "en"}
    club_page = client.get(f"/clubs/{club_a.slug}/", **english).content.decode()
    assert f'id="season-{season.pk}"' in club_page and "3 of them imported" in club_page
    assert "2024/25 2025-01-24" in club_page  # the title's history
    page = client.get(f"/clubs/{club_a.slug}/seasons/{season.pk}/", **english).content.decode()
    assert "Bernd" in page and "3 of them imported" in page
    german = client.get(f"/clubs/{club_a.slug}/seasons/{season.pk}/", HTTP_ACCEPT_LANGUAGE="de")
    assert "davon 3 übernommen" in german.content.decode()
    csv_body = client.get(f"/clubs/{club_a.slug}/seasons/{season.pk}/table.csv", **english)
    text = csv_body.content.decode("utf-8-sig")
    assert "1: 2024/25 2025-01-10 (imported)" in text
    api = client.get(f"/api/seasons/{season.pk}/table/").json()
    assert [r["name"] for r in api["rows"]] == ["Bernd", "Carla", "Anna", "Dora"]
    for url in (
        f"/clubs/{club_a.slug}/seasons/{season.pk}/print/",
        f"/embed/clubs/{club_a.slug}/seasons/{season.pk}/",
    ):
        assert "Bernd" in client.get(url, **english).content.decode(), url


def test_a_season_of_the_clubs_name_counts_the_imported_evenings_into_it(
    organiser_client: APIClient, club_a: Club, event: Event
) -> None:
    existing = Season.objects.create(
        club=club_a, name="2024/25", starts_on=date(2024, 9, 1), ends_on=date(2025, 6, 30)
    )
    Tournament.objects.filter(pk=event.tournament.pk).update(season=existing)
    finish_with_one_game(event)
    played = seasons.compute_season_table(existing)
    winner = next(r for r in played["rows"] if r["total"])
    name = Player.objects.get(pk=winner["player"]).name
    rows = [[*HEADER, "season"], ["2025-01-10", name, "", "", 3, 2, 40, None, " 2024/25 "]]
    done = confirm(organiser_client, club_a, rows)
    assert done["preview"]["new_seasons"] == [] and done["preview"]["matched_seasons"] == [
        "2024/25"
    ]
    assert Season.objects.filter(club=club_a).count() == 1
    table = seasons.season_table(existing)
    row = next(r for r in table["rows"] if r["player"] == winner["player"])
    assert (row["evenings"], row["total"]) == (2, winner["total"] + 4)
    assert [e["imported"] for e in table["evenings"]] == [True, False]  # by day
    batch = HistoryImport.objects.get(club=club_a)
    assert organiser_client.delete(f"{imports_url(club_a)}{batch.pk}/").status_code == 204
    assert Season.objects.filter(pk=existing.pk).exists()  # the club's own season stays
    assert seasons.compute_season_table(existing)["rows"] == played["rows"]


def test_removing_the_import_removes_the_season_it_created(
    organiser_client: APIClient, club_a: Club
) -> None:
    confirm(organiser_client, club_a, SEASON)
    batch = HistoryImport.objects.get(club=club_a)
    assert organiser_client.delete(f"{imports_url(club_a)}{batch.pk}/").status_code == 204
    assert not Season.objects.filter(club=club_a).exists()
    assert snapshots.compute_club_leaderboards(club_id=club_a.pk)["boss"]["history"] == []


def test_a_created_season_used_since_stays_when_the_import_is_removed(
    organiser_client: APIClient, club_a: Club, event: Event
) -> None:
    confirm(organiser_client, club_a, SEASON)
    season = Season.objects.get(club=club_a)
    Tournament.objects.filter(pk=event.tournament.pk).update(season=season)
    batch = HistoryImport.objects.get(club=club_a)
    assert organiser_client.delete(f"{imports_url(club_a)}{batch.pk}/").status_code == 204
    assert Season.objects.filter(pk=season.pk).exists()
    assert seasons.compute_season_table(season)["imported"] == 0
