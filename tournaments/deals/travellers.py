"""Reads for the pages of a duplicate tournament (RULES.md, "Duplicate tournaments"): a
round's boards laid out as bridge hand records (the dealer's print page, the tablet),
and each board's traveller: every table's result of it with the match points of each
direction and, once the round is closed, its par in the contract each table played.

Who sees a traveller: the club's organisers at any time, everyone who may see the
tournament once the round is closed (before that a table still playing the board would
learn the others' results). The par is shown only once the round is closed. Nothing
here writes.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from django.utils.translation import pgettext_lazy

from games import profiles
from games.models import DealAnalysis
from tournaments.clubs.models import Player
from tournaments.clubs.permissions import organises_club
from tournaments.deals.hand_records import DISPLAY_SUITS, card_view
from tournaments.events.models import Match, Round, Team, Tournament
from tournaments.events.selectors import (
    PlayedBoard,
    played_boards,
    round_boards,
    tournament_board,
    tournament_options,
    tournament_profile,
)
from tournaments.formats import boards as duplicate

#: Seats 0-3 as bridge names them: seats 1+3 (as people count) North-South; ``AREAS``
#: places them in the diagram, ``COMPASS`` names them in the reader's language.
AREAS = ("N", "E", "S", "W")
#: A side suit's ranks from the highest (a board is shown before trump is chosen).
SIDE_ORDER = "ATKQJ987"
COMPASS = (
    pgettext_lazy("compass", "N"),
    pgettext_lazy("compass", "E"),
    pgettext_lazy("compass", "S"),
    pgettext_lazy("compass", "W"),
)


def may_see_travellers(user: Any, round_: Round) -> bool:
    """The club's organisers always; everyone else once the round is closed."""
    if organises_club(user, round_.tournament.club_id):
        return True
    return round_.status == Round.Status.CLOSED


def board_view(board: duplicate.Board, profile: profiles.GameProfile) -> dict[str, Any]:
    """A board as a bridge hand record: the dealer, the upcard and the four hands by
    suit (North, East, South, West = seats 1 to 4)."""
    order = SIDE_ORDER if set(profile.ranks) <= set(SIDE_ORDER) else profile.ranks[::-1]
    return {
        "number": board.number,
        "dealer": {"number": board.dealer + 1, "compass": str(COMPASS[board.dealer])},
        "upcard": card_view(board.upcard) if board.upcard else None,
        "hands": [
            {
                "number": seat + 1,
                "area": AREAS[seat],
                "compass": str(COMPASS[seat]),
                "rows": _plain_rows(hand, order),
            }
            for seat, hand in enumerate(board.hands)
        ],
        # Belote: the cards dealt after the take, in order (the taker's first two after
        # the upcard, the others' three each, from forehand)
        "stock": [card_view(card) for card in board.stock],
        "record": board.to_dict(),
    }


def _plain_rows(hand: tuple[str, ...], order: str) -> list[dict[str, Any]]:
    """A hand by suit before trump is known: each suit in its side-suit order (RULES.md,
    Cards: A, 10, K, Q, J, 9, 8, 7; a deck of other ranks high to low, the Schieber's
    A K Q J 10 9 8 7 6)."""
    return [
        {
            "suit": suit,
            "ranks": [
                card_view(c)["rank"]
                for c in sorted((c for c in hand if c[-1] == suit), key=lambda c: order.index(c[0]))
            ],
            "trump": False,
        }
        for suit in DISPLAY_SUITS
    ]


def round_board_views(round_: Round) -> list[dict[str, Any]]:
    """Every board of a round of a duplicate tournament ([] for another tournament)."""
    profile = tournament_profile(round_.tournament)
    return [board_view(board, profile) for board in round_boards(round_)]


def traveller(round_: Round, number: int) -> dict[str, Any]:
    """Board ``number`` of a round: its cards and every table's result of it, with each
    direction's match points and (closed rounds only) par."""
    tournament = round_.tournament
    board = tournament_board(tournament, round_number=round_.number, number=number)
    if board is None:
        return {}
    played = played_boards(tournament, Match.objects.filter(round=round_))
    scored = duplicate.score_boards(item.play for item in played)
    rows = [
        (item, score)
        for item, score in zip(played, scored, strict=True)
        if item.play.board == number
    ]
    closed = round_.status == Round.Status.CLOSED
    pars = _pars(board, [item for item, _ in rows], tournament) if closed else {}
    names = _side_names(tournament, [item for item, _ in rows])
    profile = tournament_profile(tournament)
    return {
        "analysable": profile.analysable,
        "analysis_note": str(profile.analysis_note),
        "board": board_view(board, profile),
        "board_cards": board,
        "closed": closed,
        "rows": [_row(item, score, names, pars, profile) for item, score in rows],
        "par_missing": closed and any(pars.get(item.version) is None for item, _ in rows),
        "top": rows[0][1].top[0] if rows else 0,
    }


