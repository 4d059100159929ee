"""Klammern for four (RULES.md): small and big points or a Liga-Partie, and Hamburg
(small points counted as rounds to a target). Two teams of partners; the only game the
perfect-play analysis plays; the club rating's Klammern pool."""

from __future__ import annotations

import random
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from django.utils.translation import gettext_lazy as _
from django.utils.translation import ngettext, pgettext_lazy

from games import engine
from games.engine.cards import CARD_BY_TEXT, DEAL_POINTS, SUIT_BY_TEXT

from .base import (
    DEALS,
    TO_TARGET,
    BoardCards,
    Column,
    DealColumn,
    EntrySheet,
    GameProfile,
    MatchState,
    Result,
    deals_finished,
    dealt_in_packets,
    per_side,
    shuffled_deck,
)

#: Klammern's melds and Bella in the words of its sheets (the game for two or three
#: players has them too).
MELD_ERRORS = {
    "not_a_meld": _("{seat}: {cards} is not a sequence of 3 or more cards of one suit."),
    "meld_not_held": _("{seat} did not hold {missing} and cannot meld {cards}."),
    "meld_not_maximal": _("{seat} melds {cards} but holds the run {run}: meld the whole run."),
    "duplicate_meld": _("{seat} melds {cards} twice."),
    "bella_not_held": _("{seat} did not hold {cards} and cannot announce Bella."),
}
#: A deal of 32 cards, 8 to a hand (Klammern for four, Klaverjas, Belote).
EIGHT_CARD_ERRORS = {
    "wrong_card_count": _("{seat} holds {count} cards instead of 8."),
    "incomplete_play": _("Only {count} of 32 cards are played and no revoke is entered."),
}
SHEET = EntrySheet(
    entry_template="tablet/_entry_form.html",
    state_template="tablet/_state.html",
    error_templates={
        **MELD_ERRORS,
        **EIGHT_CARD_ERRORS,
        "contract_mismatch": _(
            "Trump {trump} does not fit the upcard's suit {upcard_suit} for this game "
            "(Orgi: same suit, Kleines: another suit, Besser: Clubs)."
        ),
        "bad_format.card_points": _(
            "A deal has 164 card points in all (Jappa, Mie and the last trick included; "
            "melds and Bella are entered on their own): enter a whole number from 0 to 164 "
            "for one team."
        ),
        # chosen by the sheet's script when the two numbers do not add up to 164
        "impossible_points.sum": _(
            "The card points {card_points} add up to {card_points_sum}, but a deal has 164 "
            "card points (Jappa, Mie and the last trick included; melds and Bella are "
            "entered on their own)."
        ),
    },
    strings={
        "pointsRange": _(
            "%(n)s card points are not possible: a deal has 164 card points in all (melds "
            "and Bella are entered on their own), so each team has 0 to 164."
        ),
        "terz": _("Terz"),
        "fuenfzig": _("Fünfzig"),
        "handsIncomplete": _("Each hand needs 8 cards."),
    },
)
DEAL_COLUMNS = (
    DealColumn(_("Points seats %(side)s"), per_side("points")),
    DealColumn(_("Small points seats %(side)s"), per_side("small_points")),
    DealColumn(_("Match points seats %(side)s"), per_side("match_points")),
)
#: The paper score sheet's columns per team: small and big points, or Hamburg's points
#: of the round being played and the rounds won.
PAPER_COLUMNS = (
    Column("small_points", _("Small points"), _("The small points of the deal")),
    Column("big_points", _("Big points"), _("The big points won with the deal (a Kalte: 2)")),
)
HAMBURG_PAPER_COLUMNS = (
    Column("points", _("Points"), _("The points of the deal")),
    Column("rounds", _("Rounds"), _("The rounds won with the deal")),
)
#: The standings' match points in the game's own word (Augen), which other languages say
#: in theirs (Dutch: matchpunten).
STANDINGS_COLUMNS = {
    "augen": Column(
        "augen",
        pgettext_lazy("klammern standings", "Augen"),
        pgettext_lazy("klammern standings", "Match points (Augen) scored"),
    ),
}
CONTRACT_WORDS = {"orgi": "Orgi", "kleines": "Kleines", "besser": "Besser"}
KLAMMERN_POOL = "klammern"


