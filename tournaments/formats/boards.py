"""Duplicate tournaments (RULES.md, "Duplicate tournaments"): the boards of a round and
their scoring by match points.

What it does
- ``deal_board``: board k of a round, dealt by the game's profile from the tournament's
  seed; the same seed, round and board give the same cards on every machine (a
  ``random.Random`` seeded by a string). Its dealer is the one of deal k in the usual
  rotation, so the match's deal k is board k.
- ``board_mismatch``: what of a deal record differs from its board (dealer, upcard and,
  in a full record, the hands), as the deal service refuses it.
- ``score_boards``: each table's match points on each board, per direction
  (North-South = seats 1+3 as people count them, team 0; East-West = seats 2+4, team 1):
  2 for every other team of its direction that scored less on that board, 1 for each
  that scored the same; the maximum is 2 for every other team.
- ``duplicate_standings``: pairs, or single players over the teams they sat in, ranked
  by their match points as a percentage of the maximum.
- ``analysed_par``/``summary_par``: a table's board under perfect play in the contract it
  played, from the stored analysis of a full record or, for a summary, from the board's
  hands (which the platform knows for every table of a duplicate round) where the game's
  profile can work it out (``board_par``); ``par_result`` a par as a board result.

What it does not do
- No Django, no I/O. It does not read a deal's result: the profile's ``board_result``
  says what a team scored on a board, its ``board_hands`` which hands a record of the
  board holds (Belote completes them after the take); the platform passes them in.
"""

from __future__ import annotations

import random
from collections import defaultdict
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from fractions import Fraction
from typing import Any, Protocol

from games.engine import FIRST_DEALER, Options

#: The directions by team (seats 0+2 and 1+3 of the record).
DIRECTIONS = ("NS", "EW")
#: Match points for each other team of the direction that scored less, and the same.
BEATEN = 2
TIED = 1


class Cards(Protocol):
    """A board's cards as a game deals them (``games.profiles.base.BoardCards``)."""

    @property
    def dealer(self) -> int: ...
    @property
    def hands(self) -> tuple[tuple[str, ...], ...]: ...
    @property
    def upcard(self) -> str: ...
    @property
    def stock(self) -> tuple[str, ...]: ...


class Dealer(Protocol):
    """What deals a board's cards (a game profile offering duplicate)."""

    @property
    def players(self) -> int: ...
    def deal_board(self, rng: random.Random, dealer: int) -> Cards: ...


class BoardGame(Protocol):
    """What reads a board in the game's terms (a game profile offering duplicate)."""

    def board_hands(
        self, cards: Any, contract: Mapping[str, Any] | None
    ) -> tuple[tuple[str, ...], ...]: ...
    def board_par(
        self, cards: Any, result: Mapping[str, Any], record: Mapping[str, Any], options: Options
    ) -> tuple[tuple[int, int], str] | None: ...
    def par_board_result(
        self, par: Sequence[int], *, outcome: str, playing_team: int
    ) -> tuple[int, int]: ...
    def board_problems(
        self, cards: Any, record: Mapping[str, Any], options: Options
    ) -> list[tuple[str, str, dict[str, Any]]]: ...


@dataclass(frozen=True)
class Board:
    """Board ``number`` of round ``round``: its dealer, each seat's hand, the upcard (""
    in a game without one) and the cards dealt after the take (Belote; () otherwise)."""

    round: int
    number: int
    dealer: int
    hands: tuple[tuple[str, ...], ...]
    upcard: str
    stock: tuple[str, ...] = ()

    def to_dict(self) -> dict[str, Any]:
        """The board as the tablet's sheet takes it (a record's fields)."""
        return {
            "number": self.number,
            "dealer": self.dealer,
            "hands": [list(hand) for hand in self.hands],
            "upcard": self.upcard,
            "stock": list(self.stock),
        }


def board_dealer(number: int, players: int = 4) -> int:
    """The dealer of deal ``number`` in the usual clockwise rotation."""
    return (FIRST_DEALER + number - 1) % players


