"""Checking one deal record (``check``) and building the result object.

Parses the record of ``spec/deal-record.md``, validates it (format, contract, bidding,
hands, melds, Bella, every play, the revoke, or for a summary the feasibility of its
numbers), then hands the established facts to ``scoring``. ``check`` never raises:
every problem becomes an entry of ``errors``.

Each game's module lists the top-level fields its record may have (``RECORD_FIELDS``;
the Klammern record's here, built on ``COMMON_FIELDS``); ``Checker.refuse_unknown_fields``
refuses any other field with ``unknown_field``, so a new game declares its fields in its
own module only.
"""

from __future__ import annotations

from typing import Any, Final

from .cards import (
    ALL_CARDS,
    BIT_BY_TEXT,
    CARD_BY_TEXT,
    CARD_TEXT,
    DEAL_POINTS,
    LAST_TRICK_BONUS,
    SUIT_LETTERS,
    SUIT_MASK,
    SUIT_OF,
    TABLES,
    TrumpTable,
    parse_card,
    parse_suit,
)
from .contract import CONTRACTS, THROWN_IN, Contract, bidding_problems, contract_problems
from .errors import Code, Problem, RulesError
from .melds import Meld, Run, run_of_cards, runs_of
from .play import choice
from .rules import Options, resolve_named_rules, rules_dict
from .scoring import DealFacts, score_deal
from .seatwalk import illegal_play_problem
from .summary import CARD_SUM, full_deal_feasible, full_deal_points_feasible, revoke_feasible

ENGINE_VERSION: Final = "1.0.0"
FORMAT: Final = "klammern-deal/1"
KINDS: Final = ("orgi", "kleines", "besser", "thrown_in")
FULL_ONLY: Final = ("hands", "plays")
SUMMARY_ONLY: Final = ("card_points", "tricks_won")
#: The fields every game's record has (spec/deal-record.md); a game adds its own.
COMMON_FIELDS: Final = frozenset(
    {
        "format",
        "rules",
        "dealer",
        "hands",
        "contract",
        "plays",
        "revoke",
        "card_points",
        "tricks_won",
    }
)
#: The fields of a Klammern record (4 players, ``klammern`` and ``klammern-hamburg``).
RECORD_FIELDS: Final = COMMON_FIELDS | {"upcard", "bidding", "doubling", "march", "melds", "bella"}

Json = dict[str, Any]
#: For each leading seat: (position in the trick, seat) of the three seats that follow.
FOLLOWERS: Final = tuple(
    tuple((pos, (leader + pos) & 3) for pos in (1, 2, 3)) for leader in range(4)
)


def _seat(value: object) -> int | None:
    return value if type(value) is int and 0 <= value <= 3 else None


class Parsed:
    """The common fields of a record once their format is known to be right.

    A plain class with its own ``__init__`` (as ``Walk``): mypyc compiles it to a
    native one, where a dataclass's generated ``__init__`` would run interpreted."""

    def __init__(
        self,
        dealer: int,
        upcard: int,
        contract: Contract,
        multiplier: int,
        march: bool,
        melds: list[tuple[int, Meld]],
        bella: int | None,
        revoke: tuple[int, int] | None,
    ) -> None:
        self.dealer = dealer
        self.upcard = upcard
        self.contract = contract
        self.multiplier = multiplier
        self.march = march
        self.melds = melds
        self.bella = bella
        self.revoke = revoke

    @property
    def forehand(self) -> int:
        """The seat left of the dealer."""
        return (self.dealer + 1) % 4


#: Every played contract by its record fields (kind, declarer, trump letter).
CONTRACT_BY_FIELDS: Final = {
    (kind, declarer, SUIT_LETTERS[trump]): contract
    for (kind, declarer, trump), contract in CONTRACTS.items()
    if trump is not None
}
DOUBLING: Final = {"kontra": 2, "re": 4}
_NO_MELDS: Final[list[object]] = []


def _parse_well_formed(rec: Json) -> Parsed | None:
    """The common fields of a record in which every one is well formed, with no
    helper calls; None for anything else (``Checker.parse_common_slowly`` then runs
    the field by field checks and says what is wrong)."""
    dealer, upcard_text = rec.get("dealer"), rec.get("upcard")
    if (
        rec.get("format") != FORMAT
        or type(dealer) is not int
        or not 0 <= dealer <= 3
        or type(upcard_text) is not str
    ):
        return None
    upcard = CARD_BY_TEXT.get(upcard_text)
    fields = rec.get("contract")
    if upcard is None or type(fields) is not dict:
        return None
    kind = fields.get("kind")
    if kind == "thrown_in" and len(fields) == 1:
        contract: Contract | None = THROWN_IN
    else:
        declarer, trump = fields.get("declarer"), fields.get("trump")
        if type(kind) is not str or type(declarer) is not int or type(trump) is not str:
            return None
        contract = CONTRACT_BY_FIELDS.get((kind, declarer, trump))
    doubling = rec.get("doubling")
    if doubling is None:
        multiplier = 1 if "doubling" not in rec else 0
    else:
        multiplier = DOUBLING.get(doubling, 0) if type(doubling) is str else 0
    march = rec.get("march", False)
    bella = rec.get("bella")
    if (
        contract is None
        or not multiplier
        or (march is not True and march is not False)
        or (bella is not None and (type(bella) is not int or not 0 <= bella <= 3))
    ):
        return None
    revoke_value, revoke = rec.get("revoke"), None
    if revoke_value is not None or "revoke" in rec:
        revoke = _well_formed_revoke(revoke_value)
        if revoke is None:
            return None
    melds = _well_formed_melds(rec.get("melds", _NO_MELDS))
    if melds is None:
        return None
    return Parsed(dealer, upcard, contract, multiplier, march, melds, bella, revoke)


