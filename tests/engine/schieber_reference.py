"""A plain Schieberjass reference, written from RULES.md "Schieberjass" alone, for the
engine tests.

Slow and obvious on purpose: cards are their texts (``"JH"``, ``"6S"``), ranks are looked
up in strings, nothing is precomputed and nothing of ``games.engine`` is imported. It
deals random Schieber deals (36 cards, 9 each), plays them with its own legal-move rule,
sometimes ends one with a revoke, and scores a finished deal, so ``test_schieber`` can
hold the engine's ``check`` to it on thousands of deals. The engine decisions RULES.md
leaves open (which Weis count after a revoke in the first trick) are followed as
``games/engine/schieber.py`` states them; after a revoke the clean team's Stöck is its
King and Queen of trumps held in one hand at the start (RULES.md, Revoke, Decision).
"""

from __future__ import annotations

import random
from typing import Any

SUITS = "CSHD"
NATURAL = "6789TJQKA"  # sequences, low to high
TRUMP_HIGH_TO_LOW = "J9AKQT876"
SIDE_HIGH_TO_LOW = "AKQJT9876"
UNDENUFE_HIGH_TO_LOW = "6789TJQKA"
TRUMP_POINTS = {"J": 20, "9": 14, "A": 11, "K": 4, "Q": 3, "T": 10, "8": 0, "7": 0, "6": 0}
SIDE_POINTS = {"A": 11, "K": 4, "Q": 3, "J": 2, "T": 10, "9": 0, "8": 0, "7": 0, "6": 0}
OBENABE_POINTS = {**SIDE_POINTS, "8": 8}
UNDENUFE_POINTS = {**OBENABE_POINTS, "6": 11, "A": 0}
FOUR_POINTS = {"J": 200, "9": 150, "A": 100, "K": 100, "Q": 100, "T": 100}
MULTIPLIER = {"C": 1, "D": 1, "H": 2, "S": 2, "obenabe": 3, "undenufe": 3}


def rank(card: str) -> str:
    return card[0]


def suit(card: str) -> str:
    return card[1]


def points(card: str, mode: str, trump: str | None) -> int:
    """A card's points in a mode ("trump" with its suit, "obenabe", "undenufe")."""
    if mode == "obenabe":
        return OBENABE_POINTS[rank(card)]
    if mode == "undenufe":
        return UNDENUFE_POINTS[rank(card)]
    return TRUMP_POINTS[rank(card)] if suit(card) == trump else SIDE_POINTS[rank(card)]


def order_of(card: str, trump: str | None, mode: str) -> str:
    if suit(card) == trump:
        return TRUMP_HIGH_TO_LOW
    return UNDENUFE_HIGH_TO_LOW if mode == "undenufe" else SIDE_HIGH_TO_LOW


def beats(card: str, other: str, trump: str | None, led: str, mode: str) -> bool:
    """Does ``card`` beat ``other`` in a trick led with ``led``?"""
    if suit(card) == trump and suit(other) != trump:
        return True
    if suit(card) == suit(other) and suit(card) in (trump, led):
        order = order_of(card, trump, mode)
        return order.index(rank(card)) < order.index(rank(other))
    return suit(card) == led and suit(other) not in (trump, led)


def heading(trick: list[str], trump: str | None, mode: str) -> int:
    """Position in the trick of the card that heads it."""
    best = 0
    for pos in range(1, len(trick)):
        if beats(trick[pos], trick[best], trump, suit(trick[0]), mode):
            best = pos
    return best


def legal(hand: list[str], trick: list[str], trump: str | None, mode: str) -> list[str]:
    """RULES.md "Schieberjass", Play."""
    if not trick:
        return list(hand)
    led = suit(trick[0])
    follow = [c for c in hand if suit(c) == led]
    if trump is None:
        return follow if follow else list(hand)
    trumps = [c for c in hand if suit(c) == trump]
    if led == trump:
        if trumps and trumps != ["J" + trump]:
            return trumps
        return list(hand)
    allowed = follow + trumps if follow else list(hand)
    only_trumps = len(trumps) == len(hand)
    trumps_in_trick = [c for c in trick if suit(c) == trump]
    if trumps_in_trick and not only_trumps:
        lower = [c for c in trumps if any(beats(t, c, trump, led, mode) for t in trumps_in_trick)]
        allowed = [c for c in allowed if c not in lower]
    return allowed


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


def is_four(cards: list[str]) -> bool:
    return len(cards) == 4 and len({rank(c) for c in cards}) == 1


def weis_value(cards: list[str]) -> int:
    if is_four(cards):
        return FOUR_POINTS[rank(cards[0])]
    return {3: 20, 4: 50}.get(len(cards), 100 + 50 * (len(cards) - 5))


