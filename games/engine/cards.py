"""Cards, suits, ranks, card points and the per-trump tables.

A card is an int 0-31: ``suit * 8 + rank`` with suits C S H D (0-3) and ranks in the
natural order 7 8 9 T J Q K A (0-7). A set of cards is a 32-bit mask. Everything that
depends on the trump suit (rank power, points with the Jappa/Mie bonuses, the trumps
that beat a given trump) is precomputed once per trump in ``TABLES``.

This module knows nothing of seats, tricks or records.
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import IntEnum
from typing import Final


class Suit(IntEnum):
    """The four suits; the value is the suit's index in a card id."""

    CLUBS = 0
    SPADES = 1
    HEARTS = 2
    DIAMONDS = 3


SUIT_LETTERS: Final = "CSHD"
RANK_LETTERS: Final = "789TJQKA"
SUIT_NAMES: Final = ("Clubs", "Spades", "Hearts", "Diamonds")

SEVEN, EIGHT, NINE, TEN, JACK, QUEEN, KING, ACE = range(8)

ALL_CARDS: Final = (1 << 32) - 1
#: The mask of each card (shared int objects: no new int per ``1 << card``).
CARD_BIT: Final = tuple(1 << card for card in range(32))
SUIT_MASK: Final = tuple(0xFF << (8 * s) for s in range(4))
#: Each card's suit (``card >> 3``) as a table: indexing a tuple costs the hot loops
#: less than a shift.
SUIT_OF: Final = tuple(card >> 3 for card in range(32))

CARD_TEXT: Final = tuple(r + s for s in SUIT_LETTERS for r in RANK_LETTERS)
CARD_BY_TEXT: Final[dict[str, int]] = {t: i for i, t in enumerate(CARD_TEXT)}
CARD_BY_TEXT.update({"10" + s: s_i * 8 + TEN for s_i, s in enumerate(SUIT_LETTERS)})
BIT_BY_TEXT: Final = {text: 1 << card for text, card in CARD_BY_TEXT.items()}
SUIT_BY_TEXT: Final[dict[str, int]] = {s: i for i, s in enumerate(SUIT_LETTERS)}

#: Augen per natural rank, the same in every suit: 7 8 9 T J Q K A.
RANK_POINTS: Final = (0, 0, 0, 10, 2, 3, 4, 11)
#: Strength in a side suit: A > T > K > Q > J > 9 > 8 > 7.
SIDE_POWER: Final = (0, 1, 2, 6, 3, 4, 5, 7)
#: Strength in the trump suit: J > 9 > A > T > K > Q > 8 > 7.
TRUMP_POWER: Final = (0, 1, 6, 4, 7, 2, 3, 5)
JAPPA_BONUS: Final = 20
MIE_BONUS: Final = 14
LAST_TRICK_BONUS: Final = 10
#: Points of a deal without melds: 120 card points + Jappa 20 + Mie 14 + last trick 10.
DEAL_POINTS: Final = 164


def suit_of(card: int) -> int:
    """The suit index of a card."""
    return card >> 3


def rank_of(card: int) -> int:
    """The natural rank index (7=0 ... A=7) of a card."""
    return card & 7


def make_card(suit: int, rank: int) -> int:
    """The card id of a suit and natural rank."""
    return suit * 8 + rank


def parse_card(text: object) -> int | None:
    """The card id for a text such as ``JH`` or ``10S``; None when it is not a card."""
    if type(text) is not str:
        return None
    return CARD_BY_TEXT.get(text)


def parse_suit(text: object) -> int | None:
    """The suit index for ``C``/``S``/``H``/``D``; None otherwise."""
    if not isinstance(text, str):
        return None
    return SUIT_BY_TEXT.get(text)


def cards_of(mask: int) -> list[int]:
    """The cards in a mask, lowest id first."""
    out = []
    while mask:
        low = mask & -mask
        out.append(low.bit_length() - 1)
        mask ^= low
    return out


def mask_of(cards: list[int] | tuple[int, ...]) -> int:
    """The mask of some cards."""
    m = 0
    for c in cards:
        m |= 1 << c
    return m


@dataclass(frozen=True)
class TrumpTable:
    """Everything about the cards that depends on the trump suit."""

    trump: int
    trump_mask: int
    #: Trick-taking strength: trumps 8-15, other cards 0-7 (only meaningful in the led suit).
    power: tuple[int, ...]
    #: Card points including the Jappa and Mie bonuses.
    points: tuple[int, ...]
    #: For a trump card: the mask of trumps that beat it (0 for other cards).
    beaten_by: tuple[int, ...]
    jappa: int
    mie: int
    king: int
    queen: int


def _table(trump: int) -> TrumpTable:
    power = []
    points = []
    for card in range(32):
        suit, rank = suit_of(card), rank_of(card)
        if suit == trump:
            power.append(8 + TRUMP_POWER[rank])
            bonus = JAPPA_BONUS if rank == JACK else MIE_BONUS if rank == NINE else 0
            points.append(RANK_POINTS[rank] + bonus)
        else:
            power.append(SIDE_POWER[rank])
            points.append(RANK_POINTS[rank])
    trump_cards = [make_card(trump, r) for r in range(8)]
    beaten_by = [0] * 32
    for c in trump_cards:
        beaten_by[c] = mask_of([d for d in trump_cards if power[d] > power[c]])
    return TrumpTable(
        trump=trump,
        trump_mask=SUIT_MASK[trump],
        power=tuple(power),
        points=tuple(points),
        beaten_by=tuple(beaten_by),
        jappa=make_card(trump, JACK),
        mie=make_card(trump, NINE),
        king=make_card(trump, KING),
        queen=make_card(trump, QUEEN),
    )


TABLES: Final = tuple(_table(t) for t in range(4))


def sorted_for_display(mask: int, table: TrumpTable) -> list[int]:
    """Cards of a mask strongest first (suit order C S H D, trump order for trumps)."""
    power = table.power
    return sorted(cards_of(mask), key=lambda c: (suit_of(c), -power[c]))