def _well_formed_revoke(value: object) -> tuple[int, int] | None:
    """A record's revoke as (seat, card); None when it is malformed."""
    if type(value) is not dict:
        return None
    seat, text = value.get("seat"), value.get("card")
    if type(seat) is not int or not 0 <= seat <= 3 or type(text) is not str:
        return None
    card = CARD_BY_TEXT.get(text)
    return None if card is None else (seat, card)


def _well_formed_melds(value: object) -> list[tuple[int, Meld]] | None:
    """The melds as ``parse_melds`` gives them when all are well formed; else None."""
    if type(value) is not list:
        return None
    out = []
    for i, item in enumerate(value):
        if type(item) is not dict:
            return None
        seat = item.get("seat")
        if type(seat) is not int or not 0 <= seat <= 3:
            return None
        run = run_of_cards(item.get("cards"))
        if run is None:
            return None
        out.append((i, Meld(seat, run)))
    return out


class Checker:
    """Collects the problems of one record while checking it."""

    __slots__ = ("options", "preset", "problems", "record", "unknown")

    def __init__(self, record: Json, preset: str, options: Options) -> None:
        self.record = record
        self.preset = preset
        self.options = options
        self.problems: list[Problem] = []
        #: ``unknown_field`` problems, kept apart so that they do not stop the checks of
        #: the known fields (every problem is listed at once).
        self.unknown: list[Problem] = []

    def bad(self, message: str, where: str, **params: Any) -> None:
        """Record a ``bad_format`` problem."""
        self.problems.append(Problem(Code.BAD_FORMAT, message, field=where, params=params))

    def refuse_unknown_fields(self, allowed: frozenset[str], game: str) -> None:
        """An ``unknown_field`` problem for each top-level field that is not in
        ``allowed`` (the game's ``RECORD_FIELDS``), in name order; ``game`` names the
        game in the message ("a Belote deal record")."""
        if allowed.issuperset(self.record):
            return
        keys: list[object] = list(self.record)  # a JSON object's keys, or anything a caller passed
        for name in sorted(str(key) for key in keys if key not in allowed):
            self.unknown.append(
                Problem(
                    Code.UNKNOWN_FIELD,
                    f"{game} has no field {name!r}: remove it",
                    field=name,
                    params={"field": name},
                )
            )

    # ----- common fields -------------------------------------------------------------

    def parse_common(self) -> Parsed | None:
        """Dealer, upcard, contract, doubling, March, melds, Bella, revoke."""
        parsed = _parse_well_formed(self.record)
        return parsed if parsed is not None else self.parse_common_slowly()

    def parse_common_slowly(self) -> Parsed | None:
        """``parse_common`` field by field, recording each problem."""
        rec = self.record
        if rec.get("format") != FORMAT:
            self.bad(f"format must be {FORMAT!r}", "format")
        dealer = _seat(rec.get("dealer"))
        if dealer is None:
            self.bad("dealer must be a seat 0-3", "dealer")
        upcard = parse_card(rec.get("upcard"))
        if upcard is None:
            self.bad(f"upcard {rec.get('upcard')!r} is not a card", "upcard")
        contract = self.parse_contract(rec.get("contract"))
        doubling = rec.get("doubling")
        if doubling not in (None, "kontra", "re") or (doubling is None and "doubling" in rec):
            self.bad("doubling must be 'kontra' or 're' (or absent)", "doubling")
        march = rec.get("march", False)
        if not isinstance(march, bool):
            self.bad("march must be true or false", "march")
        melds = self.parse_melds(rec.get("melds", []))
        bella = rec.get("bella")
        if bella is not None and _seat(bella) is None:
            self.bad("bella must be a seat 0-3", "bella")
        revoke = self.parse_revoke(rec.get("revoke"))
        if self.problems or dealer is None or upcard is None or contract is None:
            return None
        return Parsed(
            dealer,
            upcard,
            contract,
            1 if doubling is None else DOUBLING[doubling],
            march is True,
            melds,
            _seat(bella),
            revoke,
        )

    def parse_contract(self, value: object) -> Contract | None:
        """The contract object, or None after a format problem."""
        if not isinstance(value, dict) or value.get("kind") not in KINDS:
            self.bad("contract must be {kind: orgi|kleines|besser|thrown_in, ...}", "contract")
            return None
        kind = value["kind"]
        if kind == "thrown_in":
            if set(value) != {"kind"}:
                self.bad("a thrown-in contract has no declarer or trump", "contract")
                return None
            return THROWN_IN
        declarer, trump = _seat(value.get("declarer")), parse_suit(value.get("trump"))
        if declarer is None:
            self.bad("contract.declarer must be a seat 0-3", "contract.declarer")
        if trump is None:
            self.bad("contract.trump must be one of C, S, H, D", "contract.trump")
        if declarer is None or trump is None:
            return None
        return CONTRACTS[kind, declarer, trump]

    def parse_melds(self, value: object) -> list[tuple[int, Meld]]:
        """Announced melds as (list index, Meld); problems for bad entries."""
        if not isinstance(value, list):
            self.bad("melds must be a list", "melds")
            return []
        out = []
        for i, item in enumerate(value):
            seat = _seat(item.get("seat")) if isinstance(item, dict) else None
            cards = item.get("cards") if isinstance(item, dict) else None
            run = run_of_cards(cards) if seat is not None else None
            if run is None:
                run = self.meld_run_slowly(i, seat, cards)
            if run is not None:
                assert seat is not None
                out.append((i, Meld(seat, run)))
        return out

    def meld_run_slowly(self, i: int, seat: int | None, cards: object) -> Run | None:
        """The run of meld ``i`` when ``run_of_cards`` found none, or its problem."""
        where = f"melds[{i}]"
        if seat is None or not isinstance(cards, list):
            self.bad(f"meld {i} must be {{seat: 0-3, cards: [...]}}", where)
            return None
        unknown = [c for c in cards if parse_card(c) is None]
        if unknown:
            self.bad(f"meld {i} of seat {seat}: {unknown[0]!r} is not a card", where, seat=seat)
            return None
        run = run_of_cards(cards)
        if run is None:
            shown = ", ".join(CARD_TEXT[c] for c in (parse_card(t) or 0 for t in cards))
            self.problems.append(
                Problem(
                    Code.NOT_A_MELD,
                    f"seat {seat}'s meld {shown} is not 3 or more cards of one suit in sequence",
                    field=where,
                    params={"seat": seat, "cards": [str(c) for c in cards]},
                )
            )
        return run

    def parse_revoke(self, value: object) -> tuple[int, int] | None:
        """The revoke as (seat, card)."""
        if value is None:
            if "revoke" in self.record:
                self.bad("revoke must be {seat, card} (or absent)", "revoke")
            return None
        seat = _seat(value.get("seat")) if isinstance(value, dict) else None
        card = parse_card(value.get("card")) if isinstance(value, dict) else None
        if seat is None or card is None:
            self.bad("revoke must be {seat: 0-3, card: a card}", "revoke")
            return None
        return seat, card

    def check_meld_duplicates(self, melds: list[tuple[int, Meld]]) -> None:
        """One seat listing the same or overlapping melds."""
        if len(melds) < 2:
            return
        seen: dict[int, list[tuple[int, Run]]] = {}
        for i, meld in melds:
            for j, other in seen.get(meld.seat, []):
                if other.mask & meld.run.mask:
                    self.problems.append(
                        Problem(
                            Code.DUPLICATE_MELD,
                            f"seat {meld.seat} announces {'-'.join(meld.run.texts())} twice "
                            f"(melds {j} and {i})",
                            field=f"melds[{i}]",
                            params={"seat": meld.seat, "cards": meld.run.texts(), "other": j},
                        )
                    )
            seen.setdefault(meld.seat, []).append((i, meld.run))

    # ----- results ---------------------------------------------------------------------

    def failed(self) -> bool:
        """Whether the record has a problem (an unknown field included)."""
        return bool(self.problems) or bool(self.unknown)

    def invalid(self, mode: str | None) -> Json:
        """The result of an invalid record: the unknown fields' problems, then the rest."""
        return {
            "valid": False,
            "errors": [p.to_dict() for p in self.unknown + self.problems],
            "mode": mode,
            "rules": rules_dict(self.preset, self.options),
            "engine_version": ENGINE_VERSION,
        }

    def valid(self, mode: str, parsed: Parsed, scored: Json, tricks: list[Json] | None) -> Json:
        """The result of a valid record."""
        c = parsed.contract
        revoke = parsed.revoke
        out: Json = {
            "valid": True,
            "errors": [],
            "mode": mode,
            "trump": None if c.trump is None else SUIT_LETTERS[c.trump],
            "declarer": c.declarer,
            "playing_team": None if c.declarer is None else c.declarer & 1,
            "kind": c.kind,
            "multiplier": parsed.multiplier,
            "march": parsed.march,
        }
        if tricks is not None:
            out["tricks"] = tricks
        out.update(scored)
        out["revoke"] = (
            None if revoke is None else {"seat": revoke[0], "card": CARD_TEXT[revoke[1]]}
        )
        out["rules"] = rules_dict(self.preset, self.options)
        out["engine_version"] = ENGINE_VERSION
        return out


