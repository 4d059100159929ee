"""Schieberjass (RULES.md, "Schieberjass"): two teams, 36 cards, a points match (12 deals
or to 2500 points), a chooser who may push ("schieben") the choice to the partner, a
trump suit, Obenabe or Undenufe, Weis, Stöck and the Match (all 9 tricks, 257); no made
or failed; ranked by total points, then match points; no perfect-play analysis yet; its
tables count in the club's own Schieber rating pool.

Its words are the Schieber's own: the German pages say Trumpf, Obenabe, Undenufe, Weis,
Stöck, Match and schieben (the labels carry the ``pgettext`` context "schieber", so a
German Klammern page keeps its own words for the same English ones).

Suits: a club plays French suits (♠ ♥ ♦ ♣) or the Swiss German ones; ``SUIT_STYLES`` in
``base`` names them, and this profile offers both.
"""

from __future__ import annotations

import random

from django.utils.translation import gettext_lazy as _
from django.utils.translation import pgettext_lazy

from games.engine.jass import JASS_CARD_TEXT

from .base import (
    FRENCH,
    PAPER_POINTS,
    SWISS,
    BoardCards,
    Column,
    DealColumn,
    EntrySheet,
    Result,
    dealt_in_packets,
    per_side,
    revoke_mark,
    shuffled_deck,
)
from .points import PointsProfile

#: The card points of a deal: 152 in the cards and 5 for the last trick.
DEAL_VALUE = 157

SHEET = EntrySheet(
    entry_template="tablet/_entry_schieber.html",
    state_template="tablet/_state_points.html",
    entry_script="tournaments/entry_schieber.js",
    entry_class="SchieberEntry",
    stylesheet="tournaments/presets.css",
    error_templates={
        "bad_format.card_points": _(
            "A Schieber deal has 157 card points in all (the last trick's 5 included; "
            "Weis and Stöck are entered on their own): enter a whole number from 0 to 157 "
            "for one team."
        ),
        "missing_field": _(
            "One team has all 157 card points: say whether it took all 9 tricks (Match)."
        ),
        "contract_mismatch": _(
            "Forehand chooses, or pushes and the partner chooses: check who chose and "
            "whether it was pushed."
        ),
        "bella_not_held": _("{seat} did not hold {cards} and cannot announce Stöck."),
        "not_a_meld": pgettext_lazy(
            "schieber",
            "{seat}: {cards} is no Weis (a sequence of 3 or more cards of one suit, or four "
            "Jacks, Nines, Aces, Kings, Queens or Tens).",
        ),
        "meld_not_held": pgettext_lazy(
            "schieber", "{seat} did not hold {missing} and cannot show the Weis {cards}."
        ),
        "meld_not_maximal": pgettext_lazy(
            "schieber", "{seat} shows {cards} but holds the sequence {run}: show it as one Weis."
        ),
        "duplicate_meld": pgettext_lazy("schieber", "{seat} shows the Weis {cards} twice."),
        "wrong_card_count": _("{seat} holds {count} cards instead of 9."),
        "incomplete_play": _("Only {count} of 36 cards are played and no revoke is entered."),
    },
)
STANDINGS_COLUMNS = {
    "augen": Column(
        "augen",
        _("Points"),
        pgettext_lazy("schieber", "Total points of all matches, Weis and Stöck included"),
    ),
    "tournament_points": Column(
        "tournament_points", _("MP"), _("Match points: 2 per match won, 1 per draw")
    ),
    "point_difference": Column("point_difference", _("Diff"), _("Points for minus points against")),
}
#: RULES.md: "a tournament ranks by total points, then match points".
TIEBREAKS = ("augen", "tournament_points", "point_difference", "head_to_head")


def weis(result: Result, side: int) -> int:
    """The Weis a team scored (only the team with the best Weis scores), multiplied."""
    scored = result.get("weis")
    if not isinstance(scored, dict) or scored.get("winning_team") != side:
        return 0
    return int(scored.get("points", 0)) * int(result.get("multiplier") or 1)


def stoeck(result: Result, side: int) -> int:
    """The 20 of the Stöck for the holder's team, multiplied."""
    held = result.get("stoeck")
    if not isinstance(held, dict) or held.get("seat", -1) % 2 != side:
        return 0
    return int(held.get("points", 20)) * int(result.get("multiplier") or 1)


def took_all(result: Result, side: int) -> bool:
    """The team that took all 9 tricks (the "Match", 257)."""
    return result.get("match") == side