def weis_key(weis: dict[str, Any], trump: str | None, forehand: int) -> tuple[int, ...]:
    cards = weis["cards"]
    top = max(NATURAL.index(rank(c)) for c in cards)
    trump_sequence = int(not is_four(cards) and suit(cards[0]) == trump)
    return (weis_value(cards), len(cards), top, trump_sequence, -((weis["seat"] - forehand) % 4))


def deal(rng: random.Random, dealer: int) -> dict[str, Any]:
    """A random Schieber record, played by this module's rules."""
    deck = [r + s for s in SUITS for r in NATURAL]
    rng.shuffle(deck)
    hands = [deck[0:9], deck[9:18], deck[18:27], deck[27:36]]
    forehand = (dealer + 1) % 4
    pushed = rng.random() < 0.4
    mode = rng.choice(["trump", "trump", "trump", "trump", "obenabe", "undenufe"])
    contract: dict[str, Any] = {
        "kind": "schieber",
        "chooser": (forehand + 2) % 4 if pushed else forehand,
        "mode": mode,
        "pushed": pushed,
    }
    trump = rng.choice(SUITS) if mode == "trump" else None
    if trump is not None:
        contract["trump"] = trump
    record: dict[str, Any] = {"format": "klammern-deal/1", "rules": "schieber", "dealer": dealer}
    record["contract"] = contract
    record["hands"] = [list(h) for h in hands]
    weis = [
        {"seat": seat, "cards": cards}
        for seat in range(4)
        for cards in combinations(hands[seat])
        if rng.random() < 0.8
    ]
    if weis:
        record["weis"] = weis
    if trump is not None:
        holder = [s for s in range(4) if "K" + trump in hands[s] and "Q" + trump in hands[s]]
        if holder and rng.random() < 0.8:
            record["stoeck"] = holder[0]
    _play(rng, record, [list(h) for h in hands], forehand, trump, mode)
    return record


def _play(
    rng: random.Random,
    record: dict[str, Any],
    hands: list[list[str]],
    seat: int,
    trump: str | None,
    mode: str,
) -> None:
    revoke_at = rng.randrange(36) if rng.random() < 0.15 else -1
    plays: list[str] = []
    trick: list[str] = []
    for index in range(36):
        allowed = legal(hands[seat], trick, trump, mode)
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
            seat = (seat + 1 + heading(trick, trump, mode)) % 4
            trick = []
        else:
            seat = (seat + 1) % 4
    record["plays"] = plays


def score(record: dict[str, Any], *, multipliers: bool = False) -> dict[str, Any]:
    """Points, outcome, Match, card points, tricks and the Weis winner of a valid full
    record (RULES.md "Schieberjass": Weis, Stöck, Match, revoke, multipliers)."""
    contract = record["contract"]
    mode, trump = contract["mode"], contract.get("trump")
    forehand = (record["dealer"] + 1) % 4
    plays = record["plays"]
    revoke = record.get("revoke")
    card_points, tricks = [0, 0], [0, 0]
    seat = forehand
    for start in range(0, len(plays) - len(plays) % 4, 4):
        trick = plays[start : start + 4]
        winner = (seat + heading(trick, trump, mode)) % 4
        card_points[winner % 2] += sum(points(c, mode, trump) for c in trick)
        if start == 32:
            card_points[winner % 2] += 5
        tricks[winner % 2] += 1
        seat = winner
    weis = record.get("weis", [])
    if revoke is not None:  # a seat shows its Weis just before its first card
        weis = [w for w in weis if (w["seat"] - forehand) % 4 <= len(plays)]
    weis_team, weis_points = None, 0
    if weis:
        best = max(weis, key=lambda w: weis_key(w, trump, forehand))
        weis_team = best["seat"] % 2
        weis_points = sum(weis_value(w["cards"]) for w in weis if w["seat"] % 2 == weis_team)
    stoeck_team = record["stoeck"] % 2 if "stoeck" in record else None
    if revoke is not None:  # RULES.md Decision: held at the start, played or not
        clean = 1 - revoke["seat"] % 2
        hands = record["hands"]
        held = trump is not None and any(
            "K" + trump in hands[s] and "Q" + trump in hands[s] for s in (clean, clean + 2)
        )
        stoeck_team = clean if held else None
    factor = MULTIPLIER[trump if trump is not None else mode] if multipliers else 1
    result = [0, 0]
    match = None
    if revoke is not None:
        clean = 1 - revoke["seat"] % 2
        result[clean] = 157 + weis_points + (20 if stoeck_team == clean else 0)
        outcome = "revoke"
    else:
        outcome = "played"
        result = list(card_points)
        for team in (0, 1):
            if tricks[team] == 9:
                match = team
                result[team] = 257
        if weis_team is not None:
            result[weis_team] += weis_points
        if stoeck_team is not None:
            result[stoeck_team] += 20
    return {
        "points": [p * factor for p in result],
        "outcome": outcome,
        "match": match,
        "weis_team": weis_team,
        "card_points": card_points,
        "tricks_won": tricks,
    }