def thrown_in_score() -> Json:
    """The numbers of a thrown-in deal: nothing scored (see DECISIONS.md)."""
    return {
        "melds": {"winning_team": None, "scored": []},
        "bella": None,
        "points": [0, 0],
        "total": 0,
        "beet": 0,
        "outcome": "thrown_in",
        "winner_team": None,
        "small_points": [0, 0],
        "match_points": [0, 0],
    }


def _thrown_in_extras(ck: Checker, parsed: Parsed) -> None:
    rec = ck.record
    extras = [
        name
        for name in ("melds", "bella", "doubling", "revoke", "card_points", "tricks_won")
        if rec.get(name) not in (None, [])
    ]
    extras += ["march"] if parsed.march else []
    extras += ["plays"] if rec.get("plays") not in (None, []) else []
    for name in extras:
        ck.problems.append(
            Problem(
                Code.THROWN_IN_NOT_EMPTY,
                f"a thrown-in deal was not played, so it has no {name}",
                field=name,
                params={"field": name},
            )
        )


# ----- full records ----------------------------------------------------------------------


def _parse_hands(ck: Checker, value: object) -> list[int] | None:
    masks = _well_formed_hands(value)
    return masks if masks is not None else _parse_hands_slowly(ck, value)


def _well_formed_hands(value: object) -> list[int] | None:
    """The 4 hands' masks when they are 4 lists of 8 known cards that deal every card
    once; None for anything else (``_parse_hands_slowly`` then says what is wrong).

    A hand's mask is the OR of its cards' bits; 4 hands of at most 8 cards that together
    set all 32 bits hold no card twice."""
    if type(value) is not list or len(value) != 4:
        return None
    bits = BIT_BY_TEXT
    try:
        # written out, as a list of 8 is all it accepts (one loop fewer to run)
        masks = [
            bits[h[0]]
            | bits[h[1]]
            | bits[h[2]]
            | bits[h[3]]
            | bits[h[4]]
            | bits[h[5]]
            | bits[h[6]]
            | bits[h[7]]
            if type(h) is list and len(h) == 8
            else -1
            for h in value
        ]
    except (KeyError, TypeError):  # no card text, or not even a text
        return None
    return masks if masks[0] | masks[1] | masks[2] | masks[3] == ALL_CARDS else None


