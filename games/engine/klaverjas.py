"""Klaverjas deal records (presets ``klaverjas-rotterdam`` and ``klaverjas-amsterdam``).

Checks a Klaverjas record (RULES.md "Presets for related games", spec "Other presets"):
forehand's team always plays (the contract is ``{"kind": "klaverjas", "declarer":
forehand, "trump": suit}``), no bidding, Kontra/Re, March, melds or Bella; the play
rules come from the preset's options (``play.choice``). A full record is walked card
by card and the roem of each trick counted from its cards; a summary's numbers are
checked for feasibility. Scoring: cards with the last trick (162) plus roem; pit +100
for all 8 tricks; made when the makers have more than the defenders, else nat (the
defenders score 162 and all roem); after a revoke the clean team scores 162 and the
roem taken so far.

Decisions where RULES.md is silent (also in DECISIONS.md):

- With ``trump_by: turned`` (default) an ``upcard``, when given, fixes trump to its
  suit (``contract_mismatch`` otherwise) and in a full record must be in the dealer's
  hand. With ``trump_by: forehand`` ("verplicht": forehand chooses) the record has no
  upcard; one that has it is a ``bad_format`` (RULES.md).
- A contract of another kind (``orgi``...) is a ``contract_mismatch``; so is a
  declarer other than forehand.
- The result's ``roem`` is the roem each team took in its tricks, plus 100 for the
  pit; ``points`` is the score after made/nat (or the revoke); ``total`` is their sum;
  ``card_points`` (cards and last trick per team) and ``tricks_won`` are added.
- A summary's ``tricks_won`` is optional except when one team has all 162 card points:
  then it is required (``missing_field``), since 162:0 with 8:0 tricks is a pit and with
  7:1 (a trick of blank cards) is not (RULES.md). ``roem`` absent means 0:0.
- Summary roem: a multiple of 10 that the team's tricks can hold, one trick holding at
  most one of: a sequence of 3 (20) or 4 (50), with or without the stuk (+20); the stuk
  alone (20); four Aces/Tens/Kings/Queens (100); four Jacks (200). Over both teams the
  stuk and the four Jacks occur at most once and four of a kind 100 at most 4 times.
"""

from __future__ import annotations

import dataclasses
from functools import cache
from typing import Any, Final

from .cards import CARD_TEXT, SUIT_LETTERS, SUIT_NAMES, TABLES, TrumpTable, parse_card, parse_suit
from .errors import Code, Problem
from .record import (
    COMMON_FIELDS,
    ENGINE_VERSION,
    FORMAT,
    Checker,
    _parse_hands,
    _parse_plays,
    int_pair,
)
from .rules import Options, rules_dict
from .seatwalk import (
    SeatWalk,
    incomplete_problem,
    revoke_problem,
    too_many_problem,
    walk_seats,
)
from .summary import (
    KLAVERJAS_CARD_SUM,
    KLAVERJAS_CLASSES,
    KLAVERJAS_SUMS_BY_COUNT,
    full_deal_feasible,
    revoke_feasible,
)

Json = dict[str, Any]

DEAL_VALUE: Final = 162
PIT_BONUS: Final = 100
DEAL_CARDS: Final = 32
#: Klaverjas card values by trump: as Klammern, but the trump Jack is 20 (not 2 + 20).
KLAVERJAS_POINTS: Final = tuple(
    tuple(p - 2 if c == t.jappa else p for c, p in enumerate(t.points)) for t in TABLES
)
KLAVERJAS_TABLES: Final = tuple(
    dataclasses.replace(t, points=KLAVERJAS_POINTS[t.trump]) for t in TABLES
)
#: The fields of a Klaverjas record (no bidding, doubling, March, melds or Bella: roem is
#: counted from the tricks); any other is an ``unknown_field``.
RECORD_FIELDS: Final = COMMON_FIELDS | {"upcard", "roem"}


class KlaverjasDeal:
    """The common fields of a well-formed Klaverjas record."""

    def __init__(
        self, dealer: int, upcard: int | None, trump: int, revoke: tuple[int, int] | None
    ) -> None:
        self.dealer = dealer
        self.upcard = upcard
        self.trump = trump
        self.revoke = revoke

    @property
    def forehand(self) -> int:
        """The seat left of the dealer: the makers' declarer."""
        return (self.dealer + 1) % 4


def _seat(value: object) -> int | None:
    return value if type(value) is int and 0 <= value <= 3 else None


def _mismatch(ck: Checker, message: str, where: str, **params: Any) -> None:
    ck.problems.append(Problem(Code.CONTRACT_MISMATCH, message, field=where, params=params))


