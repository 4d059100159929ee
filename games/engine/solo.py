"""Klammern for 2 or 3 players (presets ``klammern-2``, ``klammern-3``): deal records.

Each player alone, 9 cards each, 9 tricks of n cards; forehand = ``(dealer + 1) % n``.
A record has ``hands`` (n × 9 cards after completion and exchange), ``turned`` (the
card turned up), optionally ``exchange`` (the seat that gave the 7 of trumps for the
turned card), a contract ``{"kind": "take", "declarer", "trump"}`` or ``thrown_in``,
optional ``bidding`` (calls ``take``/``pass``: a first round for the turned suit, a
second for another suit), melds and Bella as Klammern, 9n plays, an optional revoke.
Play rules come from the options (``play.choice``); card values are Klammern's with
the Jappa/Mie bonuses and last trick +10.

Scoring (RULES.md): only the player with the best meld scores melds, and only if they
took a trick; Bella 20. Made when the declarer has more than each opponent: everyone
scores their own. Failed: 2 players, the opponent scores both totals; 3 players, each
opponent scores their own plus half the declarer's (the odd point to the player left
of the declarer); the declarer 0. Revoke: the revoker 0, the others their trick points
so far plus melds and Bella announced before it.

Decisions where RULES.md is silent (also in DECISIONS.md):

- The meld contest is decided among all announced melds (as in Klammern); when the
  best meld's player took no trick, nobody scores melds. After a revoke the no-trick
  rule does not apply (the revoke rule lists what each player scores); if the best
  meld is the revoker's, nobody scores melds.
- The result's ``melds.winning_team`` is the seat of the best meld (each player is a
  side of one); ``winner`` is the seat with the most points, ``null`` on a tie.
- ``turned`` is required in full records, optional in summaries unless ``bidding`` or
  ``exchange`` is given. A turned card found in a hand without an exchange, or the 7 of
  trumps still in a hand after one, is a ``duplicate_card``; an exchange when trump is
  not the turned suit, or when the turned card is itself the 7 of trumps, is a
  ``contract_mismatch``. A contract of a Klammern kind (``orgi``...) is a
  ``contract_mismatch``.
- Summaries: ``tricks_won`` is optional; without it a player with 0 card points is
  taken to have no trick (for the meld rule). Card points are checked per player (some
  n × t cards, the last trick +10 to one player) and in sum (cards at most 154).
"""

from __future__ import annotations

from typing import Any, Final

from .cards import (
    CARD_TEXT,
    LAST_TRICK_BONUS,
    SUIT_LETTERS,
    SUIT_NAMES,
    TABLES,
    TrumpTable,
    make_card,
    parse_card,
    parse_suit,
)
from .errors import Code, Problem
from .melds import Meld, melds_json
from .record import (
    COMMON_FIELDS,
    ENGINE_VERSION,
    FORMAT,
    Checker,
    _check_melds_held,
    _parse_plays,
    parse_hands_checked,
)
from .rules import Options, rules_dict
from .scoring import BELLA_POINTS
from .seatwalk import SeatWalk, incomplete_problem, revoke_problem, too_many_problem, walk_seats
from .summary import CARD_SUM, SUMS_BY_COUNT

Json = dict[str, Any]

HAND_SIZE: Final = 9
SEVEN = 0
#: The fields of a record for 2 or 3 players; any other is an ``unknown_field``.
RECORD_FIELDS: Final = COMMON_FIELDS | {"turned", "exchange", "bidding", "melds", "bella"}


class SoloDeal:
    """The common fields of a well-formed record for 2 or 3 players."""

    def __init__(
        self,
        players: int,
        dealer: int,
        turned: int | None,
        exchange: int | None,
        kind: str,
        declarer: int | None,
        trump: int | None,
        melds: list[tuple[int, Meld]],
        bella: int | None,
        revoke: tuple[int, int] | None,
    ) -> None:
        self.players = players
        self.dealer = dealer
        self.turned = turned
        self.exchange = exchange
        self.kind = kind
        self.declarer = declarer
        self.trump = trump
        self.melds = melds
        self.bella = bella
        self.revoke = revoke

    @property
    def forehand(self) -> int:
        """The player left of the dealer."""
        return (self.dealer + 1) % self.players


