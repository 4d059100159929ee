"""A plain Belote reference, written from RULES.md "Belote" alone, for the engine tests.

Slow and obvious on purpose: cards are their texts (``"JH"``), ranks are looked up in
strings, nothing is precomputed and nothing of ``games.engine`` is imported. It deals
random Belote deals, plays them with its own legal-move rule, sometimes ends one with a
revoke, and scores a finished deal, so ``test_belote`` can hold the engine's ``check``
to it on thousands of deals. The engine decision RULES.md leaves open (which melds
count after a revoke in the first trick) is followed as ``games/engine/belote.py``
states it; after a revoke the clean team's belote is its King and Queen of trumps held in
one hand at the start (RULES.md, Revoke, Decision).
"""

from __future__ import annotations

import random
from typing import Any

SUITS = "CSHD"
NATURAL = "789TJQKA"  # sequences
TRUMP_HIGH_TO_LOW = "J9ATKQ87"
SIDE_HIGH_TO_LOW = "ATKQJ987"
TRUMP_POINTS = {"J": 20, "9": 14, "A": 11, "T": 10, "K": 4, "Q": 3, "8": 0, "7": 0}
SIDE_POINTS = {"A": 11, "T": 10, "K": 4, "Q": 3, "J": 2, "9": 0, "8": 0, "7": 0}
FOUR_POINTS = {"J": 200, "9": 150, "A": 100, "T": 100, "K": 100, "Q": 100}


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
    """RULES.md "Belote", Play."""
    if not trick:
        return list(hand)
    led = suit(trick[0])
    follow = [c for c in hand if suit(c) == led]
    trumps = [c for c in hand if suit(c) == trump]
    partner_heads = len(trick) >= 2 and heading(trick, trump) == len(trick) - 2
    trumps_in_trick = [c for c in trick if suit(c) == trump]
    higher = [c for c in trumps if all(beats(c, t, trump, led) for t in trumps_in_trick)]
    if led == trump:
        if not trumps:
            return list(hand)
        if partner_heads:
            return trumps
        return higher if higher else trumps
    if follow:
        return follow
    if partner_heads or not trumps:
        return list(hand)
    return higher if higher else trumps


def combinations(hand: list[str]) -> list[list[str]]:
    """Every whole sequence of 3 or more and every four that counts, in a hand."""
    out = []
    for s in SUITS:
        run: list[str] = []
        for r in NATURAL + "-":
            if r + s in hand:
                run.append(r + s)
                continue
            if len(run) >= 3:
                out.append(run)
            run = []
    for r in FOUR_POINTS:
        if all(r + s in hand for s in SUITS):
            out.append([r + s for s in SUITS])
    return out


def meld_value(cards: list[str]) -> int:
    if len(cards) == 4 and len({rank(c) for c in cards}) == 1:
        return FOUR_POINTS[rank(cards[0])]
    return 20 if len(cards) == 3 else 50 if len(cards) == 4 else 100


def meld_key(meld: dict[str, Any], trump: str, forehand: int) -> tuple[int, ...]:
    cards = meld["cards"]
    is_four = len({rank(c) for c in cards}) == 1
    top = max(NATURAL.index(rank(c)) for c in cards)
    trump_sequence = 0 if is_four else int(suit(cards[0]) == trump)
    return (meld_value(cards), len(cards), top, trump_sequence, -((meld["seat"] - forehand) % 4))


