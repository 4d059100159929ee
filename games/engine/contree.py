"""Belote Contrée deal records (preset ``belote-contree``; RULES.md "Belote Contrée", spec
"Other presets").

Checks a Belote Contrée record: the auction (``bids``: every call in order from forehand,
each ``"pass"``, a bid ``{"value": 80 … 160 | "capot", "trump": suit}``, ``"coinche"`` or
``"surcoinche"``), the contract ``{"kind": "contree", "declarer", "trump", "value",
"doubling": 0 | 1 | 2}`` or ``{"kind": "thrown_in"}`` (in a full record the auction's
outcome), every play under the preset's options (``play.choice``: follow suit; a player
who cannot follow a plain suit and whose partner does not head the trick must beat it
with a higher trump if able, else plays any card; to a trump lead each goes higher if
able) or, for a summary, the feasibility of its numbers; then scores the deal: points
made are the cards and the last trick (162), 90 more for all 8 tricks (252); made when
the takers' points made reach the contract's value (a capot contract: all 8 tricks), then
the defenders score their points made rounded to the nearest ten (5 up) and the takers
the rest of 160 (250 with all tricks); failed: the defenders 160 (250 for a capot
contract), the takers 0; coinched or surcoinched: the winning side scores 2× or 4× the
game's value (160, 250 for a capot contract), the other nothing; after a revoke the clean
side scores the game's value times the doubling (1, 2 or 4), the revoking side 0. There
are no melds and no belote (RULES.md: the seed's simple rules). It does not keep a match
(``keepers.score_match``).

Decisions where RULES.md is silent (also in DECISIONS.md):

- Each refusal of the auction has its own code (``errors``): ``bid_value_not_allowed``,
  ``bid_not_higher``, ``coinche_not_allowed`` (no bid yet, or by the bidding side),
  ``surcoinche_not_allowed`` (no coinche to answer; ``reason`` says whether by the
  defending side); a
  call after the auction's end (a pass after a coinche included) and an auction that
  stops before its end are a ``bidding_mismatch``, as for Klammern's bidding; a full
  record's contract that is not the auction's outcome a ``contract_mismatch``. The first
  broken call is reported (what follows it has no meaning).
- A player may outbid the partner's bid (RULES.md asks only for a higher bid). A coinche
  may come from either player of the other side, at any turn while the bid is the last.
- The contract needs all five fields; its value must be allowed
  (``bid_value_not_allowed``), its doubling 0, 1 or 2. A full record needs ``bids``
  (``bad_format`` without), a summary has none (``bad_format`` with).
- A thrown-in full record has its hands (all 8 cards are dealt before the auction) and
  the four passes; its ``plays`` may be absent or empty. Plays, a revoke, card points or
  tricks of a thrown-in deal are ``thrown_in_not_empty``.
- The result's ``points_made`` are each side's points made (cards, last trick, the 90 of
  all tricks); ``capot`` is the side that took all 8 tricks (null after a revoke);
  ``winner_team`` is the takers when made, the defenders when failed, the clean side
  after a revoke.
"""

from __future__ import annotations

from typing import Any, Final

from .cards import CARD_TEXT, SUIT_LETTERS, SUIT_NAMES, parse_suit
from .errors import Code, Problem
from .klaverjas import (
    KLAVERJAS_POINTS,
    KLAVERJAS_TABLES,
    _check_card_points,
    _check_tricks,
    all_points_need_tricks,
)
from .record import (
    COMMON_FIELDS,
    ENGINE_VERSION,
    FORMAT,
    Checker,
    _parse_plays,
    int_pair,
    parse_hands_checked,
)
from .rules import Options, rules_dict
from .seatwalk import incomplete_problem, revoke_problem, too_many_problem, walk_seats

Json = dict[str, Any]