# ----- parsing ---------------------------------------------------------------------------


def _seat(value: object, players: int) -> int | None:
    return value if type(value) is int and 0 <= value < players else None


def _mismatch(ck: Checker, message: str, where: str, **params: Any) -> None:
    ck.problems.append(Problem(Code.CONTRACT_MISMATCH, message, field=where, params=params))


def _parse_contract(ck: Checker, n: int) -> tuple[str, int | None, int | None] | None:
    value = ck.record.get("contract")
    if not isinstance(value, dict) or not isinstance(value.get("kind"), str):
        ck.bad("contract must be {kind: take, declarer, trump} or {kind: thrown_in}", "contract")
        return None
    kind = value["kind"]
    if kind == "thrown_in":
        if set(value) != {"kind"}:
            ck.bad("a thrown-in contract has no declarer or trump", "contract")
            return None
        return kind, None, None
    if kind != "take":
        _mismatch(
            ck,
            f"with {n} players the declarer takes the deal: kind take, not {kind}",
            "contract.kind",
            kind=kind,
        )
        return None
    declarer, trump = _seat(value.get("declarer"), n), parse_suit(value.get("trump"))
    if declarer is None:
        ck.bad(f"contract.declarer must be a seat 0-{n - 1}", "contract.declarer")
    if trump is None:
        ck.bad("contract.trump must be one of C, S, H, D", "contract.trump")
    return None if declarer is None or trump is None else (kind, declarer, trump)


def _parse_seat_field(ck: Checker, name: str, n: int) -> int | None:
    value = ck.record.get(name)
    if value is None and name not in ck.record:
        return None
    seat = _seat(value, n)
    if seat is None:
        ck.bad(f"{name} must be a seat 0-{n - 1}", name)
    return seat


def _parse_melds(ck: Checker, n: int) -> list[tuple[int, Meld]]:
    melds = ck.parse_melds(ck.record.get("melds", []))
    for i, meld in melds:
        if meld.seat >= n:
            ck.bad(f"meld {i}: there is no seat {meld.seat} with {n} players", f"melds[{i}]")
    return melds


def parse_solo(ck: Checker, n: int) -> SoloDeal | None:
    """The common fields; problems for anything malformed."""
    rec = ck.record
    if rec.get("format") != FORMAT:
        ck.bad(f"format must be {FORMAT!r}", "format")
    dealer = _seat(rec.get("dealer"), n)
    if dealer is None:
        ck.bad(f"dealer must be a seat 0-{n - 1}", "dealer")
    turned = None
    if "turned" in rec:
        turned = parse_card(rec["turned"])
        if turned is None:
            ck.bad(f"turned {rec['turned']!r} is not a card", "turned")
    elif "hands" in rec or "bidding" in rec or "exchange" in rec:
        ck.bad("the turned card is missing", "turned")
    exchange = _parse_seat_field(ck, "exchange", n)
    contract = _parse_contract(ck, n)
    melds = _parse_melds(ck, n)
    bella = _parse_seat_field(ck, "bella", n)
    revoke = ck.parse_revoke(rec.get("revoke"))
    if revoke is not None and revoke[0] >= n:
        ck.bad(f"revoke: there is no seat {revoke[0]} with {n} players", "revoke")
    if ck.problems or dealer is None or contract is None:
        return None
    kind, declarer, trump = contract
    return SoloDeal(n, dealer, turned, exchange, kind, declarer, trump, melds, bella, revoke)


def _check_exchange(ck: Checker, deal: SoloDeal) -> None:
    if deal.exchange is None or deal.trump is None or deal.turned is None:
        return
    seven = make_card(deal.trump, SEVEN)
    if deal.trump != deal.turned >> 3:
        _mismatch(
            ck,
            f"seat {deal.exchange} can exchange the 7 of trumps only when trump is the turned "
            f"suit {SUIT_NAMES[deal.turned >> 3]}, not {SUIT_NAMES[deal.trump]}",
            "exchange",
            seat=deal.exchange,
        )
    elif deal.turned == seven:
        _mismatch(
            ck,
            f"the turned card is {CARD_TEXT[seven]} itself: there is nothing to exchange",
            "exchange",
            seat=deal.exchange,
        )


