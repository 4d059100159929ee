"""Reads for hand records: who may see a deal's hand record, and what its page shows
(the four hands by suit, the contract, the play trick by trick, par against the actual
result, the costly plays) from a deal version and its stored analysis. The points each
player lost against par over evenings and seasons are read by ``par_selectors.py``.

Who sees them: the table's own device at once, the club's organisers always, everyone
else once the round is closed and only where the tournament's ``hand_records_public``
allows (and the tournament itself is public). Nothing here writes.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from django.utils.translation import gettext_lazy as _

from games import profiles
from games.engine.cards import CARD_BY_TEXT, SUIT_BY_TEXT, SUIT_LETTERS, TABLES, sorted_for_display
from games.models import DealAnalysis, DealVersion
from tournaments.clubs.names import shown_name
from tournaments.clubs.permissions import organises_club
from tournaments.common.engine_messages import card_rank
from tournaments.deals import visibility
from tournaments.events.models import DeviceCredential, Match, Round
from tournaments.events.selectors import tournament_board, tournament_options, tournament_profile
from tournaments.formats import boards as duplicate
from tournaments.formats import format_profile

#: Every outcome of a deal or its par in words (a game's ``outcome_words`` go first).
OUTCOME_WORDS: dict[str, Any] = {
    "made": _("made"),
    "failed": _("failed"),
    "revoke": _("revoke"),
    "thrown_in": _("thrown in"),
    "march_won": _("March won"),
    "march_lost": _("March lost"),
}
#: Plays costing at least this many deal points are listed as costly plays.
COSTLY = 1
#: Suits in the rows of a hand: trump first, then the others in the engine's order.
DISPLAY_SUITS = "SHDC"


def hand_records_public(match: Match) -> bool:
    """Whether everyone who may see the tournament may see this match's hand records."""
    tournament = match.round.tournament
    return (
        tournament.is_public
        and tournament.hand_records_public
        and match.round.status == Round.Status.CLOSED
    )


def may_see_hand_records(
    user: Any, match: Match, *, device: DeviceCredential | None = None
) -> bool:
    """The table's device, the club's organisers, and everyone once public (and no
    earlier than ``visibility`` shows the deals at all)."""
    if not visibility.may_see_deals(user, match, device=device):
        return False
    if device is not None or organises_club(user, match.round.tournament.club_id):
        return True
    return hand_records_public(match)


def current_version(match: Match, number: int) -> DealVersion | None:
    return (
        DealVersion.objects.current()
        .filter(deal__match=match, deal__number=number)
        .select_related("deal", "analysis")
        .first()
    )


@dataclass(frozen=True)
class SeatView:
    position: int
    number: int  # 1–4, as people count
    name: str
    team: int


def match_profile(match: Match) -> profiles.GameProfile:
    tournament = match.round.tournament
    return profiles.profile_for(tournament.rules_preset, tournament.rules_options)


def seat_views(match: Match) -> list[SeatView]:
    """The table's seats as its game seats them (4, 3 or 2), each with its side and its
    player's public name."""
    profile = match_profile(match)
    names = {
        position: shown_name(name, style, number)
        for position, name, style, number in match.table.seats.values_list(
            "position", "player__name", "player__name_style", "player__pseudonym"
        )
    }
    return [
        SeatView(p, p + 1, names.get(p, ""), profile.seat_team(p)) for p in range(profile.players)
    ]


def side_views(
    profile: profiles.GameProfile, result: dict[str, Any], analysis: dict[str, Any] | None
) -> list[dict[str, Any]]:
    """The columns of the par table: one per team ("Team 1", seats 1 & 3) or per player,
    with the actual points, the par (when analysed) and whether that side played."""
    declarer = result.get("declarer")
    playing = profile.seat_team(declarer) if isinstance(declarer, int) else None
    points = result.get("points") or []
    par = (analysis or {}).get("par") or []
    roem, par_roem = result.get("roem") or [], (analysis or {}).get("par_roem") or []
    return [
        {
            "number": side + 1,
            "team": profile.teams,
            "seats": (side + 1, side + 3) if profile.teams else (side + 1,),
            "playing": side == playing,
            "points": points[side] if side < len(points) else "",
            "par": par[side] if side < len(par) else "",
            "roem": roem[side] if side < len(roem) else None,
            "par_roem": par_roem[side] if side < len(par_roem) else None,
        }
        for side in range(profile.sides())
    ]