DEAL_VALUE: Final = 162
#: All 8 tricks: 90 more points made (252).
ALL_TRICKS_BONUS: Final = 90
#: The game's value: what a side scores for a failed contract, and the base of a coinche.
GAME_VALUE: Final = 160
CAPOT_GAME_VALUE: Final = 250
DEAL_CARDS: Final = 32
#: The bid values in words of the record; a capot is above 160.
BID_VALUES: Final = (80, 90, 100, 110, 120, 130, 140, 150, 160)
CAPOT: Final = "capot"
#: A capot's place in the order of bids (above 160).
CAPOT_LEVEL: Final = 170
#: The points multiplier of a doubling: none, coinche, surcoinche.
MULTIPLIERS: Final = (1, 2, 4)
DOUBLING_WORDS: Final = ("", "coinched", "surcoinched")
#: The fields of a Belote Contrée record; any other is an ``unknown_field``.
RECORD_FIELDS: Final = COMMON_FIELDS | {"bids"}
#: The codes Belote Contrée added to ``errors.Code`` (each needs a player's message).
CONTREE_CODES: Final = (
    Code.BID_NOT_HIGHER,
    Code.BID_VALUE_NOT_ALLOWED,
    Code.COINCHE_NOT_ALLOWED,
    Code.SURCOINCHE_NOT_ALLOWED,
)


def value_level(value: object) -> int | None:
    """A bid's value as a number to compare (capot 170), None when it is not allowed."""
    if value == CAPOT and isinstance(value, str):
        return CAPOT_LEVEL
    if type(value) is int and value in BID_VALUES:
        return value
    return None


def value_text(level: int) -> int | str:
    """A level as the record writes it: 80 … 160 or ``"capot"``."""
    return CAPOT if level == CAPOT_LEVEL else level


class ContreeContract:
    """A played contract: the last bid's seat, trump and value, and the doubling."""

    def __init__(self, declarer: int, trump: int, level: int, doubling: int) -> None:
        self.declarer = declarer
        self.trump = trump
        #: 80 … 160, or ``CAPOT_LEVEL``.
        self.level = level
        self.doubling = doubling

    @property
    def capot(self) -> bool:
        """Whether the contract is to take all 8 tricks."""
        return self.level == CAPOT_LEVEL

    @property
    def game_value(self) -> int:
        """160, or 250 for a capot contract."""
        return CAPOT_GAME_VALUE if self.capot else GAME_VALUE

    @property
    def takers(self) -> int:
        """The declarer's side."""
        return self.declarer & 1

    def to_json(self) -> Json:
        """The record's contract object."""
        return {
            "kind": "contree",
            "declarer": self.declarer,
            "trump": SUIT_LETTERS[self.trump],
            "value": value_text(self.level),
            "doubling": self.doubling,
        }

    def describe(self) -> str:
        """Words for messages: '120 in Hearts by seat 1, coinched'."""
        words = f"{value_text(self.level)} in {SUIT_NAMES[self.trump]} by seat {self.declarer}"
        return f"{words}, {DOUBLING_WORDS[self.doubling]}" if self.doubling else words

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, ContreeContract):
            return NotImplemented
        return (self.declarer, self.trump, self.level, self.doubling) == (
            other.declarer,
            other.trump,
            other.level,
            other.doubling,
        )

    def __hash__(self) -> int:
        return hash((self.declarer, self.trump, self.level, self.doubling))


class ContreeDeal:
    """The common fields of a well-formed Belote Contrée record."""

    def __init__(
        self,
        dealer: int,
        contract: ContreeContract | None,
        revoke: tuple[int, int] | None,
    ) -> None:
        self.dealer = dealer
        #: None for a thrown-in deal.
        self.contract = contract
        self.revoke = revoke

    @property
    def forehand(self) -> int:
        """The seat left of the dealer: it calls first and leads the first trick."""
        return (self.dealer + 1) % 4


# ----- the auction -----------------------------------------------------------------------


def _call_problem(code: Code, index: int, seat: int, message: str, **params: Any) -> Problem:
    return Problem(
        code, message, field=f"bids[{index}]", params={"call": index, "seat": seat, **params}
    )


def _after_end(index: int, seat: int, why: str) -> Problem:
    return _call_problem(
        Code.BIDDING_MISMATCH,
        index,
        seat,
        f"call {index} (seat {seat}) comes after the auction is over: {why}",
    )