# ----- bidding ---------------------------------------------------------------------------


def _bidding_problem(index: int, message: str) -> Problem:
    return Problem(
        Code.BIDDING_MISMATCH, message, field=f"bidding[{index}]", params={"call": index}
    )


def _run_bidding(
    calls: object, deal: SoloDeal, turned_suit: int
) -> tuple[int, int] | None | Problem:
    """(declarer, trump) the calls lead to, None for a thrown-in deal, or a problem."""
    if not isinstance(calls, list):
        return Problem(Code.BAD_FORMAT, "bidding must be a list of calls", field="bidding")
    n = deal.players
    for i, item in enumerate(calls):
        expected = (deal.forehand + i) % n
        if (
            not isinstance(item, dict)
            or set(item) - {"seat", "call", "trump"}
            or item.get("call") not in ("take", "pass")
            or _seat(item.get("seat"), n) is None
            or ("trump" in item and parse_suit(item["trump"]) is None)
        ):
            return Problem(
                Code.BAD_FORMAT,
                f"call {i} must be {{seat, call: take|pass, trump?}}",
                field=f"bidding[{i}]",
            )
        if i >= 2 * n:
            return _bidding_problem(i, f"call {i} comes after the bidding is over")
        if item["seat"] != expected:
            return _bidding_problem(
                i, f"call {i} is by seat {item['seat']}, but it is seat {expected}'s turn"
            )
        if item["call"] == "pass":
            continue
        if i != len(calls) - 1:
            return _bidding_problem(i + 1, f"call {i + 1} comes after the bidding is over")
        named = parse_suit(item.get("trump"))
        if i < n:
            if named is not None and named != turned_suit:
                return _bidding_problem(
                    i, f"in the first round seat {expected} takes the turned suit"
                )
            return expected, turned_suit
        if named is None or named == turned_suit:
            return _bidding_problem(
                i, f"in the second round seat {expected} names a suit other than the turned one"
            )
        return expected, named
    if len(calls) == 2 * n:
        return None
    return _bidding_problem(len(calls), "the bidding stops before anyone takes the deal")


def _check_bidding(ck: Checker, deal: SoloDeal) -> None:
    if "bidding" not in ck.record or deal.turned is None:
        return
    outcome = _run_bidding(ck.record["bidding"], deal, deal.turned >> 3)
    if isinstance(outcome, Problem):
        ck.problems.append(outcome)
        return
    contract = None if deal.declarer is None or deal.trump is None else (deal.declarer, deal.trump)
    if outcome != contract:
        said = (
            "a thrown-in deal"
            if outcome is None
            else f"seat {outcome[0]} in {SUIT_NAMES[outcome[1]]}"
        )
        ck.problems.append(
            Problem(
                Code.BIDDING_MISMATCH,
                f"the bidding leads to {said}, but the contract says otherwise",
                field="bidding",
            )
        )


# ----- scoring ---------------------------------------------------------------------------


def _strength(meld: Meld, trump: int, forehand: int, n: int, by_suit: bool) -> tuple[int, ...]:
    run = meld.run
    tie = 3 - run.suit if by_suit else -((meld.seat - forehand) % n)
    return (run.points, run.top, int(run.suit == trump), tie)


def meld_winner(
    melds: list[Meld], *, trump: int, forehand: int, n: int, by_suit: bool
) -> int | None:
    """The seat of the best meld (Fünfzig > Terz, top card, trump, first announced)."""
    if not melds:
        return None
    best = max(melds, key=lambda m: _strength(m, trump, forehand, n, by_suit))
    return best.seat


