"""A plain Belote Contrée reference, written from RULES.md "Belote Contrée" alone, for the
engine tests.

Slow and obvious on purpose: cards are their texts (``"JH"``), ranks are looked up in
strings, nothing is precomputed and nothing of ``games.engine`` is imported. It deals
random deals (all 8 cards, 3-2-3 from forehand), runs a random auction with its own
reading of the bidding rules (sometimes a broken one, to hold the engine's refusals to
it), plays the cards with its own legal-move rule, sometimes ends a deal with a revoke,
and scores a finished deal, so ``test_contree`` can hold the engine's ``check`` to it on
thousands of deals.
"""

from __future__ import annotations

import random
from typing import Any

SUITS = "CSHD"
RANKS = "789TJQKA"
TRUMP_HIGH_TO_LOW = "J9ATKQ87"
SIDE_HIGH_TO_LOW = "ATKQJ987"
TRUMP_POINTS = {"J": 20, "9": 14, "A": 11, "T": 10, "K": 4, "Q": 3, "8": 0, "7": 0}
SIDE_POINTS = {"A": 11, "T": 10, "K": 4, "Q": 3, "J": 2, "9": 0, "8": 0, "7": 0}
VALUES: list[Any] = [80, 90, 100, 110, 120, 130, 140, 150, 160, "capot"]


def rank(card: str) -> str:
    return card[0]


def suit(card: str) -> str:
    return card[1]


def points(card: str, trump: str) -> int:
    return TRUMP_POINTS[rank(card)] if suit(card) == trump else SIDE_POINTS[rank(card)]


def beats(card: str, other: str, trump: str, led: str) -> bool:
    """Does ``card`` beat ``other`` in a trick led with ``led``?"""
    if suit(card) == trump and suit(other) != trump:
        return True
    if suit(card) == trump and suit(other) == trump:
        return TRUMP_HIGH_TO_LOW.index(rank(card)) < TRUMP_HIGH_TO_LOW.index(rank(other))
    if suit(card) == led and suit(other) not in (trump, led):
        return True
    if suit(card) == led and suit(other) == led:
        return SIDE_HIGH_TO_LOW.index(rank(card)) < SIDE_HIGH_TO_LOW.index(rank(other))
    return False


def heading(trick: list[str], trump: str) -> int:
    """Position in the trick of the card that heads it."""
    best = 0
    for pos in range(1, len(trick)):
        if beats(trick[pos], trick[best], trump, suit(trick[0])):
            best = pos
    return best


def legal(hand: list[str], trick: list[str], trump: str) -> list[str]:
    """RULES.md "Belote Contrée", Play."""
    if not trick:
        return list(hand)
    led = suit(trick[0])
    follow = [c for c in hand if suit(c) == led]
    trumps = [c for c in hand if suit(c) == trump]
    trumps_in_trick = [c for c in trick if suit(c) == trump]
    higher = [c for c in trumps if all(beats(c, t, trump, led) for t in trumps_in_trick)]
    if led == trump:
        # "each must play a higher trump than the trick's highest if able (partner heading
        # or not), else any trump, else any card"
        if higher:
            return higher
        return trumps if trumps else list(hand)
    if follow:
        return follow
    partner_heads = len(trick) >= 2 and heading(trick, trump) == len(trick) - 2
    if partner_heads:
        return list(hand)
    # "must head it with a trump higher than every trump in the trick, if able; unable,
    # any card"
    return higher if higher else list(hand)


def deal_hands(rng: random.Random, dealer: int) -> list[list[str]]:
    deck = [r + s for s in SUITS for r in RANKS]
    rng.shuffle(deck)
    order = [(dealer + 1 + k) % 4 for k in range(4)]
    hands: list[list[str]] = [[], [], [], []]
    for packet in (3, 2, 3):
        for seat in order:
            hands[seat] += [deck.pop() for _ in range(packet)]
    return hands


def level(value: Any) -> int:
    return 170 if value == "capot" else int(value)


def auction(calls: list[Any], forehand: int) -> dict[str, Any]:
    """The contract an auction leads to, or ``{"error": code, "call": index}`` (RULES.md
    "Bidding"; the codes are the engine's names for these refusals)."""
    last = None  # (seat, value, trump)
    passes, doubling, over = 0, 0, False
    for i, call in enumerate(calls):
        seat = (forehand + i) % 4
        if over or (doubling == 1 and call != "surcoinche"):
            return {"error": "bidding_mismatch", "call": i}
        if call == "pass":
            passes += 1
            over = passes == (3 if last else 4)
        elif call == "coinche":
            if last is None or last[0] % 2 == seat % 2:
                return {"error": "coinche_not_allowed", "call": i}
            doubling = 1
        elif call == "surcoinche":
            if doubling != 1 or last is None or last[0] % 2 != seat % 2:
                return {"error": "surcoinche_not_allowed", "call": i}
            doubling, over = 2, True
        else:
            if call["value"] not in VALUES or isinstance(call["value"], bool):
                return {"error": "bid_value_not_allowed", "call": i}
            if last is not None and level(call["value"]) <= level(last[1]):
                return {"error": "bid_not_higher", "call": i}
            last, passes = (seat, call["value"], call["trump"]), 0
    if doubling == 1:
        over = True
    if not over:
        return {"error": "bidding_mismatch", "call": len(calls)}
    if last is None:
        return {"kind": "thrown_in"}
    return {
        "kind": "contree",
        "declarer": last[0],
        "trump": last[2],
        "value": last[1],
        "doubling": doubling,
    }