def _parse_hands_slowly(ck: Checker, value: object) -> list[int] | None:
    return parse_hands_checked(ck, value, seats=4, hand_size=8)


def parse_hands_checked(
    ck: Checker, value: object, *, seats: int, hand_size: int
) -> list[int] | None:
    """The hands as card masks, one per seat, or None after telling ``ck`` every problem:
    not ``seats`` lists, a text that is no card, a card dealt twice, a hand that does not
    hold ``hand_size`` cards. Shared by every game with its own seat count and hand size."""
    if (
        not isinstance(value, list)
        or len(value) != seats
        or not all(isinstance(h, list) for h in value)
    ):
        ck.bad(f"hands must be {seats} lists of {hand_size} cards", "hands")
        return None
    masks = []
    before = len(ck.problems)
    owner: dict[int, int] = {}
    for seat, hand in enumerate(value):
        m = 0
        for text in hand:
            card = parse_card(text)
            if card is None:
                ck.bad(f"seat {seat}'s hand: {text!r} is not a card", f"hands[{seat}]", seat=seat)
                continue
            if card in owner:
                ck.problems.append(
                    Problem(
                        Code.DUPLICATE_CARD,
                        f"{CARD_TEXT[card]} is dealt twice (seat {owner[card]} and seat {seat})",
                        field=f"hands[{seat}]",
                        params={"card": CARD_TEXT[card], "seats": [owner[card], seat]},
                    )
                )
            owner[card] = seat
            m |= 1 << card
        if len(hand) != hand_size:
            ck.problems.append(
                Problem(
                    Code.WRONG_CARD_COUNT,
                    f"seat {seat} holds {len(hand)} cards instead of {hand_size}",
                    field=f"hands[{seat}]",
                    params={"seat": seat, "count": len(hand)},
                )
            )
        masks.append(m)
    return None if len(ck.problems) > before else masks


def _check_melds_held(ck: Checker, melds: list[tuple[int, Meld]], hands: list[int]) -> None:
    for i, meld in melds:
        hand, run = hands[meld.seat], meld.run
        missing = run.mask & ~hand
        if not missing and not hand & run.around:  # held, and no card of its suit next to it
            continue
        name = "-".join(run.texts())
        if missing:
            lacking = [CARD_TEXT[c] for c in run.cards if missing >> c & 1]
            ck.problems.append(
                Problem(
                    Code.MELD_NOT_HELD,
                    f"seat {meld.seat} announces {name} but did not hold {', '.join(lacking)}",
                    field=f"melds[{i}]",
                    params={"seat": meld.seat, "cards": run.texts(), "missing": lacking},
                )
            )
        else:
            whole = next(r for r in runs_of(hand) if r.mask & run.mask)
            ck.problems.append(
                Problem(
                    Code.MELD_NOT_MAXIMAL,
                    f"seat {meld.seat} announces {name} but holds the run "
                    f"{'-'.join(whole.texts())}: a meld is the whole run",
                    field=f"melds[{i}]",
                    params={"seat": meld.seat, "cards": run.texts(), "run": whole.texts()},
                )
            )


def _not_in_hand(seat: int, card: int, index: int, hands: list[int]) -> Problem:
    text = CARD_TEXT[card]
    holder = next((s for s in range(4) if hands[s] >> card & 1), None)
    if holder == seat:
        message = f"seat {seat} plays {text} a second time"
    else:
        message = f"seat {seat} plays {text}, which seat {holder} holds"
    return Problem(
        Code.CARD_NOT_IN_HAND,
        message,
        play=index,
        field=f"plays[{index}]",
        params={"seat": seat, "card": text, "holder": holder},
    )


