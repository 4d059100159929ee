"""A plain Klaverjas perfect-play reference, written from RULES.md "Klaverjas" alone.

Slow and obvious on purpose: cards are their texts (``"JH"``), ranks are looked up in
strings, nothing of ``games.engine`` is imported. Every legal card is tried at every turn
(its own legal-move rule for Rotterdam and Amsterdam), nothing is skipped as equivalent.
The value of a position is the **margin**: team 0's points minus team 1's from here to
the end of the deal (the current trick included), where a team's points are the card
points of its tricks, the last trick's 10, the roem of its tricks and the pit's 100 for
all 8 tricks. Team 0 maximises it, team 1 minimises it.

``margin`` is plain minimax; ``memo_margin`` remembers the exact value of each trick
boundary (the hands, the leader and the tricks each team took so far), still without
cut-offs; ``bounded_margin`` adds alpha-beta cut-offs and remembers the bounds they
prove at trick boundaries (every legal card in hand order, no move ordering, nothing
skipped), so that whole deals can be checked. ``card_margins`` gives each legal card's
value for the seat to play.
"""

from __future__ import annotations

NATURAL = "789TJQKA"
TRUMP_HIGH_TO_LOW = "J9ATKQ87"
SIDE_HIGH_TO_LOW = "ATKQJ987"
TRUMP_POINTS = {"J": 20, "9": 14, "A": 11, "T": 10, "K": 4, "Q": 3, "8": 0, "7": 0}
SIDE_POINTS = {"A": 11, "T": 10, "K": 4, "Q": 3, "J": 2, "9": 0, "8": 0, "7": 0}
FOUR_OF_A_KIND = {"J": 200, "A": 100, "T": 100, "K": 100, "Q": 100}

Hands = tuple[tuple[str, ...], ...]


class Game:
    """The trump suit and which of the two rule sets is played."""

    def __init__(self, trump: str, *, amsterdam: bool) -> None:
        self.trump = trump
        self.amsterdam = amsterdam

    def points(self, card: str) -> int:
        return TRUMP_POINTS[card[0]] if card[1] == self.trump else SIDE_POINTS[card[0]]

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

    def roem(self, trick: list[str]) -> int:
        """RULES.md: sequences of 3 (20) or 4 (50) in one suit, four of a kind, stuk."""
        total = 0
        for suit in "CSHD":
            ranks = sorted(NATURAL.index(c[0]) for c in trick if c[1] == suit)
            longest = run = 1 if ranks else 0
            for a, b in zip(ranks, ranks[1:], strict=False):
                run = run + 1 if b == a + 1 else 1
                longest = max(longest, run)
            total += 50 if longest >= 4 else 20 if longest == 3 else 0
        if len({c[0] for c in trick}) == 1:
            total += FOUR_OF_A_KIND.get(trick[0][0], 0)
        if "K" + self.trump in trick and "Q" + self.trump in trick:
            total += 20
        return total

    def legal(self, hand: tuple[str, ...], trick: list[str]) -> list[str]:
        """RULES.md "Play, Rotterdam" and "Play, Amsterdam"."""
        if not trick:
            return list(hand)
        led = trick[0][1]
        trumps = [c for c in hand if c[1] == self.trump]
        best = trick[self.winner(trick)]
        higher = [c for c in trumps if self.strength(c, led) > self.strength(best, led)]
        if led == self.trump:
            return higher or trumps or list(hand)
        same = [c for c in hand if c[1] == led]
        if same:
            return same
        if not trumps:
            return list(hand)
        partner_wins = self.winner(trick) == len(trick) - 2
        sides = [c for c in hand if c[1] != self.trump]
        if self.amsterdam and partner_wins:
            if best[1] != self.trump or not sides:
                return list(hand)
            return sides + higher
        if best[1] == self.trump:
            return higher or sides or list(hand)
        return trumps


def _trick_value(game: Game, trick: list[str], last: bool, won: tuple[int, int]) -> int:
    """The trick's worth to its winner (with the last trick's 10 and the pit)."""
    value = sum(game.points(c) for c in trick) + game.roem(trick)
    if last:
        value += 10 + (100 if 8 in won else 0)
    return value


