"""Duplicate tournaments on the pages: two boards played at three tables (numbers worked
by hand below), the standings by percentage (page, projector, CSV), each board's
traveller with its match points (and its par once the round is closed), the dealer's
print page of the boards and the tablet that shows and prefills its board.

Board 1 (dealt by seat 1, so forehand, seat 2, plays for East-West): North-South card
points 60, 70, 60 at tables 1-3, all made by East-West: NS 60 / 70 / 60, EW 104 / 94 /
104. NS match points: table 1 ties table 3 (1) = 1, table 2 beats both = 4, table 3 = 1;
EW: table 1 beats table 2 and ties table 3 = 3, table 2 = 0, table 3 = 3.
Board 2 (dealt by seat 2, forehand seat 3 plays for North-South): NS 100 made, NS 80
failed (the defenders get all 164), NS 90 made: NS 100 / 0 / 90, EW 64 / 164 / 74. NS:
4 / 0 / 2; EW: 0 / 4 / 2.
The evening (top 4 a board, 8 in all): table 1 NS 5 = 62.5 %, EW 3 = 37.5 %; table 2
NS 4 = 50 %, EW 4 = 50 %; table 3 NS 3 = 37.5 %, EW 5 = 62.5 %."""

from __future__ import annotations

import json
import re
from typing import Any

import pytest
from django.conf import settings

from games import engine
from tests.factories import PlayerFactory
from tests.support.boards import DuplicateEvent, board_summary, make_duplicate_event
from tests.support.clients import Client
from tournaments.deals import services
from tournaments.draw import services as draw
from tournaments.events import services as tournament_services
from tournaments.events.models import Match, TeamMember, Tournament
from tournaments.events.selectors import tournament_board
from tournaments.pairs import services as pairs
from tournaments.results import seasons
from tournaments.web import selectors

pytestmark = pytest.mark.django_db

NS_POINTS = {1: (60, 70, 60), 2: (100, 80, 90)}
#: (table, NS match points, EW match points, NS points, EW points) per board, by hand.
BOARD_1 = [(1, 1, 3, 60, 104), (2, 4, 0, 70, 94), (3, 1, 3, 60, 104)]
BOARD_2 = [(1, 4, 0, 100, 64), (2, 0, 4, 0, 164), (3, 2, 2, 90, 74)]
PERCENT = {(1, 0): 62.5, (1, 1): 37.5, (2, 0): 50, (2, 1): 50, (3, 0): 37.5, (3, 1): 62.5}


@pytest.fixture
def evening(club_a: Any, organiser: Any) -> DuplicateEvent:
    event = make_duplicate_event(club=club_a, deals=2)
    for number, points in NS_POINTS.items():
        board = event.board(number)
        for table, ns in zip(event.tables, points, strict=True):
            match = Match.objects.get(table=table)
            services.submit_deal(
                match=match, number=number, record=board_summary(board, team0_points=ns)
            )
    return event


def in_english(client: Client) -> Client:
    client.cookies[settings.LANGUAGE_COOKIE_NAME] = "en"
    return client


def seats(event: DuplicateEvent, table: int) -> list[Any]:
    return [s.player for s in event.tables[table - 1].seats.order_by("position")]


def close(event: DuplicateEvent) -> None:
    tournament_services.close_round(round_=event.round, force=True)


def traveller_url(event: DuplicateEvent, board: int) -> str:
    return f"/tournaments/{event.tournament.pk}/rounds/1/boards/{board}/"


def traveller_rows(body: str) -> list[tuple[int, ...]]:
    """(table, NS points, EW points, NS MP, EW MP) of each row of a traveller page."""
    rows = []
    for table, cells in re.findall(r'<tr data-table="(\d+)">(.*?)</tr>', body, re.S):
        numbers = [
            int(re.search(rf'class="num {name}">(\d+)<', cells).group(1))
            for name in ("ns-points", "ew-points", "ns-mp", "ew-mp")
        ]
        rows.append((int(table), *numbers))
    return rows


# --- standings ------------------------------------------------------------------------


def test_each_player_scores_the_percentage_of_the_team_they_sat_in(
    evening: DuplicateEvent,
) -> None:
    close(evening)
    view = selectors.standings_view(evening.tournament)
    assert view["duplicate"] is True
    assert [c["key"] for c in view["columns"]] == ["percentage", "duplicate_mp"]
    by_player = {row["entrant"]: row for row in view["rows"]}
    for (table, team), percent in PERCENT.items():
        for player in seats(evening, table)[team::2]:
            row = by_player[player.pk]
            assert row["percentage"] == percent
            assert (row["duplicate_mp"], row["maximum"], row["played"]) == (percent * 8 / 100, 8, 2)
    assert [row["percentage"] for row in view["rows"]] == sorted(
        (row["percentage"] for row in view["rows"]), reverse=True
    )
    assert [row["rank"] for row in view["rows"]][:5] == [1, 1, 1, 1, 5]