class Walk:
    """Where the play stands after the recorded plays."""

    def __init__(
        self,
        tricks: list[Json],
        card_points: list[int],
        tricks_won: list[int],
        hands: list[int],
        next_seat: int,
        open_trick: list[int],
    ) -> None:
        self.tricks = tricks
        self.card_points = card_points
        self.tricks_won = tricks_won
        self.hands = hands
        self.next_seat = next_seat
        self.open_trick = open_trick


def _walk_full(
    start: list[int], plays: list[int], forehand: int, table: TrumpTable, options: Options
) -> Walk | None:
    """Fast path for exactly 32 plays; None when any play is wrong (the caller then
    runs ``walk_plays`` to find and describe it).

    A seat's hand at any moment is its dealt hand less the cards played so far
    (``played``, one mask for the table): every card must be in its player's hand then,
    which also refuses a card played twice. Everything here is an int, so compiled (see
    ``native``) the walk allocates nothing but the tricks it returns."""
    if options.overtrump_on_trump_lead or options.partner_exempt or options.no_undertrump:
        return None
    power, trump, tmask = table.power, table.trump, table.trump_mask
    beaten, pts = table.beaten_by, table.points
    text, suit = CARD_TEXT, SUIT_OF
    tricks: list[Json] = []
    played = cp0 = cp1 = tw0 = 0
    seat = forehand
    for i in range(0, 32, 4):
        leader = seat  # ``seat`` becomes the trick's winner
        best = plays[i]
        if not (start[leader] & ~played) >> best & 1:
            return None
        played |= 1 << best
        led = suit[best]
        ledmask = SUIT_MASK[led]
        for pos in range(1, 4):
            follower = (leader + pos) & 3
            c = plays[i + pos]
            hand = start[follower] & ~played
            if not hand >> c & 1:
                return None
            s = suit[c]
            if s == led:
                if power[c] > power[best]:
                    best, seat = c, follower
            elif hand & ledmask:
                return None
            elif s == trump:
                if suit[best] == trump:
                    higher = hand & beaten[best]
                    if higher and not higher >> c & 1:
                        return None
                if power[c] > power[best]:
                    best, seat = c, follower
            elif hand & tmask:
                return None
            played |= 1 << c
        c0, c1, c2, c3 = plays[i], plays[i + 1], plays[i + 2], plays[i + 3]
        points = pts[c0] + pts[c1] + pts[c2] + pts[c3]
        if i == 28:
            points += LAST_TRICK_BONUS
        if seat & 1:
            cp1 += points
        else:
            cp0 += points
            tw0 += 1
        tricks.append(
            {
                "leader": leader,
                "cards": [text[c0], text[c1], text[c2], text[c3]],
                "winner": seat,
                "points": points,
            }
        )
    return Walk(tricks, [cp0, cp1], [tw0, 8 - tw0], [0, 0, 0, 0], seat, [])


def walk_plays(
    start: list[int], plays: list[int], forehand: int, table: TrumpTable, options: Options
) -> Walk | Problem:
    """Play the cards in order, checking each; the first broken play is the problem."""
    h = list(start)
    power, trump, tmask = table.power, table.trump, table.trump_mask
    beaten, pts = table.beaten_by, table.points
    strict_lead, exempt = options.overtrump_on_trump_lead, options.partner_exempt
    by_choice = options.no_undertrump  # a house rule the inline test below does not know
    tricks: list[Json] = []
    cp, tw = [0, 0], [0, 0]
    n = len(plays)
    seat = forehand
    i = 0
    while i < n:
        leader = seat
        best = led_card = plays[i]
        if not h[seat] >> best & 1:
            return _not_in_hand(seat, best, i, start)
        h[seat] ^= 1 << best
        led = best >> 3
        ledmask = SUIT_MASK[led]
        best_pos = 0
        end = i + 4 if i + 4 <= n else n
        for j in range(i + 1, end):
            pos = j - i
            seat = (leader + pos) & 3
            c = plays[j]
            hand = h[seat]
            if not hand >> c & 1:
                return _not_in_hand(seat, c, j, start)
            s = c >> 3
            if by_choice:
                if not choice(hand, plays[i:j], table, options).legal >> c & 1:
                    return illegal_play_problem(seat, c, j, hand, plays[i:j], table, options)
            elif s == led:
                if strict_lead and led == trump:
                    higher = hand & beaten[best]
                    if higher and not higher >> c & 1:
                        return illegal_play_problem(seat, c, j, hand, plays[i:j], table, options)
            elif hand & ledmask or (
                hand & tmask
                and not (exempt and best_pos == pos - 2)
                and (
                    s != trump
                    or (best >> 3 == trump and hand & beaten[best] and not beaten[best] >> c & 1)
                )
            ):
                return illegal_play_problem(seat, c, j, hand, plays[i:j], table, options)
            h[seat] = hand ^ (1 << c)
            if (s in (led, trump)) and power[c] > power[best]:
                best, best_pos = c, pos
        if end - i < 4:
            return Walk(tricks, cp, tw, h, (leader + end - i) & 3, plays[i:end])
        winner = (leader + best_pos) & 3
        points = pts[led_card] + pts[plays[i + 1]] + pts[plays[i + 2]] + pts[plays[i + 3]]
        if i == 28:
            points += LAST_TRICK_BONUS
        cp[winner & 1] += points
        tw[winner & 1] += 1
        tricks.append(
            {
                "leader": leader,
                "cards": [CARD_TEXT[x] for x in plays[i:end]],
                "winner": winner,
                "points": points,
            }
        )
        seat = winner
        i += 4
    return Walk(tricks, cp, tw, h, seat, [])


