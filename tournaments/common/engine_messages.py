"""Engine errors in the page language, and the strings the table's JavaScript shows.

The engine answers with a stable ``code``, ``params`` and an English ``message`` that
names seats 0-3 and cards by their record text (``seat 2 must follow Hearts``). No page
shows that as it is: every language, English included, gets a template per code
(translated in ``locale/``) that the browser fills from ``params`` (seat numbers become
player names, else "Seat 1" to "Seat 4"; suit letters become suit names; cards become
rank and suit symbol). An illegal play has a template per broken rule
(``illegal_play.<rule>``). Codes whose engine message says more than any template could
(a bad format, unknown rules) keep the engine's words in English, with their seats and
cards rewritten the same way by the browser (``DealEntry.humanize``).
A few engine messages are written for the record's format rather than for people at the
table (``card_points must be two whole numbers 0-164``): those get a template keyed
``code.field`` in every language, and the browser prefers it.
"""

from __future__ import annotations

import json
import re
from collections.abc import Mapping
from typing import Any

from django.utils.translation import get_language, pgettext
from django.utils.translation import gettext as _

from games import profiles

SOURCE_LANGUAGE = "en"


def _templates() -> dict[str, str]:
    return {
        "bad_format": _("This entry is missing or not valid."),
        "unknown_field": _("This game's deal record has no field {field}: remove it."),
        "unknown_rules": _("These rules are unknown."),
        "rules_mismatch": _("This tournament plays other rules."),
        "wrong_card_count": _("{seat} holds {count} cards: that is not a whole hand of this game."),
        "duplicate_card": _("{card} is entered twice ({seats})."),
        "card_not_in_hand": _("{seat} does not hold {card}."),
        "illegal_play": _("{seat} may not play {card} here; allowed: {legal}."),
        "incomplete_play": _(
            "Only {count} cards are played, not the whole deal, and no revoke is entered."
        ),
        "too_many_plays": _("Too many cards are played."),
        "revoke_wrong_seat": _("The revoke is by {seat}, but it was {expected}'s turn."),
        "revoke_not_illegal": _("{seat} could legally play {card}: that is no revoke."),
        "contract_mismatch": _(
            "The contract does not fit these rules: check who played, trump and the upcard."
        ),
        "bidding_mismatch": _("The calls do not lead to this game."),
        # an auction's calls, in words that fit every game with one (a game says its own)
        "bid_not_higher": _("{seat}'s bid is not higher than the last bid."),
        "bid_value_not_allowed": _("{value} is not a value one may bid in this game."),
        "coinche_not_allowed": _(
            "{seat} may not double here: only the other team doubles, and only the last bid."
        ),
        "surcoinche_not_allowed": _(
            "{seat} may not redouble here: only the bidding team redoubles, right after the double."
        ),
        # melds in words that fit every game; a game with melds says them in its own
        "not_a_meld": _("{seat}: {cards} is no announcement of this game."),
        "meld_not_held": _("{seat} did not hold {missing} and cannot announce {cards}."),
        "meld_not_maximal": _(
            "{seat} announces {cards} but holds the sequence {run}: announce it as one."
        ),
        "duplicate_meld": _("{seat} announces {cards} twice."),
        "bella_not_held": _("{seat} did not hold {cards} and cannot announce them."),
        "impossible_points": _("The card points {card_points} are not possible."),
        "impossible_tricks": _("These trick counts are not possible."),
        "missing_field": _(
            "One team has all the card points: enter how many tricks each team took "
            "(all 8 tricks, or 7 and a trick without points)."
        ),
        "thrown_in_not_empty": _("A thrown-in deal has nothing else to enter."),
        "wrong_dealer": _("{seat} may not deal this deal: it is {expected}'s turn to deal."),
        "internal_error": _("The rules engine failed on this entry."),
    }


def _illegal_play_templates() -> dict[str, str]:
    """An illegal play, by the rule it broke (the engine's ``params["rule"]``)."""
    return {
        "illegal_play.follow_suit": _("{seat} must follow {led_suit} ({legal}) but played {card}."),
        "illegal_play.trump": _(
            "{seat} cannot follow {led_suit} and must play a trump ({legal}) but played {card}."
        ),
        "illegal_play.overtrump": _(
            "{seat} must beat the trick with a higher trump ({legal}) but played {card}."
        ),
        "illegal_play.no_undertrump": _(
            "{seat} cannot follow {led_suit} or overtrump and may not undertrump: a card of "
            "another suit ({legal}), not {card}."
        ),
        "illegal_play.partner_no_undertrump": _(
            "{seat} may play any card under the partner's trick except a lower trump "
            "({legal}), not {card}."
        ),
    }


#: Codes whose English engine message is more specific than the template (it names the
#: field or option): English pages show it, seats and cards rewritten by the browser.
ENGINE_WORDS_IN_ENGLISH = frozenset({"bad_format", "unknown_rules", "internal_error"})


