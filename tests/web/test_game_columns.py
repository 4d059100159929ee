"""Each game's own score columns and words, from its profile: the Klaverjas results CSV
has punten, roem, pit and nat per team (no Klammern small or match points, one column
per heading); the console's match page shows each deal's roem and pit; the Dutch
standings CSV has no German heading; the Dutch public page of a 2/3-player tournament
names its match as the game plays it (not a Liga-Partie)."""

from __future__ import annotations

import csv
import io
from typing import Any

import pytest
from django.conf import settings

from tests.support.clients import Client
from tests.web.test_browser_presets import evening, klaverjas_deal, open_round, post_deal
from tests.web.test_dutch_pages import catalogue
from tournaments.clubs.models import Club
from tournaments.events import services
from tournaments.events.models import Match

pytestmark = pytest.mark.django_db


def in_language(client: Client, language: str) -> Client:
    client.cookies[settings.LANGUAGE_COOKIE_NAME] = language
    return client


def read_csv(client: Client, url: str) -> list[list[str]]:
    response = client.get(url)
    assert response.status_code == 200
    text = response.content.decode("utf-8-sig")
    return list(csv.reader(io.StringIO(text), delimiter=";" if ";" in text[:200] else ","))


def pit_deal(number: int) -> dict[str, Any]:
    """Deal ``number`` in which the makers take all 8 tricks (162:0, pit) with 20 roem."""
    record = klaverjas_deal(number, 1)
    makers = (record["dealer"] + 1) % 2
    points, tricks, roem = [0, 0], [0, 0], [0, 0]
    points[makers], tricks[makers], roem[makers] = 162, 8, 20
    return {**record, "card_points": points, "tricks_won": tricks, "roem": roem}


def nat_deal(number: int) -> dict[str, Any]:
    """Deal ``number`` in which the makers go nat (60 against 102)."""
    record = klaverjas_deal(number, 1)
    makers = (record["dealer"] + 1) % 2
    points = [0, 0]
    points[makers], points[1 - makers] = 60, 102
    return {**record, "card_points": points, "roem": [0, 0]}


@pytest.fixture
def klaverjas(club_a: Club) -> Match:
    tournament = evening(club_a, preset="klaverjas-rotterdam", names=list("ABCDEFGH"), options={})
    tournament.club.organisers.add(*club_a.organisers.all())
    match = open_round(tournament, seed=1).matches.order_by("table__number").first()
    assert match is not None
    _, code = services.issue_device_code(table=match.table)
    post_deal(match, code, 1, pit_deal(1))  # dealer 0: makers are seats 2+4
    post_deal(match, code, 2, nat_deal(2))  # dealer 1: makers are seats 1+3
    return match


def test_the_klaverjas_results_csv_has_points_roem_pit_and_nat(
    klaverjas: Match, web: Client
) -> None:
    url = f"/console/tournaments/{klaverjas.round.tournament_id}/results.csv"
    header, *rows = read_csv(in_language(web, "nl"), url)
    assert len(header) == len(set(header)), header  # no heading twice ("Spel")
    points = [h for h in header if h.startswith(("Punten", "Roem", "Pit", "Nat"))]
    assert points == [
        "Punten plaatsen 1+3",
        "Punten plaatsen 2+4",
        "Roem plaatsen 1+3",
        "Roem plaatsen 2+4",
        "Pit plaatsen 1+3",
        "Pit plaatsen 2+4",
        "Nat plaatsen 1+3",
        "Nat plaatsen 2+4",
    ]
    assert not [h for h in header if "Kleine" in h or "Matchpunten" in h]
    cells = {int(row[2]): row[header.index(points[0]) :] for row in rows}
    assert cells[1] == ["0", "282", "0", "120", "nee", "ja", "nee", "nee"]  # 162 + 20 + pit
    assert cells[2] == ["0", "162", "0", "0", "nee", "nee", "ja", "nee"]  # nat: all to 2+4


def test_the_console_match_page_shows_roem_and_pit(klaverjas: Match, web: Client) -> None:
    body = in_language(web, "nl").get(f"/console/matches/{klaverjas.pk}/").content.decode()
    assert '<td class="num" data-column="roem">0 : 120</td>' in body
    assert '<td class="num" data-column="pit">2+4</td>' in body
    assert '<td class="num" data-column="roem">0 : 0</td>' in body


@pytest.mark.parametrize("preset", ["klammern", "klaverjas-rotterdam", "klammern-3"])
def test_the_dutch_standings_csv_has_no_german_heading(
    club_a: Club, web: Client, preset: str
) -> None:
    tournament = evening(club_a, preset=preset, names=list("ABCDEFGH"), options={})
    url = f"/console/tournaments/{tournament.pk}/standings.csv"
    header = read_csv(in_language(web, "nl"), url)[0]
    german = {text for (_, msgid), text in catalogue("de").items() if text and text != msgid}
    dutch = set(catalogue("nl").values())
    assert not [h for h in header if h in german and h not in dutch], header
    assert "Augen" not in header


@pytest.mark.parametrize("preset", ["klammern-2", "klammern-3"])
def test_the_dutch_public_page_of_a_small_table_game_names_its_match(
    club_a: Club, client: Client, preset: str
) -> None:
    tournament = evening(club_a, preset=preset, names=list("ABCDEF"), options={})
    tournament.is_public = True
    tournament.save(update_fields=["is_public"])
    body = in_language(client, "nl").get(f"/tournaments/{tournament.pk}/").content.decode()
    assert "Liga-Partie" not in body
    assert "een partij tot 500 punten" in body