def _parse_plays(ck: Checker, value: object) -> list[int] | None:
    if not isinstance(value, list):
        ck.bad("plays must be a list of cards", "plays")
        return None
    cards = CARD_BY_TEXT
    try:
        return [cards[text] for text in value]
    except (KeyError, TypeError):  # no card text, or not even a text
        pass
    for i, text in enumerate(value):
        if parse_card(text) is None:
            ck.problems.append(
                Problem(
                    Code.BAD_FORMAT,
                    f"play {i}: {text!r} is not a card",
                    play=i,
                    field=f"plays[{i}]",
                )
            )
            break
    return None


def _check_revoke(
    ck: Checker, revoke: tuple[int, int], walk: Walk, n: int, table: TrumpTable
) -> None:
    seat, card = revoke
    text = CARD_TEXT[card]
    params = {"seat": seat, "card": text}
    if n >= 32:
        ck.problems.append(
            Problem(
                Code.TOO_MANY_PLAYS,
                "a revoke cannot follow the last card",
                field="revoke",
                params=params,
            )
        )
    elif seat != walk.next_seat:
        ck.problems.append(
            Problem(
                Code.REVOKE_WRONG_SEAT,
                f"the revoke is by seat {seat}, but seat {walk.next_seat} was to play",
                play=n,
                field="revoke.seat",
                params={**params, "expected": walk.next_seat},
            )
        )
    elif not walk.hands[seat] >> card & 1:
        ck.problems.append(
            Problem(
                Code.CARD_NOT_IN_HAND,
                f"seat {seat} revokes with {text}, which it does not hold",
                play=n,
                field="revoke.card",
                params=params,
            )
        )
    elif choice(walk.hands[seat], walk.open_trick, table, ck.options).legal >> card & 1:
        ck.problems.append(
            Problem(
                Code.REVOKE_NOT_ILLEGAL,
                f"seat {seat} could legally play {text}: it is no revoke",
                play=n,
                field="revoke.card",
                params=params,
            )
        )


def _check_bella_held(ck: Checker, parsed: Parsed, hands: list[int], table: TrumpTable) -> None:
    seat = parsed.bella
    if seat is None:
        return
    need = (1 << table.king) | (1 << table.queen)
    if hands[seat] & need != need:
        ck.problems.append(
            Problem(
                Code.BELLA_NOT_HELD,
                f"seat {seat} announces Bella without holding {CARD_TEXT[table.king]} "
                f"and {CARD_TEXT[table.queen]}",
                field="bella",
                params={"seat": seat, "cards": [CARD_TEXT[table.king], CARD_TEXT[table.queen]]},
            )
        )


def check_full(ck: Checker, parsed: Parsed) -> Json:
    """Check a record with hands and plays."""
    rec = ck.record
    if "card_points" in rec or "tricks_won" in rec:
        for name in SUMMARY_ONLY:
            if name in rec:
                ck.bad(f"{name} belongs to a summary record, not to one with hands", name)
    hands = _parse_hands(ck, rec["hands"])
    thrown_in = parsed.contract.kind == "thrown_in"
    if "plays" not in rec and not thrown_in:
        ck.bad("a record with hands must list its plays", "plays")
    plays = _parse_plays(ck, rec.get("plays", []))
    if hands is not None and not hands[parsed.dealer] >> parsed.upcard & 1:
        ck.problems.append(
            Problem(
                Code.CARD_NOT_IN_HAND,
                f"the upcard {CARD_TEXT[parsed.upcard]} is not in the "
                f"dealer's (seat {parsed.dealer}) hand",
                field="upcard",
                params={"seat": parsed.dealer, "card": CARD_TEXT[parsed.upcard]},
            )
        )
    if thrown_in:
        return thrown_in_score()
    trump = parsed.contract.trump
    assert trump is not None and parsed.contract.declarer is not None
    table = TABLES[trump]
    if hands is None or plays is None:
        return {}
    if parsed.melds:
        _check_melds_held(ck, parsed.melds, hands)
    if parsed.bella is not None:
        _check_bella_held(ck, parsed, hands, table)
    n = len(plays)
    if n > 32:
        ck.problems.append(
            Problem(
                Code.TOO_MANY_PLAYS,
                f"{n} plays listed; a deal has 32",
                play=32,
                field="plays[32]",
                params={"count": n},
            )
        )
        return {}
    walk: Walk | Problem | None = None
    if n == 32:
        walk = _walk_full(hands, plays, parsed.forehand, table, ck.options)
    if walk is None:
        walk = walk_plays(hands, plays, parsed.forehand, table, ck.options)
    if isinstance(walk, Problem):
        ck.problems.append(walk)
        return {}
    if parsed.revoke is not None:
        _check_revoke(ck, parsed.revoke, walk, n, table)
    elif n < 32:
        ck.problems.append(
            Problem(
                Code.INCOMPLETE_PLAY,
                f"only {n} of 32 cards are played and no revoke is stated",
                play=n,
                field="plays",
                params={"count": n, "next_seat": walk.next_seat},
            )
        )
    if ck.problems:
        return {}
    return _score_full(ck, parsed, walk, plays, table)