def _parse_contract(ck: Checker, value: object, forehand: int | None) -> int | None:
    """The trump of a Klaverjas contract, or None after a problem."""
    if not isinstance(value, dict) or not isinstance(value.get("kind"), str):
        ck.bad("contract must be {kind: klaverjas, declarer: forehand, trump}", "contract")
        return None
    declarer, trump = _seat(value.get("declarer")), parse_suit(value.get("trump"))
    if value["kind"] != "klaverjas":
        _mismatch(
            ck,
            f"a Klaverjas deal is played by forehand's team: its contract is kind "
            f"klaverjas, not {value['kind']}",
            "contract.kind",
            kind=value["kind"],
        )
        return None
    if declarer is None:
        ck.bad("contract.declarer must be a seat 0-3", "contract.declarer")
    if trump is None:
        ck.bad("contract.trump must be one of C, S, H, D", "contract.trump")
    if declarer is not None and forehand is not None and declarer != forehand:
        _mismatch(
            ck,
            f"in Klaverjas forehand (seat {forehand}) plays, not seat {declarer}",
            "contract.declarer",
            declarer=declarer,
            forehand=forehand,
        )
    return trump


def parse_klaverjas(ck: Checker) -> KlaverjasDeal | None:
    """Dealer, upcard, contract and revoke; problems for anything else."""
    rec = ck.record
    if rec.get("format") != FORMAT:
        ck.bad(f"format must be {FORMAT!r}", "format")
    dealer = _seat(rec.get("dealer"))
    if dealer is None:
        ck.bad("dealer must be a seat 0-3", "dealer")
    upcard = None
    if "upcard" in rec and ck.options.trump_by == "forehand":
        ck.bad(
            "forehand chooses trump in this game (trump_by forehand, 'verplicht'): "
            "a record has no upcard",
            "upcard",
        )
    elif "upcard" in rec:
        upcard = parse_card(rec["upcard"])
        if upcard is None:
            ck.bad(f"upcard {rec['upcard']!r} is not a card", "upcard")
    forehand = None if dealer is None else (dealer + 1) % 4
    trump = _parse_contract(ck, rec.get("contract"), forehand)
    revoke = ck.parse_revoke(rec.get("revoke"))
    if trump is not None and upcard is not None and trump != upcard >> 3:
        _mismatch(
            ck,
            f"trump is the upcard's suit {SUIT_NAMES[upcard >> 3]}, not {SUIT_NAMES[trump]}",
            "contract.trump",
            trump=SUIT_LETTERS[trump],
            upcard_suit=SUIT_LETTERS[upcard >> 3],
        )
    if ck.problems or dealer is None or trump is None:
        return None
    return KlaverjasDeal(dealer, upcard, trump, revoke)


# ----- scoring ---------------------------------------------------------------------------


def score_klaverjas(
    *,
    makers: int,
    card_points: tuple[int, int],
    roem: tuple[int, int],
    tricks_won: tuple[int, int] | None,
    revoke_team: int | None,
) -> Json:
    """Points after made/nat or a revoke, the roem with the pit, outcome and winner."""
    pit = None
    if revoke_team is None and tricks_won is not None:
        pit = next((t for t in (0, 1) if tricks_won[t] == 8), None)
    taken = [roem[0], roem[1]]
    if pit is not None:
        taken[pit] += PIT_BONUS
    points = [0, 0]
    if revoke_team is not None:
        winner, outcome = 1 - revoke_team, "revoke"
        points[winner] = DEAL_VALUE + taken[0] + taken[1]
    else:
        own = [card_points[0] + taken[0], card_points[1] + taken[1]]
        if own[makers] > own[1 - makers]:
            winner, outcome, points = makers, "made", own
        else:
            winner, outcome = 1 - makers, "failed"
            points[winner] = DEAL_VALUE + taken[0] + taken[1]
    return {
        "card_points": list(card_points),
        "roem": taken,
        "pit": pit,
        "points": points,
        "total": points[0] + points[1],
        "outcome": outcome,
        "winner_team": winner,
    }


# ----- full records ----------------------------------------------------------------------


