"""Belote Contrée (RULES.md, "Belote Contrée"): two teams, all 8 cards dealt, an auction
of point contracts (80 to 160, or capot) with a trump, a coinche that doubles and a
surcoinche that redoubles; the takers make it with at least the contract's value in
points made (a capot contract: all 8 tricks); scores rounded to tens, 160 or 250 to the
defenders of a failed contract, 2× or 4× the game's value after a coinche or surcoinche.
A points match (12 deals or to 2000 points), ranked as Belote (match points, then total
points); its own rating pool; no league (a league plays the Liga-Partie); duplicate
boards are 32 cards dealt 3-2-3 with no card turned up.

Its words are contrée's own, in every language: the contract (its value and trump), made
or "chute", coinche and surcoinche, capot; never Klammern's (small and big points,
Augen), Klaverjas's (roem, pit, nat) or Belote's announcements and dedans.
"""

from __future__ import annotations

import random
from typing import Any

from django.utils.translation import gettext_lazy as _
from django.utils.translation import pgettext_lazy

from games import engine

from .base import (
    PAPER_POINTS,
    BoardCards,
    Column,
    DealColumn,
    EntrySheet,
    Result,
    per_side,
    revoke_mark,
)
from .klammern import EIGHT_CARD_ERRORS
from .points import PointsProfile

#: RULES.md: the contract values, from 80 to 160 in tens, then capot (all 8 tricks).
VALUES = (80, 90, 100, 110, 120, 130, 140, 150, 160)
CAPOT = "capot"
SUIT_SIGNS = {"C": "♣", "S": "♠", "H": "♥", "D": "♦"}

SHEET = EntrySheet(
    entry_template="tablet/_entry_contree.html",
    state_template="tablet/_state_points.html",
    entry_script="tournaments/entry_contree.js",
    entry_class="ContreeEntry",
    stylesheet="tournaments/presets.css",
    error_templates={
        **EIGHT_CARD_ERRORS,
        "bad_format.card_points": pgettext_lazy(
            "contree",
            "A contrée deal has 162 card points in all (the last trick's 10 included): "
            "enter a whole number from 0 to 162 for one team.",
        ),
        "missing_field": pgettext_lazy(
            "contree", "One team has all 162 card points: say whether it took all 8 tricks."
        ),
        "contract_mismatch": pgettext_lazy(
            "contree",
            "This contract is not the auction's outcome: the contract is the last bid (its "
            "player, value and trump), coinched or surcoinched as the calls say.",
        ),
        "bidding_mismatch": pgettext_lazy(
            "contree",
            "The auction is not in order: each bid must be higher than the last, a coinche "
            "only on the last bid and by the other team, a surcoinche only by the bidding "
            "team right after the coinche.",
        ),
        "bid_not_higher": pgettext_lazy(
            "contree",
            "{seat} bids {value} in {trump}, which is not higher than {last_value}: each bid "
            "must be higher than the last (capot is above 160).",
        ),
        "bid_value_not_allowed": pgettext_lazy(
            "contree", "{value} is no contract: a bid is 80, 90, … 160 or capot."
        ),
        "bid_value_not_allowed.contract.value": pgettext_lazy(
            "contree", "A contract is 80, 90, … 160 or capot: choose the value that was bid."
        ),
        "coinche_not_allowed": pgettext_lazy(
            "contree",
            "{seat} may not coinche here: a coinche doubles the last bid, and only the other "
            "team says it.",
        ),
        "surcoinche_not_allowed": pgettext_lazy(
            "contree",
            "{seat} may not surcoinche here: only the bidding team surcoinches, right after "
            "the coinche.",
        ),
        "bad_format.contract.doubling": pgettext_lazy(
            "contree", "Say whether the contract was coinched or surcoinched, or neither."
        ),
        "impossible_points": pgettext_lazy(
            "contree",
            "The card points {card_points} are not possible: together they make 162 (the "
            "last trick's 10 included), except after a revoke.",
        ),
        "thrown_in_not_empty": pgettext_lazy(
            "contree", "A thrown-in deal (four passes) has nothing else to enter."
        ),
    },
)
STANDINGS_COLUMNS = {
    "tournament_points": Column(
        "tournament_points", _("MP"), _("Match points: 2 per match won, 1 per draw")
    ),
    "augen": Column("augen", _("Points"), pgettext_lazy("contree", "Total points of all matches")),
    "point_difference": Column("point_difference", _("Diff"), _("Points for minus points against")),
}
#: RULES.md: "a tournament ranks as Belote (match points, then total points)".
TIEBREAKS = ("tournament_points", "augen", "point_difference", "head_to_head")


def contract_of(result: Result) -> dict[str, Any]:
    """A deal's contract as the engine's result gives it: ``declarer``, ``trump``,
    ``value`` (80 … 160 or "capot") and ``doubling`` (0, 1 coinche, 2 surcoinche); {}
    for a deal thrown in."""
    if result.get("kind") != "contree" or not isinstance(result.get("declarer"), int):
        return {}
    return {
        "declarer": result["declarer"],
        "trump": result.get("trump") or "",
        "value": result.get("value"),
        "doubling": int(result.get("doubling") or 0),
    }


def value_word(value: Any) -> str:
    """A contract's value in words: the number, or capot."""
    return str(pgettext_lazy("contree", "capot")) if value == CAPOT else str(value or "")


def doubling_word(doubling: int) -> str:
    if doubling == 2:
        return str(pgettext_lazy("contree", "surcoinched"))
    return str(pgettext_lazy("contree", "coinched")) if doubling == 1 else ""


