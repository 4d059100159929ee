"""Legal cards and trick winners.

``legal_cards`` gives the mask of cards a seat may play given its hand, the cards of
the trick so far and the trump suit, under the options. ``explain_illegal`` turns an
illegal card into a message for the table. ``trick_winner`` finds the winning
position. This module does not walk a whole deal (see ``record``) and keeps no state.

The rules of every preset are switches of ``Options``: Klammern must undertrump;
``no_undertrump`` (Klaverjas) sends a player who cannot follow and cannot overtrump to
a side card if held (a lower trump only with nothing but trumps); ``partner_exempt``
frees a player whose partner heads the trick from trumping (4 players only), and with
``no_undertrump`` a lower trump stays barred (Amsterdam); ``partner_exempt_trump_lead``
frees such a player on a trump lead from going higher too (Belote);
``free_when_outtrumped`` lets a player who cannot follow and cannot beat the trump heading
the trick play any card (Belote Contrée). A trick has as many cards as players; the
partner is the seat two places back, so it exists only with 4 players.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from enum import StrEnum

from .cards import CARD_TEXT, SUIT_MASK, SUIT_NAMES, TABLES, TrumpTable, sorted_for_display
from .rules import Options


class Duty(StrEnum):
    """Which rule restricts a seat's choice."""

    FREE = "free"
    FOLLOW_SUIT = "follow_suit"
    OVERTRUMP = "overtrump"
    TRUMP = "trump"
    NO_UNDERTRUMP = "no_undertrump"
    PARTNER_NO_UNDERTRUMP = "partner_no_undertrump"


def trick_winner(trick: Sequence[int], table: TrumpTable) -> int:
    """The position (0 = leader) of the card that wins the trick so far."""
    led = trick[0] >> 3
    power = table.power
    trump = table.trump
    best = 0
    for pos in range(1, len(trick)):
        card = trick[pos]
        suit = card >> 3
        if (suit in (led, trump)) and power[card] > power[trick[best]]:
            best = pos
    return best


@dataclass(frozen=True)
class Choice:
    """The legal cards of a seat and the rule that produced them."""

    legal: int
    duty: Duty


def choice(hand: int, trick: Sequence[int], table: TrumpTable, options: Options) -> Choice:
    """The legal cards for ``hand`` facing ``trick`` (cards so far, leader first)."""
    if not trick:
        return Choice(hand, Duty.FREE)
    led = trick[0] >> 3
    trumps = hand & table.trump_mask
    winner = trick_winner(trick, table)
    best = trick[winner]
    best_is_trump = best >> 3 == table.trump
    if led == table.trump:
        if not trumps:
            return Choice(hand, Duty.FREE)
        higher = trumps & table.beaten_by[best]
        if (
            options.overtrump_on_trump_lead
            and higher
            and not _partner_frees(trick, winner, options)
        ):
            return Choice(higher, Duty.OVERTRUMP)
        return Choice(trumps, Duty.FOLLOW_SUIT)
    follow = hand & SUIT_MASK[led]
    if follow:
        return Choice(follow, Duty.FOLLOW_SUIT)
    if not trumps:
        return Choice(hand, Duty.FREE)
    if options.partner_exempt and winner == len(trick) - 2 and options.players == 4:
        if options.no_undertrump and best_is_trump and hand != trumps:
            allowed = (hand & ~table.trump_mask) | (trumps & table.beaten_by[best])
            return Choice(allowed, Duty.PARTNER_NO_UNDERTRUMP)
        return Choice(hand, Duty.FREE)
    if best_is_trump:
        higher = trumps & table.beaten_by[best]
        if higher:
            return Choice(higher, Duty.OVERTRUMP)
        if options.no_undertrump:
            side = hand & ~table.trump_mask
            return Choice(side, Duty.NO_UNDERTRUMP) if side else Choice(hand, Duty.FREE)
        if options.free_when_outtrumped:
            return Choice(hand, Duty.FREE)
    return Choice(trumps, Duty.TRUMP)


def _partner_frees(trick: Sequence[int], winner: int, options: Options) -> bool:
    """On a trump lead: does the partner's heading the trick free from going higher?"""
    return options.partner_exempt_trump_lead and options.players == 4 and winner == len(trick) - 2


def legal_cards(hand: int, trick: Sequence[int], trump: int, options: Options) -> int:
    """The mask of cards in ``hand`` that may be played to ``trick`` with ``trump``."""
    return choice(hand, trick, TABLES[trump], options).legal


def _list(mask: int, table: TrumpTable) -> str:
    return ", ".join(CARD_TEXT[c] for c in sorted_for_display(mask, table))


def explain_illegal(
    *, seat: int, card: int, hand: int, trick: Sequence[int], table: TrumpTable, options: Options
) -> tuple[str, dict[str, object]]:
    """Message and params for ``seat`` playing the illegal ``card``."""
    ch = choice(hand, trick, table, options)
    shown = _list(ch.legal, table)
    led = trick[0] >> 3
    played = CARD_TEXT[card]
    best = CARD_TEXT[trick[trick_winner(trick, table)]]
    if ch.duty is Duty.OVERTRUMP:
        what = f"must beat {best} with a higher trump ({shown})"
    elif ch.duty is Duty.NO_UNDERTRUMP:
        what = (
            f"cannot follow {SUIT_NAMES[led]} or beat {best} and may not undertrump: "
            f"a card of another suit ({shown})"
        )
    elif ch.duty is Duty.PARTNER_NO_UNDERTRUMP:
        what = f"may play any card under the partner's {best} except a lower trump ({shown})"
    elif ch.duty is Duty.TRUMP:
        what = f"cannot follow {SUIT_NAMES[led]} and must play a trump ({shown})"
    else:
        what = f"must follow {SUIT_NAMES[led]} ({shown})"
    params: dict[str, object] = {
        "seat": seat,
        "card": played,
        "rule": str(ch.duty),
        "led_suit": "CSHD"[led],
        "legal": [CARD_TEXT[c] for c in sorted_for_display(ch.legal, table)],
    }
    return f"seat {seat} {what} but played {played}", params
