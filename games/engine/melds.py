"""Terz and Fünfzig: sequences in a hand, announced melds, and the meld contest.

A meld is a whole maximal run of 3+ cards of one suit in the natural order
7 8 9 T J Q K A (length 3 = Terz 20, 4-8 = Fünfzig 50). ``contest`` decides which team
scores its melds. Validation against a record's hands lives in ``record``.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass

from .cards import CARD_BY_TEXT, CARD_TEXT, make_card
from .rules import Options

TERZ_POINTS = 20
FUENFZIG_POINTS = 50


@dataclass(frozen=True, order=True)
class Run:
    """A sequence of one suit: ``length`` cards from natural rank ``low`` upwards."""

    suit: int
    low: int
    length: int

    @property
    def top(self) -> int:
        """Natural rank index of the highest card."""
        return self.low + self.length - 1

    @property
    def points(self) -> int:
        """20 for a Terz, 50 for a Fünfzig."""
        return FUENFZIG_POINTS if self.length >= 4 else TERZ_POINTS

    @property
    def cards(self) -> list[int]:
        """The cards, lowest first."""
        return [make_card(self.suit, r) for r in range(self.low, self.low + self.length)]

    @property
    def mask(self) -> int:
        """The cards as a mask."""
        return ((1 << self.length) - 1) << (self.suit * 8 + self.low)

    def texts(self) -> list[str]:
        """The cards in text notation, lowest first."""
        return [CARD_TEXT[c] for c in self.cards]


@dataclass(frozen=True)
class Meld:
    """A meld announced by a seat."""

    seat: int
    run: Run


def runs_of(hand: int) -> list[Run]:
    """Every maximal run of 3 or more cards in a hand."""
    out = []
    for suit in range(4):
        bits = (hand >> (8 * suit)) & 0xFF
        rank = 0
        while rank < 8:
            if bits >> rank & 1:
                start = rank
                while rank < 8 and bits >> rank & 1:
                    rank += 1
                if rank - start >= 3:
                    out.append(Run(suit, start, rank - start))
            else:
                rank += 1
    return out


def run_of_cards(texts: object) -> Run | None:
    """The run formed by some card texts (any order), or None if they form none."""
    if type(texts) is not list or len(texts) < 3:
        return None
    mask = 0
    try:
        for text in texts:
            mask |= 1 << CARD_BY_TEXT[text]
    except (KeyError, TypeError):
        return None
    length = len(texts)
    low = (mask & -mask).bit_length() - 1
    if mask.bit_count() != length or (low & 7) + length > 8 or mask >> low != (1 << length) - 1:
        return None
    return Run(low >> 3, low & 7, length)


def is_maximal(run: Run, hand: int) -> bool:
    """Whether the hand holds no card right below or above the run in its suit."""
    base = run.suit * 8
    below = run.low > 0 and hand >> (base + run.low - 1) & 1
    above = run.top < 7 and hand >> (base + run.top + 1) & 1
    return not below and not above


def _key(meld: Meld, *, trump: int, position: int, options: Options) -> tuple[int, ...]:
    tie = 3 - meld.run.suit if options.meld_tie_by_suit else -position
    return (meld.run.points, meld.run.top, int(meld.run.suit == trump), tie)


def contest(
    melds: Iterable[Meld], *, trump: int, forehand: int, options: Options
) -> tuple[int | None, list[Meld]]:
    """The team whose best meld wins, and the melds it scores (seat order, then run)."""
    melds = list(melds)
    if not melds:
        return None, []
    best = max(
        melds,
        key=lambda m: _key(m, trump=trump, position=(m.seat - forehand) % 4, options=options),
    )
    team = best.seat & 1
    scored = sorted((m for m in melds if m.seat & 1 == team), key=lambda m: (m.seat, m.run))
    return team, scored


def melds_json(melds: Iterable[Meld]) -> list[dict[str, object]]:
    """The result's ``scored`` list."""
    return [{"seat": m.seat, "cards": m.run.texts(), "points": m.run.points} for m in melds]


__all__ = ["Meld", "Run", "contest", "is_maximal", "melds_json", "run_of_cards", "runs_of"]