DEAL_COLUMNS = (
    DealColumn(_("Points seats %(side)s"), per_side("points")),
    DealColumn(pgettext_lazy("schieber", "Weis seats %(side)s"), weis),
    DealColumn(pgettext_lazy("schieber", "Stöck seats %(side)s"), stoeck),
    DealColumn(pgettext_lazy("schieber", "Match seats %(side)s"), took_all),
)
MATCH_COLUMNS = (
    Column("weis", pgettext_lazy("schieber", "Weis"), pgettext_lazy("schieber", "Weis per team")),
    Column(
        "stoeck",
        pgettext_lazy("schieber", "Stöck"),
        pgettext_lazy("schieber", "The team holding trump King and Queen"),
    ),
    Column(
        "match",
        pgettext_lazy("schieber", "Match"),
        pgettext_lazy("schieber", "The team that took all 9 tricks"),
    ),
)
#: The modes in words (the tablet's list and the console).
MODE_WORDS = {
    "trump": pgettext_lazy("schieber", "Trump"),
    "obenabe": pgettext_lazy("schieber", "Obenabe"),
    "undenufe": pgettext_lazy("schieber", "Undenufe"),
}


class SchieberProfile(PointsProfile):
    """Schieberjass: the console shows each deal's Weis, Stöck and Match; the tablet
    marks a pushed choice, the mode, a revoke and the Match and notes Weis and Stöck."""

    def deal_board(self, rng: random.Random, dealer: int) -> BoardCards:
        """36 cards dealt three at a time from the dealer's left, 9 to each; nothing is
        turned up (forehand chooses)."""
        deck = shuffled_deck(rng, JASS_CARD_TEXT)
        hands = dealt_in_packets(deck, dealer, (3, 3, 3))
        return BoardCards(dealer, tuple(tuple(hand) for hand in hands), "")

    def deal_marks(self, result: Result, revoker: str = "") -> list[tuple[str, str]]:
        marks = []
        if result.get("pushed"):
            marks.append(("is-pushed", str(pgettext_lazy("schieber", "pushed"))))
        mode = result.get("game_mode")
        if mode in ("obenabe", "undenufe"):
            marks.append(("is-mode", str(MODE_WORDS[mode])))
        if result.get("outcome") == "revoke":
            marks.append(revoke_mark(_("revoke"), revoker))
        if result.get("match") is not None:
            marks.append(("is-pit", str(pgettext_lazy("schieber", "Match"))))
        return marks

    def deal_note(self, result: Result) -> str:
        parts = []
        scored = [weis(result, t) for t in (0, 1)]
        if any(scored):
            words = pgettext_lazy("schieber", "Weis")
            parts.append(f"{words} {' : '.join(str(s) for s in scored)}")
        held = [t for t in (0, 1) if stoeck(result, t)]
        if held:
            parts.append(f"{pgettext_lazy('schieber', 'Stöck')} {self.side_heading(held[0])}")
        return " · ".join(parts)

    def match_cells(self, result: Result) -> list[str]:
        held = [t for t in (0, 1) if stoeck(result, t)]
        all_tricks = result.get("match")
        return [
            " : ".join(str(weis(result, t)) for t in (0, 1)),
            self.side_heading(held[0]) if held else "",
            self.side_heading(all_tricks) if isinstance(all_tricks, int) else "",
        ]


SCHIEBER = SchieberProfile(
    key="schieber",
    label=_("Schieberjass"),
    players=4,
    teams=True,
    points_match=True,
    sheet=SHEET,
    rating_pool="schieber",
    rating_pool_label=_("Schieberjass"),
    analysable=False,
    names_declarer=True,
    tiebreaks=TIEBREAKS,
    standings_columns=STANDINGS_COLUMNS,
    deal_columns=DEAL_COLUMNS,
    match_columns=MATCH_COLUMNS,
    paper_columns=(PAPER_POINTS[0], *MATCH_COLUMNS[:2]),
    contract_words={"schieber": _("Schieberjass")},
    # no made or failed: the points say it all; the chooser's team chose trump
    outcome_words={"played": ""},
    declarer_word=pgettext_lazy("schieber", "chose trump"),
    ranks="6789TJQKA",
    analysis_note=_(
        "There is no perfect-play analysis for Schieberjass yet: the solver holds the 32 "
        "cards of the other games, not 36. The hands and the play are shown."
    ),
    suit_styles=(FRENCH, SWISS),
    duplicate=True,
    game="schieber",
)