def _score_full(
    ck: Checker, parsed: Parsed, walk: Walk, plays: list[int], table: TrumpTable
) -> Json:
    declarer = parsed.contract.declarer
    assert declarer is not None
    playing = declarer & 1
    melds = [m for _, m in parsed.melds]
    bella, forehand, revoke = parsed.bella, parsed.forehand, parsed.revoke
    if revoke is not None:
        n = len(plays)
        melds = [m for m in melds if (m.seat - forehand) % 4 <= n]
        if table.king not in plays and table.queen not in plays:
            bella = None
    tricks_won = walk.tricks_won
    # Positional (the DealFacts field order): cheaper than keywords on this hot path.
    facts = DealFacts(
        parsed.contract.kind,
        declarer,
        table.trump,
        forehand,
        parsed.multiplier,
        parsed.march,
        (walk.card_points[0], walk.card_points[1]),
        tricks_won[playing] == 8,
        tricks_won[1 - playing] == 0,
        tuple(melds),
        bella,
        None if revoke is None else revoke[0],
    )
    out = score_deal(facts, ck.options)
    out["tricks_won"] = walk.tricks_won
    out["tricks"] = walk.tricks
    return out


# ----- summary records -------------------------------------------------------------------


def int_pair(ck: Checker, name: str, high: int) -> tuple[int, int] | None:
    """The record's ``name`` as two whole numbers from 0 to ``high`` (one per team), or
    None after a ``bad_format`` problem."""
    value = ck.record.get(name)
    if (
        not isinstance(value, list)
        or len(value) != 2
        or not all(type(v) is int and 0 <= v <= high for v in value)
    ):
        ck.bad(f"{name} must be two whole numbers 0-{high}, one per team", name)
        return None
    return value[0], value[1]


def _claims(ck: Checker, parsed: Parsed, trump: int) -> None:
    """Two seats claiming one card (melds, Bella, revoke card, upcard)."""
    owner: dict[int, tuple[int, str]] = {parsed.upcard: (parsed.dealer, "upcard")}
    claims: list[tuple[int, int, str]] = []
    for i, meld in parsed.melds:
        claims += [(c, meld.seat, f"melds[{i}]") for c in meld.run.cards]
    if parsed.bella is not None:
        table = TABLES[trump]
        claims += [(table.king, parsed.bella, "bella"), (table.queen, parsed.bella, "bella")]
    if parsed.revoke is not None:
        claims.append((parsed.revoke[1], parsed.revoke[0], "revoke.card"))
    for card, seat, where in claims:
        prev = owner.setdefault(card, (seat, where))
        if prev[0] != seat:
            ck.problems.append(
                Problem(
                    Code.DUPLICATE_CARD,
                    f"seat {seat} ({where}) and seat {prev[0]} ({prev[1]}) both claim "
                    f"{CARD_TEXT[card]}",
                    field=where,
                    params={"card": CARD_TEXT[card], "seats": [prev[0], seat]},
                )
            )


def _summary_runs(ck: Checker, parsed: Parsed) -> None:
    """Melds of one seat that touch form one longer run: not maximal."""
    for i, meld in parsed.melds:
        others = 0
        for j, other in parsed.melds:
            if j != i and other.seat == meld.seat:
                others |= other.run.mask
        if others & meld.run.mask:
            continue  # reported as duplicate_meld
        whole = next(r for r in runs_of(others | meld.run.mask) if r.mask & meld.run.mask)
        if whole != meld.run:
            ck.problems.append(
                Problem(
                    Code.MELD_NOT_MAXIMAL,
                    f"seat {meld.seat} announces {'-'.join(meld.run.texts())} next to another "
                    f"meld of its own: together they are one run {'-'.join(whole.texts())}",
                    field=f"melds[{i}]",
                    params={"seat": meld.seat, "cards": meld.run.texts(), "run": whole.texts()},
                )
            )


def _check_summary_points(
    ck: Checker,
    points: tuple[int, int],
    tricks: tuple[int, int] | None,
    revoke_card_value: int | None,
) -> None:
    """``revoke_card_value``: None without a revoke, else the revoke card's points."""
    revoke = revoke_card_value is not None

    def impossible(message: str, **params: Any) -> None:
        ck.problems.append(
            Problem(
                Code.IMPOSSIBLE_POINTS,
                message,
                field="card_points",
                params={"card_points": list(points), **params},
            )
        )

    if tricks is not None and (sum(tricks) > 7 if revoke else sum(tricks) != 8):
        ck.problems.append(
            Problem(
                Code.IMPOSSIBLE_TRICKS,
                f"tricks {tricks[0]}:{tricks[1]} "
                + (
                    "exceed the 7 tricks a revoke leaves room for"
                    if revoke
                    else "do not add up to 8"
                ),
                field="tricks_won",
                params={"tricks_won": list(tricks)},
            )
        )
        return
    if revoke:
        assert revoke_card_value is not None
        if not revoke_feasible(points, tricks, revoke_card_value=revoke_card_value):
            impossible(
                f"card points {points[0]}:{points[1]} cannot come from the tricks "
                "taken before a revoke (no last trick, and the revoke card is in no trick: "
                f"at most {CARD_SUM - revoke_card_value} in all)"
            )
        return
    if sum(points) != DEAL_POINTS:
        impossible(
            f"card points {points[0]}:{points[1]} add up to {sum(points)}, not {DEAL_POINTS}"
        )
        return
    for team in (0, 1):
        ok = (
            full_deal_feasible(tricks[team], points[team])
            if tricks is not None
            else full_deal_points_feasible(points[team])
        )
        if not ok:
            with_tricks = "" if tricks is None else f" with {tricks[team]} tricks"
            impossible(
                f"team {team} cannot have {points[team]} card points{with_tricks}: "
                "no set of tricks gives that",
                team=team,
            )