def outcome_texts(profile: profiles.GameProfile, playing_team: int | None) -> dict[str, str]:
    """Each outcome as the hand record writes it in the reader's language: the game's
    own word where it has one (Klaverjas's nat; none for the Schieber's "played", whose
    points say it all), after the playing team and its role in the game's words ("Team
    2 (playing)", the Schieber's "Team 2 (chose trump)") when a team played."""
    texts = {}
    for outcome, word in {**OUTCOME_WORDS, **profile.outcome_words}.items():
        text = str(word)
        if playing_team is not None and outcome != "thrown_in":
            side = _("Team %(team)s (%(role)s)") % {
                "team": playing_team,
                "role": profile.declarer_word,
            }
            text = f"{side}: {text}" if text else str(side)
        texts[outcome] = text
    return texts


def hand_rows(cards: list[str], trump: str | None, ranks: str) -> list[dict[str, Any]]:
    """A hand by suit, strongest first: in the 32-card deck's trick order, in a deck of
    other ranks (``ranks``, the profile's, low to high) Jack and Nine first in trumps,
    then the natural order high to low."""
    if all(c in CARD_BY_TEXT for c in cards):
        table = TABLES[SUIT_BY_TEXT[trump]] if trump else TABLES[0]
        ordered = [
            _text(c) for c in sorted_for_display(sum(1 << CARD_BY_TEXT[c] for c in cards), table)
        ]
    else:
        ordered = sorted(cards, key=lambda c: _strength(c, trump, ranks), reverse=True)
    rows = []
    for suit in DISPLAY_SUITS:
        shown = [card_rank(c) for c in ordered if c[-1] == suit]
        rows.append({"suit": suit, "ranks": shown, "trump": suit == trump})
    return rows


def _strength(card: str, trump: str | None, ranks: str) -> tuple[int, int]:
    rank = card[:-1].replace("10", "T")
    top = 2 if card[-1] == trump and rank == "J" else int(card[-1] == trump and rank == "9")
    return top, ranks.find(rank)


def _text(card: int) -> str:
    return "789TJQKA"[card & 7] + SUIT_LETTERS[card >> 3]


def card_view(text: str) -> dict[str, str]:
    """A card as the page shows it: its rank in the reader's language (``card_rank``:
    "10" for T, German "B" for a Jack) and its suit letter."""
    return {"text": text, "rank": card_rank(text), "suit": text[-1]}


def _tricks(
    result: dict[str, Any], plays: list[dict[str, Any]], *, players: int, turning: list[int]
) -> list[dict[str, Any]]:
    tricks = []
    for n, trick in enumerate(result.get("tricks", [])):
        cards = []
        for k, card in enumerate(trick["cards"]):
            index = players * n + k
            play = plays[index] if index < len(plays) else {}
            cards.append(
                {
                    "seat": (trick["leader"] + k) % players,
                    "card": card_view(card),
                    "cost": play.get("cost", 0),
                    "best": play.get("best", []),
                    "turning": index in turning,
                }
            )
        tricks.append(
            {
                "number": n + 1,
                "leader": trick["leader"],
                "winner": trick["winner"],
                "points": trick["points"],
                "cards": cards,
            }
        )
    return tricks


def turning_plays(analysis: dict[str, Any]) -> list[int]:
    """The indices of the plays after which the par's outcome differs from before."""
    before = analysis.get("par_outcome")
    out = []
    for play in analysis.get("plays", []):
        outcome = play.get("par_outcome", before)
        if outcome != before:
            out.append(play["play"])
        before = outcome
    return out


def costly_plays(analysis: dict[str, Any], seats: list[SeatView]) -> list[dict[str, Any]]:
    """The plays that lost deal points against par, in the order played; ``turning``
    marks the ones that changed the par's outcome."""
    turning = turning_plays(analysis)
    return [
        {
            **play,
            "turning": play["play"] in turning,
            "seat_view": seats[play["seat"]],
            "card_view": card_view(play["card"]),
            "best_views": [card_view(c) for c in play.get("best", [])],
        }
        for play in analysis.get("plays", [])
        if play["cost"] >= COSTLY
    ]


@dataclass(frozen=True)
class SummaryBoard:
    """The board a summary record of a duplicate tournament was played with: its cards
    (from the tournament's board seed) and its par in the contract played, as the
    board's traveller has it (None: thrown in, a revoke, no card points)."""

    board: duplicate.Board
    par: duplicate.Par | None


def summary_board(match: Match, version: DealVersion) -> SummaryBoard | None:
    """The board of a summary record in a duplicate tournament; None for a full record
    (its hands are its own) or any other tournament."""
    if version.result.get("mode") != "summary":
        return None
    tournament = match.round.tournament
    board = tournament_board(
        tournament, round_number=match.round.number, number=version.deal.number
    )
    if board is None:
        return None
    options = tournament_options(tournament)
    game = tournament_profile(tournament)
    par = duplicate.summary_par(board, version.result, version.record, options=options, game=game)
    return SummaryBoard(board, par)