def score_solo(
    *,
    deal: SoloDeal,
    card_points: list[int],
    took_trick: list[bool],
    melds: list[Meld],
    bella: int | None,
    options: Options,
) -> Json:
    """The scoring part of a result: melds, bella, points, outcome, winner."""
    n, trump, declarer = deal.players, deal.trump, deal.declarer
    assert trump is not None and declarer is not None
    revoker = None if deal.revoke is None else deal.revoke[0]
    best = meld_winner(
        melds, trump=trump, forehand=deal.forehand, n=n, by_suit=options.meld_tie_by_suit
    )
    if best is not None and (best == revoker or (revoker is None and not took_trick[best])):
        best = None
    scored = sorted((m for m in melds if m.seat == best), key=lambda m: m.run)
    own = list(card_points)
    if best is not None:
        own[best] += sum(m.run.points for m in scored)
    if bella is not None:
        own[bella] += BELLA_POINTS
    if revoker is not None:
        points, outcome = own, "revoke"
        points[revoker] = 0
    elif all(own[declarer] > own[s] for s in range(n) if s != declarer):
        points, outcome = own, "made"
    else:
        points, outcome = _failed(own, declarer, n), "failed"
    top = max(points)
    leaders = [s for s in range(n) if points[s] == top]
    return {
        "melds": {"winning_team": best, "scored": melds_json(scored)},
        "bella": None if bella is None else {"seat": bella, "points": BELLA_POINTS},
        "card_points": list(card_points),
        "points": points,
        "outcome": outcome,
        "winner": leaders[0] if len(leaders) == 1 else None,
    }


def _failed(own: list[int], declarer: int, n: int) -> list[int]:
    points = list(own)
    lost = points[declarer]
    points[declarer] = 0
    if n == 2:
        points[1 - declarer] += lost
        return points
    for s in range(n):
        if s != declarer:
            points[s] += lost // 2
    points[(declarer + 1) % n] += lost % 2
    return points


def thrown_in_score(n: int) -> Json:
    """Nothing played, nothing scored."""
    return {
        "melds": {"winning_team": None, "scored": []},
        "bella": None,
        "card_points": [0] * n,
        "points": [0] * n,
        "outcome": "thrown_in",
        "winner": None,
    }


def _thrown_in_extras(ck: Checker) -> None:
    rec = ck.record
    for name in ("melds", "bella", "revoke", "card_points", "tricks_won", "exchange", "plays"):
        if rec.get(name) not in (None, []):
            ck.problems.append(
                Problem(
                    Code.THROWN_IN_NOT_EMPTY,
                    f"a thrown-in deal was not played, so it has no {name}",
                    field=name,
                    params={"field": name},
                )
            )


# ----- full records ----------------------------------------------------------------------


def _holder(hands: list[int], card: int) -> int | None:
    return next((s for s in range(len(hands)) if hands[s] >> card & 1), None)


def _check_turned(ck: Checker, deal: SoloDeal, hands: list[int]) -> None:
    turned = deal.turned
    if turned is None:
        return
    holder = _holder(hands, turned)
    text = CARD_TEXT[turned]
    if deal.exchange is None and holder is not None:
        ck.problems.append(
            Problem(
                Code.DUPLICATE_CARD,
                f"the turned card {text} is in seat {holder}'s hand, but nobody exchanged it",
                field="turned",
                params={"card": text, "seats": [holder]},
            )
        )
    if deal.exchange is None or deal.trump is None:
        return
    if holder != deal.exchange:
        ck.problems.append(
            Problem(
                Code.CARD_NOT_IN_HAND,
                f"seat {deal.exchange} exchanged for the turned card {text}, "
                "but it is not in that hand",
                field="exchange",
                params={"seat": deal.exchange, "card": text},
            )
        )
    seven = make_card(deal.trump, SEVEN)
    keeper = _holder(hands, seven)
    if keeper is not None and seven != turned:
        ck.problems.append(
            Problem(
                Code.DUPLICATE_CARD,
                f"seat {deal.exchange} gave {CARD_TEXT[seven]} for the turned card, "
                f"but seat {keeper} still holds it",
                field=f"hands[{keeper}]",
                params={"card": CARD_TEXT[seven], "seats": [deal.exchange, keeper]},
            )
        )


