"""A plain Belote Contrée perfect-play reference, written from RULES.md "Belote Contrée".

Slow and obvious on purpose: cards are their texts (``"JH"``), the legal-move rule, the
trick's winner and the card points are ``contree_reference``'s (written from RULES.md, no
``games.engine`` import). Every legal card is tried at every turn, nothing is skipped as
equivalent. The value of a position is the **margin** of points made: team 0's points
minus team 1's from here to the end of the deal (the current trick included), where a
side's points made are the card points of its tricks and the last trick's 10, and 90 more
for the side that takes all 8 tricks (RULES.md "Points made": 162, 252 with all tricks).
Team 0 maximises the margin, team 1 minimises it; the contract's made or failed is a
threshold on it (``made``).

``margin`` is plain minimax; ``bounded_margin`` adds alpha-beta cut-offs and remembers
the bounds they prove at trick boundaries (every legal card in hand order, no move
ordering, nothing skipped), so that longer endgames can be checked; ``card_margins``
gives each legal card's margin for the seat to play.
"""

from __future__ import annotations

from . import contree_reference as rules

Hands = tuple[tuple[str, ...], ...]
WIDE = 10_000


def _trick_value(trick: list[str], trump: str, last: bool, won: tuple[int, int]) -> int:
    """The trick's worth to its winner: card points, the last trick's 10, and 90 more
    for all 8 tricks."""
    value = sum(rules.points(c, trump) for c in trick)
    if last:
        value += 10 + (90 if 8 in won else 0)
    return value


def _finish(
    trump: str, hands: Hands, leader: int, trick: list[str], won: tuple[int, int]
) -> tuple[int, int, tuple[int, int], bool]:
    """A complete trick: its signed worth to team 0, the next leader, the tricks taken,
    whether the deal is over."""
    winner = (leader + rules.heading(trick, trump)) % 4
    after = (won[0] + 1, won[1]) if winner % 2 == 0 else (won[0], won[1] + 1)
    last = not any(hands)
    value = _trick_value(trick, trump, last, after)
    return (value if winner % 2 == 0 else -value), winner, after, last


def margin(trump: str, hands: Hands, leader: int, trick: list[str], won: tuple[int, int]) -> int:
    """Team 0's margin from here on; ``won``: the tricks each team took so far."""
    if len(trick) == 4:
        signed, winner, after, last = _finish(trump, hands, leader, trick, won)
        return signed if last else signed + margin(trump, hands, winner, [], after)
    seat = (leader + len(trick)) % 4
    values = [
        margin(trump, _without(hands, seat, card), leader, [*trick, card], won)
        for card in rules.legal(list(hands[seat]), trick, trump)
    ]
    return max(values) if seat % 2 == 0 else min(values)


def card_margins(
    trump: str, hands: Hands, leader: int, trick: list[str], won: tuple[int, int]
) -> dict[str, int]:
    """Each legal card of the seat to play: the margin after playing it."""
    seat = (leader + len(trick)) % 4
    return {
        card: margin(trump, _without(hands, seat, card), leader, [*trick, card], won)
        for card in rules.legal(list(hands[seat]), trick, trump)
    }


#: Per trick boundary (the hands, the leader, which teams took no trick yet: all the rest
#: of the deal depends on, the capot included): the bounds proved on its margin.
Bounds = dict[tuple[Hands, int, tuple[bool, bool]], tuple[int, int]]


def bounded_margin(
    trump: str,
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
        signed, winner, after, last = _finish(trump, hands, leader, trick, won)
        if last:
            return signed
        rest = bounded_margin(trump, hands, winner, [], after, memo, alpha - signed, beta - signed)
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
    for card in rules.legal(list(hands[seat]), trick, trump):
        value = bounded_margin(
            trump, _without(hands, seat, card), leader, [*trick, card], won, memo, a, b
        )
        if maximising:
            best, a = max(best, value), max(a, value)
        else:
            best, b = min(best, value), min(b, value)
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


def _without(hands: Hands, seat: int, card: str) -> Hands:
    return tuple(
        tuple(c for c in hand if c != card) if s == seat else hand for s, hand in enumerate(hands)
    )


def made(team0_margin: int, contract: dict[str, object]) -> bool:
    """Whether the takers make the contract with this margin of a whole deal: their points
    made (half of 162 plus their margin, or 252 with all tricks) reach the value; a capot
    contract needs all 8 tricks."""
    takers = int(str(contract["declarer"])) % 2
    own = team0_margin if takers == 0 else -team0_margin
    if contract["value"] == "capot":
        return own == 252
    made_points = 252 if own == 252 else (162 + own) // 2
    return made_points >= int(str(contract["value"]))
