"""Engine errors in the page language, and the strings the table's JavaScript shows.

The engine answers with a stable ``code``, ``params`` and an English ``message``. English
pages show that message as it is; other languages get a template per code (translated in
``locale/``) that the browser fills from ``params`` (seat numbers become player names,
suit letters become suit names). Unknown codes fall back to the English message.
"""

from __future__ import annotations

import json

from django.utils.translation import get_language, pgettext
from django.utils.translation import gettext as _

SOURCE_LANGUAGE = "en"


def _templates() -> dict[str, str]:
    return {
        "bad_format": _("This entry is missing or not valid."),
        "unknown_rules": _("These rules are unknown."),
        "rules_mismatch": _("This tournament plays other rules."),
        "wrong_card_count": _("{seat} holds {count} cards instead of 8."),
        "duplicate_card": _("{card} is entered twice ({seats})."),
        "card_not_in_hand": _("{seat} does not hold {card}."),
        "illegal_play": _("{seat} may not play {card} here; allowed: {legal}."),
        "incomplete_play": _("Only {count} of 32 cards are played and no revoke is entered."),
        "too_many_plays": _("Too many cards are played."),
        "revoke_wrong_seat": _("The revoke is by {seat}, but it was {expected}'s turn."),
        "revoke_not_illegal": _("{seat} could legally play {card}: that is no revoke."),
        "contract_mismatch": _(
            "Trump {trump} does not fit the upcard's suit {upcard_suit} for this game "
            "(Orgi: same suit, Kleines: another suit, Besser: Clubs)."
        ),
        "bidding_mismatch": _("The calls do not lead to this game."),
        "not_a_meld": _("{seat}: {cards} is not a sequence of 3 or more cards of one suit."),
        "meld_not_held": _("{seat} did not hold {missing} and cannot meld {cards}."),
        "meld_not_maximal": _("{seat} melds {cards} but holds the run {run}: meld the whole run."),
        "duplicate_meld": _("{seat} melds {cards} twice."),
        "bella_not_held": _("{seat} did not hold {cards} and cannot announce Bella."),
        "impossible_points": _("The card points {card_points} are not possible."),
        "impossible_tricks": _("These trick counts are not possible."),
        "thrown_in_not_empty": _("A thrown-in deal has nothing else to enter."),
        "internal_error": _("The rules engine failed on this entry."),
    }


def error_templates() -> dict[str, str]:
    """Templates for the active language; empty for English (the engine's own words)."""
    if (get_language() or SOURCE_LANGUAGE).startswith(SOURCE_LANGUAGE):
        return {}
    return _templates()


def ui_strings() -> dict[str, str]:
    """Texts the table's JavaScript shows on its own."""
    return {
        "waiting": _("%(n)s waiting"),
        "allSent": _("All entries sent"),
        "offline": _("Offline: entries are kept and sent later"),
        "saved": _("Deal %(n)s saved"),
        "queued": _("Deal %(n)s kept, will be sent when online"),
        "rejected": _("Deal %(n)s was not accepted: please check the marked fields"),
        "conflict": _(
            "Deal %(n)s was already entered on another device. The table was reloaded."
        ),
        "closed": _("This table no longer accepts entries (round closed or match finished)."),
        "badCode": _("This table code no longer works. Ask the organiser for a new one."),
        "serverError": _("The server did not answer; retrying."),
        "pickDeclarer": _("Tap who plays."),
        "pickKind": _("Choose the game."),
        "pickTrump": _("Choose trump."),
        "pickUpcard": _("Choose the upcard."),
        "pickPoints": _("Enter the card points of one team."),
        "pickRevoke": _("Choose who revoked and with which card."),
        "confirmed": _("Confirmed"),
        "suitC": pgettext("suit", "Clubs"), "suitS": pgettext("suit", "Spades"),
        "suitH": pgettext("suit", "Hearts"), "suitD": pgettext("suit", "Diamonds"),
        "terz": _("Terz"), "fuenfzig": _("Fünfzig"),
        "remove": _("Remove"),
        "handsIncomplete": _("Each hand needs 8 cards."),
        "seat": _("Seat %(n)s"),
        "corrected": _("Correction saved"),
        "stale": _("Someone changed this deal meanwhile; reload and correct the latest version."),
    }  # fmt: skip


RANKS = "789TJQKA"
SUITS = "CSHD"


def rank_labels() -> dict[str, str]:
    return {"7": "7", "8": "8", "9": "9", "T": "10",
            # Translators: card rank letters (German: B = Bube, D = Dame)
            "J": _("J"), "Q": _("Q"), "K": _("K"), "A": _("A")}  # fmt: skip


def entry_form_context(seat_names: list[str]) -> dict[str, object]:
    """What ``tablet/_entry_form.html`` needs: seats, suits, ranks and the 32 cards."""
    labels = rank_labels()
    suit_names = {
        "C": pgettext("suit", "Clubs"),
        "S": pgettext("suit", "Spades"),
        "H": pgettext("suit", "Hearts"),
        "D": pgettext("suit", "Diamonds"),
    }
    return {
        "entry_seats": [{"n": n, "name": name, "team": n % 2} for n, name in enumerate(seat_names)],
        "entry_suits": [{"code": s, "name": suit_names[s]} for s in SUITS],
        "entry_ranks": [{"code": r, "label": labels[r]} for r in RANKS],
        "entry_tops": [{"code": r, "label": labels[r]} for r in RANKS[2:]],
        "entry_cards": [
            {"code": r + s, "label": labels[r], "suit": s, "red": s in "HD"}
            for s in SUITS
            for r in RANKS
        ],
        "entry_lengths": [3, 4, 5, 6, 7, 8],
        "rank_labels_json": json.dumps(labels),
    }