def test_the_standings_page_and_projector_show_percentages(
    evening: DuplicateEvent, client: Client
) -> None:
    close(evening)
    body = in_english(client).get(f"/tournaments/{evening.tournament.pk}/standings/").content
    text = body.decode()
    assert "Boards played" in text and "62.5" in text and "37.5" in text
    assert f'href="/tournaments/{evening.tournament.pk}/boards/"' in text
    assert "W-D-L" not in text
    projector = client.get(f"/tournaments/{evening.tournament.pk}/projector/").content.decode()
    assert "62.5" in projector


def test_the_standings_csv_has_boards_match_points_and_percentage(
    evening: DuplicateEvent, web: Client
) -> None:
    close(evening)
    response = in_english(web).get(f"/console/tournaments/{evening.tournament.pk}/standings.csv")
    lines = response.content.decode("utf-8-sig").strip().splitlines()
    assert lines[0] == "Rank,Name,Boards,Match points,Maximum,Percentage"
    first = seats(evening, 1)[0]
    assert f"1,{first.name},2,5,8,62.5" in lines


def test_the_standings_count_a_round_only_once_it_is_closed(
    evening: DuplicateEvent, client: Client, django_capture_on_commit_callbacks: Any
) -> None:
    """RULES.md, "Who sees a board when": while other tables may still play a board, no
    page shows how a table did on it, the standings' percentages included."""
    view = selectors.standings_view(evening.tournament)
    assert all(row["percentage"] is None for row in view["rows"])
    text = in_english(client).get(f"/tournaments/{evening.tournament.pk}/standings/").content
    assert b"62.5" not in text and b"37.5" not in text
    with django_capture_on_commit_callbacks(execute=True):
        close(evening)
    evening.tournament.refresh_from_db()
    view = selectors.standings_view(evening.tournament)
    assert sorted(row["percentage"] for row in view["rows"])[-1] == 62.5


# --- travellers -----------------------------------------------------------------------


def test_the_traveller_waits_for_the_close_for_the_public(
    evening: DuplicateEvent, client: Client
) -> None:
    body = in_english(client).get(traveller_url(evening, 1)).content.decode()
    assert "The travellers show once the round is closed." in body
    assert traveller_rows(body) == []


def test_the_organiser_sees_the_traveller_at_once_without_par(
    evening: DuplicateEvent, web: Client
) -> None:
    body = in_english(web).get(traveller_url(evening, 1)).content.decode()
    assert traveller_rows(body) == [(t, ns, ew, nmp, emp) for t, nmp, emp, ns, ew in BOARD_1]
    assert "par-ns" not in body and "The par shows once the round is closed." in body


def test_a_closed_rounds_traveller_shows_match_points_and_par(
    evening: DuplicateEvent, client: Client
) -> None:
    close(evening)
    body = in_english(client).get(traveller_url(evening, 2)).content.decode()
    assert traveller_rows(body) == [(t, ns, ew, nmp, emp) for t, nmp, emp, ns, ew in BOARD_2]
    assert "top 4" in body
    pars = re.findall(r'class="num par-ns">(\d+)</td><td class="num par-ew">(\d+)<', body)
    assert len(pars) == 3
    # the three tables played the same contract (an Orgi by seat 3, for North-South) on
    # the same cards: one par, the solver's card points for North-South, all to
    # East-West if North-South fail under perfect play
    board = evening.board(2)
    masks = [sum(1 << engine.CARD_BY_TEXT[c] for c in hand) for hand in board.hands]
    options = engine.resolve_rules("klammern")
    trump = "CSHD".index(board.upcard[1])
    ns = engine.deal_par(masks, trump=trump, forehand=2, options=options)
    expected = (ns, 164 - ns) if ns > 82 else (0, 164)
    assert {(int(a), int(b)) for a, b in pars} == {expected}
    for player in seats(evening, 1):
        assert player.name in body


def test_a_board_the_round_does_not_have_is_not_found(
    evening: DuplicateEvent, client: Client, web: Client
) -> None:
    close(evening)
    for who in (client, web):
        assert who.get(traveller_url(evening, 3)).status_code == 404
        assert who.get(traveller_url(evening, 0)).status_code == 404
        assert who.get(traveller_url(evening, 2)).status_code == 200


