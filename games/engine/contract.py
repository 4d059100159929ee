"""The contract against the upcard, and the optional bidding sequence.

RULES.md "Trump (who plays)": ``orgi`` takes the upcard's suit, ``besser`` is Clubs and
not available when the upcard is a Club, ``kleines`` names another suit. The bidding
grammar: forehand first, clockwise: four chances to ``accept`` (first accept = Orgi);
after four passes, four chances to say ``kleines``; after a Kleines the later seats of
that round may say ``besser`` (first one = Besser); four passes in the second round =
thrown in. Passes after a Kleines that end the list may be left out.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache
from typing import Any, Final, NamedTuple

from .cards import SUIT_LETTERS, SUIT_NAMES, parse_suit
from .errors import Code, Problem

CLUBS = 0


@dataclass(frozen=True)
class Contract:
    """Who plays what: kind is orgi, kleines, besser or thrown_in."""

    kind: str
    declarer: int | None = None
    trump: int | None = None

    def describe(self) -> str:
        """Words for messages: 'kleines by seat 2 in Hearts'."""
        if self.kind == "thrown_in" or self.trump is None:
            return "thrown in"
        return f"{self.kind} by seat {self.declarer} in {SUIT_NAMES[self.trump]}"


#: Every contract that is played, by (kind, declarer, trump), and the thrown-in one.
CONTRACTS: Final[dict[tuple[str, int | None, int | None], Contract]] = {
    (kind, declarer, trump): Contract(kind, declarer, trump)
    for kind in ("orgi", "kleines", "besser")
    for declarer in range(4)
    for trump in range(4)
}
THROWN_IN: Final = Contract("thrown_in")


def contract_problems(contract: Contract, upcard_suit: int) -> list[Problem]:
    """Problems of a contract that does not fit the upcard."""
    if contract.trump is None:
        return []
    message = _MISMATCHES[contract.kind, contract.trump, upcard_suit]
    if message is None:
        return []
    params = {
        "kind": contract.kind,
        "trump": SUIT_LETTERS[contract.trump],
        "upcard_suit": SUIT_LETTERS[upcard_suit],
    }
    return [Problem(Code.CONTRACT_MISMATCH, message, field="contract.trump", params=params)]


def _mismatch(kind: str, trump: int, upcard_suit: int) -> str | None:
    up, named = SUIT_NAMES[upcard_suit], SUIT_NAMES[trump]
    if kind == "orgi" and trump != upcard_suit:
        return f"an Orgi is played in the upcard's suit {up}, not {named}"
    if kind == "besser" and upcard_suit == CLUBS:
        return "Besser is not available when the upcard is a Club"
    if kind == "besser" and trump != CLUBS:
        return f"Besser is played in Clubs, not {named}"
    if kind == "kleines" and trump == upcard_suit:
        return f"a Kleines must name a suit other than the upcard's suit {up}"
    return None


#: ``_mismatch`` of every (kind, trump, upcard suit), worked out once.
_MISMATCHES: Final = {
    (kind, trump, upcard_suit): _mismatch(kind, trump, upcard_suit)
    for kind in ("orgi", "kleines", "besser")
    for trump in range(4)
    for upcard_suit in range(4)
}


def _bad(index: int, message: str, **params: Any) -> Problem:
    return Problem(
        Code.BIDDING_MISMATCH, message, field=f"bidding[{index}]", params={"call": index, **params}
    )


class _Call(NamedTuple):
    seat: int
    call: str
    trump: int | None


_CALLS = ("accept", "pass", "kleines", "besser")
_ABSENT: Final = object()
_DECIDING = ("accept", "besser")
#: Every well-formed call by its (seat, call, trump) fields, the trump being a suit
#: letter, None, or ``_ABSENT`` when the call has no trump field.
_CALL_BY_FIELDS: Final[dict[tuple[object, object, object], _Call]] = {
    (seat, call, trump): _Call(seat, call, None if trump is _ABSENT else parse_suit(trump))
    for seat in range(4)
    for call in _CALLS
    for trump in (_ABSENT, None, *SUIT_LETTERS)
}
#: The seats in calling order over both rounds, by forehand.
_TURNS = tuple(tuple((forehand + k) % 4 for k in range(8)) for forehand in range(4))


def _parse_calls(calls: object) -> tuple[_Call, ...] | Problem:
    if not isinstance(calls, list):
        return Problem(Code.BAD_FORMAT, "bidding must be a list of calls", field="bidding")
    out = []
    by_fields = _CALL_BY_FIELDS
    for i, item in enumerate(calls):
        # A call is a dict of seat (an int), call (a str) and optional trump (a str or
        # null), and nothing else. The lookup finds only such values (or values equal to
        # them: True == 1, hence the seat's type check); its size says there is no more.
        if type(item) is dict:
            trump = item.get("trump", _ABSENT)
            try:
                call = by_fields.get((item.get("seat"), item.get("call"), trump))
            except TypeError:  # a list or a dict as a field: no call
                call = None
            if (
                call is not None
                and type(item["seat"]) is int
                and len(item) == (2 if trump is _ABSENT else 3)
            ):
                out.append(call)
                continue
        return Problem(
            Code.BAD_FORMAT,
            f"call {i} must be {{seat: 0-3, call: accept|pass|kleines|besser}}",
            field=f"bidding[{i}]",
        )
    return tuple(out)


def bidding_problems(
    calls_field: object, *, forehand: int, upcard_suit: int, contract: Contract
) -> list[Problem]:
    """Problems of a bidding list that breaks the order or leads elsewhere."""
    calls = _parse_calls(calls_field)
    if isinstance(calls, Problem):
        return [calls]
    result = _run_bidding(calls, forehand, upcard_suit)
    if isinstance(result, Problem):
        return [result]
    if result.kind == "kleines" and result.trump is None:
        known = CONTRACTS.get(("kleines", result.declarer, contract.trump))
        result = known or Contract("kleines", result.declarer, contract.trump)
    if result is not contract and result != contract:  # the contracts are mostly shared
        return [
            Problem(
                Code.BIDDING_MISMATCH,
                f"the bidding leads to {result.describe()}, "
                f"but the contract is {contract.describe()}",
                field="bidding",
                params={"bidding_kind": result.kind, "bidding_declarer": result.declarer},
            )
        ]
    return []


@lru_cache(maxsize=4096)
def _run_bidding(calls: tuple[_Call, ...], forehand: int, upcard_suit: int) -> Contract | Problem:
    """The contract a bidding leads to, or its first broken call. Remembered: the
    sequences that occur are few (the result and its Problem are never changed)."""
    order = _TURNS[forehand]
    kleines: _Call | None = None
    for i, call in enumerate(calls):
        if i >= 8 or (kleines is not None and call.seat == kleines.seat):
            return _bad(i, f"call {i} comes after the bidding is over")
        if call.seat != order[i]:
            return _bad(
                i,
                f"call {i} is by seat {call.seat}, but it is seat {order[i]}'s turn",
                seat=call.seat,
                expected=order[i],
            )
        allowed = (
            ("accept", "pass")
            if i < 4
            else ("pass", "kleines")
            if kleines is None
            else ("pass", "besser")
        )
        if call.call not in allowed:
            return _bad(
                i,
                f"seat {call.seat} cannot say {call.call} at call {i} "
                f"(allowed: {' or '.join(allowed)})",
                seat=call.seat,
            )
        if call.call in _DECIDING:
            return _decided(call, i, calls, upcard_suit)
        if call.call == "kleines":
            kleines = call
        if kleines is None and i == 7:
            return (
                THROWN_IN
                if i == len(calls) - 1
                else _bad(i + 1, f"call {i + 1} comes after the bidding is over")
            )
    if kleines is not None:
        known = CONTRACTS.get(("kleines", kleines.seat, kleines.trump))
        return known or Contract("kleines", kleines.seat, kleines.trump)
    return _bad(len(calls), "the bidding stops before anyone plays or the deal is thrown in")


def _decided(call: _Call, i: int, calls: tuple[_Call, ...], upcard_suit: int) -> Contract | Problem:
    if i != len(calls) - 1:
        return _bad(i + 1, f"call {i + 1} comes after the bidding is over")
    if call.call == "besser" and upcard_suit == CLUBS:
        return _bad(i, "Besser is not available when the upcard is a Club", seat=call.seat)
    trump = upcard_suit if call.call == "accept" else CLUBS
    if call.trump is not None and call.trump != trump:
        return _bad(i, f"seat {call.seat}'s {call.call} means {SUIT_NAMES[trump]}", seat=call.seat)
    return CONTRACTS["orgi" if call.call == "accept" else "besser", call.seat, trump]