def check_summary(ck: Checker, parsed: Parsed) -> Json:
    """Check a score-sheet record."""
    rec = ck.record
    for name in FULL_ONLY:
        if name in rec:
            ck.bad(f"{name} belongs to a full record (with hands)", name)
    if parsed.contract.kind == "thrown_in":
        return thrown_in_score()
    points = int_pair(ck, "card_points", 164)
    tricks = int_pair(ck, "tricks_won", 8) if "tricks_won" in rec else None
    trump, declarer = parsed.contract.trump, parsed.contract.declarer
    assert trump is not None and declarer is not None
    _claims(ck, parsed, trump)
    _summary_runs(ck, parsed)
    if points is None:
        return {}
    revoke_value = None if parsed.revoke is None else TABLES[trump].points[parsed.revoke[1]]
    _check_summary_points(ck, points, tricks, revoke_value)
    if ck.problems:
        return {}
    playing = declarer & 1
    took_all = tricks[playing] == 8 if tricks is not None else points[playing] == 164
    trickless = tricks[1 - playing] == 0 if tricks is not None else points[1 - playing] == 0
    facts = DealFacts(
        kind=parsed.contract.kind,
        declarer=declarer,
        trump=trump,
        forehand=parsed.forehand,
        multiplier=parsed.multiplier,
        march=parsed.march,
        card_points=points,
        playing_took_all=took_all,
        defenders_trickless=trickless,
        melds=tuple(m for _, m in parsed.melds),
        bella=parsed.bella,
        revoke_seat=None if parsed.revoke is None else parsed.revoke[0],
    )
    out = score_deal(facts, ck.options)
    out["tricks_won"] = None if tricks is None else list(tricks)
    return out


# ----- entry point -----------------------------------------------------------------------


def resolve_record_rules(record: object) -> tuple[str, Options] | Json:
    """The preset and options a record names, or the result of a record that is no
    object or names unknown rules."""
    if not isinstance(record, dict):
        ck = Checker({}, "klammern", Options())
        ck.bad("a deal record must be a JSON object", "")
        return ck.invalid(None)
    try:
        return resolve_named_rules(record.get("rules"))
    except RulesError as exc:
        return {
            "valid": False,
            "mode": None,
            "rules": None,
            "engine_version": ENGINE_VERSION,
            "errors": [
                Problem(
                    Code.UNKNOWN_RULES, exc.message, field="rules", params=dict(exc.params)
                ).to_dict()
            ],
        }


def _check(record: object) -> Json:
    resolved = resolve_record_rules(record)
    if isinstance(resolved, dict):
        return resolved
    assert isinstance(record, dict)
    return check_klammern(record, resolved[0], resolved[1])


def check_klammern(record: Json, preset: str, options: Options) -> Json:
    """Check a record of the 4-player Klammern game under resolved rules."""
    ck = Checker(record, preset, options)
    ck.refuse_unknown_fields(RECORD_FIELDS, "a Klammern deal record")
    mode = "full" if "hands" in record else "summary"
    parsed = ck.parse_common()
    if parsed is None:
        return ck.invalid(mode)
    if parsed.contract.trump is not None:
        ck.problems += contract_problems(parsed.contract, parsed.upcard >> 3)
    if "bidding" in record:
        ck.problems += bidding_problems(
            record["bidding"],
            forehand=parsed.forehand,
            upcard_suit=parsed.upcard >> 3,
            contract=parsed.contract,
        )
    ck.check_meld_duplicates(parsed.melds)
    if parsed.contract.kind == "thrown_in":
        _thrown_in_extras(ck, parsed)
    scored = check_full(ck, parsed) if mode == "full" else check_summary(ck, parsed)
    if ck.failed():
        return ck.invalid(mode)
    tricks = scored.pop("tricks", [] if mode == "full" else None)
    return ck.valid(mode, parsed, scored, tricks)


def unchecked(problem: Problem) -> Json:
    """The result for an input that could not be checked at all."""
    return {
        "valid": False,
        "errors": [problem.to_dict()],
        "mode": None,
        "rules": None,
        "engine_version": ENGINE_VERSION,
    }


def check(record: object) -> Json:
    """Validate one Klammern (4-player) deal record and compute its result; never raises.

    ``games.engine.check`` (``dispatch.check``) checks records of every preset."""
    try:
        return _check(record)
    except Exception as exc:  # noqa: BLE001 - check() must answer every input
        return unchecked(Problem(Code.INTERNAL_ERROR, f"the engine failed on this record: {exc!r}"))


__all__ = [
    "COMMON_FIELDS",
    "ENGINE_VERSION",
    "RECORD_FIELDS",
    "check",
    "check_klammern",
    "resolve_record_rules",
    "walk_plays",
]