@dataclass(frozen=True)
class KlammernProfile(GameProfile):
    """Klammern for four: small and big points (a Kalte makes 2), or a Liga-Partie."""

    hamburg: bool = False

    def plays(self, options: engine.Options) -> bool:
        hamburg = options.scoring == "hamburg"
        return options.game == "klammern" and options.players == 4 and hamburg == self.hamburg

    def match_description(self, *, mode: str, target: int, deals: int) -> str:
        if mode == TO_TARGET:
            return str(_("a Liga-Partie to %(target)s")) % {"target": target}
        return deals_text(deals)

    def deal_board(self, rng: random.Random, dealer: int) -> BoardCards:
        """32 cards shuffled and dealt 3-2-3 from the dealer's left (RULES.md, Deal);
        the upcard is the middle card of the dealer's last packet of 3."""
        hands = dealt_in_packets(shuffled_deck(rng, engine.CARD_TEXT), dealer, (3, 2, 3))
        return BoardCards(dealer, tuple(tuple(hand) for hand in hands), hands[dealer][6])

    def board_result(self, result: Result) -> tuple[int, int]:
        """The deal points of each team (melds, Bella and bonuses included); a game the
        playing team lost gives the defenders all of them and the playing team 0
        (RULES.md, "Duplicate tournaments"); a thrown-in board is 0 for both."""
        if result.get("outcome") == "thrown_in":
            return (0, 0)
        points = result.get("points") or [0, 0]
        winner, playing = result.get("winner_team"), result.get("playing_team")
        if winner is not None and playing is not None and winner != playing:
            return _all_to(1 - int(playing), points)
        return (int(points[0]), int(points[1]))

    def par_board_result(
        self, par: Sequence[int], *, outcome: str, playing_team: int
    ) -> tuple[int, int]:
        """The par's deal points, or all of them to the defenders when perfect play
        fails the game (as ``board_result``)."""
        if outcome in ("failed", "march_lost"):
            return _all_to(1 - playing_team, par)
        return (int(par[0]), int(par[1]))

    def board_par(
        self, cards: BoardCards, result: Result, record: Result, options: engine.Options
    ) -> tuple[tuple[int, int], str] | None:
        """The card points perfect play gives in the record's contract from the board's
        hands (``engine.deal_par``) plus the melds and Bella each team scored. None for
        a thrown-in deal, a revoke (the record stops before the end) or a record without
        card points."""
        card_points = record.get("card_points")
        trump = result.get("trump")
        if result.get("outcome") in ("thrown_in", "revoke") or not card_points or not trump:
            return None
        hands = [sum(1 << CARD_BY_TEXT[card] for card in hand) for hand in cards.hands]
        own = engine.deal_par(
            hands, trump=SUIT_BY_TEXT[trump], forehand=(cards.dealer + 1) % 4, options=options
        )
        points = result.get("points") or [0, 0]
        extra = (int(points[0]) - int(card_points[0]), int(points[1]) - int(card_points[1]))
        par = (own + extra[0], DEAL_POINTS - own + extra[1])
        playing = int(result.get("playing_team") or 0)
        made = 2 * par[playing] > par[0] + par[1]
        return par, "made" if made else "failed"

    def match_state(
        self,
        results: Sequence[Result],
        options: engine.Options,
        *,
        mode: str,
        target: int,
        planned: int | None = None,
        played: int | None = None,
    ) -> MatchState:
        big, small = self._big_and_small(results, options)
        augen = tuple(sum(r.get("match_points", [0, 0])[team] for r in results) for team in (0, 1))
        liga = None
        if mode == TO_TARGET:
            partie = engine.until_over(lambda rs: engine.score_liga(rs, target=target), results)
            liga, finished = partie.winner, partie.finished
        else:
            finished = deals_finished(results, planned=planned, played=played)
        return MatchState(
            finished=finished,
            kind="liga" if mode == TO_TARGET else ("hamburg" if self.hamburg else "small_big"),
            big=big,
            small=small,
            match_points=(augen[0], augen[1]),
            kalte=(0, 0) if self.hamburg else _kalte(results),
            liga_winner=liga,
            deals=len(results),
        )

    def _big_and_small(
        self, results: Sequence[Result], options: engine.Options
    ) -> tuple[tuple[int, int], tuple[int, int]]:
        """(big, small) as the engine's keepers count them: small/big points, or Hamburg
        rounds to the target and the points of the round being played."""
        if self.hamburg:
            state = engine.score_hamburg_match(results, target=options.hamburg_target)
            return state.rounds, state.points
        small_big = engine.score_small_big(results)
        return small_big.big, small_big.small

    def running_score(
        self, results: Sequence[Result], options: engine.Options, *, mode: str, target: int
    ) -> dict[str, Any]:
        score: dict[str, Any] = {"small_big": engine.score_small_big(results).to_dict()}
        if self.hamburg:  # the small points are Hamburg points: rounds to the target
            rounds, points = self._big_and_small(results, options)
            score["hamburg"] = {
                "target": options.hamburg_target,
                "rounds": list(rounds),
                "points": list(points),
            }
        if mode == TO_TARGET:
            try:
                score["liga"] = engine.score_liga(results, target=target).to_dict()
            except engine.KeeperError as error:
                score["liga"] = {"error": str(error)}
        return score

    def score_terms(self, state: MatchState, *, decided: bool) -> dict[str, Any]:
        if state.kind == "liga":
            return {"kind": "liga", "augen": list(state.match_points), "winner": state.liga_winner}
        if state.kind == "hamburg":
            terms = {"kind": "hamburg", "rounds": list(state.big), "points": list(state.small)}
        else:
            terms = {
                "kind": "small_big",
                "big": list(state.big),
                "small": list(state.small),
                "laube": [state.small[0] == 4, state.small[1] == 4],
                "kalte": state.kalte,
            }
        return {**terms, **augen_decision(state, decided=decided)}