def random_calls(rng: random.Random, *, broken: bool = False) -> list[Any]:
    """A random auction; with ``broken`` any call anywhere (mostly illegal somewhere)."""
    calls: list[Any] = []
    if broken:
        for _ in range(rng.randrange(1, 9)):
            roll = rng.random()
            if roll < 0.35:
                calls.append("pass")
            elif roll < 0.5:
                calls.append(rng.choice(["coinche", "surcoinche"]))
            else:
                value = rng.choice([*VALUES, 85, 170, 0, "Capot"])
                calls.append({"value": value, "trump": rng.choice(SUITS)})
        return calls
    if rng.random() < 0.05:
        return ["pass"] * 4
    bid = None  # (place, level)
    passes = 0
    while bid is None or passes < 3:
        place = len(calls)
        roll = rng.random()
        if bid is not None and (place - bid[0]) % 2 == 1 and roll < 0.12:
            calls.append("coinche")
            if rng.random() < 0.35:
                calls.append("surcoinche")
            return calls
        higher = [v for v in VALUES if bid is None or level(v) > bid[1]]
        if higher and (roll < 0.35 or (bid is None and passes == 3)):
            value = rng.choice(higher[:3])
            calls.append({"value": value, "trump": rng.choice(SUITS)})
            bid, passes = (place, level(value)), 0
        else:
            calls.append("pass")
            passes += 1
    return calls


def deal(rng: random.Random, dealer: int) -> dict[str, Any]:
    """A random legal full record, played by this module's rules."""
    hands = deal_hands(rng, dealer)
    forehand = (dealer + 1) % 4
    calls = random_calls(rng)
    contract = auction(calls, forehand)
    record: dict[str, Any] = {
        "format": "klammern-deal/1",
        "rules": "belote-contree",
        "dealer": dealer,
        "hands": [list(h) for h in hands],
        "bids": calls,
        "contract": contract,
    }
    if contract["kind"] == "thrown_in":
        return record
    _play(rng, record, hands, forehand, contract["trump"])
    return record


def _play(
    rng: random.Random, record: dict[str, Any], hands: list[list[str]], seat: int, trump: str
) -> None:
    revoke_at = rng.randrange(32) if rng.random() < 0.15 else -1
    plays: list[str] = []
    trick: list[str] = []
    for index in range(32):
        allowed = legal(hands[seat], trick, trump)
        wrong = [c for c in hands[seat] if c not in allowed]
        if index >= revoke_at >= 0 and wrong:
            record["plays"] = plays
            record["revoke"] = {"seat": seat, "card": rng.choice(wrong)}
            return
        card = rng.choice(allowed)
        hands[seat].remove(card)
        plays.append(card)
        trick.append(card)
        if len(trick) == 4:
            seat = (seat + 1 + heading(trick, trump)) % 4
            trick = []
        else:
            seat = (seat + 1) % 4
    record["plays"] = plays


def tricks_of(record: dict[str, Any]) -> tuple[list[int], list[int]]:
    """Card points (the last trick's 10 included) and tricks per side of the plays."""
    trump = record["contract"]["trump"]
    seat = (record["dealer"] + 1) % 4
    plays = record["plays"]
    card_points, tricks = [0, 0], [0, 0]
    for start in range(0, len(plays) - len(plays) % 4, 4):
        trick = plays[start : start + 4]
        winner = (seat + heading(trick, trump)) % 4
        card_points[winner % 2] += sum(points(c, trump) for c in trick)
        if start == 28:
            card_points[winner % 2] += 10
        tricks[winner % 2] += 1
        seat = winner
    return card_points, tricks


def score_numbers(
    contract: dict[str, Any], card_points: list[int], tricks: list[int] | None, revoke_seat: Any
) -> dict[str, Any]:
    """RULES.md "Points made", "Made", "Failed", "Coinche / surcoinche", "Revoke"."""
    takers = contract["declarer"] % 2
    capot_contract = contract["value"] == "capot"
    game = 250 if capot_contract else 160
    times = [1, 2, 4][contract["doubling"]]
    if revoke_seat is not None:
        result = [0, 0]
        result[1 - revoke_seat % 2] = game * times
        return {"points": result, "outcome": "revoke", "capot": None}
    all_tricks = None
    if tricks is not None and 8 in tricks:
        all_tricks = tricks.index(8)
    made_points = list(card_points)
    if all_tricks is not None:
        made_points[all_tricks] += 90
    made = all_tricks == takers if capot_contract else made_points[takers] >= contract["value"]
    result = [0, 0]
    winner = takers if made else 1 - takers
    if contract["doubling"]:
        result[winner] = game * times
    elif made:
        defenders = made_points[1 - takers]
        tens, units = divmod(defenders, 10)
        rounded = 10 * (tens + 1) if units >= 5 else 10 * tens
        result[1 - takers] = rounded
        result[takers] = (250 if all_tricks == takers else 160) - rounded
    else:
        result[1 - takers] = game
    return {"points": result, "outcome": "made" if made else "failed", "capot": all_tricks}


def score(record: dict[str, Any]) -> dict[str, Any]:
    """Points, outcome, capot, card points and tricks of a valid full record."""
    contract = record["contract"]
    if contract["kind"] == "thrown_in":
        return {"points": [0, 0], "outcome": "thrown_in", "capot": None}
    card_points, tricks = tricks_of(record)
    revoke = record.get("revoke")
    out = score_numbers(contract, card_points, tricks, None if revoke is None else revoke["seat"])
    out["card_points"], out["tricks_won"] = card_points, tricks
    return out
