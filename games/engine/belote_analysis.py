"""Par analysis of a full Belote deal record (preset ``belote``).

``analyse_belote(record)`` answers a record of the Belote preset (None for any other,
which ``analysis.analyse`` handles) in the shape of the Klaverjas analysis
(``klaverjas_analysis``, docs/analysis.md): the par with perfect play by both teams, all
four hands visible, its outcome, and after every recorded play the par, the play's cost,
every legal card's value and, after a costly play, a perfect line; plus the makeable
table (each trump suit with each team as takers).

What "perfect play" is here: each team maximises its points against the other's, the
**margin** ``klaverjas_solver`` searches in its Belote mode (team 0's card points with the
last trick's 10, or the capot's 100 instead of it, minus team 1's; 162 card points in
all, 252 with a capot). Melds and belote-rebelote are fixed additions read from the
record: the melds of the team with the best one (``belote.meld_contest``), 20 for the
belote holder's team. Made or "dedans" is a threshold on the margin (the takers make it
when their points, those additions included, are more than the defenders'), so the par
outcome is exact; the card points (and so the par's points) follow from the margin: a
margin of 252 is a capot, else team 0 has (162 + margin) / 2.

Decisions (also in DECISIONS.md):

- ``cost``, ``values``, ``margin``, ``par_margin``, ``line`` and ``perfect_line`` as for
  Klaverjas (``klaverjas_analysis``; a 10-point card given away costs 20); the par and
  the actual result give the card points and the capot (``par_capot``) where Klaverjas
  gives roem and the pit;
- a revoke: the par is the deal's, played out legally to the end, with every announced
  meld and the announced belote counting; the plays before the revoke are analysed and
  the revoke is reported with the cards that were legal, not costed (as for Klammern);
- a thrown-in deal was not played: par 0:0, outcome ``thrown_in``, no plays, no table
  (also when its record leaves out the hands, which a thrown-in Belote record may);
- the makeable table: for each trump suit (C, S, H, D) and each team as takers (0, 1),
  what perfect play gives with the record's hands as dealt (whoever took, the upcard
  where it is), forehand leading, the announced melds contested under that trump, and
  belote as announced under the deal's trump, under another trump for whoever holds its
  King and Queen (announcing is free); the row of the deal's trump and takers is the par;
- Belote has no March, small points or match points per deal: ``march`` is false,
  ``par_march``, ``par_small_points`` and ``par_match_points`` are null.

It does no I/O and never raises (an engine bug becomes an ``internal_error``).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, Final

from .analysis_answers import stamped, summary_answer
from .belote import CAPOT_BONUS, BeloteMeld, meld_of_cards, score_belote
from .cards import CARD_BY_TEXT, CARD_TEXT, SUIT_BY_TEXT, SUIT_LETTERS, TABLES
from .dispatch import check as check_any_game
from .errors import RulesError
from .klaverjas_analysis import KlaverjasDeal, Position, _Walk
from .klaverjas_solver import ALL_CARDS, KlaverjasSolver
from .rules import Options, resolve_named_rules

Json = dict[str, Any]

GAME: Final = "belote"
DEAL_CARD_POINTS: Final = 162
#: The margin of a capot: all 162 card points and the 100 that replace the last 10.
CAPOT_MARGIN: Final = DEAL_CARD_POINTS + CAPOT_BONUS


class BelotePosition(Position):
    """A Klaverjas ``Position`` scored as Belote: no roem, the capot's 90 for all tricks."""

    @property
    def margin(self) -> int:
        """Team 0's points minus team 1's so far (the capot once the deal is over)."""
        own = list(self.cards)
        capot = self.pit
        if capot is not None:
            own[capot] += CAPOT_BONUS
        return own[0] - own[1]

    def after(self, card: int, trump: int) -> BelotePosition:
        """The position after the next seat plays ``card``."""
        nxt = Position.after(self, card, trump)
        return BelotePosition(nxt.remaining, nxt.leader, nxt.trick, nxt.cards, (0, 0), nxt.tricks)


class BeloteDeal(KlaverjasDeal):
    """One Belote deal's solver (``KlaverjasSolver`` in its Belote mode, which the
    preset's options select) and the margins of its positions."""

    def __init__(self, hands: list[int], trump: int, forehand: int, options: Options) -> None:
        super().__init__(hands, trump, forehand, options)
        self.start = BelotePosition(ALL_CARDS, forehand, [], (0, 0), (0, 0), (0, 0))