def _check_bella_held(ck: Checker, bella: int | None, hands: list[int], table: TrumpTable) -> None:
    need = (1 << table.king) | (1 << table.queen)
    if bella is not None and hands[bella] & need != need:
        ck.problems.append(
            Problem(
                Code.BELLA_NOT_HELD,
                f"seat {bella} announces Bella without holding {CARD_TEXT[table.king]} "
                f"and {CARD_TEXT[table.queen]}",
                field="bella",
                params={"seat": bella, "cards": [CARD_TEXT[table.king], CARD_TEXT[table.queen]]},
            )
        )


def _check_full(ck: Checker, deal: SoloDeal) -> Json:
    rec, n = ck.record, deal.players
    for name in ("card_points", "tricks_won"):
        if name in rec:
            ck.bad(f"{name} belongs to a summary record, not to one with hands", name)
    hands = parse_hands_checked(ck, rec["hands"], seats=n, hand_size=HAND_SIZE)
    if deal.kind == "thrown_in":
        return thrown_in_score(n)
    if "plays" not in rec:
        ck.bad("a record with hands must list its plays", "plays")
    plays = _parse_plays(ck, rec.get("plays", []))
    assert deal.trump is not None
    table = TABLES[deal.trump]
    if hands is None or plays is None:
        return {}
    _check_turned(ck, deal, hands)
    if deal.melds:
        _check_melds_held(ck, deal.melds, hands)
    _check_bella_held(ck, deal.bella, hands, table)
    deal_cards = HAND_SIZE * n
    if ck.problems:
        return {}
    if len(plays) > deal_cards:
        ck.problems.append(too_many_problem(len(plays), deal_cards))
        return {}
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
    _check_end(ck, deal, walk, len(plays), table)
    if ck.problems:
        return {}
    melds, bella = [m for _, m in deal.melds], deal.bella
    if deal.revoke is not None:
        melds = [m for m in melds if (m.seat - deal.forehand) % n <= len(plays)]
        if table.king not in plays and table.queen not in plays:
            bella = None
    out = score_solo(
        deal=deal,
        card_points=walk.points,
        took_trick=[t > 0 for t in walk.tricks_won],
        melds=melds,
        bella=bella,
        options=ck.options,
    )
    out["tricks_won"] = walk.tricks_won
    out["tricks"] = walk.tricks
    return out


def _check_end(ck: Checker, deal: SoloDeal, walk: SeatWalk, played: int, table: TrumpTable) -> None:
    deal_cards = HAND_SIZE * deal.players
    if deal.revoke is not None:
        problem = revoke_problem(
            deal.revoke, walk, played=played, deal_cards=deal_cards, table=table, options=ck.options
        )
        if problem is not None:
            ck.problems.append(problem)
    elif played < deal_cards:
        ck.problems.append(incomplete_problem(played, deal_cards, walk.next_seat))


# ----- summary records -------------------------------------------------------------------


def _int_list(ck: Checker, name: str, n: int, high: int) -> list[int] | None:
    value = ck.record.get(name)
    if (
        not isinstance(value, list)
        or len(value) != n
        or not all(type(v) is int and 0 <= v <= high for v in value)
    ):
        ck.bad(f"{name} must be {n} whole numbers 0-{high}, one per player", name)
        return None
    return list(value)


def _player_feasible(points: int, tricks: int | None, n: int, *, last: bool, revoke: bool) -> bool:
    """Can a player with ``tricks`` (None: any number) tricks of n cards have ``points``?
    ``last``: the player took the last trick (+10); after a revoke nobody did."""
    counts = range(HAND_SIZE + 1) if tricks is None else (tricks,)
    rest = points - LAST_TRICK_BONUS if last else points
    for t in counts:
        if rest < 0 or (last and t == 0) or (not last and t == HAND_SIZE):
            continue
        if revoke and t == HAND_SIZE:
            continue
        if SUMS_BY_COUNT[n * t] >> rest & 1:
            return True
    return False


