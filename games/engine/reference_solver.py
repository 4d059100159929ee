"""The plain, slow double-dummy solver that the fast one (``solver``) is tested against.

Every function here plays out every legal card (``play.choice``, the engine's own
legal-move function) and takes the best for the side to move; nothing is cached, no card
is skipped as equivalent. ``minimax_points`` is plain minimax; ``alphabeta_points`` adds
only alpha-beta cut-offs (same value, far fewer nodes) so that whole deals can be checked
in a test run. ``minimax_all_tricks`` answers the March question. A position is the four
hands still held (masks), the seat that led the current trick and its cards so far.

Values are from team 0's side: the card points (Jappa/Mie bonuses and the last-trick 10
included) that team 0 takes from this position to the end, the current trick included.
Not compiled, not for production: only the tests and the benchmark's check use it.
"""

from __future__ import annotations

from .cards import LAST_TRICK_BONUS, TABLES, TrumpTable, cards_of
from .play import choice, trick_winner
from .rules import Options


def _trick_points(trick: list[int], table: TrumpTable, last: bool) -> int:
    points = sum(table.points[c] for c in trick)
    return points + (LAST_TRICK_BONUS if last else 0)


def minimax_points(
    hands: list[int], leader: int, trick: list[int], trump: int, options: Options
) -> int:
    """Team 0's card points from here on under perfect play by both sides."""
    table = TABLES[trump]
    if len(trick) == 4:
        winner = (leader + trick_winner(trick, table)) & 3
        last = not any(hands)
        taken = _trick_points(trick, table, last) if winner & 1 == 0 else 0
        return taken if last else taken + minimax_points(hands, winner, [], trump, options)
    seat = (leader + len(trick)) & 3
    values = []
    for card in cards_of(choice(hands[seat], trick, table, options).legal):
        after = list(hands)
        after[seat] ^= 1 << card
        values.append(minimax_points(after, leader, [*trick, card], trump, options))
    return max(values) if seat & 1 == 0 else min(values)


def alphabeta_points(
    hands: list[int],
    leader: int,
    trick: list[int],
    trump: int,
    options: Options,
    alpha: int = -1,
    beta: int = 1000,
) -> int:
    """``minimax_points`` with alpha-beta cut-offs (exact inside the window)."""
    table = TABLES[trump]
    if len(trick) == 4:
        winner = (leader + trick_winner(trick, table)) & 3
        last = not any(hands)
        taken = _trick_points(trick, table, last) if winner & 1 == 0 else 0
        if last:
            return taken
        rest = alphabeta_points(hands, winner, [], trump, options, alpha - taken, beta - taken)
        return taken + rest
    seat = (leader + len(trick)) & 3
    maximising = seat & 1 == 0
    best = -1 if maximising else 1000
    for card in cards_of(choice(hands[seat], trick, table, options).legal):
        after = list(hands)
        after[seat] ^= 1 << card
        value = alphabeta_points(after, leader, [*trick, card], trump, options, alpha, beta)
        if maximising:
            best = max(best, value)
            alpha = max(alpha, value)
        else:
            best = min(best, value)
            beta = min(beta, value)
        if alpha >= beta:
            break
    return best


def minimax_all_tricks(
    hands: list[int], leader: int, trick: list[int], trump: int, options: Options, *, team: int
) -> bool:
    """True when ``team`` can force every remaining trick (the current one included)."""
    table = TABLES[trump]
    if len(trick) == 4:
        winner = (leader + trick_winner(trick, table)) & 3
        if winner & 1 != team:
            return False
        return not any(hands) or minimax_all_tricks(hands, winner, [], trump, options, team=team)
    seat = (leader + len(trick)) & 3
    outcomes = []
    for card in cards_of(choice(hands[seat], trick, table, options).legal):
        after = list(hands)
        after[seat] ^= 1 << card
        outcomes.append(
            minimax_all_tricks(after, leader, [*trick, card], trump, options, team=team)
        )
    return any(outcomes) if seat & 1 == team else all(outcomes)


def memo_points(
    hands: list[int],
    leader: int,
    trick: list[int],
    trump: int,
    options: Options,
    memo: dict[tuple[int, int, int, int, int], int] | None = None,
) -> int:
    """``minimax_points`` with each trick boundary's exact value remembered (``memo``,
    keyed by the four hands and the leader): still every legal card at every turn, no
    cut-offs, no bounds, so fast enough to check whole deals."""
    table = TABLES[trump]
    memo = {} if memo is None else memo
    if len(trick) == 4:
        winner = (leader + trick_winner(trick, table)) & 3
        last = not any(hands)
        taken = _trick_points(trick, table, last) if winner & 1 == 0 else 0
        if last:
            return taken
        key = (hands[0], hands[1], hands[2], hands[3], winner)
        rest = memo.get(key)
        if rest is None:
            rest = memo[key] = memo_points(hands, winner, [], trump, options, memo)
        return taken + rest
    seat = (leader + len(trick)) & 3
    values = []
    for card in cards_of(choice(hands[seat], trick, table, options).legal):
        after = list(hands)
        after[seat] ^= 1 << card
        values.append(memo_points(after, leader, [*trick, card], trump, options, memo))
    return max(values) if seat & 1 == 0 else min(values)


class BoundsMemo:
    """What ``alphabeta_tt_points`` knows of each trick boundary: (lower, upper)."""

    def __init__(self) -> None:
        self.bounds: dict[tuple[int, int, int, int, int], tuple[int, int]] = {}


def alphabeta_tt_points(
    hands: list[int],
    leader: int,
    trick: list[int],
    trump: int,
    options: Options,
    memo: BoundsMemo,
    alpha: int = -1,
    beta: int = 1000,
) -> int:
    """``alphabeta_points`` that remembers, per trick boundary, the bounds its searches
    proved (fail-soft: a result at or below alpha is an upper bound, at or above beta a
    lower bound, else exact). Every legal card in ``cards_of`` order: no move ordering,
    no equivalent cards, a full window from the caller."""
    table = TABLES[trump]
    if len(trick) == 4:
        winner = (leader + trick_winner(trick, table)) & 3
        last = not any(hands)
        taken = _trick_points(trick, table, last) if winner & 1 == 0 else 0
        if last:
            return taken
        rest = alphabeta_tt_points(
            hands, winner, [], trump, options, memo, alpha - taken, beta - taken
        )
        return taken + rest
    key = (hands[0], hands[1], hands[2], hands[3], leader)
    lower, upper = -1, 1000
    if not trick:
        lower, upper = memo.bounds.get(key, (-1, 1000))
        if lower >= beta or lower == upper:
            return lower
        if upper <= alpha:
            return upper
    a, b = max(alpha, lower), min(beta, upper)
    seat = (leader + len(trick)) & 3
    maximising = seat & 1 == 0
    best = -1 if maximising else 1000
    for card in cards_of(choice(hands[seat], trick, table, options).legal):
        after = list(hands)
        after[seat] ^= 1 << card
        value = alphabeta_tt_points(after, leader, [*trick, card], trump, options, memo, a, b)
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
        memo.bounds[key] = (lower, upper)
    return best
