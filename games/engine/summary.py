"""Which card points a set of tricks can give (for summary records).

A team's ``card_points`` are the card points of the cards in its tricks, plus Jappa 20
and Mie 14 when those cards are in its tricks, plus 10 for the last trick. The values
of the 32 cards with the bonuses are the same multiset for every trump (one suit's J is
22 and 9 is 14), so one table serves all trumps.

Model: a team with ``t`` tricks holds some ``4 t`` of the 32 cards; any such set is
possible (the highest card of a trick can always be given to a seat of the winning
team). Without a revoke all 8 tricks are played, the teams' cards are complementary,
and the last-trick 10 goes to a team with at least one trick. After a revoke the
completed tricks (at most 7) give two disjoint sets and there is no last trick; the
revoke card itself is still in the revoking seat's hand ("before that card counts"), so
its value (with its Jappa/Mie bonus) is in no trick.

Klaverjas has the same model with its own card values (trump Jack 20, no bonuses:
``KLAVERJAS_CLASSES``, 152 in the cards). Klammern for 2 or 3 players uses the
Klammern values with ``n`` cards per trick and 9 tricks (the unused cards are in no
trick). The Schieber passes its 36 cards' classes per mode, 9 tricks and a last trick
of 5.

This module only answers feasibility questions; ``record`` turns them into problems.
"""

from __future__ import annotations

from functools import cache
from typing import Final

from .cards import LAST_TRICK_BONUS

#: (value, how many cards have it) over the 32 cards, Jappa/Mie bonuses included.
VALUE_CLASSES: Final = ((22, 1), (14, 1), (11, 4), (10, 4), (4, 4), (3, 4), (2, 3))
ZERO_CARDS: Final = 11
CARD_SUM: Final = 154
#: Klaverjas: the trump Jack is 20 and the 9 14, without further bonuses.
KLAVERJAS_CLASSES: Final = ((20, 1), (14, 1), (11, 4), (10, 4), (4, 4), (3, 4), (2, 3))
KLAVERJAS_CARD_SUM: Final = 152


def sums_by_count_of(
    classes: tuple[tuple[int, int], ...] = VALUE_CLASSES, zero_cards: int = ZERO_CARDS
) -> tuple[int, ...]:
    """Per number of cards k: the bitset of the card-point sums k cards of the deck can
    give (a deck of these value classes and ``zero_cards`` blank cards)."""
    values = [v for v, n in classes for _ in range(n)] + [0] * zero_cards
    size = len(values)
    sums = [1] + [0] * size  # sums[k]: bitset of sums reachable with k cards
    for v in values:
        for k in range(size, 0, -1):
            sums[k] |= sums[k - 1] << v
    return tuple(sums)


SUMS_BY_COUNT: Final = sums_by_count_of()
KLAVERJAS_SUMS_BY_COUNT: Final = sums_by_count_of(KLAVERJAS_CLASSES, ZERO_CARDS)


def full_deal_feasible(
    tricks: int,
    points: int,
    *,
    sums_by_count: tuple[int, ...] = SUMS_BY_COUNT,
    per_trick: int = 4,
    deal_tricks: int = 8,
    last_trick: int = LAST_TRICK_BONUS,
) -> bool:
    """Can a team (or player) with ``tricks`` of ``deal_tricks`` tricks have ``points``
    card points (no revoke)? A trick holds ``per_trick`` cards; the last trick adds
    ``last_trick`` (the Schieber's 5)."""
    if not 0 <= tricks <= deal_tricks or points < 0:
        return False
    sums = sums_by_count[per_trick * tricks]
    without_last = tricks < deal_tricks and bool(sums >> points & 1)
    with_last = tricks >= 1 and points >= last_trick and bool(sums >> (points - last_trick) & 1)
    return without_last or with_last


def full_deal_points_feasible(points: int) -> bool:
    """Can a team have ``points`` card points with some number of tricks (no revoke)?"""
    return any(full_deal_feasible(t, points) for t in range(9))


def _without(
    value: int,
    all_classes: tuple[tuple[int, int], ...] = VALUE_CLASSES,
    zero_cards: int = ZERO_CARDS,
) -> tuple[tuple[tuple[int, int], ...], int]:
    """The value classes and zero-card count once one card of ``value`` is set aside."""
    if value == 0:
        return all_classes, zero_cards - 1
    classes = tuple((v, n - 1 if v == value else n) for v, n in all_classes)
    return classes, zero_cards


@cache
def _splits(
    classes: tuple[tuple[int, int], ...], index: int, rest_a: int, rest_b: int
) -> frozenset[tuple[int, int]]:
    """(cards of A, cards of B) among non-zero cards giving exactly these sums."""
    if index == len(classes):
        return frozenset({(0, 0)}) if rest_a == 0 and rest_b == 0 else frozenset()
    value, count = classes[index]
    out: set[tuple[int, int]] = set()
    for x in range(count + 1):
        if x * value > rest_a:
            break
        for y in range(count - x + 1):
            if y * value > rest_b:
                break
            for na, nb in _splits(classes, index + 1, rest_a - x * value, rest_b - y * value):
                out.add((na + x, nb + y))
    return frozenset(out)


def revoke_feasible(
    points: tuple[int, int],
    tricks: tuple[int, int] | None,
    *,
    revoke_card_value: int,
    classes: tuple[tuple[int, int], ...] = VALUE_CLASSES,
    card_sum: int = CARD_SUM,
    zero_cards: int = ZERO_CARDS,
    deal_tricks: int = 8,
) -> bool:
    """Can completed tricks before a revoke give these card points (and trick counts)?

    ``revoke_card_value`` is the revoke card's points with its Jappa/Mie bonus: that card
    is in no trick. At most ``deal_tricks - 1`` tricks are complete; the deck has
    ``classes`` and ``zero_cards`` blank cards (the Schieber's 36 cards have their own).
    """
    rest, zeros = _without(revoke_card_value, classes, zero_cards)
    if min(points) < 0 or sum(points) > card_sum - revoke_card_value:
        return False
    splits = _splits(rest, 0, points[0], points[1])
    most = deal_tricks - 1
    if tricks is None:
        options = [(a, b) for a in range(most + 1) for b in range(most + 1 - a)]
    else:
        options = [tricks] if tricks[0] >= 0 and tricks[1] >= 0 and sum(tricks) <= most else []
    for a, b in options:
        for na, nb in splits:
            zeros_a, zeros_b = 4 * a - na, 4 * b - nb
            if zeros_a >= 0 and zeros_b >= 0 and zeros_a + zeros_b <= zeros:
                return True
    return False
