"""Klaverjas, Rotterdam and Amsterdam rules (RULES.md, "Klaverjas"): two teams, a points
match (16 deals or to a target), roem, pit and nat; ranked by match points then total
points; full records get the perfect-play analysis (``games.engine.klaverjas_analysis``);
tables count in the club's Klaverjas rating pool."""

from __future__ import annotations

import random
from typing import Any

from django.utils.translation import gettext_lazy as _

from games import engine
from games.engine.cards import CARD_BY_TEXT, SUIT_BY_TEXT
from games.engine.klaverjas_analysis import board_par

from .base import (
    PAPER_POINTS,
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
from .klammern import EIGHT_CARD_ERRORS
from .points import PointsProfile

SHEET = EntrySheet(
    entry_template="tablet/_entry_klaverjas.html",
    state_template="tablet/_state_points.html",
    entry_script="tournaments/entry_klaverjas.js",
    entry_class="KlaverjasEntry",
    stylesheet="tournaments/presets.css",
    error_templates={
        **EIGHT_CARD_ERRORS,
        "bad_format.card_points": _(
            "A Klaverjas deal has 162 card points in all (roem is entered on its own): "
            "enter a whole number from 0 to 162 for one team."
        ),
    },
    strings={
        "pickTrumpK": _("Choose trump."),
        "pickPointsK": _("Enter the points of one team."),
        "pickRoem": _("Roem goes in steps of 10."),
        "pickAllTricks": _("Did this team take all 8 tricks? Choose one."),
        "nat": _("nat: the other team scores everything"),
        "pit": _("pit: all tricks, 100 roem more"),
        "made": _("made"),
        "plays": _("plays"),
    },
)
STANDINGS_COLUMNS = {
    "tournament_points": Column(
        "tournament_points", _("MP"), _("Match points: 2 per match won, 1 per draw")
    ),
    "augen": Column("augen", _("Points"), _("Total points of all matches, roem included")),
    "point_difference": Column("point_difference", _("Diff"), _("Points for minus points against")),
}
#: RULES.md: match points won (2 won, 1 drawn, 0 lost), then total points (a game's
#: ``match_points`` are the teams' total points of the match).
TIEBREAKS = ("tournament_points", "augen", "point_difference", "head_to_head")


def _pit(result: Result, side: int) -> bool:
    return result.get("pit") == side


def _nat(result: Result, side: int) -> bool:
    """The team that played and went nat (the other team scored everything)."""
    return result.get("outcome") == "failed" and result.get("winner_team") == 1 - side


DEAL_COLUMNS = (
    DealColumn(_("Points seats %(side)s"), per_side("points")),
    DealColumn(_("Roem seats %(side)s"), per_side("roem")),
    DealColumn(_("Pit seats %(side)s"), _pit),
    DealColumn(_("Nat seats %(side)s"), _nat),
)
MATCH_COLUMNS = (
    Column("roem", _("Roem"), _("Roem per team, the pit's 100 included")),
    Column("pit", _("Pit"), _("The team that took all 8 tricks")),
)


class KlaverjasProfile(PointsProfile):
    """Klaverjas: the console shows each deal's roem and pit; the tablet marks nat,
    verzaakt and pit and notes the roem."""

    def deal_board(self, rng: random.Random, dealer: int) -> BoardCards:
        """32 cards dealt 3-2-3 from the dealer's left, all 8 to each before play; the
        dealer's last card is turned up (it sets trump where the club turns it up; a
        "verplicht" club lets forehand choose and ignores it)."""
        hands = dealt_in_packets(shuffled_deck(rng, engine.CARD_TEXT), dealer, (3, 2, 3))
        return BoardCards(dealer, tuple(tuple(hand) for hand in hands), hands[dealer][-1])

    def board_par(
        self, cards: BoardCards, result: Result, record: Result, options: engine.Options
    ) -> tuple[tuple[int, int], str] | None:
        """A summary's par from the board's hands: perfect play in the trump it played,
        forehand's team making, roem counted from the tricks of the perfect line (None
        after a revoke: the record stops before the end)."""
        trump = result.get("trump")
        if result.get("outcome") == "revoke" or not isinstance(trump, str):
            return None
        hands = [sum(1 << CARD_BY_TEXT[card] for card in hand) for hand in cards.hands]
        forehand = (cards.dealer + 1) % 4
        scored = board_par(hands, trump=SUIT_BY_TEXT[trump], forehand=forehand, options=options)
        points = scored["points"]
        return (int(points[0]), int(points[1])), str(scored["outcome"])

    def board_problems(
        self, cards: BoardCards, record: Result, options: engine.Options
    ) -> list[tuple[str, str, dict[str, Any]]]:
        """Where the club turns trump up (``trump_by: turned``), every table plays the
        board in the suit of its upcard ("verplicht": forehand chooses, as at any table)."""
        contract = record.get("contract")
        trump = contract.get("trump") if isinstance(contract, dict) else None
        if options.trump_by != "turned" or not cards.upcard or trump == cards.upcard[1]:
            return []
        suit = cards.upcard[1]
        message = f"the board's upcard {cards.upcard} makes {suit} trump"
        return [("contract.trump", message, {"suit": suit, "card": cards.upcard})]

    def deal_marks(self, result: Result, revoker: str = "") -> list[tuple[str, str]]:
        marks = []
        if result.get("outcome") == "failed":
            marks.append(("is-nat", str(_("nat"))))
        elif result.get("outcome") == "revoke":
            marks.append(revoke_mark(_("verzaakt"), revoker))
        if result.get("pit") is not None:
            marks.append(("is-pit", str(_("pit"))))
        return marks

    def deal_note(self, result: Result) -> str:
        roem = result.get("roem")
        if not roem:
            return ""
        return f"{_('roem')} {' : '.join(str(r) for r in roem)}"

    def match_cells(self, result: Result) -> list[str]:
        roem = result.get("roem")
        pit = result.get("pit")
        return [
            " : ".join(str(r) for r in roem) if isinstance(roem, list) else "",
            self.side_heading(pit) if isinstance(pit, int) else "",
        ]


def klaverjas_profile(*, key: str, label: Any) -> KlaverjasProfile:
    return KlaverjasProfile(
        key=key,
        label=label,
        players=4,
        teams=True,
        points_match=True,
        sheet=SHEET,
        rating_pool="klaverjas",
        rating_pool_label=_("Klaverjas"),
        analysable=True,
        names_declarer=True,
        tiebreaks=TIEBREAKS,
        standings_columns=STANDINGS_COLUMNS,
        deal_columns=DEAL_COLUMNS,
        match_columns=MATCH_COLUMNS,
        contract_words={"klaverjas": "Klaverjas"},
        outcome_words={"failed": _("nat")},
        par_unit="margin",
        paper_columns=(PAPER_POINTS[0], *MATCH_COLUMNS),
        duplicate=True,
        game="klaverjas",
    )


ROTTERDAM = klaverjas_profile(key="klaverjas-rotterdam", label=_("Klaverjas, Rotterdam rules"))
AMSTERDAM = klaverjas_profile(key="klaverjas-amsterdam", label=_("Klaverjas, Amsterdam rules"))