def _check_full(ck: Checker, deal: KlaverjasDeal) -> Json:
    rec = ck.record
    for name in ("card_points", "roem", "tricks_won"):
        if name in rec:
            ck.bad(f"{name} belongs to a summary record, not to one with hands", name)
    hands = _parse_hands(ck, rec["hands"])
    if "plays" not in rec:
        ck.bad("a record with hands must list its plays", "plays")
    plays = _parse_plays(ck, rec.get("plays", []))
    if hands is not None and deal.upcard is not None and not hands[deal.dealer] >> deal.upcard & 1:
        ck.problems.append(
            Problem(
                Code.CARD_NOT_IN_HAND,
                f"the upcard {CARD_TEXT[deal.upcard]} is not in the dealer's "
                f"(seat {deal.dealer}) hand",
                field="upcard",
                params={"seat": deal.dealer, "card": CARD_TEXT[deal.upcard]},
            )
        )
    if hands is None or plays is None or ck.problems:
        return {}
    if len(plays) > DEAL_CARDS:
        ck.problems.append(too_many_problem(len(plays), DEAL_CARDS))
        return {}
    table = KLAVERJAS_TABLES[deal.trump]
    walk = walk_seats(
        hands,
        plays,
        forehand=deal.forehand,
        table=table,
        points=table.points,
        options=ck.options,
        count_roem=True,
    )
    if isinstance(walk, Problem):
        ck.problems.append(walk)
        return {}
    _check_end(ck, deal, walk, len(plays), table)
    if ck.problems:
        return {}
    out = score_klaverjas(
        makers=deal.forehand & 1,
        card_points=_teams(walk.points),
        roem=_teams(walk.roem),
        tricks_won=_teams(walk.tricks_won),
        revoke_team=None if deal.revoke is None else deal.revoke[0] & 1,
    )
    out["tricks_won"] = list(_teams(walk.tricks_won))
    out["tricks"] = walk.tricks
    return out


def _teams(per_seat: list[int]) -> tuple[int, int]:
    return per_seat[0] + per_seat[2], per_seat[1] + per_seat[3]


def _check_end(
    ck: Checker, deal: KlaverjasDeal, walk: SeatWalk, played: int, table: TrumpTable
) -> None:
    if deal.revoke is not None:
        problem = revoke_problem(
            deal.revoke,
            walk,
            played=played,
            deal_cards=DEAL_CARDS,
            table=table,
            options=ck.options,
        )
        if problem is not None:
            ck.problems.append(problem)
    elif played < DEAL_CARDS:
        ck.problems.append(incomplete_problem(played, DEAL_CARDS, walk.next_seat))


# ----- summary records -------------------------------------------------------------------


def _impossible(ck: Checker, code: Code, message: str, where: str, **params: Any) -> None:
    ck.problems.append(Problem(code, message, field=where, params=params))


def all_points_need_tricks(points: tuple[int, int], deal_value: int) -> Problem:
    """The ``missing_field`` problem of a summary that gives one team every card point
    without saying how many tricks each team took."""
    team = points.index(deal_value)
    return Problem(
        Code.MISSING_FIELD,
        f"team {team} has all {deal_value} card points: enter the tricks each team took "
        f"(all 8 tricks to team {team}, or 7 and a trick of blank cards to team {1 - team})",
        field="tricks_won",
        params={"card_points": list(points), "team": team},
    )


def _check_tricks(ck: Checker, tricks: tuple[int, int], revoke: bool, deal_tricks: int = 8) -> bool:
    """Trick counts that add up to the deal's (8; the Schieber's 9), or leave room for the
    revoke's unfinished trick."""
    most = deal_tricks - 1
    if sum(tricks) > most if revoke else sum(tricks) != deal_tricks:
        wanted = (
            f"exceed the {most} tricks a revoke leaves room for"
            if revoke
            else f"do not add up to {deal_tricks}"
        )
        _impossible(
            ck,
            Code.IMPOSSIBLE_TRICKS,
            f"tricks {tricks[0]}:{tricks[1]} {wanted}",
            "tricks_won",
            tricks_won=list(tricks),
        )
        return False
    return True


def _check_card_points(
    ck: Checker,
    points: tuple[int, int],
    tricks: tuple[int, int] | None,
    revoke_value: int | None,
) -> None:
    shown = f"card points {points[0]}:{points[1]}"
    if revoke_value is not None:
        if not revoke_feasible(
            points,
            tricks,
            revoke_card_value=revoke_value,
            classes=KLAVERJAS_CLASSES,
            card_sum=KLAVERJAS_CARD_SUM,
        ):
            _impossible(
                ck,
                Code.IMPOSSIBLE_POINTS,
                f"{shown} cannot come from the tricks taken before a revoke (no last "
                f"trick, the revoke card in no trick: at most "
                f"{KLAVERJAS_CARD_SUM - revoke_value} in all)",
                "card_points",
                card_points=list(points),
            )
        return
    if sum(points) != DEAL_VALUE:
        _impossible(
            ck,
            Code.IMPOSSIBLE_POINTS,
            f"{shown} add up to {sum(points)}, not {DEAL_VALUE}",
            "card_points",
            card_points=list(points),
        )
        return
    for team in (0, 1):
        counts = range(9) if tricks is None else (tricks[team],)
        if not any(
            full_deal_feasible(t, points[team], sums_by_count=KLAVERJAS_SUMS_BY_COUNT)
            for t in counts
        ):
            with_tricks = "" if tricks is None else f" with {tricks[team]} tricks"
            _impossible(
                ck,
                Code.IMPOSSIBLE_POINTS,
                f"team {team} cannot have {points[team]} card points{with_tricks}: "
                "no set of tricks gives that",
                "card_points",
                card_points=list(points),
                team=team,
            )


