"""Duplicate for every partnership game of four (RULES.md, "Duplicate tournaments",
"Games"): Hamburg, Klaverjas (Rotterdam and Amsterdam), Belote and the Schieber play a
duplicate evening as Klammern does. 8 players at 2 tables play 2 boards; each table's
tablet enters each board through the API; the round is closed; the travellers (board
result, deal points, match points) and the standings equal what this file works out by
hand from the rule book:

- the board result is the deal's score in the game's count: Klaverjas's makers (forehand's
  team) go nat unless their points are more than the defenders' (then the defenders score
  162), Belote's takers go dedans the same way (162 to the defenders), Hamburg counts as
  Klammern (164; a failed game gives the defenders all), the Schieber has no made or
  failed (each team its card points, 157 in all);
- on each board a team scores 2 match points for the other table's team of its direction
  if it scored less, 1 if the same; a player's percentage is of 2 per board.
"""

from __future__ import annotations

import uuid
from collections.abc import Callable
from dataclasses import dataclass
from fractions import Fraction
from typing import Any

import pytest

from games import profiles
from games.models import DealVersion
from tests.conftest import client_for
from tests.support.boards import DuplicateEvent, make_duplicate_event
from tests.support.clients import Client
from tournaments.events import services as tournament_services
from tournaments.events.models import Match, Round
from tournaments.formats.boards import Board
from tournaments.web import selectors

pytestmark = pytest.mark.django_db

#: North-South's card points per (table, board): a clear win, a loss for the makers,
#: and a tie on board 2 that one game makes and another fails.
NS_CARD_POINTS = {(0, 1): 100, (1, 1): 60, (0, 2): 81, (1, 2): 81}


def forehand(board: Board) -> int:
    return (board.dealer + 1) % 4


def klammern_like(board: Board, ns: int) -> dict[str, Any]:
    """An Orgi in the upcard's suit by forehand, ``ns`` of 164 card points to seats 1+3."""
    return {
        "format": "klammern-deal/1",
        "dealer": board.dealer,
        "upcard": board.upcard,
        "contract": {"kind": "orgi", "declarer": forehand(board), "trump": board.upcard[1]},
        "card_points": [ns, 164 - ns],
    }


def klaverjas(board: Board, ns: int) -> dict[str, Any]:
    """Forehand's team plays the upcard's suit (trump turned up); no roem."""
    return {
        "format": "klammern-deal/1",
        "dealer": board.dealer,
        "upcard": board.upcard,
        "contract": {"kind": "klaverjas", "declarer": forehand(board), "trump": board.upcard[1]},
        "card_points": [ns, 162 - ns],
    }


def belote(board: Board, ns: int) -> dict[str, Any]:
    """Forehand takes in the first round (the upcard's suit); no announcements."""
    return {
        "format": "klammern-deal/1",
        "dealer": board.dealer,
        "upcard": board.upcard,
        "contract": {
            "kind": "belote",
            "declarer": forehand(board),
            "trump": board.upcard[1],
            "round": 1,
        },
        "card_points": [ns, 162 - ns],
    }


def schieber(board: Board, ns: int) -> dict[str, Any]:
    """Forehand chooses Hearts; no Weis, no Stöck."""
    return {
        "format": "klammern-deal/1",
        "dealer": board.dealer,
        "contract": {
            "kind": "schieber",
            "chooser": forehand(board),
            "mode": "trump",
            "trump": "H",
            "pushed": False,
        },
        "card_points": [ns, 157 - ns],
    }


def made_or_all(total: int) -> Callable[[Board, int], tuple[int, int]]:
    """The board result of a game with made or failed, by hand: the playing team
    (forehand's) keeps its points when they are more than the other team's, else the
    other team scores all ``total``."""

    def result(board: Board, ns: int) -> tuple[int, int]:
        points = (ns, total - ns)
        playing = forehand(board) % 2
        if points[playing] > points[1 - playing]:
            return points
        return (total, 0) if playing == 1 else (0, total)

    return result