def margin(game: Game, hands: Hands, leader: int, trick: list[str], won: tuple[int, int]) -> int:
    """Team 0's margin from here on; ``won``: the tricks each team took so far."""
    if len(trick) == 4:
        winner = (leader + game.winner(trick)) % 4
        after = (won[0] + 1, won[1]) if winner % 2 == 0 else (won[0], won[1] + 1)
        last = not any(hands)
        value = _trick_value(game, trick, last, after)
        signed = value if winner % 2 == 0 else -value
        return signed if last else signed + margin(game, hands, winner, [], after)
    seat = (leader + len(trick)) % 4
    values = [
        margin(game, _without(hands, seat, card), leader, [*trick, card], won)
        for card in game.legal(hands[seat], trick)
    ]
    return max(values) if seat % 2 == 0 else min(values)


def memo_margin(
    game: Game,
    hands: Hands,
    leader: int,
    trick: list[str],
    won: tuple[int, int],
    memo: dict[tuple[Hands, int, tuple[int, int]], int],
) -> int:
    """``margin`` with each trick boundary's exact value remembered in ``memo``."""
    if len(trick) == 4:
        winner = (leader + game.winner(trick)) % 4
        after = (won[0] + 1, won[1]) if winner % 2 == 0 else (won[0], won[1] + 1)
        last = not any(hands)
        value = _trick_value(game, trick, last, after)
        signed = value if winner % 2 == 0 else -value
        if last:
            return signed
        key = (hands, winner, after)
        if key not in memo:
            memo[key] = memo_margin(game, hands, winner, [], after, memo)
        return signed + memo[key]
    seat = (leader + len(trick)) % 4
    values = [
        memo_margin(game, _without(hands, seat, card), leader, [*trick, card], won, memo)
        for card in game.legal(hands[seat], trick)
    ]
    return max(values) if seat % 2 == 0 else min(values)


#: Per trick boundary (the hands, the leader, which teams took no trick yet: all the rest
#: of the deal depends on, the pit included): the bounds proved on its margin.
Bounds = dict[tuple[Hands, int, tuple[bool, bool]], tuple[int, int]]
WIDE = 10_000


def bounded_margin(
    game: Game,
    hands: Hands,
    leader: int,
    trick: list[str],
    won: tuple[int, int],
    memo: Bounds,
    alpha: int = -WIDE,
    beta: int = WIDE,
) -> int:
    """``margin`` with alpha-beta cut-offs (fail-soft: exact inside the window, else a
    bound on the right side) and the bounds each trick boundary proved in ``memo``."""
    if len(trick) == 4:
        winner = (leader + game.winner(trick)) % 4
        after = (won[0] + 1, won[1]) if winner % 2 == 0 else (won[0], won[1] + 1)
        last = not any(hands)
        value = _trick_value(game, trick, last, after)
        signed = value if winner % 2 == 0 else -value
        if last:
            return signed
        rest = bounded_margin(game, hands, winner, [], after, memo, alpha - signed, beta - signed)
        return signed + rest
    key = (hands, leader, (won[0] == 0, won[1] == 0))
    lower, upper = memo.get(key, (-WIDE, WIDE)) if not trick else (-WIDE, WIDE)
    if lower >= beta or lower == upper:
        return lower
    if upper <= alpha:
        return upper
    a, b = max(alpha, lower), min(beta, upper)
    seat = (leader + len(trick)) % 4
    maximising = seat % 2 == 0
    best = -WIDE if maximising else WIDE
    for card in game.legal(hands[seat], trick):
        value = bounded_margin(
            game, _without(hands, seat, card), leader, [*trick, card], won, memo, a, b
        )
        if maximising:
            best = max(best, value)
            a = max(a, value)
        else:
            best = min(best, value)
            b = min(b, value)
        if a >= b:
            break
    if not trick:
        if best <= max(alpha, lower):
            upper = min(upper, best)
        elif best >= min(beta, upper):
            lower = max(lower, best)
        else:
            lower = upper = best
        memo[key] = (lower, upper)
    return best


def card_margins(
    game: Game,
    hands: Hands,
    leader: int,
    trick: list[str],
    won: tuple[int, int],
    memo: dict[tuple[Hands, int, tuple[int, int]], int] | None = None,
) -> dict[str, int]:
    """Each legal card of the seat to play: the margin after playing it."""
    memo = {} if memo is None else memo
    seat = (leader + len(trick)) % 4
    return {
        card: memo_margin(game, _without(hands, seat, card), leader, [*trick, card], won, memo)
        for card in game.legal(hands[seat], trick)
    }


def _without(hands: Hands, seat: int, card: str) -> Hands:
    return tuple(
        tuple(c for c in hand if c != card) if s == seat else hand for s, hand in enumerate(hands)
    )
