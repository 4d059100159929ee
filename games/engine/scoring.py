"""The numbers of one deal: points, total, Beet, outcome, small and match points.

``score_deal`` takes the facts established from a full or summary record (card points,
tricks, counted melds, Bella, revoke, March, multiplier) and applies RULES.md
"Counting a deal", "Small and big points", "Revoke", "March", "Liga-Partie" and the
Hamburg per-deal points. It does not validate anything.
"""

from __future__ import annotations

from typing import Any

from .cards import DEAL_POINTS
from .melds import Meld, contest, melds_json
from .rules import Options

BELLA_POINTS = 20


class DealFacts:
    """What a record says happened in a played deal (immutable by convention).

    A plain class with its own ``__init__``: compiled (see ``native``) it is a native
    class, where a named tuple's constructor runs interpreted."""

    def __init__(
        self,
        kind: str,
        declarer: int,
        trump: int,
        forehand: int,
        multiplier: int,
        march: bool,
        card_points: tuple[int, int],
        playing_took_all: bool,
        defenders_trickless: bool,
        melds: tuple[Meld, ...],
        bella: int | None,
        revoke_seat: int | None,
    ) -> None:
        self.kind = kind
        self.declarer = declarer
        self.trump = trump
        self.forehand = forehand
        self.multiplier = multiplier
        self.march = march
        #: Per team: card points of its tricks + Jappa/Mie bonuses + last trick.
        self.card_points = card_points
        #: The playing team took all 8 tricks.
        self.playing_took_all = playing_took_all
        #: The defenders took no trick (before the revoke, if any).
        self.defenders_trickless = defenders_trickless
        #: Melds announced in time (before a revoke), all seats.
        self.melds = melds
        #: The Bella seat when Bella counts.
        self.bella = bella
        self.revoke_seat = revoke_seat


def match_points(points: int) -> int:
    """Deal points to Liga match points: divide by 10, round half up."""
    return (points + 5) // 10


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


def _small_and_match_points(
    facts: DealFacts, winner: int, points: list[int], options: Options
) -> tuple[list[int], list[int]]:
    """Small points (the winner's base times the multiplier; Hamburg doubles an Orgi)
    and Liga match points (a failed game gives the winner all, unless switched off)."""
    made = winner == facts.declarer & 1
    if options.scoring == "hamburg" and facts.kind == "orgi":
        base = 2 if made else 4
    else:
        base = 1 if made else 2
    small = [0, 0]
    small[winner] = base * facts.multiplier
    if not made and options.failed_game_gives_all:
        match = [0, 0]
        match[winner] = match_points(points[0] + points[1])
        return small, match
    return small, [match_points(points[0]), match_points(points[1])]


def _clean_team_takes_all(facts: DealFacts) -> tuple[int | None, list[Meld], int, list[int]]:
    """Option ``revoke_clean_team_takes_all``: the clean team scores the whole deal, every
    announced meld and Bella. Returns (meld team, scored melds, total, points)."""
    assert facts.revoke_seat is not None
    clean = 1 - (facts.revoke_seat & 1)
    scored = sorted(facts.melds, key=lambda m: (m.seat, m.run))
    bella_points = BELLA_POINTS if facts.bella is not None else 0
    total = DEAL_POINTS + sum([m.run.points for m in scored]) + bella_points
    points = [0, 0]
    points[clean] = total
    return (clean if facts.melds else None), scored, total, points


def score_deal(facts: DealFacts, options: Options) -> dict[str, Any]:
    """The scoring part of a result: melds, bella, points, total, beet, outcome..."""
    bella = facts.bella
    if facts.revoke_seat is not None and options.revoke_clean_team_takes_all:
        team, scored, total, points = _clean_team_takes_all(facts)
        winner, outcome = 1 - (facts.revoke_seat & 1), "revoke"
    else:
        team, scored, meld_sum = None, [], 0  # what ``contest`` gives for no melds
        if facts.melds:
            team, scored = contest(
                facts.melds, trump=facts.trump, forehand=facts.forehand, options=options
            )
            meld_sum = sum([m.run.points for m in scored])
        total = DEAL_POINTS + meld_sum
        points = list(facts.card_points)
        if team is not None:
            points[team] += meld_sum
        if bella is not None:
            total += BELLA_POINTS
            points[bella & 1] += BELLA_POINTS
        winner, outcome = _winner(facts, points, total)
    small, match = _small_and_match_points(facts, winner, points, options)
    return {
        "melds": {"winning_team": team, "scored": melds_json(scored) if scored else []},
        "bella": None if bella is None else {"seat": bella, "points": BELLA_POINTS},
        "points": points,
        "total": total,
        "beet": total // 2 if total % 2 == 0 else total / 2,  # half, as a whole number if even
        "outcome": outcome,
        "winner_team": winner,
        "small_points": small,
        "match_points": match,
    }