class Additions:
    """What a Belote deal scores beside the tricks, and its scoring (``score_belote``)."""

    def __init__(
        self, takers: int, melds: list[BeloteMeld], bella: int | None, forehand: int
    ) -> None:
        self.takers = takers
        self.melds = melds
        #: The team of the belote-rebelote, if announced (or held, in the makeable table).
        self.bella = bella
        self.forehand = forehand

    def score(self, *, trump: int, cards: tuple[int, int], capot: int | None) -> Json:
        """The deal scored (made or dedans) with these card points and capot."""
        return score_belote(
            takers=self.takers,
            card_points=cards,
            capot=capot,
            melds=self.melds,
            trump=trump,
            forehand=self.forehand,
            belote_team=self.bella,
            revoke_team=None,
        )

    def score_margin(self, *, trump: int, margin: int) -> Json:
        """The deal scored from team 0's margin of a whole deal (module docstring)."""
        if abs(margin) == CAPOT_MARGIN:
            capot = 0 if margin > 0 else 1
            cards = (DEAL_CARD_POINTS, 0) if capot == 0 else (0, DEAL_CARD_POINTS)
            return self.score(trump=trump, cards=cards, capot=capot)
        card0 = (DEAL_CARD_POINTS + margin) // 2
        return self.score(trump=trump, cards=(card0, DEAL_CARD_POINTS - card0), capot=None)

    def score_end(self, end: Position, trump: int) -> Json:
        """The deal scored at the end of a line played out."""
        return self.score(trump=trump, cards=end.cards, capot=end.pit)


class _BeloteWalk(_Walk):
    """The Klaverjas walk of the recorded plays, its pars scored as Belote."""

    def __init__(self, deal: BeloteDeal, additions: Additions, best_cards: bool) -> None:
        super().__init__(deal, additions.takers, best_cards)
        self.additions = additions

    def par(self) -> Json:
        """The scored par of the current position (its perfect line played out)."""
        end = self.deal.play_out(self.pos, self.line)
        return self.additions.score_end(end, self.deal.trump)


def _hands(record: Json) -> list[int]:
    return [sum(1 << CARD_BY_TEXT[t] for t in hand) for hand in record["hands"]]


def _melds(record: Json) -> list[BeloteMeld]:
    out = []
    for item in record.get("melds", []):
        meld = meld_of_cards(item["seat"], [CARD_BY_TEXT[t] for t in item["cards"]])
        assert meld is not None  # check() accepted the record
        out.append(meld)
    return out


def _additions(record: Json, result: Json) -> Additions:
    """The record's melds and announced belote (every one counts in the par, a revoke's
    too: the par is the deal played out legally)."""
    bella = record.get("bella")
    forehand = (record["dealer"] + 1) % 4
    return Additions(
        result["playing_team"], _melds(record), None if bella is None else bella & 1, forehand
    )


def _deal(record: Json, trump: int, options: Options) -> BeloteDeal:
    return BeloteDeal(_hands(record), trump, (record["dealer"] + 1) % 4, options)


def _actual(result: Json) -> Json:
    return {
        "points": result["points"],
        "outcome": result["outcome"],
        "winner_team": result["winner_team"],
        "small_points": None,
        "match_points": None,
        "card_points": result["card_points"],
        "capot": result["capot"],
    }


def _base(result: Json) -> Json:
    return {
        "valid": True,
        "analysed": True,
        "errors": [],
        "mode": "full",
        "trump": result["trump"],
        "declarer": result["declarer"],
        "playing_team": result["playing_team"],
        "march": False,
        "actual": _actual(result),
    }


def _par_fields(scored: Json, margin: int) -> Json:
    return {
        "par": scored["points"],
        "par_card_points": scored["card_points"],
        "par_capot": scored["capot"],
        "par_margin": margin,
        "par_outcome": scored["outcome"],
        "par_winner_team": scored["winner_team"],
        "par_small_points": None,
        "par_match_points": None,
        "par_march": None,
    }


def _thrown_in(result: Json) -> Json:
    out = _base(result)
    out["mode"] = result["mode"]
    out.update(_par_fields(thrown_in_par(), 0))
    out.update({"plays": [], "revoke": None})
    return out


def thrown_in_par() -> Json:
    """A thrown-in deal's par: nothing played, nothing scored."""
    return {
        "points": [0, 0],
        "card_points": [0, 0],
        "capot": None,
        "outcome": "thrown_in",
        "winner_team": None,
    }


def _bella_holder(hands: list[int], trump: int) -> int | None:
    """The team of the seat holding King and Queen of ``trump``, if one does."""
    table = TABLES[trump]
    pair = 1 << table.king | 1 << table.queen
    return next((seat & 1 for seat, hand in enumerate(hands) if hand & pair == pair), None)


def makeable(deal: BeloteDeal, additions: Additions, par_margin: int) -> list[Json]:
    """The makeable table (module docstring): 8 rows, trump C S H D, takers 0 then 1."""
    rows = []
    for trump in range(4):
        if trump == deal.trump:
            margin, bella = par_margin, additions.bella
        else:
            margin = deal_margin(
                deal.hands, trump=trump, forehand=deal.start.leader, options=deal.options
            )
            bella = _bella_holder(deal.hands, trump)
        for team in (0, 1):
            facts = Additions(team, additions.melds, bella, additions.forehand)
            scored = facts.score_margin(trump=trump, margin=margin)
            rows.append(
                {
                    "trump": SUIT_LETTERS[trump],
                    "team": team,
                    "points": scored["points"],
                    "card_points": scored["card_points"],
                    "capot": scored["capot"],
                    "margin": margin,
                    "outcome": scored["outcome"],
                }
            )
    return rows


