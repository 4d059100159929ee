"""The numbers of one deal: points, total, Beet, outcome, small and match points.

``score_deal`` takes the facts established from a full or summary record (card points,
tricks, counted melds, Bella, revoke, March, multiplier) and applies RULES.md
"Counting a deal", "Small and big points", "Revoke", "March", "Liga-Partie" and the
Hamburg per-deal points. It does not validate anything.
"""

from __future__ import annotations

from typing import Any, NamedTuple

from .cards import DEAL_POINTS
from .melds import Meld, contest, melds_json
from .rules import Options

BELLA_POINTS = 20


class DealFacts(NamedTuple):
    """What a record says happened in a played deal (a named tuple: built per deal,
    so it is cheap to make, and immutable)."""

    kind: str
    declarer: int
    trump: int
    forehand: int
    multiplier: int
    march: bool
    #: Per team: card points of its tricks + Jappa/Mie bonuses + last trick.
    card_points: tuple[int, int]
    #: The playing team took all 8 tricks.
    playing_took_all: bool
    #: The defenders took no trick (before the revoke, if any).
    defenders_trickless: bool
    #: Melds announced in time (before a revoke), all seats.
    melds: tuple[Meld, ...]
    #: The Bella seat when Bella counts.
    bella: int | None
    revoke_seat: int | None


def match_points(points: int) -> int:
    """Deal points to Liga match points: divide by 10, round half up."""
    return (points + 5) // 10


def _half(total: int) -> int | float:
    return total // 2 if total % 2 == 0 else total / 2


def _winner(facts: DealFacts, points: list[int], total: int) -> tuple[int, str]:
    playing = facts.declarer & 1
    if facts.revoke_seat is not None:
        team = facts.revoke_seat & 1
        if facts.march:
            won = team != playing and facts.defenders_trickless
            return (playing if won else 1 - playing), "revoke"
        wins = points[team] * 2 > total if team == playing else points[team] * 2 >= total
        return (team if wins else 1 - team), "revoke"
    if facts.march:
        if facts.playing_took_all:
            return playing, "march_won"
        return 1 - playing, "march_lost"
    if points[playing] * 2 > total:
        return playing, "made"
    return 1 - playing, "failed"


def _small_points(facts: DealFacts, winner: int, options: Options) -> list[int]:
    playing = facts.declarer & 1
    made = winner == playing
    if options.scoring == "hamburg":
        base = (2 if made else 4) if facts.kind == "orgi" else (1 if made else 2)
    else:
        base = 1 if made else 2
    out = [0, 0]
    out[winner] = base * facts.multiplier
    return out


def _match_points(facts: DealFacts, winner: int, points: list[int], options: Options) -> list[int]:
    playing = facts.declarer & 1
    if winner != playing and options.failed_game_gives_all:
        out = [0, 0]
        out[winner] = match_points(points[0] + points[1])
        return out
    return [match_points(points[0]), match_points(points[1])]


def score_deal(facts: DealFacts, options: Options) -> dict[str, Any]:
    """The scoring part of a result: melds, bella, points, total, beet, outcome..."""
    bella_points = BELLA_POINTS if facts.bella is not None else 0
    takes_all = facts.revoke_seat is not None and options.revoke_clean_team_takes_all
    if takes_all:
        assert facts.revoke_seat is not None
        clean = 1 - (facts.revoke_seat & 1)
        team: int | None = clean if facts.melds else None
        scored = sorted(facts.melds, key=lambda m: (m.seat, m.run))
        total = DEAL_POINTS + sum([m.run.points for m in scored]) + bella_points
        points = [0, 0]
        points[clean] = total
    else:
        if facts.melds:
            team, scored = contest(
                facts.melds, trump=facts.trump, forehand=facts.forehand, options=options
            )
        else:
            team, scored = None, []  # what ``contest`` gives for no melds
        meld_sum = sum([m.run.points for m in scored])
        total = DEAL_POINTS + meld_sum + bella_points
        points = list(facts.card_points)
        if team is not None:
            points[team] += meld_sum
        if facts.bella is not None:
            points[facts.bella & 1] += bella_points
    if takes_all:
        winner, outcome = 1 - (facts.revoke_seat or 0) % 2, "revoke"
    else:
        winner, outcome = _winner(facts, points, total)
    return {
        "melds": {"winning_team": team, "scored": melds_json(scored)},
        "bella": None if facts.bella is None else {"seat": facts.bella, "points": BELLA_POINTS},
        "points": points,
        "total": total,
        "beet": _half(total),
        "outcome": outcome,
        "winner_team": winner,
        "small_points": _small_points(facts, winner, options),
        "match_points": _match_points(facts, winner, points, options),
    }
