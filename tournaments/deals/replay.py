"""Reads for stepping through an analysed deal on its hand record page: the position
after any number of plays (the hands shrinking, the trick on the table, the tricks and
card points each side has taken so far, who plays next and what each of that seat's
legal cards costs), the perfect line from there, the plays that turned the par's
outcome, a graph of the par (or of the margin, in the game's unit) over the play and
the makeable table.

Everything the page shows comes from the deal version's record and its stored analysis
(see docs/analysis.md): the page solves nothing. Only ``line_after``, for the API, asks
the engine (``perfect_line``) for the line from a position, or after a card the record
did not play there. Nothing is written.
"""

from __future__ import annotations

from typing import Any

from django.utils.translation import gettext_lazy as _

from games import engine
from games.engine.cards import CARD_BY_TEXT
from games.models import DealVersion
from tournaments.common.errors import Refused
from tournaments.deals.hand_records import SeatView, card_view, hand_rows, turning_plays

#: Graph size in SVG units (scaled to the page's width by CSS).
GRAPH_WIDTH = 320
GRAPH_HEIGHT = 140
GRAPH_PAD = 14
#: Points of par shown above the highest and below the lowest value of the graph.
GRAPH_MARGIN = 8
SUITS = "CSHD"


def clamp_step(raw: object, plays: int) -> int:
    """The step asked for in the query string (``?step=``), within ``0..plays``; an
    unreadable one is the start."""
    try:
        step = int(str(raw))
    except ValueError:
        return 0
    return min(max(step, 0), plays)


def par_before(analysis: dict[str, Any], step: int) -> tuple[list[int], str]:
    """The par (deal points per team) and its outcome at ``step`` (after that many plays)."""
    if step == 0:
        return analysis["par"], analysis["par_outcome"]
    play = analysis["plays"][step - 1]
    return play["par"], play.get("par_outcome", analysis["par_outcome"])


def perfect_line(analysis: dict[str, Any], step: int) -> list[dict[str, Any]]:
    """A perfect line from ``step`` to the end: the recorded plays while they kept the
    par, then the line stored with the first costly play (docs/analysis.md)."""
    plays = analysis["plays"]
    line: list[dict[str, Any]] = []
    for play in plays[step:]:
        if play["cost"] > 0:
            return line + list(play.get("line", []))
        line.append({"seat": play["seat"], "card": play["card"]})
    revoke = analysis.get("revoke")
    return line + list(revoke.get("line", [])) if revoke else line


def _line_views(line: list[dict[str, Any]], seats: list[SeatView], step: int) -> list[Any]:
    """The line in tricks (of as many cards as the table has seats), each step with its
    seat and card."""
    tricks: list[dict[str, Any]] = []
    for i, item in enumerate(line):
        number = (step + i) // len(seats) + 1
        if not tricks or tricks[-1]["number"] != number:
            tricks.append({"number": number, "cards": []})
        tricks[-1]["cards"].append({"seat": seats[item["seat"]], "card": card_view(item["card"])})
    return tricks


def _trick_on_table(
    analysis: dict[str, Any], result: dict[str, Any], seats: list[SeatView], step: int
) -> dict[str, Any] | None:
    """The trick being played at ``step``, or the one just completed (with its winner)."""
    plays, n = analysis["plays"], len(seats)
    start = step - step % n if step % n else step - n
    if start < 0:
        return None
    cards = [
        {"seat": seats[p["seat"]], "card": card_view(p["card"]), "cost": p["cost"]}
        for p in plays[start:step]
    ]
    number = start // n + 1
    done = step % n == 0
    tricks = result.get("tricks", [])
    winner = seats[tricks[number - 1]["winner"]] if done and number <= len(tricks) else None
    return {"number": number, "cards": cards, "winner": winner}


def _to_play(
    analysis: dict[str, Any], seats: list[SeatView], step: int, turning: list[int]
) -> dict[str, Any] | None:
    """The seat to play at ``step``, each legal card's cost, cheapest first, and the card
    it played."""
    plays = analysis["plays"]
    if step >= len(plays):
        return None
    play = plays[step]
    values = play.get("values", {})
    cards = [
        {"card": card_view(text), "cost": cost, "played": text == play["card"]}
        for text, cost in sorted(values.items(), key=lambda kv: kv[1])
    ]
    return {
        "seat": seats[play["seat"]],
        "cards": cards,
        "played": card_view(play["card"]),
        "cost": play["cost"],
        "turning": step in turning,
    }


def _hands(
    record: dict[str, Any], analysis: dict[str, Any], seats: list[SeatView], step: int, ranks: str
) -> list[dict[str, Any]]:
    """Each seat's cards still held at ``step`` (a record may write a Ten "10S" or "TS")."""
    gone = {CARD_BY_TEXT[p["card"]] for p in analysis["plays"][:step]}
    trump = analysis.get("trump")
    return [
        {
            "seat": seat,
            "rows": hand_rows(
                [c for c in record["hands"][seat.position] if CARD_BY_TEXT[c] not in gone],
                trump,
                ranks,
            ),
            "to_play": False,
        }
        for seat in seats
    ]