def _analyse_valid(record: Json, result: Json, options: Options, best_cards: bool) -> Json:
    if result["outcome"] == "thrown_in":
        return _thrown_in(result)
    deal = _deal(record, SUIT_BY_TEXT[result["trump"]], options)
    additions = _additions(record, result)
    walk = _BeloteWalk(deal, additions, best_cards)
    out = _base(result)
    out.update(_par_fields(walk.par(), walk.margin))
    out["plays"] = [walk.play(i, CARD_BY_TEXT[t]) for i, t in enumerate(record["plays"])]
    if best_cards:
        out["makeable"] = makeable(deal, additions, out["par_margin"])
    revoke = record.get("revoke")
    out["revoke"] = None
    if revoke is not None:
        out["revoke"] = {
            "play": len(out["plays"]),
            "seat": revoke["seat"],
            "card": CARD_TEXT[CARD_BY_TEXT[revoke["card"]]],
            "best": deal.best_cards(walk.pos, walk.margin),
        }
        if best_cards:
            out["revoke"]["line"] = deal.steps(walk.pos, walk.line)
    return out


def belote_options(record: object) -> Options | None:
    """The options of a record of the Belote preset; None for any other record."""
    if not isinstance(record, dict):
        return None
    try:
        _, options = resolve_named_rules(record.get("rules"))
    except RulesError:
        return None
    return options if options.game == GAME else None


def analyse_belote(record: object, *, best_cards: bool = True, version: str) -> Json | None:
    """The par analysis of a Belote record (module docstring), None for a record of
    another game; ``version`` is the analysis version to report. Never raises."""
    options = belote_options(record)
    if options is None:
        return None
    assert isinstance(record, dict)
    result = check_any_game(record)
    if not result["valid"]:
        return result
    if result["mode"] != "full" and result["outcome"] != "thrown_in":
        return summary_answer(result, version)
    return stamped(result, version, lambda: _analyse_valid(record, result, options, best_cards))


def line_from(
    deal: KlaverjasDeal,
    plays: list[str],
    after: int,
    card: object,
    *,
    refuse: Callable[[int], Json],
    points: Callable[[Position], list[int]],
) -> Json:
    """``analysis.perfect_line``'s answer on a margin search (``KlaverjasDeal`` or a
    subclass): the perfect line after the first ``after`` of ``plays``; with ``card`` the
    line starts with it and ``cost`` is its cost (margin). ``refuse(seat)`` answers a
    ``card`` that seat cannot play; ``points(end)`` scores the line's last position."""
    pos = deal.start
    for text in plays[:after]:
        pos = pos.after(CARD_BY_TEXT[text], deal.trump)
    par = deal.value(pos)
    out: Json = {"valid": True, "analysed": True, "errors": [], "after": after}
    first: list[Json] = []
    if card is not None:
        played = CARD_BY_TEXT.get(card, -1) if isinstance(card, str) else -1
        if played < 0 or not deal.legal(pos) >> played & 1:
            return refuse(pos.seat)
        value = deal.child_value(pos, played, par)
        out["card"] = CARD_TEXT[played]
        out["cost"] = par - value if pos.seat & 1 == 0 else value - par
        first = deal.steps(pos, [played])
        pos, par = pos.after(played, deal.trump), value
    line = deal.line(pos, par)
    steps = first + deal.steps(pos, line)
    out["line"] = [
        {"play": after + i, "trick": (after + i) // 4 + 1, **step} for i, step in enumerate(steps)
    ]
    out["par"] = points(deal.play_out(pos, line))
    return out


def belote_line(
    record: Json,
    analysed: Json,
    options: Options,
    after: int,
    card: object,
    *,
    refuse: Callable[[int], Json],
) -> Json:
    """``analysis.perfect_line``'s answer for a Belote record (``analysed`` is its
    ``check`` result, ``after`` a position of the record), as ``klaverjas_line`` for Klaverjas."""
    trump = SUIT_BY_TEXT[analysed["trump"]]
    deal = _deal(record, trump, options)
    additions = _additions(record, analysed)

    def points(end: Position) -> list[int]:
        scored: list[int] = additions.score_end(end, trump)["points"]
        return scored

    return line_from(deal, record["plays"], after, card, refuse=refuse, points=points)


def deal_margin(hands: list[int], *, trump: int, forehand: int, options: Options) -> int:
    """Team 0's margin (card points with the last trick or the capot, minus team 1's)
    with perfect play from the start of a Belote deal."""
    return KlaverjasSolver(hands, trump, options).solve(ALL_CARDS, forehand, [], True, 0, 0)


__all__ = [
    "BeloteDeal",
    "BelotePosition",
    "analyse_belote",
    "belote_line",
    "belote_options",
    "deal_margin",
    "line_from",
    "makeable",
]