class _Auction:
    """The auction so far (``run_auction``)."""

    def __init__(self) -> None:
        #: The last bid: (seat, level, trump).
        self.bid: tuple[int, int, int] | None = None
        self.passes = 0
        self.doubling = 0
        self.end_reason = ""

    @property
    def over(self) -> bool:
        return bool(self.end_reason)

    def last_bid_words(self) -> str:
        assert self.bid is not None
        seat, level, trump = self.bid
        return f"{value_text(level)} in {SUIT_NAMES[trump]} by seat {seat}"

    def outcome(self) -> ContreeContract | None:
        if self.bid is None:
            return None
        seat, level, trump = self.bid
        return ContreeContract(seat, trump, level, self.doubling)

    def call(self, index: int, seat: int, call: object) -> Problem | None:
        """Apply one call; its problem, if it breaks the rules."""
        if self.over:
            return _after_end(index, seat, self.end_reason)
        if self.doubling == 1 and call != "surcoinche":
            return _after_end(
                index, seat, "a coinche ends it unless the bidding side surcoinches at once"
            )
        if call == "pass":
            self._pass()
            return None
        if call == "coinche":
            return self._coinche(index, seat)
        if call == "surcoinche":
            return self._surcoinche(index, seat)
        return self._bid(index, seat, call)

    def _pass(self) -> None:
        self.passes += 1
        if self.bid is None and self.passes == 4:
            self.end_reason = "four passes throw the deal in"
        elif self.bid is not None and self.passes == 3:
            self.end_reason = "three passes after the last bid end it"

    def _coinche(self, index: int, seat: int) -> Problem | None:
        if self.bid is None:
            return _call_problem(
                Code.COINCHE_NOT_ALLOWED,
                index,
                seat,
                f"seat {seat} coinches at call {index}, but nobody has bid: a coinche doubles "
                "the last bid",
                reason="no_bid",
            )
        if seat & 1 == self.bid[0] & 1:
            return _call_problem(
                Code.COINCHE_NOT_ALLOWED,
                index,
                seat,
                f"seat {seat} coinches its own side's bid ({self.last_bid_words()}): only a "
                "player of the other side may coinche",
                reason="bidding_side",
                bid_seat=self.bid[0],
            )
        self.doubling = 1
        return None

    def _surcoinche(self, index: int, seat: int) -> Problem | None:
        if self.doubling == 1 and self.bid is not None:
            # the call after a coinche is always the bidding side's (seats alternate)
            self.doubling = 2
            self.end_reason = "a surcoinche ends it"
            return None
        if self.bid is not None and seat & 1 != self.bid[0] & 1:
            return _call_problem(
                Code.SURCOINCHE_NOT_ALLOWED,
                index,
                seat,
                f"seat {seat} surcoinches at call {index}, but only the bidding side (seat "
                f"{self.bid[0]}'s) may surcoinche, at once after the other side's coinche",
                reason="defending_side",
                bid_seat=self.bid[0],
            )
        return _call_problem(
            Code.SURCOINCHE_NOT_ALLOWED,
            index,
            seat,
            f"seat {seat} surcoinches at call {index}, but there is no coinche to answer: "
            "a surcoinche comes at once after a coinche",
            reason="no_coinche",
        )

    def _bid(self, index: int, seat: int, call: object) -> Problem | None:
        if not isinstance(call, dict) or set(call) != {"value", "trump"}:
            return _call_problem(
                Code.BAD_FORMAT,
                index,
                seat,
                f"call {index} must be 'pass', 'coinche', 'surcoinche' or a bid "
                "{value: 80-160 or 'capot', trump: C, S, H or D}",
            )
        level, trump = value_level(call["value"]), parse_suit(call["trump"])
        if level is None:
            return _call_problem(
                Code.BID_VALUE_NOT_ALLOWED,
                index,
                seat,
                f"seat {seat} bids {call['value']!r}: a bid is 80, 90, … 160 or capot",
                value=str(call["value"]),
            )
        if trump is None:
            return _call_problem(
                Code.BAD_FORMAT, index, seat, f"call {index}'s trump must be one of C, S, H, D"
            )
        if self.bid is not None and level <= self.bid[1]:
            return _call_problem(
                Code.BID_NOT_HIGHER,
                index,
                seat,
                f"seat {seat} bids {value_text(level)} in {SUIT_NAMES[trump]}, which is not "
                f"higher than {self.last_bid_words()}",
                value=value_text(level),
                trump=SUIT_LETTERS[trump],
                last_value=value_text(self.bid[1]),
                last_seat=self.bid[0],
            )
        self.bid, self.passes = (seat, level, trump), 0
        return None


