"""The 36-card Jass deck of the Schieber: cards, the six modes, legal cards and the trick
winner (RULES.md "Schieberjass").

The other games keep their 32-card representation (``cards``); the Schieber has its own
deck so that nothing of theirs changes or slows down. A Jass card is an int 0-35:
``suit * 9 + rank`` with suits C S H D (0-3, as in ``cards``) and ranks in the natural
order 6 7 8 9 T J Q K A (0-8). A set of cards is a 36-bit mask. ``deck_texts`` gives the
card texts of any preset's deck (36 for the Schieber, 32 for the rest).

A mode is one of the four trump suits (0-3), Obenabe (4) or Undenufe (5); ``MODE_TABLES``
holds each mode's trick-taking power and card points:

- trump suit J 20, 9 14, A 11, K 4, Q 3, T 10 (order J 9 A K Q T 8 7 6); side suits
  A 11, K 4, Q 3, J 2, T 10 (order A K Q J T 9 8 7 6, the natural order);
- Obenabe: natural order, the 8 worth 8; Undenufe: reversed (6 high), the 6 worth 11 and
  the Ace 0. Every mode holds 152 card points; the last trick adds 5 (157).

Play (``jass_legal``): follow suit or trump at any time; a player who cannot follow plays
any card; on a side-suit lead a trump lower than one in the trick only from a hand of
nothing but trumps; on a trump lead follow with a trump, except that the trump Jack is
never forced. This module knows nothing of records, Weis or scoring (``schieber``).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Final

from .cards import CARD_TEXT, SUIT_LETTERS, SUIT_NAMES
from .rules import Options

JASS_RANK_LETTERS: Final = "6789TJQKA"
SIX, SEVEN, EIGHT, NINE, TEN, JACK, QUEEN, KING, ACE = range(9)
DECK_SIZE: Final = 36
JASS_SUIT_MASK: Final = tuple(0x1FF << (9 * s) for s in range(4))
JASS_CARD_TEXT: Final = tuple(r + s for s in SUIT_LETTERS for r in JASS_RANK_LETTERS)
JASS_CARD_BY_TEXT: Final[dict[str, int]] = {t: i for i, t in enumerate(JASS_CARD_TEXT)}
JASS_CARD_BY_TEXT.update({"10" + s: s_i * 9 + TEN for s_i, s in enumerate(SUIT_LETTERS)})

OBENABE: Final = 4
UNDENUFE: Final = 5
MODE_NAMES: Final = ("trump", "trump", "trump", "trump", "obenabe", "undenufe")
MODE_WORDS: Final = ("Clubs", "Spades", "Hearts", "Diamonds", "Obenabe", "Undenufe")

#: Card points per natural rank 6 7 8 9 T J Q K A.
TRUMP_POINTS: Final = (0, 0, 0, 14, 10, 20, 3, 4, 11)
SIDE_POINTS: Final = (0, 0, 0, 0, 10, 2, 3, 4, 11)
OBENABE_POINTS: Final = (0, 0, 8, 0, 10, 2, 3, 4, 11)
UNDENUFE_POINTS: Final = (11, 0, 8, 0, 10, 2, 3, 4, 0)
#: Trump strength per natural rank: 6 7 8 T Q K A 9 J, low to high.
TRUMP_ORDER: Final = (0, 1, 2, 7, 3, 8, 4, 5, 6)
CARD_POINTS_SUM: Final = 152
LAST_TRICK: Final = 5
DEAL_VALUE: Final = 157


def jass_suit(card: int) -> int:
    """The suit index (0-3) of a Jass card."""
    return card // 9


def jass_rank(card: int) -> int:
    """The natural rank index (6=0 ... A=8) of a Jass card."""
    return card % 9


def parse_jass_card(text: object) -> int | None:
    """The Jass card id for a text such as ``6S`` or ``10H``; None when it is not one."""
    if type(text) is not str:
        return None
    return JASS_CARD_BY_TEXT.get(text)


def jass_cards_of(mask: int) -> list[int]:
    """The cards in a mask, lowest id first."""
    return [c for c in range(DECK_SIZE) if mask >> c & 1]


def deck_texts(options: Options) -> tuple[str, ...]:
    """The card texts of a game's deck: 36 (6 to Ace) for the Schieber, else 32."""
    return JASS_CARD_TEXT if options.game == "schieber" else CARD_TEXT