@dataclass(frozen=True)
class Game:
    preset: str
    rules_options: dict[str, Any]
    record: Callable[[Board, int], dict[str, Any]]
    board_result: Callable[[Board, int], tuple[int, int]]
    hand_size: int


GAMES = [
    Game("klammern-hamburg", {}, klammern_like, made_or_all(164), 8),
    Game("klaverjas-rotterdam", {"deals_per_match": 2}, klaverjas, made_or_all(162), 8),
    Game("klaverjas-amsterdam", {"deals_per_match": 2}, klaverjas, made_or_all(162), 8),
    Game("belote", {"deals_per_match": 2}, belote, made_or_all(162), 5),
    Game("schieber", {"deals_per_match": 2}, schieber, lambda b, ns: (ns, 157 - ns), 9),
]


def post(code: str, match: Match, number: int, record: dict[str, Any]) -> None:
    reply = client_for(device_code=code).post(
        f"/api/matches/{match.pk}/deals/{number}/",
        record,
        format="json",
        HTTP_IDEMPOTENCY_KEY=str(uuid.uuid4()),
    )
    assert reply.status_code == 201, reply.json()


def hand_match_points(a: int, b: int) -> tuple[int, int]:
    """Match points of two results of one direction on one board (2 tables)."""
    return (2, 0) if a > b else (0, 2) if a < b else (1, 1)


@pytest.fixture(params=GAMES, ids=[g.preset for g in GAMES])
def game(request: pytest.FixtureRequest) -> Game:
    return request.param


@pytest.fixture
def evening(club_a: Any, organiser: Any, game: Game) -> DuplicateEvent:
    event = make_duplicate_event(
        club=club_a, players=8, deals=2, preset=game.preset, rules_options=game.rules_options
    )
    for table in (0, 1):
        match = Match.objects.get(table=event.tables[table])
        for number in (1, 2):
            record = game.record(event.board(number), NS_CARD_POINTS[(table, number)])
            post(event.codes[table], match, number, record)
    tournament_services.close_round(round_=event.round, force=True)
    event.tournament.refresh_from_db()
    return event


def expected(event: DuplicateEvent, game: Game) -> dict[tuple[int, int], dict[str, Any]]:
    """Per (table, board): the board result and each direction's match points."""
    results = {
        key: game.board_result(event.board(key[1]), ns) for key, ns in NS_CARD_POINTS.items()
    }
    out = {}
    for (table, number), result in results.items():
        other = results[(1 - table, number)]
        ns = hand_match_points(result[0], other[0])[0]
        ew = hand_match_points(result[1], other[1])[0]
        out[(table, number)] = {"points": list(result), "match_points": [ns, ew]}
    return out


def test_the_boards_are_the_games_own(evening: DuplicateEvent, game: Game) -> None:
    profile = profiles.profile_for(game.preset, game.rules_options)
    assert profile.duplicate
    board = evening.board(1)
    assert [len(hand) for hand in board.hands] == [game.hand_size] * 4
    dealt = {card for hand in board.hands for card in hand} | set(board.stock) | {board.upcard}
    dealt.discard("")
    assert len(dealt) == (36 if game.preset == "schieber" else 32)


