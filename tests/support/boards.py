"""Duplicate tournaments in tests: a running duplicate tournament with its round drawn and
published, and deal records built from a board's cards (a summary, or a full record in
which every player plays the lowest legal card)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from games import engine
from games.engine.cards import CARD_BY_TEXT, TABLES
from games.engine.play import legal_cards, trick_winner
from tests.factories import PlayerFactory
from tournaments.clubs.models import Club
from tournaments.draw import services as draw
from tournaments.events import services
from tournaments.events.models import Round, Table, Tournament
from tournaments.events.selectors import tournament_board
from tournaments.formats.boards import Board


@dataclass
class DuplicateEvent:
    """A running duplicate tournament of ``players`` single players (changing partners),
    round 1 published, a device code per table."""

    tournament: Tournament
    round: Round
    tables: list[Table]
    codes: list[str]

    def board(self, number: int) -> Board:
        board = tournament_board(self.tournament, round_number=self.round.number, number=number)
        assert board is not None
        return board


def make_duplicate_event(
    *,
    club: Club,
    players: int = 12,
    deals: int = 4,
    preset: str = "klammern",
    rules_options: dict[str, Any] | None = None,
) -> DuplicateEvent:
    """``preset``: the game; ``rules_options`` its options (a points match's length is
    the option ``deals_per_match``)."""
    tournament = services.create_tournament(
        club=club,
        name="Duplicate-Abend",
        slug="duplicate",
        deals_per_match=deals,
        duplicate=True,
        rules_preset=preset,
        rules_options=rules_options or {},
    )
    for _ in range(players):
        registration = services.register_player(tournament=tournament, player=PlayerFactory())
        services.check_in_registration(registration=registration)
    services.start_tournament(tournament=tournament)
    round_ = draw.draw_round(tournament=tournament, seed=11)
    services.publish_round(round_=round_)
    tables = list(round_.tables.order_by("number"))
    codes = [services.issue_device_code(table=table)[1] for table in tables]
    tournament.refresh_from_db()
    return DuplicateEvent(tournament, round_, tables, codes)


def board_summary(
    board: Board, *, team0_points: int, declarer: int | None = None, **extra: Any
) -> dict[str, Any]:
    """A summary of the board: an Orgi in the upcard's suit by ``declarer`` (forehand
    unless given), ``team0_points`` of the 164 card points to seats 1+3."""
    seat = (board.dealer + 1) % 4 if declarer is None else declarer
    record = {
        "format": "klammern-deal/1",
        "dealer": board.dealer,
        "upcard": board.upcard,
        "contract": {"kind": "orgi", "declarer": seat, "trump": board.upcard[1]},
        "card_points": [team0_points, 164 - team0_points],
    }
    record.update(extra)
    return record


def board_full_record(board: Board, *, hands: list[list[str]] | None = None) -> dict[str, Any]:
    """The board played out in full: forehand plays an Orgi, and every player plays the
    lowest legal card (``hands``: other hands than the board's, to test a refusal)."""
    dealt = hands if hands is not None else [list(hand) for hand in board.hands]
    forehand = (board.dealer + 1) % 4
    trump = "CSHD".index(board.upcard[1])
    options = engine.resolve_rules("klammern")
    masks = [sum(1 << CARD_BY_TEXT[card] for card in hand) for hand in dealt]
    plays: list[str] = []
    seat, trick = forehand, []
    for _ in range(32):
        legal = legal_cards(masks[seat], trick, trump, options)
        card = (legal & -legal).bit_length() - 1
        masks[seat] ^= 1 << card
        plays.append(engine.CARD_TEXT[card])
        trick.append(card)
        if len(trick) < 4:
            seat = (seat + 1) % 4
            continue
        seat = (seat + 1 + trick_winner(trick, TABLES[trump])) % 4
        trick = []
    return {
        "format": "klammern-deal/1",
        "dealer": board.dealer,
        "hands": dealt,
        "upcard": board.upcard,
        "contract": {"kind": "orgi", "declarer": forehand, "trump": board.upcard[1]},
        "plays": plays,
    }