def _row(
    item: PlayedBoard,
    score: duplicate.ScoredPlay,
    names: dict[int, str],
    pars: dict[int, BoardPar | None],
    profile: profiles.GameProfile,
) -> dict[str, Any]:
    result, contract = item.result, item.record.get("contract") or {}
    declarer = result.get("declarer")
    revoker = (item.record.get("revoke") or {}).get("seat")
    par = pars.get(item.version)
    return {
        "table": item.play.table,
        "match": item.match,
        "sides": [" & ".join(names.get(e, "?") for e in side) for side in item.play.sides],
        "contract": profile.contract_word(contract.get("kind", "")),
        "contract_kind": contract.get("kind", ""),
        "thrown_in": result.get("outcome") == "thrown_in",
        "trump": result.get("trump") or "",
        "declarer": str(COMPASS[declarer]) if isinstance(declarer, int) else "",
        "declarer_seat": declarer if isinstance(declarer, int) else None,
        "outcome": result.get("outcome", ""),
        "revoker": str(COMPASS[revoker]) if isinstance(revoker, int) else "",
        "number": item.play.board,
        "points": list(item.play.points),
        # the deal's points as the hand record counts them (a failed Klammern game's
        # board result gives the defenders all of them; the deal points do not)
        "deal_points": [int(p) for p in (result.get("points") or [0, 0])],
        "match_points": list(score.match_points),
        "par": list(par.board) if par is not None else None,
        "par_deal_points": list(par.deal) if par is not None else None,
    }


def _side_names(tournament: Tournament, items: list[PlayedBoard]) -> dict[int, str]:
    """Names of the entrants on these tables: pairs, or players as the public sees them."""
    ids = {entrant for item in items for side in item.play.sides for entrant in side}
    if tournament.uses_teams:
        return dict(Team.objects.filter(pk__in=ids).values_list("pk", "name"))
    registered = tournament.registrations.filter(player_id__in=ids).values_list("player_id")
    return Player.objects.public_names(registered)


@dataclass(frozen=True)
class BoardPar:
    """A table's par as a board result (``board``) and as deal points (``deal``, as the
    hand record shows it)."""

    board: tuple[int, int]
    deal: tuple[int, int]


def _pars(
    board: duplicate.Board, items: list[PlayedBoard], tournament: Tournament
) -> dict[int, BoardPar | None]:
    """Each deal version's par as a board result and in deal points: from its stored
    analysis (a full record), else from the board's hands (a summary)."""
    stored = dict(
        DealAnalysis.objects.filter(version_id__in=[i.version for i in items]).values_list(
            "version_id", "analysis"
        )
    )
    options = tournament_options(tournament)
    game = tournament_profile(tournament)
    pars: dict[int, BoardPar | None] = {}
    for item in items:
        par = duplicate.analysed_par(stored.get(item.version) or {})
        if par is None and item.result.get("mode") == "summary":
            par = duplicate.summary_par(board, item.result, item.record, options=options, game=game)
        playing = item.result.get("playing_team")
        pars[item.version] = (
            BoardPar(duplicate.par_result(par, playing_team=int(playing), game=game), par.points)
            if par and playing is not None
            else None
        )
    return pars


def table_scores(round_: Round) -> dict[int, dict[str, Any]]:
    """Each table of a duplicate round, by its number: its boards played, and per
    direction (North-South, East-West) the sum of its board results, its match points,
    their maximum and their percentage (None before a board is compared). The caller
    decides who may see them (``visibility``)."""
    played = played_boards(round_.tournament, Match.objects.filter(round=round_))
    tables: dict[int, dict[str, Any]] = {}
    for score in duplicate.score_boards(item.play for item in played):
        table = tables.setdefault(
            score.play.table,
            {"boards": 0, "points": [0, 0], "match_points": [0, 0], "maximum": [0, 0]},
        )
        table["boards"] += 1
        for direction in (0, 1):
            table["points"][direction] += score.play.points[direction]
            table["match_points"][direction] += score.match_points[direction]
            table["maximum"][direction] += score.top[direction]
    for table in tables.values():
        shares = [
            duplicate.percentage(table["match_points"][d], table["maximum"][d]) for d in (0, 1)
        ]
        table["percentage"] = [None if share is None else float(share) for share in shares]
    return tables


def traveller_rows(rounds: Any) -> list[dict[str, Any]]:
    """Every table's result of every board of ``rounds`` (a duplicate tournament's
    rounds the caller may see), by round, board and table, as the traveller shows it
    (``round`` added): the pairs, the contract and who played it, the outcome and deal
    points, each direction's board result and match points."""
    out: list[dict[str, Any]] = []
    for round_ in rounds:
        tournament = round_.tournament
        profile = tournament_profile(tournament)
        played = played_boards(tournament, Match.objects.filter(round=round_))
        scored = duplicate.score_boards(item.play for item in played)
        names = _side_names(tournament, played)
        rows = [
            {**_row(item, score, names, {}, profile), "round": round_.number}
            for item, score in zip(played, scored, strict=True)
        ]
        out.extend(sorted(rows, key=lambda r: (r["number"], r["table"])))
    return out