def deal(rng: random.Random, dealer: int) -> dict[str, Any]:
    """A random Belote record, played by this module's rules (thrown in 1 in 25)."""
    deck = [r + s for s in SUITS for r in NATURAL]
    rng.shuffle(deck)
    forehand = (dealer + 1) % 4
    order = [(forehand + k) % 4 for k in range(4)]
    hands: list[list[str]] = [[], [], [], []]
    for seat in order:
        hands[seat] += [deck.pop() for _ in range(3)]
    for seat in order:
        hands[seat] += [deck.pop() for _ in range(2)]
    upcard = deck.pop()
    record: dict[str, Any] = {"format": "klammern-deal/1", "rules": "belote", "dealer": dealer}
    record["upcard"] = upcard
    if rng.random() < 0.04:
        record["contract"] = {"kind": "thrown_in"}
        return record
    taker = rng.choice(order)
    if rng.random() < 0.5:
        trump, rnd = suit(upcard), 1
    else:
        trump, rnd = rng.choice([s for s in SUITS if s != suit(upcard)]), 2
    record["contract"] = {"kind": "belote", "declarer": taker, "trump": trump, "round": rnd}
    for seat in order:
        if seat == taker:
            hands[seat] += [upcard, deck.pop(), deck.pop()]
        else:
            hands[seat] += [deck.pop() for _ in range(3)]
    record["hands"] = [list(h) for h in hands]
    melds = [
        {"seat": seat, "cards": cards}
        for seat in range(4)
        for cards in combinations(hands[seat])
        if rng.random() < 0.8
    ]
    if melds:
        record["melds"] = melds
    holder = [s for s in range(4) if "K" + trump in hands[s] and "Q" + trump in hands[s]]
    if holder and rng.random() < 0.8:
        record["bella"] = holder[0]
    _play(rng, record, hands, forehand, trump)
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


def score(record: dict[str, Any]) -> dict[str, Any]:
    """Points, outcome, capot, card points, tricks and the meld winner of a valid full
    record (RULES.md "Belote": melds, belote-rebelote, made or dedans, capot, revoke)."""
    contract = record["contract"]
    if contract["kind"] == "thrown_in":
        return {"points": [0, 0], "outcome": "thrown_in", "capot": None, "meld_team": None}
    trump, takers = contract["trump"], contract["declarer"] % 2
    forehand = (record["dealer"] + 1) % 4
    plays = record["plays"]
    revoke = record.get("revoke")
    card_points, tricks = [0, 0], [0, 0]
    seat = forehand
    for start in range(0, len(plays) - len(plays) % 4, 4):
        trick = plays[start : start + 4]
        winner = (seat + heading(trick, trump)) % 4
        card_points[winner % 2] += sum(points(c, trump) for c in trick)
        if start == 28:
            card_points[winner % 2] += 10
        tricks[winner % 2] += 1
        seat = winner
    melds = record.get("melds", [])
    if revoke is not None:  # a seat melds just before its first card
        melds = [m for m in melds if (m["seat"] - forehand) % 4 <= len(plays)]
    meld_team, meld_points = None, 0
    if melds:
        best = max(melds, key=lambda m: meld_key(m, trump, forehand))
        meld_team = best["seat"] % 2
        meld_points = sum(meld_value(m["cards"]) for m in melds if m["seat"] % 2 == meld_team)
    belote_team = None
    if revoke is not None:  # RULES.md Decision: held at the start, played or not
        clean = 1 - revoke["seat"] % 2
        hands = record["hands"]
        if any("K" + trump in hands[s] and "Q" + trump in hands[s] for s in (clean, clean + 2)):
            belote_team = clean
    elif "bella" in record:
        belote_team = record["bella"] % 2
    if revoke is not None:
        clean = 1 - revoke["seat"] % 2
        result = [0, 0]
        result[clean] = 162 + meld_points + (20 if belote_team == clean else 0)
        return {
            "points": result,
            "outcome": "revoke",
            "capot": None,
            "meld_team": meld_team,
            "card_points": card_points,
            "tricks_won": tricks,
        }
    capot = 0 if tricks[0] == 8 else 1 if tricks[1] == 8 else None
    cards = list(card_points)
    if capot is not None:
        cards[capot] = 252
    own = list(cards)
    if meld_team is not None:
        own[meld_team] += meld_points
    if belote_team is not None:
        own[belote_team] += 20
    if own[takers] > own[1 - takers]:
        result, outcome = own, "made"
    else:
        result, outcome = [0, 0], "failed"
        result[1 - takers] = (252 if capot is not None else 162) + meld_points
        if belote_team is not None:
            result[belote_team] += 20
    return {
        "points": result,
        "outcome": outcome,
        "capot": capot,
        "meld_team": meld_team,
        "card_points": card_points,
        "tricks_won": tricks,
    }