def deal_board(game: Dealer, *, seed: int, round_number: int, number: int) -> Board:
    """Board ``number`` of round ``round_number`` of a tournament with ``seed``."""
    if number < 1 or round_number < 1:
        raise ValueError("boards and rounds are numbered from 1")
    rng = random.Random(f"duplicate-board/{seed}/{round_number}/{number}")
    cards = game.deal_board(rng, board_dealer(number, game.players))
    return Board(round_number, number, cards.dealer, cards.hands, cards.upcard, cards.stock)


def round_boards(game: Dealer, *, seed: int, round_number: int, count: int) -> list[Board]:
    """Boards 1 to ``count`` of a round."""
    return [
        deal_board(game, seed=seed, round_number=round_number, number=number)
        for number in range(1, count + 1)
    ]


def board_mismatch(
    board: Board, record: Mapping[str, Any], *, game: BoardGame, options: Options | None = None
) -> list[dict[str, Any]]:
    """One problem per field of ``record`` that differs from the board (the dealer, the
    upcard, each seat's hand of a full record as the game deals it for the record's
    contract, compared as sets; under ``options``, what else the game's board fixes:
    ``board_problems``); [] when it fits."""
    problems = []
    if record.get("dealer") != board.dealer:
        problems.append(
            _problem("dealer", f"the board is dealt by seat {board.dealer}", expected=board.dealer)
        )
    upcard = record.get("upcard")
    if upcard is not None and _card(upcard) != board.upcard:
        problems.append(
            _problem("upcard", f"the board's upcard is {board.upcard}", card=board.upcard)
        )
    hands = record.get("hands")
    if isinstance(hands, list):
        contract = record.get("contract")
        dealt = game.board_hands(board, contract if isinstance(contract, Mapping) else None)
        for seat, hand in enumerate(dealt):
            given = hands[seat] if seat < len(hands) and isinstance(hands[seat], list) else []
            if {_card(card) for card in given} != set(hand):
                problems.append(
                    _problem("hands", f"seat {seat} holds other cards on this board", seat=seat)
                )
    if options is not None:
        for field, message, params in game.board_problems(board, record, options):
            problems.append(_problem(field, message, **params))
    return problems


def _card(text: object) -> str:
    """A card as the board writes it (``10S`` is ``TS``)."""
    card = str(text).upper()
    return "T" + card[2:] if card.startswith("10") else card


def _problem(field: str, message: str, **params: Any) -> dict[str, Any]:
    return {"code": "board_mismatch", "message": message, "field": field, "params": params}


# --- scoring --------------------------------------------------------------------------


@dataclass(frozen=True)
class BoardPlay:
    """One table's result of one board: the entrants of each direction (a pair's id, or
    the two players of a team) and each direction's points (``board_result``)."""

    round: int
    board: int
    table: int
    sides: tuple[tuple[int, ...], tuple[int, ...]]
    points: tuple[int, int]


@dataclass(frozen=True)
class ScoredPlay:
    """A table's board with each direction's match points and their maximum."""

    play: BoardPlay
    match_points: tuple[int, int]
    top: tuple[int, int]


def score_boards(plays: Iterable[BoardPlay]) -> list[ScoredPlay]:
    """Every play with its match points against the other tables of the same round that
    played the same board, direction by direction; in the order given."""
    given = list(plays)
    boards: defaultdict[tuple[int, int], list[BoardPlay]] = defaultdict(list)
    for play in given:
        boards[(play.round, play.board)].append(play)
    return [_scored(play, boards[(play.round, play.board)]) for play in given]


def _scored(play: BoardPlay, board: Sequence[BoardPlay]) -> ScoredPlay:
    others = [other for other in board if other is not play]
    match_points = tuple(
        sum(
            BEATEN if o.points[d] < play.points[d] else TIED if o.points[d] == play.points[d] else 0
            for o in others
        )
        for d in (0, 1)
    )
    top = BEATEN * len(others)
    return ScoredPlay(play, (match_points[0], match_points[1]), (top, top))