def test_the_travellers_equal_a_hand_computation(
    evening: DuplicateEvent, game: Game, client: Client
) -> None:
    want = expected(evening, game)
    round_ = Round.objects.get(pk=evening.round.pk)
    assert round_.status == Round.Status.CLOSED
    for number in (1, 2):
        body = client.get(f"/api/rounds/{round_.pk}/boards/{number}/traveller/").json()
        rows = {row["table"]: row for row in body["rows"]}
        assert sorted(rows) == [1, 2]
        for table in (0, 1):
            row = rows[table + 1]
            ns = NS_CARD_POINTS[(table, number)]
            assert row["points"] == want[(table, number)]["points"], (table, number)
            assert row["match_points"] == want[(table, number)]["match_points"], (table, number)
            # the deal points as the hand record shows them: Hamburg's failed game
            # keeps each team's own (its board result gives the defenders all), the
            # points games' score is already after nat or dedans
            deal = [ns, 164 - ns] if game.preset == "klammern-hamburg" else row["points"]
            assert row["deal_points"] == deal, (table, number)
            # a par where the game works one out from the board's hands: Klammern's
            # solver (Hamburg) and Klaverjas's; none for a Belote or Schieber summary
            par, par_deal = row["par"], row["par_deal_points"]
            if game.preset.startswith("klaverjas"):  # the score after nat, roem on top
                assert par == par_deal and sum(par) >= 162 and sum(par) % 10 == 2
            elif game.preset == "klammern-hamburg":  # no melds: 164, all to one if failed
                assert sum(par_deal) == 164 == sum(par)
                assert par == par_deal or 0 in par
            else:
                assert par is None


def test_the_standings_equal_a_hand_computation(evening: DuplicateEvent, game: Game) -> None:
    want = expected(evening, game)
    view = selectors.standings_view(evening.tournament)
    assert view["duplicate"] is True
    by_player = {row["entrant"]: row for row in view["rows"]}
    assert len(by_player) == 8
    for table in (0, 1):
        match = Match.objects.get(table=evening.tables[table])
        seats = dict(match.table.seats.values_list("position", "player_id"))
        for seat, player in seats.items():
            mp = sum(want[(table, number)]["match_points"][seat % 2] for number in (1, 2))
            row = by_player[player]
            assert (row["duplicate_mp"], row["maximum"], row["played"]) == (mp, 4, 2)
            assert Fraction(row["percentage"]).limit_denominator(100) == Fraction(100 * mp, 4)


def test_a_klaverjas_board_turned_up_fixes_trump_at_every_table(
    club_a: Any, organiser: Any
) -> None:
    """Where the club turns trump up, a table that plays the board in another suit is
    refused in words (the upcard and its suit), and nothing is stored; a club that
    plays "verplicht" lets forehand choose."""
    event = make_duplicate_event(
        club=club_a,
        players=8,
        deals=1,
        preset="klaverjas-rotterdam",
        rules_options={"deals_per_match": 1},
    )
    board = event.board(1)
    record = klaverjas(board, 100)
    other = next(s for s in "CSHD" if s != board.upcard[1])
    record.pop("upcard")  # as the sheet sends it: trump only
    record["contract"]["trump"] = other
    match = Match.objects.get(table=event.tables[0])
    reply = client_for(device_code=event.codes[0]).post(
        f"/api/matches/{match.pk}/deals/1/",
        record,
        format="json",
        HTTP_IDEMPOTENCY_KEY=str(uuid.uuid4()),
        HTTP_ACCEPT_LANGUAGE="nl",
    )
    assert reply.status_code == 400, reply.json()
    body = reply.json()
    assert body["code"] == "board_mismatch"
    assert [e["field"] for e in body["errors"]] == ["contract.trump"]
    assert "troef" in body["errors"][0]["message"]
    assert not DealVersion.objects.filter(deal__match=match).exists()
    record["contract"]["trump"] = board.upcard[1]
    post(event.codes[0], match, 1, record)


def test_verplicht_lets_forehand_choose_on_a_board(club_a: Any, organiser: Any) -> None:
    event = make_duplicate_event(
        club=club_a,
        players=8,
        deals=1,
        preset="klaverjas-rotterdam",
        rules_options={"deals_per_match": 1, "trump_by": "forehand"},
    )
    board = event.board(1)
    record = klaverjas(board, 100)
    record.pop("upcard")
    record["contract"]["trump"] = next(s for s in "CSHD" if s != board.upcard[1])
    post(event.codes[0], Match.objects.get(table=event.tables[0]), 1, record)