def run_auction(calls: object, forehand: int) -> ContreeContract | None | Problem:
    """The contract an auction leads to (None: thrown in after four passes), or its first
    broken call. The seat of each call follows from its place, forehand first."""
    if not isinstance(calls, list):
        return Problem(Code.BAD_FORMAT, "bids must be a list of calls", field="bids")
    auction = _Auction()
    for index, call in enumerate(calls):
        problem = auction.call(index, (forehand + index) % 4, call)
        if problem is not None:
            return problem
    if auction.doubling == 1:
        auction.end_reason = "a coinche ends it"
    if not auction.over:
        seat = (forehand + len(calls)) % 4
        return Problem(
            Code.BIDDING_MISMATCH,
            f"the auction is not over after {len(calls)} calls: seat {seat} is to call "
            "(it ends with three passes after a bid, four passes, a coinche or a surcoinche)",
            field="bids",
            params={"count": len(calls), "next_seat": seat},
        )
    return auction.outcome()


# ----- parsing ---------------------------------------------------------------------------


def _seat(value: object) -> int | None:
    return value if type(value) is int and 0 <= value <= 3 else None


def _problem(ck: Checker, code: Code, message: str, where: str, **params: Any) -> None:
    ck.problems.append(Problem(code, message, field=where, params=params))


_SHAPE: Final = (
    "contract must be {kind: contree, declarer, trump, value: 80-160 or 'capot', "
    "doubling: 0, 1 or 2} or {kind: thrown_in}"
)


def _parse_contract(ck: Checker, value: object) -> ContreeContract | None | bool:
    """The contract; None for thrown in; False after a problem."""
    if not isinstance(value, dict) or not isinstance(value.get("kind"), str):
        ck.bad(_SHAPE, "contract")
        return False
    kind = value["kind"]
    if kind == "thrown_in":
        if set(value) != {"kind"}:
            ck.bad("a thrown-in contract has no declarer, trump, value or doubling", "contract")
            return False
        return None
    if kind != "contree":
        _problem(
            ck,
            Code.CONTRACT_MISMATCH,
            f"in Belote Contrée the contract is the auction's: its kind is contree, not {kind}",
            "contract.kind",
            kind=kind,
        )
        return False
    return _parse_played(ck, value)


def _parse_played(ck: Checker, value: Json) -> ContreeContract | bool:
    if set(value) != {"kind", "declarer", "trump", "value", "doubling"}:
        ck.bad(_SHAPE, "contract")
        return False
    declarer, trump = _seat(value["declarer"]), parse_suit(value["trump"])
    level, doubling = value_level(value["value"]), value["doubling"]
    if declarer is None:
        ck.bad("contract.declarer must be a seat 0-3", "contract.declarer")
    if trump is None:
        ck.bad("contract.trump must be one of C, S, H, D", "contract.trump")
    if level is None:
        _problem(
            ck,
            Code.BID_VALUE_NOT_ALLOWED,
            f"the contract's value {value['value']!r} is no bid: 80, 90, … 160 or capot",
            "contract.value",
            value=str(value["value"]),
        )
    if type(doubling) is not int or doubling not in (0, 1, 2):
        ck.bad("contract.doubling must be 0, 1 (coinche) or 2 (surcoinche)", "contract.doubling")
        doubling = None
    if declarer is None or trump is None or level is None or doubling is None:
        return False
    return ContreeContract(declarer, trump, level, doubling)


def parse_contree(ck: Checker) -> ContreeDeal | None:
    """Dealer, contract and revoke; problems for anything else."""
    rec = ck.record
    if rec.get("format") != FORMAT:
        ck.bad(f"format must be {FORMAT!r}", "format")
    dealer = _seat(rec.get("dealer"))
    if dealer is None:
        ck.bad("dealer must be a seat 0-3", "dealer")
    contract = _parse_contract(ck, rec.get("contract"))
    revoke = ck.parse_revoke(rec.get("revoke"))
    if ck.problems or dealer is None or contract is False:
        return None
    assert contract is not True
    return ContreeDeal(dealer, contract, revoke)