def margins(analysis: dict[str, Any], team: int) -> list[int]:
    """The playing team's margin (its points less the other team's) with perfect play
    before the first play and after each play: the unit of a Klaverjas analysis, whose
    ``par_margin`` and each play's ``margin`` are team 0's (docs/analysis.md)."""
    sign = 1 if team == 0 else -1
    return [sign * analysis["par_margin"]] + [sign * p["margin"] for p in analysis["plays"]]


def par_graph(
    analysis: dict[str, Any],
    team: int,
    step: int,
    turning: list[int],
    *,
    teams: bool = True,
    unit: str = "points",
) -> dict[str, Any]:
    """The playing side's par after each play as SVG points and the line it must pass,
    each play a link target (SVG numbers as strings). Teams: the playing team's par and
    the Beet (half the total), or in a game whose analysis counts the margin (``unit``
    "margin", Klaverjas) the playing team's margin and 0 (made above it), so that the
    graph moves where the points of a nat par stay 0. Single players (``teams``
    false): the declarer's par less the best other player's, and 0 (made above it: more
    than each opponent)."""
    plays = analysis["plays"]
    pars = [analysis["par"]] + [p["par"] for p in plays]
    if teams and unit == "margin":
        values = margins(analysis, team)
        line, floor, ceiling = 0.0, float("-inf"), float("inf")
    elif teams:
        values = [par[team] for par in pars]
        total = sum(analysis["par"])
        line, floor, ceiling = total / 2, 0.0, float(total)
    else:
        values = [par[team] - max(p for s, p in enumerate(par) if s != team) for par in pars]
        line, floor, ceiling = 0.0, float("-inf"), float("inf")
    inner_w, inner_h = GRAPH_WIDTH - 2 * GRAPH_PAD, GRAPH_HEIGHT - 2 * GRAPH_PAD
    dx = inner_w / max(len(plays), 1)
    # the range the par moves in, with the line and a margin, so that small changes show
    low = max(min([*values, line]) - GRAPH_MARGIN, floor)
    span = max(min(max([*values, line]) + GRAPH_MARGIN, ceiling) - low, 1)

    def y(value: float) -> str:
        return f"{GRAPH_PAD + inner_h * (1 - (value - low) / span):.1f}"

    points = []
    for i, value in enumerate(values):
        costly = i > 0 and plays[i - 1]["cost"] > 0
        points.append(
            {
                "step": i,
                "x": f"{GRAPH_PAD + i * dx:.1f}",
                "hit_x": f"{GRAPH_PAD + (i - 0.5) * dx:.1f}",
                "y": y(value),
                "value": value,
                "costly": costly,
                "turning": i > 0 and i - 1 in turning,
                "current": i == step,
            }
        )
    return {
        "width": GRAPH_WIDTH,
        "height": GRAPH_HEIGHT,
        "points": points,
        "polyline": " ".join(f"{p['x']},{p['y']}" for p in points),
        "beet_y": y(line),
        "beet": int(line) if line == int(line) else line,
        "left": GRAPH_PAD,
        "right": GRAPH_WIDTH - GRAPH_PAD,
        "marker_x": points[step]["x"],
        "hit_w": f"{dx:.1f}",
        "team": team + 1,
        "teams": teams,
        "unit": unit if teams else "lead",
    }


def signed(value: int) -> str:
    """A margin with its sign: "+12", "−23" (a minus sign), "±0"."""
    return f"+{value}" if value > 0 else f"−{-value}" if value < 0 else "±0"


def makeable_rows(analysis: dict[str, Any], *, teams: bool = True) -> list[dict[str, Any]]:
    """The makeable table by trump: per playing team its points and outcome, the deal's
    own contract marked. A row without points (a trump whose analysis gives the outcome
    only) shows the points only when they are known: none for a made game,
    0 for a failed one (the makers score nothing). Single players (``teams`` false):
    each cell shows how far the declarer is from making instead (``margin``, the
    declarer's own points less the best other player's: "+12" made by 12, "−23"
    short), since a failed declarer scores 0 whatever the cards gave. A game that bids
    a contract's value gives each cell the highest value the team makes instead
    (``value``: 80 … 160 or "capot"; None below the lowest)."""
    rows: dict[str, dict[str, Any]] = {}
    for row in analysis.get("makeable", []):
        entry = rows.setdefault(row["trump"], {"suit": row["trump"], "teams": []})
        own = row["trump"] == analysis.get("trump") and row["team"] == analysis.get("playing_team")
        if "value" in row:  # the highest contract value a team makes (None: not even the lowest)
            made, points = row["value"] is not None, row["value"]
        else:
            made = row["outcome"] == "made"
            points = (
                row["points"][row["team"]] if row["points"] is not None else (None if made else 0)
            )
        margin = row.get("margin") if not teams else None
        entry["teams"].append(
            {
                "team": row["team"] + 1,
                "points": points,
                "made": made,
                "own": own,
                "margin": signed(margin) if isinstance(margin, int) else None,
            }
        )
    return [rows[s] for s in SUITS if s in rows]