def _all_to(team: int, points: Sequence[Any]) -> tuple[int, int]:
    """Both teams' points to ``team``, none to the other."""
    total = int(points[0]) + int(points[1])
    return (total, 0) if team == 0 else (0, total)


def augen_decision(state: MatchState, *, decided: bool) -> dict[str, Any]:
    """Whether a match stands level on big and small points (Hamburg: rounds and points)
    so its Augen decide it (RULES.md: big points, then small points, then match points):
    then ``on_augen``, the ``augen`` and the team ahead or winning on them (``winner``,
    None when the Augen are level too; ``decided`` once the match is over)."""
    level = state.big[0] == state.big[1] and state.small[0] == state.small[1]
    if not level or not state.deals:
        return {"on_augen": False}
    augen = list(state.match_points)
    winner = None if augen[0] == augen[1] else (0 if augen[0] > augen[1] else 1)
    return {"on_augen": True, "augen": augen, "winner": winner, "decided": decided}


def _kalte(results: Sequence[Result]) -> tuple[int, int]:
    """Small rounds each team won by a Kalte, as the engine's keeper records them."""
    rounds = engine.score_small_big(results).rounds
    return (
        sum(1 for r in rounds if r.kalte and r.winner == 0),
        sum(1 for r in rounds if r.kalte and r.winner == 1),
    )


def deals_text(deals: int) -> str:
    return ngettext("%(n)s deal", "%(n)s deals", deals) % {"n": deals}


def klammern_profile(
    *, key: str, label: Any, hamburg: bool, board_label: Any = ""
) -> KlammernProfile:
    return KlammernProfile(
        key=key,
        label=label,
        board_label=board_label,
        players=4,
        teams=True,
        points_match=False,
        sheet=SHEET,
        rating_pool=KLAMMERN_POOL,
        rating_pool_label=_("Klammern"),
        analysable=True,
        league=True,
        hamburg=hamburg,
        standings_columns=STANDINGS_COLUMNS,
        deal_columns=DEAL_COLUMNS,
        contract_words=CONTRACT_WORDS,
        paper_columns=HAMBURG_PAPER_COLUMNS if hamburg else PAPER_COLUMNS,
        duplicate=True,
        match_modes={
            DEALS: _("A fixed number of deals (Hamburg rounds to 6)")
            if hamburg
            else _("A fixed number of deals (small/big points)"),
            TO_TARGET: _("A Liga-Partie to a target of match points"),
        },
        target_label=_("Liga target"),
        criteria_words={"augen": _("Match points (Augen) scored")},
    )


KLAMMERN = klammern_profile(
    key="klammern",
    label=_("Klammern (small and big points)"),
    hamburg=False,
    board_label=_("Klammern"),
)
HAMBURG = klammern_profile(
    key="klammern-hamburg", label=_("Hamburg (Klabberjazz: first to 6)"), hamburg=True
)