def _field_templates() -> dict[str, str]:
    """Templates for one code on one field, in every language (a game's sheet has its
    own where its numbers or words differ: ``EntrySheet.error_templates``)."""
    return {
        "bad_format.card_points": _(
            "Enter the card points as whole numbers, from 0 up to all the card points of a deal."
        ),
        "board_mismatch.dealer": _(
            "This board is dealt by {expected}: enter the deal as the board's cards lie."
        ),
        "board_mismatch.upcard": _("The upcard of this board is {card}."),
        "board_mismatch.contract.trump": _(
            "On this board trump is {suit}: the upcard {card} is turned up."
        ),
        "board_mismatch.hands": _(
            "{seat} holds other cards than the board gives this seat: enter the board's hands."
        ),
    }


def error_templates() -> dict[str, str]:
    """Templates for the active language that fit every game: every code, by rule and by
    field (the codes only some games raise, such as melds, come from the game's sheet:
    ``sheet_error_templates``); English keeps the engine's words only for
    ``ENGINE_WORDS_IN_ENGLISH``."""
    templates = {**_templates(), **_illegal_play_templates(), **_field_templates()}
    if (get_language() or SOURCE_LANGUAGE).startswith(SOURCE_LANGUAGE):
        for code in ENGINE_WORDS_IN_ENGLISH:
            templates.pop(code, None)
    return templates


def sheet_error_templates(profile: profiles.GameProfile) -> dict[str, str]:
    """Every error text a game's score sheet shows, in the active language: the common
    templates with the game's own (its numbers, its words) over them."""
    return {**error_templates(), **profile.sheet.errors()}


def sheet_strings(profile: profiles.GameProfile) -> dict[str, str]:
    """Every text the table's script shows on its own for a game's sheet (besides the
    corrections' and the suits'): the common ones and the game's (``EntrySheet.strings``)."""
    return {**ui_strings(), **profile.sheet.texts()}


#: Suit symbols of cards in messages, as the tablet shows them.
SUIT_SYMBOLS = {"C": "\u2663", "S": "\u2660", "H": "\u2665", "D": "\u2666"}
SEAT_PARAMS = frozenset({"seat", "expected", "next_seat"})
SUIT_PARAMS = frozenset({"trump", "upcard_suit", "led_suit", "suit"})
CARD_LIST_PARAMS = frozenset({"cards", "missing", "legal", "run"})


def _suit_names() -> dict[str, str]:
    return {
        "C": pgettext("suit", "Clubs"),
        "S": pgettext("suit", "Spades"),
        "H": pgettext("suit", "Hearts"),
        "D": pgettext("suit", "Diamonds"),
    }


def _card(text: str) -> str:
    if len(text) != 2:
        return text
    return rank_labels().get(text[0], text[0]) + SUIT_SYMBOLS.get(text[1], text[1])


def _param(key: str, value: Any) -> str:
    """A parameter of an engine error as the tablet shows it (``entry.js`` ``param``):
    seats from 1, suits by name, cards by rank and suit symbol."""
    if key in SEAT_PARAMS and isinstance(value, int):
        return _("Seat %(n)s") % {"n": value + 1}
    if key == "seats" and isinstance(value, list):
        return ", ".join(_param("seat", seat) for seat in value)
    if key in SUIT_PARAMS and isinstance(value, str):
        return _suit_names().get(value, value)
    if key == "card" and isinstance(value, str):
        return _card(value)
    if key in CARD_LIST_PARAMS and isinstance(value, list):
        return " ".join(_card(str(card)) for card in value)
    if key == "card_points" and isinstance(value, list):
        return ":".join(str(points) for points in value)
    return str(value)


def _template_for(error: dict[str, Any], templates: Mapping[str, str]) -> str | None:
    params = error.get("params") or {}
    if error.get("code") == "illegal_play" and params.get("rule"):
        rule = templates.get(f"illegal_play.{params['rule']}")
        if rule:
            return rule
    return templates.get(f"{error.get('code')}.{error.get('field') or ''}") or templates.get(
        str(error.get("code"))
    )


def localized_message(error: dict[str, Any], templates: Mapping[str, str]) -> str:
    """An error of a deal record (the engine's, or a service's in the same shape) in the
    active language: the template of its code filled with its parameters, as the tablet
    fills it; the engine's own words where no template fits or a parameter is missing."""
    template = _template_for(error, templates)
    params = dict(error.get("params") or {})
    if isinstance(params.get("card_points"), list):
        params["card_points_sum"] = sum(params["card_points"])
    names = re.findall(r"\{(\w+)\}", template or "")
    if template is None or any(name not in params for name in names):
        return str(error.get("message", ""))
    return re.sub(r"\{(\w+)\}", lambda m: _param(m.group(1), params[m.group(1)]), template)