def running_tally(tricks: list[dict[str, Any]], step: int, seats: list[SeatView]) -> list[Any]:
    """The tricks taken and the card points so far (the last trick's bonus with it) per
    side after ``step`` plays: only the tricks complete by then count (``tricks``: the
    deal result's, each with its ``winner`` seat and ``points``)."""
    sides = max(seat.team for seat in seats) + 1
    tally = [{"side": side + 1, "tricks": 0, "points": 0} for side in range(sides)]
    for trick in tricks[: step // len(seats)]:
        side = tally[seats[trick["winner"]].team]
        side["tricks"] += 1
        side["points"] += trick["points"]
    return tally


def deal_replay(deal: dict[str, Any], raw_step: object, *, ranks: str) -> dict[str, Any] | None:
    """The step-through of a hand record (``hand_records.hand_record``'s dict) at the
    step asked for, or None when its deal has no analysed play."""
    analysis = deal.get("analysis")
    if not deal.get("analysed") or not analysis:
        return None
    version = deal["version"]
    step = clamp_step(raw_step, len(analysis.get("plays") or []))
    return replay(
        version.record,
        version.result,
        analysis,
        deal["seats"],
        step=step,
        ranks=ranks,
        teams=deal.get("teams", True),
        unit=deal.get("par_unit", "points"),
    )


def replay(
    record: dict[str, Any],
    result: dict[str, Any],
    analysis: dict[str, Any],
    seats: list[SeatView],
    *,
    step: int,
    ranks: str,
    teams: bool = True,
    unit: str = "points",
) -> dict[str, Any] | None:
    """What the step-through shows at ``step`` (after that many plays), or None when the
    analysis has no plays to step through (thrown in, an older analysis without values).
    ``teams``: the game's sides are teams (else single players, one per seat); ``unit``:
    what the par graph plots (the profile's ``par_unit``)."""
    plays = analysis.get("plays") or []
    if not plays or "values" not in plays[0]:
        return None
    step = min(max(step, 0), len(plays))
    if "par_margin" not in analysis or any("margin" not in p for p in plays):
        unit = "points"
    turning = turning_plays(analysis)
    par, outcome = par_before(analysis, step)
    team = analysis.get("playing_team", 0)
    hands = _hands(record, analysis, seats, step, ranks)
    to_play = _to_play(analysis, seats, step, turning)
    if to_play is not None:
        hands[to_play["seat"].position]["to_play"] = True
    n = len(seats)
    return {
        "step": step,
        "last": len(plays),
        "prev": step - 1 if step > 0 else None,
        "next": step + 1 if step < len(plays) else None,
        "trick_number": min(step // n + 1, (len(plays) - 1) // n + 1),
        "teams": teams,
        "hands": hands,
        "trick": _trick_on_table(analysis, result, seats, step),
        "to_play": to_play,
        "par": par,
        "outcome": outcome,
        "line": _line_views(perfect_line(analysis, step), seats, step),
        "turning": [
            {
                "step": i,
                "trick": i // n + 1,
                "seat": seats[plays[i]["seat"]],
                "card": card_view(plays[i]["card"]),
                "cost": plays[i]["cost"],
                "before": par_before(analysis, i)[1],
                "after": plays[i]["par_outcome"],
            }
            for i in turning
        ],
        "tally": running_tally(result.get("tricks", []), step, seats),
        "margin": signed(margins(analysis, team)[step]) if teams and unit == "margin" else None,
        "graph": par_graph(analysis, team, step, turning, teams=teams, unit=unit),
        "makeable": makeable_rows(analysis, teams=teams),
        "makeable_values": any("value" in row for row in analysis.get("makeable", [])),
        "makeable_outcomes_only": any(
            row.get("points", 0) is None for row in analysis.get("makeable", [])
        ),
    }


#: Why a line cannot be given, by the engine's error code (``analyse``, ``perfect_line``).
LINE_REFUSALS = {
    engine.BAD_POSITION: _("This deal has no position after %(after)s plays."),
    engine.BAD_CARD: _("That card cannot be played at this position."),
    engine.NOT_ANALYSABLE: _("A deal entered as a summary has no play to analyse."),
    engine.GAME_NOT_ANALYSABLE: _("There is no perfect-play analysis for this game."),
    "thrown_in": _("A thrown-in deal was not played: there is no line to show."),
}


def line_after(version: DealVersion, *, after: int, card: str | None = None) -> dict[str, Any]:
    """A perfect line from the position after ``after`` plays of the version's record (or
    after ``card`` there): the engine's answer; its refusals as ``Refused`` with the
    engine's code (``bad_position``, ``bad_card``, ...)."""
    out = engine.perfect_line(version.record, after=after, card=card)
    if out.get("analysed") and out.get("par_outcome") == "thrown_in":
        raise Refused("thrown_in", LINE_REFUSALS["thrown_in"])
    if out.get("analysed"):
        return out
    errors = out.get("errors") or []
    code = errors[0]["code"] if errors else "invalid_record"
    message = LINE_REFUSALS.get(code, _("This deal's record cannot be analysed."))
    raise Refused(code, message, params={"after": after}, errors=errors)
