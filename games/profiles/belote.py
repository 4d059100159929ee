"""Belote (RULES.md, "Belote"): two teams, a points match (12 deals or to 1000 points),
a taker who chooses trump in one of two rounds, announcements (tierce, cinquante, cent,
carrés), belote-rebelote, capot and "dedans"; ranked as Klaverjas (match points, then
total points); full records get the perfect-play analysis (``games.engine.analyse``: the
par, each card's value, the makeable table); tables count in the club's Belote rating pool.

The words of its columns are Belote's own (points, annonces, belote, capot, dedans), in
every language, never Klammern's (small and big points, Augen) or Klaverjas's (roem,
pit, nat).
"""

from __future__ import annotations

import random
from collections.abc import Mapping
from typing import Any

from django.utils.translation import gettext_lazy as _

from games import engine

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
    entry_template="tablet/_entry_belote.html",
    state_template="tablet/_state_points.html",
    entry_script="tournaments/entry_belote.js",
    entry_class="BeloteEntry",
    stylesheet="tournaments/presets.css",
    error_templates={
        "bad_format.card_points": _(
            "A Belote deal has 162 card points in all (the last trick's 10 included; "
            "announcements and belote are entered on their own): enter a whole number "
            "from 0 to 162 for one team."
        ),
        "missing_field": _(
            "One team has all 162 card points: say whether it took all 8 tricks (capot)."
        ),
        "contract_mismatch": _(
            "Trump {trump} does not fit the round: in the first round trump is the "
            "upcard's suit {upcard_suit}, in the second round another suit."
        ),
        "incomplete_play": EIGHT_CARD_ERRORS["incomplete_play"],
        "bella_not_held": _("{seat} did not hold {cards} and cannot announce belote-rebelote."),
        "not_a_meld": _(
            "{seat}: {cards} is no announcement (a tierce, fifty or hundred: 3, 4 or 5 cards "
            "of one suit in sequence; or four Jacks, Nines, Aces, Tens, Kings or Queens)."
        ),
    },
)
STANDINGS_COLUMNS = {
    "tournament_points": Column(
        "tournament_points", _("MP"), _("Match points: 2 per match won, 1 per draw")
    ),
    "augen": Column(
        "augen", _("Points"), _("Total points of all matches, announcements and belote included")
    ),
    "point_difference": Column("point_difference", _("Diff"), _("Points for minus points against")),
}
#: RULES.md: "a tournament ranks as Klaverjas (match points, then total points)".
TIEBREAKS = ("tournament_points", "augen", "point_difference", "head_to_head")


def announcements(result: Result, side: int) -> int:
    """The points of the announcements a team scored (only the team of the best one)."""
    melds = result.get("melds")
    if not isinstance(melds, dict) or melds.get("winning_team") != side:
        return 0
    return sum(int(meld.get("points", 0)) for meld in melds.get("scored") or [])


def belote(result: Result, side: int) -> int:
    """The 20 of belote-rebelote for the holder's team (made or dedans)."""
    bella = result.get("bella")
    return 20 if isinstance(bella, dict) and bella.get("seat", -1) % 2 == side else 0


def capot(result: Result, side: int) -> bool:
    return result.get("capot") == side


def dedans(result: Result, side: int) -> bool:
    """The takers who went "dedans" (the defenders scored the deal)."""
    return result.get("outcome") == "failed" and result.get("winner_team") == 1 - side


DEAL_COLUMNS = (
    DealColumn(_("Points seats %(side)s"), per_side("points")),
    DealColumn(_("Announcements seats %(side)s"), announcements),
    DealColumn(_("Belote seats %(side)s"), belote),
    DealColumn(_("Capot seats %(side)s"), capot),
    DealColumn(_("Dedans seats %(side)s"), dedans),
)
MATCH_COLUMNS = (
    Column("announcements", _("Announcements"), _("Announcements scored per team")),
    Column("belote", _("Belote"), _("The team that announced belote-rebelote")),
    Column("capot", _("Capot"), _("The team that took all 8 tricks")),
)


class BeloteProfile(PointsProfile):
    """Belote: the console shows each deal's announcements, belote and capot; the
    tablet marks dedans, a revoke and capot and notes announcements and belote."""

    def deal_board(self, rng: random.Random, dealer: int) -> BoardCards:
        """RULES.md, "Taking the deal": 5 cards to each (3 then 2) from the dealer's
        left, the next card turned up, the other 11 kept in order for after the take."""
        deck = shuffled_deck(rng, engine.CARD_TEXT)
        hands = dealt_in_packets(deck, dealer, (3, 2))
        return BoardCards(dealer, tuple(tuple(h) for h in hands), deck[20], tuple(deck[21:]))

    def board_hands(
        self, cards: BoardCards, contract: Mapping[str, Any] | None
    ) -> tuple[tuple[str, ...], ...]:
        """After the take each hand is completed from the stock in turn from forehand:
        the taker with the upcard and two cards, the others with three; a board thrown
        in keeps its 5-card hands."""
        taker = (contract or {}).get("declarer")
        if not isinstance(taker, int) or not cards.stock:
            return cards.hands
        hands = [list(hand) for hand in cards.hands]
        position = 0
        for k in range(4):
            seat = (cards.dealer + 1 + k) % 4
            count = 2 if seat == taker else 3
            hands[seat] += ([cards.upcard] if seat == taker else []) + list(
                cards.stock[position : position + count]
            )
            position += count
        return tuple(tuple(hand) for hand in hands)

    def deal_marks(self, result: Result, revoker: str = "") -> list[tuple[str, str]]:
        marks = []
        if result.get("outcome") == "failed":
            marks.append(("is-nat", str(_("dedans"))))
        elif result.get("outcome") == "revoke":
            marks.append(revoke_mark(_("revoke"), revoker))
        if result.get("capot") is not None:
            marks.append(("is-pit", str(_("capot"))))
        return marks

    def deal_note(self, result: Result) -> str:
        parts = []
        scored = [announcements(result, t) for t in (0, 1)]
        if any(scored):
            parts.append(f"{_('announcements')} {' : '.join(str(s) for s in scored)}")
        held = [t for t in (0, 1) if belote(result, t)]
        if held:
            parts.append(f"{_('belote')} {self.side_heading(held[0])}")
        return " · ".join(parts)

    def match_cells(self, result: Result) -> list[str]:
        held = [t for t in (0, 1) if belote(result, t)]
        took_all = result.get("capot")
        return [
            " : ".join(str(announcements(result, t)) for t in (0, 1)),
            self.side_heading(held[0]) if held else "",
            self.side_heading(took_all) if isinstance(took_all, int) else "",
        ]


BELOTE = BeloteProfile(
    key="belote",
    label=_("Belote"),
    players=4,
    teams=True,
    points_match=True,
    sheet=SHEET,
    rating_pool="belote",
    rating_pool_label=_("Belote"),
    analysable=True,
    names_declarer=True,
    tiebreaks=TIEBREAKS,
    standings_columns=STANDINGS_COLUMNS,
    deal_columns=DEAL_COLUMNS,
    match_columns=MATCH_COLUMNS,
    contract_words={"belote": _("Belote")},
    paper_columns=(PAPER_POINTS[0], *MATCH_COLUMNS[:2]),
    duplicate=True,
    game="belote",
)