@cache
def _roem_ways(roem: int, tricks: int) -> frozenset[tuple[int, int, int]]:
    """(stuk, four Jacks, fours of 100) uses by which ``tricks`` tricks hold ``roem``."""
    out: set[tuple[int, int, int]] = set()
    if roem < 0 or roem % 10:
        return frozenset()
    for stuk in (0, 1):
        for jacks in (0, 1):
            for fours in range(5):
                rest = roem - 20 * stuk - 200 * jacks - 100 * fours
                for fifties in range(max(rest, 0) // 50 + 1):
                    terzen, left = divmod(rest - 50 * fifties, 20)
                    if rest < 0 or left or terzen < 0:
                        continue
                    runs = terzen + fifties
                    used = runs + jacks + fours + (1 if stuk and not runs else 0)
                    if used <= tricks:
                        out.add((stuk, jacks, fours))
    return frozenset(out)


def roem_feasible(roem: tuple[int, int], tricks: tuple[int, int] | None, revoke: bool) -> bool:
    """Can the teams' tricks hold this roem (pit not included)?"""
    most = 7 if revoke else 8
    splits = (
        [tricks]
        if tricks is not None
        else [(a, b) for a in range(most + 1) for b in range(most + 1 - a) if revoke or a + b == 8]
    )
    for ta, tb in splits:
        for sa, ja, fa in _roem_ways(roem[0], ta):
            for sb, jb, fb in _roem_ways(roem[1], tb):
                if sa + sb <= 1 and ja + jb <= 1 and fa + fb <= 4:
                    return True
    return False


def _check_summary(ck: Checker, deal: KlaverjasDeal) -> Json:
    rec = ck.record
    for name in ("hands", "plays"):
        if name in rec:
            ck.bad(f"{name} belongs to a full record (with hands)", name)
    points = int_pair(ck, "card_points", DEAL_VALUE)
    roem = int_pair(ck, "roem", 2000) if "roem" in rec else (0, 0)
    tricks = int_pair(ck, "tricks_won", 8) if "tricks_won" in rec else None
    if points is None or roem is None or ck.problems:
        return {}
    revoke = deal.revoke is not None
    if tricks is None and not revoke and DEAL_VALUE in points:
        ck.problems.append(all_points_need_tricks(points, DEAL_VALUE))
        return {}
    if tricks is not None and not _check_tricks(ck, tricks, revoke):
        return {}
    revoke_value = None
    if deal.revoke is not None:
        revoke_value = KLAVERJAS_POINTS[deal.trump][deal.revoke[1]]
    _check_card_points(ck, points, tricks, revoke_value)
    if not roem_feasible(roem, tricks, revoke):
        _impossible(
            ck,
            Code.IMPOSSIBLE_POINTS,
            f"roem {roem[0]}:{roem[1]} cannot be held by the tricks: roem comes in "
            "20, 50, 100 and 200 per trick (stuk 20 once)",
            "roem",
            roem=list(roem),
        )
    if ck.problems:
        return {}
    out = score_klaverjas(
        makers=deal.forehand & 1,
        card_points=points,
        roem=roem,
        tricks_won=tricks,
        revoke_team=None if deal.revoke is None else deal.revoke[0] & 1,
    )
    out["tricks_won"] = None if tricks is None else list(tricks)
    return out


# ----- entry point -----------------------------------------------------------------------


def check_klaverjas(record: Json, preset: str, options: Options) -> Json:
    """Check a Klaverjas record under resolved rules; the result object."""
    ck = Checker(record, preset, options)
    ck.refuse_unknown_fields(RECORD_FIELDS, "a Klaverjas deal record")
    mode = "full" if "hands" in record else "summary"
    deal = parse_klaverjas(ck)
    if deal is None:
        return ck.invalid(mode)
    scored = _check_full(ck, deal) if mode == "full" else _check_summary(ck, deal)
    if ck.failed():
        return ck.invalid(mode)
    out: Json = {
        "valid": True,
        "errors": [],
        "mode": mode,
        "trump": SUIT_LETTERS[deal.trump],
        "declarer": deal.forehand,
        "playing_team": deal.forehand & 1,
        "kind": "klaverjas",
    }
    tricks = scored.pop("tricks", None)
    if tricks is not None:
        out["tricks"] = tricks
    out.update(scored)
    revoke = deal.revoke
    out["revoke"] = None if revoke is None else {"seat": revoke[0], "card": CARD_TEXT[revoke[1]]}
    out["rules"] = rules_dict(preset, options)
    out["engine_version"] = ENGINE_VERSION
    return out