def localized_errors(errors: list[Any], *, extra: Mapping[str, str] | None = None) -> list[Any]:
    """Each error's ``message`` in the active language (``localized_message``; ``extra``
    templates first: a game's sheet's); the API's exception handler sends every
    ``errors`` list through here."""
    templates = {**error_templates(), **(extra or {})}
    return [
        {**error, "message": localized_message(error, templates)}
        if isinstance(error, dict) and "code" in error
        else error
        for error in errors
    ]


def ui_strings() -> dict[str, str]:
    """Texts the table's JavaScript shows on its own."""
    return {
        "waiting": _("%(n)s waiting"),
        "board": _("Board %(n)s"),
        "allSent": _("All entries sent"),
        "offline": _("Offline: entries are kept and sent later"),
        "saved": _("Deal %(n)s saved"),
        "queued": _("Deal %(n)s kept, will be sent when online"),
        "rejected": _("Deal %(n)s was not accepted: please check the marked fields"),
        "conflict": _("Deal %(n)s was already entered on another device. The table was reloaded."),
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
        "suitC": pgettext("suit", "Clubs"),
        "suitS": pgettext("suit", "Spades"),
        "suitH": pgettext("suit", "Hearts"),
        "suitD": pgettext("suit", "Diamonds"),
        "remove": _("Remove"),
        "seat": _("Seat %(n)s"),
        "corrected": _("Correction saved"),
        "stale": _("Someone changed this deal meanwhile; reload and correct the latest version."),
    }


RANKS = "789TJQKA"
SUITS = "CSHD"


def rank_labels() -> dict[str, str]:
    """The one alphabet of card ranks in the reader's language, by the record's rank
    letter: every page and the tablet write a rank with it (``card_rank``, the tablet's
    ``data-rank-labels``, ``replay.js``). German B D K A (Bube, Dame, König, Ass), Dutch
    B V H A (boer, vrouw, heer, aas), French V D R A (valet, dame, roi, as), English
    J Q K A; a Ten is "10" everywhere."""
    return {
        "6": "6",
        "7": "7",
        "8": "8",
        "9": "9",
        "T": "10",
        # Translators: card rank letters (German: B = Bube, D = Dame)
        "J": _("J"),
        "Q": _("Q"),
        "K": _("K"),
        "A": _("A"),
    }


def card_rank(text: str) -> str:
    """A card's rank as the reader's language writes it (``rank_labels``): the record's
    text ``JH`` or ``10S``/``TS`` gives "B" or "10" on a German page."""
    rank = text[:-1]
    rank = "T" if rank == "10" else rank
    return rank_labels().get(rank, rank)


def rank_labels_json() -> str:
    """``rank_labels`` for a page's script (``data-rank-labels``)."""
    return json.dumps(rank_labels())


def suit_names(style: str = profiles.FRENCH) -> dict[str, str]:
    """The suits' names by letter in a suit style (``profiles.SUIT_STYLES``)."""
    return {code: str(name) for code, name in profiles.SUIT_NAMES[style].items()}


def suit_strings(style: str = profiles.FRENCH) -> dict[str, str]:
    """The table script's suit names (``suitC`` ...) in a suit style."""
    return {f"suit{code}": name for code, name in suit_names(style).items()}


def suit_context(style: str) -> dict[str, object]:
    """What ``_suit.html`` needs to show suits in a suit style (its symbols and names)."""
    return {"suit_style": style, "suit_names": suit_names(style)}


def entry_form_context(
    seat_names: list[str], *, ranks: str = RANKS, suits: str = profiles.FRENCH
) -> dict[str, object]:
    """What ``tablet/_entry_form.html`` needs: seats, suits (named in the suit style
    ``suits``), the deck's ranks (``ranks``, low to high) and its cards."""
    labels = {r: label for r, label in rank_labels().items() if r in ranks}
    names = suit_names(suits)
    return {
        "entry_seats": [{"n": n, "name": name, "team": n % 2} for n, name in enumerate(seat_names)],
        "entry_suits": [{"code": s, "name": names[s]} for s in SUITS],
        "entry_ranks": [{"code": r, "label": labels[r]} for r in ranks],
        "entry_tops": [{"code": r, "label": labels[r]} for r in ranks[2:]],
        "entry_cards": [
            {"code": r + s, "label": labels[r], "suit": s, "red": s in "HD"}
            for s in SUITS
            for r in ranks
        ],
        "entry_lengths": list(range(3, len(ranks) + 1)),
        "rank_labels_json": json.dumps(labels),
        "suit_style": suits,
        "suit_names": names,
    }


def engine_errors(errors: list[dict[str, Any]], *, preset: str) -> list[dict[str, Any]]:
    """A refused record's errors for the API: ``localized_errors`` with the templates of
    the preset's score sheet (its game's own numbers) before the common ones."""
    profile = profiles.PROFILES.get(preset)
    return localized_errors(errors, extra=profile.sheet.errors() if profile else None)