def _check_auction(ck: Checker, deal: ContreeDeal) -> None:
    """A full record's auction: well formed, legal, and leading to its contract."""
    outcome = run_auction(ck.record["bids"], deal.forehand)
    if isinstance(outcome, Problem):
        ck.problems.append(outcome)
        return
    if outcome == deal.contract:
        return
    said = "thrown in" if deal.contract is None else deal.contract.describe()
    led = "thrown in" if outcome is None else outcome.describe()
    _problem(
        ck,
        Code.CONTRACT_MISMATCH,
        f"the auction leads to {led}, but the contract says {said}",
        "contract",
        auction={"kind": "thrown_in"} if outcome is None else outcome.to_json(),
    )


# ----- scoring ---------------------------------------------------------------------------


def round_to_ten(points: int) -> int:
    """To the nearest ten, a 5 rounding up (RULES.md: the defenders' points made)."""
    return (points + 5) // 10 * 10


def score_contree(
    contract: ContreeContract,
    *,
    card_points: tuple[int, int],
    capot: int | None,
    revoke_team: int | None,
) -> Json:
    """Points after made/failed, the doubling or a revoke (module docstring); ``capot``
    is the side that took all 8 tricks."""
    takers = contract.takers
    made_points = list(card_points)
    if capot is not None and revoke_team is None:
        made_points[capot] += ALL_TRICKS_BONUS
    points = [0, 0]
    multiplier = MULTIPLIERS[contract.doubling]
    if revoke_team is not None:
        winner, outcome = 1 - revoke_team, "revoke"
        points[winner] = contract.game_value * multiplier
    else:
        made = capot == takers if contract.capot else made_points[takers] >= contract.level
        winner, outcome = (takers, "made") if made else (1 - takers, "failed")
        if contract.doubling:
            points[winner] = contract.game_value * multiplier
        elif made:
            points[1 - takers] = round_to_ten(made_points[1 - takers])
            base = CAPOT_GAME_VALUE if capot == takers else GAME_VALUE
            points[takers] = base - points[1 - takers]
        else:
            points[winner] = contract.game_value
    return {
        "card_points": list(card_points),
        "points_made": made_points,
        "capot": capot if revoke_team is None else None,
        "points": points,
        "total": points[0] + points[1],
        "outcome": outcome,
        "winner_team": winner,
    }


def thrown_in_score() -> Json:
    """Nothing played, nothing scored."""
    return {
        "card_points": [0, 0],
        "points_made": [0, 0],
        "capot": None,
        "points": [0, 0],
        "total": 0,
        "outcome": "thrown_in",
        "winner_team": None,
        "tricks_won": None,
    }


def _thrown_in(ck: Checker) -> Json:
    for name in ("revoke", "card_points", "tricks_won", "plays"):
        if ck.record.get(name) not in (None, []):
            _problem(
                ck,
                Code.THROWN_IN_NOT_EMPTY,
                f"a thrown-in deal was not played, so it has no {name}",
                name,
                field=name,
            )
    return thrown_in_score()


def _capot_of(tricks: tuple[int, int] | None) -> int | None:
    if tricks is None:
        return None
    return next((t for t in (0, 1) if tricks[t] == 8), None)


# ----- full records ----------------------------------------------------------------------


def _teams(per_seat: list[int]) -> tuple[int, int]:
    return per_seat[0] + per_seat[2], per_seat[1] + per_seat[3]


