"""A plain perfect-play reference for Klammern with 2 or 3 players, from RULES.md alone.

Slow and obvious on purpose: cards are their texts (``"JH"``), ranks are looked up in
strings, nothing of ``games.engine`` is imported, every legal card is tried at every
turn and nothing is skipped or remembered. RULES.md "Cards" and "Playing a card"
(follow suit; else trump, higher than the trick's highest trump if able, else any trump;
"Klammern for 2 or 3 players": a trump lead must be overtrumped if able).

The value of a position (DECISIONS.md "Perfect play with 2 or 3 players") is the
declarer's points from here to the end of the deal, the current trick included: the
card points of the tricks the declarer takes (Jappa +20, Mie +14), the last trick's 10,
and ``bonus`` (the declarer's melds) on the declarer's first trick, unless ``took``
says the declarer already took one. The declarer maximises it, everybody else
minimises it. ``card_values`` gives the value after each legal card of the seat to play.
"""

from __future__ import annotations

TRUMP_HIGH_TO_LOW = "J9ATKQ87"
SIDE_HIGH_TO_LOW = "ATKQJ987"
POINTS = {"A": 11, "T": 10, "K": 4, "Q": 3, "J": 2, "9": 0, "8": 0, "7": 0}

Hands = tuple[tuple[str, ...], ...]


class Deal:
    """The trump suit, the declarer and the declarer's meld points."""

    def __init__(self, trump: str, *, declarer: int, bonus: int = 0) -> None:
        self.trump = trump
        self.declarer = declarer
        self.bonus = bonus

    def points(self, card: str) -> int:
        extra = {"J": 20, "9": 14}.get(card[0], 0) if card[1] == self.trump else 0
        return POINTS[card[0]] + extra

    def strength(self, card: str, led: str) -> int:
        """Higher wins: trumps above the led suit, other suits never win."""
        if card[1] == self.trump:
            return 100 - TRUMP_HIGH_TO_LOW.index(card[0])
        if card[1] == led:
            return 50 - SIDE_HIGH_TO_LOW.index(card[0])
        return 0

    def winner(self, trick: list[str]) -> int:
        """The position in the trick (0 = leader) of the card that wins it so far."""
        led = trick[0][1]
        strengths = [self.strength(c, led) for c in trick]
        return strengths.index(max(strengths))

    def legal(self, hand: tuple[str, ...], trick: list[str]) -> list[str]:
        if not trick:
            return list(hand)
        led = trick[0][1]
        best = trick[self.winner(trick)]
        trumps = [c for c in hand if c[1] == self.trump]
        higher = [c for c in trumps if self.strength(c, led) > self.strength(best, led)]
        if led == self.trump:
            return higher or trumps or list(hand)
        same = [c for c in hand if c[1] == led]
        if same:
            return same
        if not trumps:
            return list(hand)
        if best[1] == self.trump:
            return higher or trumps
        return trumps


def value(deal: Deal, hands: Hands, leader: int, trick: list[str], took: bool) -> int:
    """The declarer's points from here on with perfect play (module docstring)."""
    n = len(hands)
    if not trick and not any(hands):
        return 0
    if len(trick) == n:
        winner = (leader + deal.winner(trick)) % n
        last = not any(hands)
        won = 0
        if winner == deal.declarer:
            won = sum(deal.points(c) for c in trick) + (10 if last else 0)
            won += 0 if took else deal.bonus
            took = True
        return won if last else won + value(deal, hands, winner, [], took)
    seat = (leader + len(trick)) % n
    values = [
        value(deal, _without(hands, seat, card), leader, [*trick, card], took)
        for card in deal.legal(hands[seat], trick)
    ]
    return max(values) if seat == deal.declarer else min(values)


def card_values(
    deal: Deal, hands: Hands, leader: int, trick: list[str], took: bool
) -> dict[str, int]:
    """The value after each legal card of the seat to play."""
    seat = (leader + len(trick)) % len(hands)
    return {
        card: value(deal, _without(hands, seat, card), leader, [*trick, card], took)
        for card in deal.legal(hands[seat], trick)
    }


def _without(hands: Hands, seat: int, card: str) -> Hands:
    return tuple(
        tuple(c for c in hand if c != card) if s == seat else hand for s, hand in enumerate(hands)
    )