class ModeTable:
    """Everything about the cards that depends on the mode (a trump suit, Obenabe or
    Undenufe)."""

    def __init__(self, mode: int) -> None:
        self.mode = mode
        #: The trump suit, or -1 in Obenabe and Undenufe.
        self.trump = mode if mode < 4 else -1
        self.trump_mask = JASS_SUIT_MASK[mode] if mode < 4 else 0
        power, points = [], []
        for card in range(DECK_SIZE):
            suit, rank = jass_suit(card), jass_rank(card)
            if suit == self.trump:
                power.append(9 + TRUMP_ORDER[rank])
                points.append(TRUMP_POINTS[rank])
            elif mode == UNDENUFE:
                power.append(8 - rank)
                points.append(UNDENUFE_POINTS[rank])
            else:
                power.append(rank)
                points.append(OBENABE_POINTS[rank] if mode == OBENABE else SIDE_POINTS[rank])
        #: Trick-taking strength: trumps 9-17, other cards 0-8 (only in the led suit).
        self.power: tuple[int, ...] = tuple(power)
        self.points: tuple[int, ...] = tuple(points)
        base = 9 * mode if mode < 4 else -1
        #: The trump Jack ("Puur"), King and Queen; -1 without trumps.
        self.jack = base + JACK if mode < 4 else -1
        self.king = base + KING if mode < 4 else -1
        self.queen = base + QUEEN if mode < 4 else -1

    @property
    def name(self) -> str:
        """``trump``, ``obenabe`` or ``undenufe``."""
        return MODE_NAMES[self.mode]


MODE_TABLES: Final = tuple(ModeTable(m) for m in range(6))


def jass_trick_winner(trick: Sequence[int], table: ModeTable) -> int:
    """The position (0 = leader) of the card that wins the trick so far."""
    led = trick[0] // 9
    power = table.power
    best = 0
    for pos in range(1, len(trick)):
        card = trick[pos]
        suit = card // 9
        if suit in (led, table.trump) and power[card] > power[trick[best]]:
            best = pos
    return best


def _top_trump_power(trick: Sequence[int], table: ModeTable) -> int:
    top = -1
    for card in trick:
        if card // 9 == table.trump and table.power[card] > top:
            top = table.power[card]
    return top


def _lower_trumps(trumps: int, top: int, table: ModeTable) -> int:
    lower = 0
    for card in jass_cards_of(trumps):
        if table.power[card] < top:
            lower |= 1 << card
    return lower


def jass_legal(hand: int, trick: Sequence[int], table: ModeTable) -> int:
    """The mask of cards in ``hand`` that may be played to ``trick`` (RULES.md
    "Schieberjass", Play)."""
    if not trick:
        return hand
    led = trick[0] // 9
    follow = hand & JASS_SUIT_MASK[led]
    if table.trump < 0:
        return follow if follow else hand
    trumps = hand & table.trump_mask
    if led == table.trump:
        return trumps if trumps & ~(1 << table.jack) else hand
    allowed = follow | trumps if follow else hand
    top = _top_trump_power(trick, table)
    if top >= 0 and hand & ~table.trump_mask:
        allowed &= ~_lower_trumps(trumps, top, table)
    return allowed


def _shown(mask: int, table: ModeTable) -> str:
    cards = sorted(jass_cards_of(mask), key=lambda c: (c // 9, -table.power[c]))
    return ", ".join(JASS_CARD_TEXT[c] for c in cards)


def explain_jass_illegal(
    seat: int, card: int, hand: int, trick: Sequence[int], table: ModeTable
) -> tuple[str, dict[str, object]]:
    """Message and params for ``seat`` playing the illegal ``card`` to ``trick``."""
    legal = jass_legal(hand, trick, table)
    led = trick[0] // 9
    shown = _shown(legal, table)
    if table.trump >= 0 and card // 9 == table.trump and led != table.trump:
        top = JASS_CARD_TEXT[trick[jass_trick_winner(trick, table)]]
        rule = "no_undertrump"
        what = f"may not undertrump {top} while holding other cards ({shown})"
    elif led == table.trump:
        rule = "follow_suit"
        what = f"must follow trumps ({shown}; the trump Jack is never forced)"
    elif table.trump >= 0:
        rule = "follow_suit"
        what = f"must follow {SUIT_NAMES[led]} or play a trump ({shown})"
    else:
        rule = "follow_suit"
        what = f"must follow {SUIT_NAMES[led]} ({shown})"
    params: dict[str, object] = {
        "seat": seat,
        "card": JASS_CARD_TEXT[card],
        "rule": rule,
        "led_suit": SUIT_LETTERS[led],
        "legal": [JASS_CARD_TEXT[c] for c in jass_cards_of(legal)],
    }
    return f"seat {seat} {what} but played {JASS_CARD_TEXT[card]}", params


def multiplier_of(mode: int, options: Options) -> int:
    """The deal's multiplier: 1 unless ``multipliers``; then Clubs and Diamonds 1,
    Hearts and Spades 2, Obenabe and Undenufe 3."""
    if not options.multipliers:
        return 1
    return (1, 2, 2, 1, 3, 3)[mode]


__all__ = [
    "DEAL_VALUE",
    "DECK_SIZE",
    "JASS_CARD_BY_TEXT",
    "JASS_CARD_TEXT",
    "MODE_TABLES",
    "ModeTable",
    "deck_texts",
    "jass_legal",
    "jass_trick_winner",
    "multiplier_of",
    "parse_jass_card",
]