def bid(result: Result, side: int) -> str:
    """The contract's value for the team that bid it ("100", "capot"), "" for the other."""
    contract = contract_of(result)
    if not contract or contract["declarer"] % 2 != side:
        return ""
    return value_word(contract["value"])


def chute(result: Result, side: int) -> bool | None:
    """Whether the takers failed ("chute"); None for the defenders and a deal thrown in."""
    contract = contract_of(result)
    if not contract or contract["declarer"] % 2 != side:
        return None
    return result.get("outcome") == "failed"


def coinche(result: Result, side: int) -> str:
    """Who doubled: the defenders say coinche, the takers surcoinche over it."""
    contract = contract_of(result)
    if not contract or not contract["doubling"]:
        return ""
    if contract["declarer"] % 2 != side:
        return str(pgettext_lazy("contree", "coinche"))
    return str(pgettext_lazy("contree", "surcoinche")) if contract["doubling"] == 2 else ""


def capot(result: Result, side: int) -> bool:
    """The team that took all 8 tricks."""
    return result.get("capot") == side


DEAL_COLUMNS = (
    DealColumn(_("Points seats %(side)s"), per_side("points")),
    DealColumn(pgettext_lazy("contree", "Card points seats %(side)s"), per_side("card_points")),
    DealColumn(pgettext_lazy("contree", "Contract seats %(side)s"), bid),
    DealColumn(pgettext_lazy("contree", "Failed seats %(side)s"), chute),
    DealColumn(pgettext_lazy("contree", "Coinche seats %(side)s"), coinche),
    DealColumn(pgettext_lazy("contree", "Capot seats %(side)s"), capot),
)
MATCH_COLUMNS = (
    Column(
        "contract",
        pgettext_lazy("contree", "Contract"),
        pgettext_lazy("contree", "The value bid and trump"),
    ),
    Column(
        "coinche",
        pgettext_lazy("contree", "Coinche"),
        pgettext_lazy("contree", "Coinched (×2) or surcoinched (×4)"),
    ),
    Column("capot", pgettext_lazy("contree", "Capot"), _("The team that took all 8 tricks")),
)


class ContreeProfile(PointsProfile):
    """Belote Contrée: the console shows each deal's contract, coinche and capot; the
    tablet marks the contract's value, a coinche or surcoinche, a failed contract, a
    revoke (naming who revoked) and capot."""

    def deal_marks(self, result: Result, revoker: str = "") -> list[tuple[str, str]]:
        contract = contract_of(result)
        if not contract:
            return []
        marks = [("is-mode", value_word(contract["value"]))]
        if contract["doubling"]:
            marks.append(("is-pushed", doubling_word(contract["doubling"])))
        if result.get("outcome") == "failed":
            marks.append(("is-nat", str(pgettext_lazy("contree", "failed"))))
        elif result.get("outcome") == "revoke":
            marks.append(revoke_mark(_("revoke"), revoker))
        if result.get("capot") is not None:
            marks.append(("is-pit", str(pgettext_lazy("contree", "capot"))))
        return marks

    def deal_note(self, result: Result) -> str:
        """The card points under the deal's score (the score is rounded or doubled)."""
        cards = result.get("card_points")
        if not contract_of(result) or not isinstance(cards, list) or len(cards) != 2:
            return ""
        points = " : ".join(str(c) for c in cards)
        return str(pgettext_lazy("contree", "card points %(points)s")) % {"points": points}

    def match_cells(self, result: Result) -> list[str]:
        contract = contract_of(result)
        if not contract:
            return ["", "", ""]
        took_all = result.get("capot")
        return [
            f"{value_word(contract['value'])} {SUIT_SIGNS.get(contract['trump'] or '', '')}",
            doubling_word(contract["doubling"]),
            self.side_heading(took_all) if isinstance(took_all, int) else "",
        ]

    def deal_board(self, rng: random.Random, dealer: int) -> BoardCards:
        """32 cards shuffled and dealt 3-2-3 from the dealer's left; no card is turned
        up (RULES.md, "Belote Contrée")."""
        deck = list(engine.CARD_TEXT)
        rng.shuffle(deck)
        hands: list[list[str]] = [[], [], [], []]
        order = [(dealer + 1 + k) % 4 for k in range(4)]
        position = 0
        for packet in (3, 2, 3):
            for seat in order:
                hands[seat] += deck[position : position + packet]
                position += packet
        return BoardCards(dealer, tuple(tuple(hand) for hand in hands), "")

    def board_result(self, result: Result) -> tuple[int, int]:
        """Each team's score of the deal as the rules count it (RULES.md, "Duplicate
        tournaments": "Belote and Contrée: the deal's score"), 0 for both when thrown in."""
        points = result.get("points") or [0, 0]
        return (int(points[0]), int(points[1]))


CONTREE = ContreeProfile(
    key="belote-contree",
    label=_("Belote Contrée"),
    players=4,
    teams=True,
    points_match=True,
    sheet=SHEET,
    rating_pool="belote-contree",
    rating_pool_label=_("Belote Contrée"),
    # perfect play for the contract as bid (games.engine.contree_analysis)
    analysable=True,
    names_declarer=True,
    tiebreaks=TIEBREAKS,
    standings_columns=STANDINGS_COLUMNS,
    deal_columns=DEAL_COLUMNS,
    match_columns=MATCH_COLUMNS,
    contract_words={"contree": _("Belote Contrée")},
    outcome_words={"failed": pgettext_lazy("contree", "failed")},
    paper_columns=(PAPER_POINTS[0], *MATCH_COLUMNS[:2]),
    duplicate=True,
    game="contree",
)