def _check_full(ck: Checker, deal: ContreeDeal) -> Json:
    rec = ck.record
    for name in ("card_points", "tricks_won"):
        if name in rec:
            ck.bad(f"{name} belongs to a summary record, not to one with hands", name)
    hands = parse_hands_checked(ck, rec["hands"], seats=4, hand_size=8)
    if "bids" in rec:
        _check_auction(ck, deal)
    else:
        ck.bad("a record with hands must list its auction (bids)", "bids")
    contract = deal.contract
    if contract is None:
        return _thrown_in(ck)
    if "plays" not in rec:
        ck.bad("a record with hands must list its plays", "plays")
    plays = _parse_plays(ck, rec.get("plays", []))
    if hands is None or plays is None or ck.problems:
        return {}
    if len(plays) > DEAL_CARDS:
        ck.problems.append(too_many_problem(len(plays), DEAL_CARDS))
        return {}
    table = KLAVERJAS_TABLES[contract.trump]
    walk = walk_seats(
        hands,
        plays,
        forehand=deal.forehand,
        table=table,
        points=table.points,
        options=ck.options,
        count_roem=False,
    )
    if isinstance(walk, Problem):
        ck.problems.append(walk)
        return {}
    if deal.revoke is not None:
        problem = revoke_problem(
            deal.revoke,
            walk,
            played=len(plays),
            deal_cards=DEAL_CARDS,
            table=table,
            options=ck.options,
        )
        if problem is not None:
            ck.problems.append(problem)
    elif len(plays) < DEAL_CARDS:
        ck.problems.append(incomplete_problem(len(plays), DEAL_CARDS, walk.next_seat))
    if ck.problems:
        return {}
    tricks = _teams(walk.tricks_won)
    out = score_contree(
        contract,
        card_points=_teams(walk.points),
        capot=_capot_of(tricks),
        revoke_team=None if deal.revoke is None else deal.revoke[0] & 1,
    )
    out["tricks_won"] = list(tricks)
    out["tricks"] = walk.tricks
    return out


# ----- summary records -------------------------------------------------------------------


def _check_summary(ck: Checker, deal: ContreeDeal) -> Json:
    rec = ck.record
    for name in ("plays", "bids"):
        if name in rec:
            ck.bad(f"{name} belongs to a full record (with hands)", name)
    contract = deal.contract
    if contract is None:
        return _thrown_in(ck)
    points = int_pair(ck, "card_points", DEAL_VALUE)
    tricks = int_pair(ck, "tricks_won", 8) if "tricks_won" in rec else None
    if points is None or ck.problems:
        return {}
    revoke = deal.revoke is not None
    if tricks is None and not revoke and DEAL_VALUE in points:
        ck.problems.append(all_points_need_tricks(points, DEAL_VALUE))
        return {}
    if tricks is not None and not _check_tricks(ck, tricks, revoke):
        return {}
    revoke_value = None if deal.revoke is None else KLAVERJAS_POINTS[contract.trump][deal.revoke[1]]
    _check_card_points(ck, points, tricks, revoke_value)
    if ck.problems:
        return {}
    out = score_contree(
        contract,
        card_points=points,
        capot=None if revoke else _capot_of(tricks),
        revoke_team=None if deal.revoke is None else deal.revoke[0] & 1,
    )
    out["tricks_won"] = None if tricks is None else list(tricks)
    return out


# ----- entry point -----------------------------------------------------------------------


def _contract_fields(contract: ContreeContract | None) -> Json:
    if contract is None:
        return {
            "kind": "thrown_in",
            "trump": None,
            "declarer": None,
            "playing_team": None,
            "value": None,
            "doubling": None,
        }
    return {
        "kind": "contree",
        "trump": SUIT_LETTERS[contract.trump],
        "declarer": contract.declarer,
        "playing_team": contract.takers,
        "value": value_text(contract.level),
        "doubling": contract.doubling,
    }


def check_contree(record: Json, preset: str, options: Options) -> Json:
    """Check a Belote Contrée record under resolved rules; the result object."""
    ck = Checker(record, preset, options)
    ck.refuse_unknown_fields(RECORD_FIELDS, "a Belote Contrée deal record")
    mode = "full" if "hands" in record else "summary"
    deal = parse_contree(ck)
    if deal is None or ck.problems:
        return ck.invalid(mode)
    scored = _check_full(ck, deal) if mode == "full" else _check_summary(ck, deal)
    if ck.failed():
        return ck.invalid(mode)
    out: Json = {"valid": True, "errors": [], "mode": mode, **_contract_fields(deal.contract)}
    tricks = scored.pop("tricks", None)
    if tricks is not None:
        out["tricks"] = tricks
    out.update(scored)
    revoke = deal.revoke
    out["revoke"] = None if revoke is None else {"seat": revoke[0], "card": CARD_TEXT[revoke[1]]}
    out["rules"] = rules_dict(preset, options)
    out["engine_version"] = ENGINE_VERSION
    return out


__all__ = [
    "CONTREE_CODES",
    "RECORD_FIELDS",
    "ContreeContract",
    "check_contree",
    "round_to_ten",
    "run_auction",
    "score_contree",
    "value_level",
]