@dataclass(frozen=True)
class DuplicateRow:
    """One entrant's evening: boards played, match points, their maximum and the share
    of it in percent (None before a board was compared with another table)."""

    rank: int
    entrant: int
    boards: int
    match_points: int
    maximum: int
    percentage: Fraction | None
    #: Rounds the entrant sat out: they count as the average, as the percentage is of the
    #: boards played only.
    byes: int = 0

    def to_dict(self) -> dict[str, Any]:
        """JSON-ready, with the keys the standings pages read (``played``: boards)."""
        percentage = self.percentage
        return {
            "rank": self.rank,
            "entrant": self.entrant,
            "played": self.boards,
            "boards": self.boards,
            "duplicate_mp": self.match_points,
            "maximum": self.maximum,
            "percentage": None if percentage is None else float(percentage),
            "byes": self.byes,
            "decided_by": None,
        }


def percentage(match_points: int, maximum: int) -> Fraction | None:
    """``match_points`` of ``maximum`` in percent (exact); None for a maximum of 0."""
    return Fraction(100 * match_points, maximum) if maximum else None


def duplicate_standings(
    scored: Iterable[ScoredPlay],
    *,
    entrants: Iterable[int] = (),
    byes: Mapping[int, int] | None = None,
) -> list[DuplicateRow]:
    """Entrants by percentage, then match points (entrants without a compared board
    last); equal on both share a rank. Every entrant of a team is credited with the
    team's match points, so a player's evening sums the teams they sat in. ``byes``:
    the rounds each entrant sat out, shown with its row (a bye scores the average: the
    percentage is of the boards played)."""
    byes = byes or {}
    totals: dict[int, list[int]] = {entrant: [0, 0, 0] for entrant in entrants}
    for item in scored:
        for direction, side in enumerate(item.play.sides):
            for entrant in side:
                total = totals.setdefault(entrant, [0, 0, 0])
                total[0] += 1
                total[1] += item.match_points[direction]
                total[2] += item.top[direction]
    keyed = sorted(totals.items(), key=lambda kv: (*_strength(kv[1]), kv[0]))
    rows: list[DuplicateRow] = []
    for entrant, (boards, points, maximum) in keyed:
        rank = len(rows) + 1
        if rows and _strength([0, rows[-1].match_points, rows[-1].maximum]) == _strength(
            [0, points, maximum]
        ):
            rank = rows[-1].rank
        rows.append(
            DuplicateRow(
                rank,
                entrant,
                boards,
                points,
                maximum,
                percentage(points, maximum),
                byes.get(entrant, 0),
            )
        )
    return rows


def _strength(total: Sequence[int]) -> tuple[int, Fraction, int]:
    """Sort key: entrants with a percentage first, the higher first, then more points."""
    share = percentage(total[1], total[2])
    return (share is None, -(share or Fraction(0)), -total[1])


# --- par --------------------------------------------------------------------------------


@dataclass(frozen=True)
class Par:
    """A table's board under perfect play in the contract it played: each team's deal
    points (melds and Bella as announced) and the outcome for the playing team."""

    points: tuple[int, int]
    outcome: str


def analysed_par(analysis: Mapping[str, Any]) -> Par | None:
    """The par of a full record from its stored analysis (None: not analysed)."""
    if not analysis.get("analysed"):
        return None
    par = analysis.get("par") or [0, 0]
    return Par((int(par[0]), int(par[1])), str(analysis.get("par_outcome", "")))


def summary_par(
    board: Board,
    result: Mapping[str, Any],
    record: Mapping[str, Any],
    *,
    options: Options,
    game: BoardGame,
) -> Par | None:
    """The par of a summary record from its board's hands, as the game's profile works
    it out (``board_par``: Klammern's solver in the record's contract, melds and Bella
    as scored); None where the game cannot say or the deal has no par (thrown in, a
    revoke, no card points)."""
    par = game.board_par(board, result, record, options)
    return None if par is None else Par(par[0], par[1])


def par_result(par: Par, *, playing_team: int, game: BoardGame) -> tuple[int, int]:
    """A par as a board's result, in the game's terms (``par_board_result``: Klammern's
    failed game gives the defenders all the points, as ``board_result`` reads a deal)."""
    return game.par_board_result(par.points, outcome=par.outcome, playing_team=playing_team)