def _points_feasible(
    points: list[int], tricks: list[int] | None, n: int, revoke_value: int | None
) -> bool:
    revoke = revoke_value is not None
    if revoke:
        assert revoke_value is not None
        return sum(points) <= CARD_SUM - revoke_value and all(
            _player_feasible(
                points[s], None if tricks is None else tricks[s], n, last=False, revoke=True
            )
            for s in range(n)
        )
    if sum(points) > CARD_SUM + LAST_TRICK_BONUS:
        return False
    for last in range(n):
        if all(
            _player_feasible(
                points[s], None if tricks is None else tricks[s], n, last=s == last, revoke=False
            )
            for s in range(n)
        ):
            return True
    return False


def _check_summary(ck: Checker, deal: SoloDeal) -> Json:
    rec, n = ck.record, deal.players
    for name in ("hands", "plays"):
        if name in rec:
            ck.bad(f"{name} belongs to a full record (with hands)", name)
    if deal.kind == "thrown_in":
        return thrown_in_score(n)
    points = _int_list(ck, "card_points", n, CARD_SUM + LAST_TRICK_BONUS)
    tricks = _int_list(ck, "tricks_won", n, HAND_SIZE) if "tricks_won" in rec else None
    if points is None or ck.problems:
        return {}
    revoke = deal.revoke is not None
    if tricks is not None and (sum(tricks) >= HAND_SIZE if revoke else sum(tricks) != HAND_SIZE):
        ck.problems.append(
            Problem(
                Code.IMPOSSIBLE_TRICKS,
                f"tricks {':'.join(map(str, tricks))} "
                + (
                    "exceed the tricks a revoke leaves room for"
                    if revoke
                    else f"do not add up to {HAND_SIZE}"
                ),
                field="tricks_won",
                params={"tricks_won": tricks},
            )
        )
        return {}
    assert deal.trump is not None
    revoke_value = None if deal.revoke is None else TABLES[deal.trump].points[deal.revoke[1]]
    if not _points_feasible(points, tricks, n, revoke_value):
        ck.problems.append(
            Problem(
                Code.IMPOSSIBLE_POINTS,
                f"card points {':'.join(map(str, points))} cannot come from any set of tricks",
                field="card_points",
                params={"card_points": points},
            )
        )
        return {}
    took = [t > 0 for t in tricks] if tricks is not None else [p > 0 for p in points]
    out = score_solo(
        deal=deal,
        card_points=points,
        took_trick=took,
        melds=[m for _, m in deal.melds],
        bella=deal.bella,
        options=ck.options,
    )
    out["tricks_won"] = tricks
    return out


# ----- entry point -----------------------------------------------------------------------


def check_solo(record: Json, preset: str, options: Options) -> Json:
    """Check a record for 2 or 3 players under resolved rules; the result object."""
    ck = Checker(record, preset, options)
    n = options.players
    ck.refuse_unknown_fields(RECORD_FIELDS, f"a deal record for {n} players")
    mode = "full" if "hands" in record else "summary"
    deal = parse_solo(ck, n)
    if deal is None:
        return ck.invalid(mode)
    _check_exchange(ck, deal)
    _check_bidding(ck, deal)
    ck.check_meld_duplicates(deal.melds)
    if deal.kind == "thrown_in":
        _thrown_in_extras(ck)
    scored = _check_full(ck, deal) if mode == "full" else _check_summary(ck, deal)
    if ck.failed():
        return ck.invalid(mode)
    out: Json = {
        "valid": True,
        "errors": [],
        "mode": mode,
        "players": n,
        "trump": None if deal.trump is None else SUIT_LETTERS[deal.trump],
        "declarer": deal.declarer,
        "kind": deal.kind,
    }
    tricks = scored.pop("tricks", [] if mode == "full" else None)
    if tricks is not None:
        out["tricks"] = tricks
    out.update(scored)
    out.setdefault("tricks_won", None)
    out["exchange"] = deal.exchange
    revoke = deal.revoke
    out["revoke"] = None if revoke is None else {"seat": revoke[0], "card": CARD_TEXT[revoke[1]]}
    out["rules"] = rules_dict(preset, options)
    out["engine_version"] = ENGINE_VERSION
    return out
