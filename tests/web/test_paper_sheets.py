"""Paper score sheets (issue 23 "Print"): one A4 page per table with the round's players,
the columns the tournament's game counts (from its profile), a row per deal of the match,
and signature lines for both teams or each single player; linked from the console's round
page; in German, English, Dutch and French; organisers only. The finals bracket's print
sheet, linked from the console's pairs page."""

from __future__ import annotations

import re
from typing import Any

import pytest

from tests.support.clients import Client
from tests.web.test_browser_presets import evening, open_round
from tests.web.test_pairs_issue20 import tournament_after_the_final
from tournaments.clubs.models import Club
from tournaments.events.models import Match, Round

pytestmark = pytest.mark.django_db


def sheets_of(client: Client, round_: Round, language: str = "en") -> str:
    response = client.get(
        f"/console/rounds/{round_.pk}/score-sheets/", HTTP_ACCEPT_LANGUAGE=language
    )
    assert response.status_code == 200
    return response.content.decode()


def column_heads(body: str) -> list[str]:
    """The second heading row of the first sheet: the columns of every side."""
    table = body.split('<table class="data score-grid', 1)[1]
    second_row = table.split("<tr>", 3)[2].split("</tr>", 1)[0]
    return re.findall(r"<th title=\"[^\"]*\">([^<]+)</th>", second_row)


def deal_rows(body: str) -> int:
    first = body.split("<tbody>", 1)[1].split("</tbody>", 1)[0]
    return first.count("<tr>")


@pytest.fixture
def klammern(club_a: Club, organiser: Any) -> Round:
    tournament = evening(club_a, preset="klammern", names=list("ABCDEFGH"), options={})
    return open_round(tournament, seed=3)


def test_klammern_sheet_per_table_with_small_and_big_points(klammern: Round, web: Client) -> None:
    body = sheets_of(web, klammern)
    assert body.count('class="sheet score-sheet"') == klammern.tables.count() == 2
    assert column_heads(body) == ["Small points", "Big points"] * 2
    assert deal_rows(body) == klammern.tournament.deals_per_match
    for table in klammern.tables.all():
        for seat in table.seats.all():
            assert seat.player.name in body
    assert body.count("Signature team 1+3") == 2 and body.count("Signature team 2+4") == 2


def test_the_round_page_links_the_sheets(klammern: Round, web: Client) -> None:
    page = web.get(f"/console/rounds/{klammern.pk}/").content.decode()
    assert f"/console/rounds/{klammern.pk}/score-sheets/" in page


@pytest.mark.parametrize(
    ("language", "words"),
    [
        ("de", ["Kleine Punkte", "Große Punkte", "Unterschrift Team 1+3"]),
        ("nl", ["Kleine punten", "Grote punten", "Handtekening team 1+3"]),
        ("fr", ["Petits points", "Grands points", "Signature équipe 1+3"]),
    ],
)
def test_sheets_in_each_language(
    klammern: Round, web: Client, language: str, words: list[str]
) -> None:
    body = sheets_of(web, klammern, language)
    for word in words:
        assert word in body


def test_klaverjas_sheet_has_points_roem_and_pit(club_a: Club, organiser: Any, web: Client) -> None:
    tournament = evening(club_a, preset="klaverjas-rotterdam", names=list("ABCDEFGH"), options={})
    round_ = open_round(tournament, seed=1)
    body = sheets_of(web, round_, "nl")
    assert column_heads(body) == ["Punten", "Roem", "Pit"] * 2
    assert deal_rows(body) == tournament.deals_per_match


def test_belote_sheet_has_points_announcements_and_belote(
    club_a: Club, organiser: Any, web: Client
) -> None:
    tournament = evening(club_a, preset="belote", names=list("ABCDEFGH"), options={})
    body = sheets_of(web, open_round(tournament, seed=1), "fr")
    assert column_heads(body) == ["Points", "Annonces", "Belote"] * 2


def test_three_players_one_column_each_and_a_signature_each(
    club_a: Club, organiser: Any, web: Client
) -> None:
    tournament = evening(club_a, preset="klammern-3", names=list("ABCDEF"), options={})
    round_ = open_round(tournament, seed=1)
    body = sheets_of(web, round_)
    assert column_heads(body) == ["Points"] * 3
    assert "Signature team" not in body
    table = round_.tables.order_by("number").first()
    assert table is not None
    for seat in table.seats.all():
        assert f"Signature {seat.player.name}" in body


def test_other_clubs_organisers_get_no_sheets(klammern: Round, rival: Client) -> None:
    assert rival.get(f"/console/rounds/{klammern.pk}/score-sheets/").status_code == 404


# --- the finals bracket on one A4 page --------------------------------------------------


def test_the_bracket_sheet_shows_every_finals_match_and_is_linked(
    club_a: Club, organiser: Any, web: Client
) -> None:
    tournament = tournament_after_the_final(club_a)
    console_page = web.get(f"/console/tournaments/{tournament.pk}/pairs/").content.decode()
    url = f"/console/tournaments/{tournament.pk}/bracket/print/"
    assert url in console_page
    body = web.get(url, HTTP_ACCEPT_LANGUAGE="de").content.decode()
    slots = set(re.findall(r'data-slot="(\w+)"', body))
    assert slots == set(
        Match.objects.filter(round__tournament=tournament)
        .exclude(bracket_slot="")
        .values_list("bracket_slot", flat=True)
    )
    assert {"SF1", "SF2", "F"} <= slots
    assert "<h1>Finalrunde</h1>" in body  # the sheet in the reader's language


def test_no_bracket_sheet_before_the_finals(klammern: Round, web: Client) -> None:
    url = f"/console/tournaments/{klammern.tournament.pk}/bracket/print/"
    assert web.get(url).status_code == 404
