"""Terz and Fünfzig: sequences in a hand, announced melds, and the meld contest.

A meld is a whole maximal run of 3+ cards of one suit in the natural order
7 8 9 T J Q K A (length 3 = Terz 20, 4-8 = Fünfzig 50). ``contest`` decides which team
scores its melds. Validation against a record's hands lives in ``record``.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, field
from typing import Final

from .cards import BIT_BY_TEXT, CARD_TEXT, make_card
from .rules import Options

TERZ_POINTS = 20
FUENFZIG_POINTS = 50


@dataclass(frozen=True, order=True)
class Run:
    """A sequence of one suit: ``length`` cards from natural rank ``low`` upwards."""

    suit: int
    low: int
    length: int
    # Derived once per run (the runs in use come from ``RUN_BY_MASK``):
    #: The cards as a mask.
    mask: int = field(init=False, repr=False, compare=False)
    #: Natural rank index of the highest card.
    top: int = field(init=False, repr=False, compare=False)
    #: 20 for a Terz, 50 for a Fünfzig.
    points: int = field(init=False, repr=False, compare=False)
    #: The mask of the suit's cards right below and above the run (a meld is maximal
    #: in a hand that holds neither).
    around: int = field(init=False, repr=False, compare=False)
    _texts: tuple[str, ...] = field(init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        base = self.suit * 8 + self.low
        object.__setattr__(self, "mask", ((1 << self.length) - 1) << base)
        object.__setattr__(self, "top", self.low + self.length - 1)
        object.__setattr__(self, "points", FUENFZIG_POINTS if self.length >= 4 else TERZ_POINTS)
        below = 1 << (base - 1) if self.low > 0 else 0
        above = 1 << (base + self.length) if self.low + self.length < 8 else 0
        object.__setattr__(self, "around", below | above)
        object.__setattr__(self, "_texts", tuple(CARD_TEXT[base : base + self.length]))

    @property
    def cards(self) -> list[int]:
        """The cards, lowest first."""
        return [make_card(self.suit, r) for r in range(self.low, self.low + self.length)]

    def texts(self) -> list[str]:
        """The cards in text notation, lowest first."""
        return list(self._texts)


#: Every possible run (3 to 8 cards of one suit), by its mask.
RUN_BY_MASK: Final[dict[int, Run]] = {
    run.mask: run
    for run in (
        Run(suit, low, length)
        for suit in range(4)
        for length in range(3, 9)
        for low in range(9 - length)
    )
}


class Meld:
    """A meld announced by a seat (immutable by convention; equal when seat and run are).

    A plain class rather than a dataclass: mypyc compiles its ``__init__`` (a dataclass's
    generated one would run interpreted on this hot path)."""

    def __init__(self, seat: int, run: Run) -> None:
        self.seat = seat
        self.run = run

    def __eq__(self, other: object) -> bool:
        return isinstance(other, Meld) and (self.seat, self.run) == (other.seat, other.run)

    def __hash__(self) -> int:
        return hash((self.seat, self.run))

    def __repr__(self) -> str:
        return f"Meld(seat={self.seat!r}, run={self.run!r})"


def _runs_in_suit(bits: int) -> tuple[tuple[int, int], ...]:
    """(low, length) of the maximal runs of 3+ in one suit's 8 bits."""
    out = []
    rank = 0
    while rank < 8:
        if bits >> rank & 1:
            start = rank
            while rank < 8 and bits >> rank & 1:
                rank += 1
            if rank - start >= 3:
                out.append((start, rank - start))
        else:
            rank += 1
    return tuple(out)


_RUNS_IN_SUIT: Final = tuple(_runs_in_suit(bits) for bits in range(256))


def runs_of(hand: int) -> list[Run]:
    """Every maximal run of 3 or more cards in a hand."""
    return [
        RUN_BY_MASK[((1 << length) - 1) << (suit * 8 + low)]
        for suit in range(4)
        for low, length in _RUNS_IN_SUIT[hand >> (8 * suit) & 0xFF]
    ]


def run_of_cards(texts: object) -> Run | None:
    """The run formed by some card texts (any order), or None if they form none."""
    if type(texts) is not list:
        return None
    mask = 0
    for text in texts:
        bit = BIT_BY_TEXT.get(text) if type(text) is str else None
        if bit is None:
            return None
        mask |= bit
    run = RUN_BY_MASK.get(mask)
    return run if run is not None and run.length == len(texts) else None


def _strength(meld: Meld, trump: int, forehand: int, by_suit: bool) -> tuple[int, ...]:
    run = meld.run
    tie = 3 - run.suit if by_suit else -((meld.seat - forehand) % 4)
    return (run.points, run.top, int(run.suit == trump), tie)


def contest(
    melds: Iterable[Meld], *, trump: int, forehand: int, options: Options
) -> tuple[int | None, list[Meld]]:
    """The team whose best meld wins, and the melds it scores (seat order, then run)."""
    melds = list(melds)
    if not melds:
        return None, []
    by_suit = options.meld_tie_by_suit
    best = melds[0]
    best_strength = _strength(best, trump, forehand, by_suit)
    for meld in melds[1:]:
        strength = _strength(meld, trump, forehand, by_suit)
        if strength > best_strength:  # the first of equals stays, as with max()
            best, best_strength = meld, strength
    team = best.seat & 1
    scored = [m for m in melds if m.seat & 1 == team]
    if len(scored) > 1:
        scored.sort(key=_seat_order)
    return team, scored


def _seat_order(meld: Meld) -> tuple[int, Run]:
    return meld.seat, meld.run


def melds_json(melds: Iterable[Meld]) -> list[dict[str, object]]:
    """The result's ``scored`` list."""
    return [{"seat": m.seat, "cards": m.run.texts(), "points": m.run.points} for m in melds]


__all__ = ["Meld", "Run", "contest", "melds_json", "run_of_cards", "runs_of"]