def _par(analysis: dict[str, Any] | None, board: SummaryBoard | None) -> dict[str, Any] | None:
    """The par the page shows (``par``, ``par_outcome``): the analysis's of a played
    deal, else the board's of a summary record."""
    if analysis is not None:
        return analysis
    if board is not None and board.par is not None:
        return {"par": list(board.par.points), "par_outcome": board.par.outcome}
    return None


def hand_record(
    version: DealVersion,
    seats: list[SeatView],
    profile: profiles.GameProfile,
    *,
    board: SummaryBoard | None = None,
    duplicate_board: bool = False,
) -> dict[str, Any]:
    """What a hand record page shows of one deal version, laid out as its game seats
    the table (``profile``); a summary record of a duplicate board shows the board's
    hands and par (``board``, from ``summary_board``); a deal of a duplicate tournament
    (``duplicate_board``) also shows its board result beside the deal points, as the
    traveller compares it."""
    record, result = version.record, version.result
    stored: DealAnalysis | None = getattr(version, "analysis", None)
    analysis = stored.analysis if stored is not None else None
    full = result.get("mode") == "full"
    trump = result.get("trump")
    plays = analysis.get("plays", []) if analysis and analysis.get("analysed") else []
    par = _par(analysis if plays else None, board)
    dealt = record["hands"] if full else [list(h) for h in board.board.hands] if board else []
    playing_team = (
        seats[result["declarer"]].team + 1
        if result.get("declarer") is not None and profile.teams
        else None
    )
    return {
        "version": version,
        "number": version.deal.number,
        "full": full,
        "result": result,
        "contract": record.get("contract") or {},
        "contract_word": profile.contract_word((record.get("contract") or {}).get("kind", "")),
        "declarer": seats[result["declarer"]] if result.get("declarer") is not None else None,
        # 1 or 2, as the par table's columns count the teams (None: nobody played, or
        # a game of single players, whose columns are the seats)
        "playing_team": playing_team,
        "declarer_word": str(profile.declarer_word),
        "outcome_texts": outcome_texts(profile, playing_team),
        "par_unit": profile.par_unit,
        "sides": side_views(profile, result, par),
        "dealer": seats[record.get("dealer", 0)],
        "hands": [
            {"seat": seats[s], "rows": hand_rows(hand, trump, profile.ranks)}
            for s, hand in enumerate(dealt[: len(seats)])
        ],
        "board": board,
        "failed_word": profile.outcome_words.get("failed", ""),
        "par_outcome": (analysis or {}).get("par_outcome")
        if plays
        else (par or {}).get("par_outcome"),
        "tricks": _tricks(
            result, plays, players=len(seats), turning=turning_plays(analysis) if plays else []
        )
        if full
        else [],
        "analysable": profile.analysable,
        "teams": profile.teams,
        "analysis_note": str(profile.analysis_note),
        "analysis": analysis,
        "pending": full and analysis is None and profile.analysable,
        "analysed": bool(analysis and analysis.get("analysed")),
        "costly": costly_plays(analysis, seats) if plays else [],
        "seats": seats,
        "board_results": board_results(profile, result, par) if duplicate_board else None,
    }


def board_results(
    profile: profiles.GameProfile, result: dict[str, Any], par: dict[str, Any] | None
) -> dict[str, Any]:
    """A duplicate deal's board result (what the traveller compares for match points)
    played and under par, in the game's terms (``board_result``, ``par_board_result``):
    Klammern's failed game gives the defenders all the deal points."""
    playing = result.get("playing_team")
    par_points = (par or {}).get("par")
    return {
        "actual": list(profile.board_result(result)),
        "par": list(
            profile.par_board_result(
                par_points, outcome=str((par or {}).get("par_outcome", "")), playing_team=playing
            )
        )
        if par_points and isinstance(playing, int)
        else None,
    }


def match_hand_records(match: Match) -> list[dict[str, Any]]:
    """Every current deal of a match as a hand record, by number."""
    seats, profile = seat_views(match), match_profile(match)
    versions = (
        DealVersion.objects.current()
        .filter(deal__match=match)
        .select_related("deal", "analysis")
        .order_by("deal__number")
    )
    duplicate_board = format_profile(match.round.tournament).boards
    return [
        hand_record(
            v, seats, profile, board=summary_board(match, v), duplicate_board=duplicate_board
        )
        for v in versions
    ]