def test_the_traveller_names_the_pairs_first(evening: DuplicateEvent, client: Client) -> None:
    """On a phone the names must not scroll off screen behind the numbers (BridgeWebs
    puts the pairs first): table, North-South, East-West, then contract and scores."""
    close(evening)
    body = client.get(traveller_url(evening, 1)).content.decode()
    row = re.search(r'<tr data-table="1">(.*?)</tr>', body, re.S).group(1)
    classes = re.findall(r'<td class="([^"]*)"', row)
    assert classes[:3] == ["num", "pair ns-pair", "pair ew-pair"]
    north, east = seats(evening, 1)[0], seats(evening, 1)[1]
    assert row.index(north.name) < row.index('class="num ns-points"')
    assert row.index(east.name) < row.index('class="num ns-points"')


def test_the_traveller_names_the_seat_that_revoked(club_a: Any, web: Client) -> None:
    event = make_duplicate_event(club=club_a, deals=1)
    board = event.board(1)
    declarer = (board.dealer + 1) % 4
    revoker = (declarer + 1) % 4
    revoke = {"seat": revoker, "card": board.hands[revoker][0]}
    record = board_summary(board, team0_points=40, revoke=revoke)
    record["card_points"] = [40, 30]
    services.submit_deal(match=Match.objects.get(table=event.tables[0]), number=1, record=record)
    page = in_english(web).get(traveller_url(event, 1)).content.decode()
    row = re.search(r'<tr data-table="1">(.*?)</tr>', page, re.S).group(1)
    text = re.sub(r"\s+", " ", re.sub(r"<[^>]+>", " ", row))
    assert f"revoke: {'NESW'[revoker]}" in text


def test_a_player_who_sat_out_shows_the_bye(club_a: Any, client: Client) -> None:
    """13 players at 3 tables: one sits out round 1. The percentage is of the boards
    played (the bye counts as the average) and the row says so."""
    event = make_duplicate_event(club=club_a, players=13, deals=1)
    board = event.board(1)
    for table, ns in zip(event.tables, NS_POINTS[1], strict=True):
        match = Match.objects.get(table=table)
        services.submit_deal(match=match, number=1, record=board_summary(board, team0_points=ns))
    close(event)
    bye = event.round.byes.get().player
    rows = {row["entrant"]: row for row in selectors.standings_view(event.tournament)["rows"]}
    assert rows[bye.pk]["byes"] == 1 and rows[bye.pk]["played"] == 0
    assert rows[bye.pk]["percentage"] is None
    assert {row["byes"] for pk, row in rows.items() if pk != bye.pk} == {0}
    page = in_english(client).get(f"/tournaments/{event.tournament.pk}/standings/")
    text = page.content.decode()
    name_at = text.index(bye.name)
    assert "1×bye" in text[name_at : name_at + 300]


def test_the_boards_index_links_every_board(evening: DuplicateEvent, client: Client) -> None:
    close(evening)
    body = client.get(f"/tournaments/{evening.tournament.pk}/boards/").content.decode()
    for board in (1, 2):
        assert f'href="{traveller_url(evening, board)}"' in body


def test_a_tournament_without_duplicate_has_no_boards(event: Any, client: Client) -> None:
    assert client.get(f"/tournaments/{event.tournament.pk}/boards/").status_code == 404
    url = f"/tournaments/{event.tournament.pk}/rounds/1/boards/1/"
    assert client.get(url).status_code == 404


# --- the dealer's print page and the tablet ---------------------------------------------


def test_the_print_page_shows_the_four_hands_of_each_board(
    evening: DuplicateEvent, web: Client
) -> None:
    body = in_english(web).get(f"/console/rounds/{evening.round.pk}/boards/").content.decode()
    assert body.count('class="board-diagram"') == 2
    assert body.count('class="board-hand board-') == 8
    board = evening.board(1)
    assert "Upcard" in body and "Dealer: N (Seat 1)" in body
    card = board.hands[2][0]
    rank = "10" if card[0] == "T" else card[0]
    south = re.search(r'board-S" data-seat="3">(.*?)</div>\s*</div>', body, re.S)
    assert south is not None and rank in south.group(1)


def test_the_print_page_is_the_organisers(evening: DuplicateEvent, client: Client) -> None:
    response = client.get(f"/console/rounds/{evening.round.pk}/boards/")
    assert response.status_code == 302


def test_the_print_page_in_german(evening: DuplicateEvent, web: Client) -> None:
    body = web.get(f"/console/rounds/{evening.round.pk}/boards/").content.decode()
    assert "Aufgedeckte Karte" in body and "Geber: N (Sitz 1)" in body
    assert "Nord-Süd (Plätze 1 und 3)" in body


