"""Terz and Fünfzig: sequences in a hand, announced melds, and the meld contest.

A meld is a whole maximal run of 3+ cards of one suit in the natural order
7 8 9 T J Q K A (length 3 = Terz 20, 4-8 = Fünfzig 50). ``contest`` decides which team
scores its melds. Validation against a record's hands lives in ``record``.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass

from .cards import CARD_TEXT, make_card, parse_card
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
    if not isinstance(texts, list) or len(texts) < 3:
        return None
    cards = [parse_card(t) for t in texts]
    if any(c is None for c in cards):
        return None
    ids = sorted(c for c in cards if c is not None)
    suit = ids[0] >> 3
    if any(c >> 3 != suit for c in ids):
        return None
    if any(b - a != 1 for a, b in zip(ids, ids[1:], strict=False)):
        return None
    return Run(suit, ids[0] & 7, len(ids))


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


__all__ = ["Meld", "Run", "contest", "melds_json", "run_of_cards", "runs_of"]