def test_the_tablet_knows_its_boards(evening: DuplicateEvent, client: Client) -> None:
    body = client.get(f"/t/{evening.codes[0]}/").content.decode()
    config = json.loads(re.search(r'id="tablet-config"[^>]*>(.*?)</script>', body, re.S).group(1))
    board = evening.board(1)
    assert config["boards"]["1"] == board.to_dict()
    assert 'data-board-view="1"' in body and 'data-board-view="2"' in body


# --- pairs and seasons ------------------------------------------------------------------


def test_a_pairs_tournament_ranks_each_pair_by_its_percentage(club_a: Any) -> None:
    """Six fixed pairs at three tables play board 1 (the numbers of ``BOARD_1``): each
    pair scores its table's direction: 1 / 4 / 1 of 4 North-South, 3 / 0 / 3 East-West."""
    tournament = tournament_services.create_tournament(
        club=club_a, name="Paare", slug="paare", format="pairs", deals_per_match=1, duplicate=True
    )
    for _ in range(12):
        registration = tournament_services.register_player(
            tournament=tournament, player=PlayerFactory()
        )
        tournament_services.check_in_registration(registration=registration)
    pairs.draw_pairs(tournament=tournament, seed=3)
    tournament_services.start_tournament(tournament=tournament)
    round_ = draw.draw_round(tournament=tournament, seed=5)
    tournament_services.publish_round(round_=round_)
    tournament.refresh_from_db()
    board = tournament_board(tournament, round_number=1, number=1)
    members = TeamMember.objects.filter(team__tournament=tournament)
    team_of = dict(members.values_list("player_id", "team_id"))
    expected = {}
    for table, (number, ns_mp, ew_mp, _, _) in zip(
        round_.tables.order_by("number"), BOARD_1, strict=True
    ):
        match = Match.objects.get(table=table)
        ns = NS_POINTS[1][number - 1]
        services.submit_deal(match=match, number=1, record=board_summary(board, team0_points=ns))
        seated = {s.position: s.player_id for s in table.seats.all()}
        expected[match.home_team_id or team_of[seated[0]]] = ns_mp * 25
        expected[match.away_team_id or team_of[seated[1]]] = ew_mp * 25
    tournament_services.close_round(round_=round_, force=True)
    view = selectors.standings_view(tournament)
    assert {row["entrant"]: row["percentage"] for row in view["rows"]} == expected
    assert len(expected) == 6


def test_a_duplicate_evening_counts_its_percentage_in_the_season(
    evening: DuplicateEvent,
) -> None:
    close(evening)
    points = seasons.evening_points(evening.tournament)
    for (table, team), percent in PERCENT.items():
        for player in seats(evening, table)[team::2]:
            assert points[player.pk] == percent


# --- the console's new tournament ---------------------------------------------------------

NEW_TOURNAMENT = {
    "name": "Doppelabend",
    "format": "individual",
    "match_mode": "deals",
    "rules_preset": "klammern",
    "deals_per_match": 8,
    "liga_target": 51,
    "duplicate": "on",
}


def test_the_console_creates_a_duplicate_tournament(club_a: Any, web: Client) -> None:
    response = web.post("/console/", {**NEW_TOURNAMENT, "club": club_a.pk})
    assert response.status_code == 302
    tournament = Tournament.objects.get(name="Doppelabend")
    assert tournament.duplicate is True
    page = web.get(f"/console/tournaments/{tournament.pk}/").content.decode()
    assert 'id="duplicate-badge"' in page


def test_the_console_says_why_a_liga_partie_cannot_be_duplicate(club_a: Any, web: Client) -> None:
    data = {**NEW_TOURNAMENT, "club": club_a.pk, "match_mode": "liga"}
    response = in_english(web).post("/console/", data)
    assert response.status_code == 200
    assert "A duplicate tournament plays a fixed number of deals" in response.content.decode()
    assert not Tournament.objects.filter(name="Doppelabend").exists()


def test_the_seating_page_says_every_table_plays_the_same_boards(
    evening: DuplicateEvent, client: Client
) -> None:
    body = client.get(f"/tournaments/{evening.tournament.pk}/rounds/1/").content.decode()
    assert "Alle Tische spielen dieselben 2 Boards" in body
    assert f'href="/tournaments/{evening.tournament.pk}/boards/"' in body
    english = in_english(client).get(f"/tournaments/{evening.tournament.pk}/rounds/1/")
    assert "every table plays the same 2 boards" in english.content.decode()
