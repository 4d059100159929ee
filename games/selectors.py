"""Read-side helpers for deals: the current results of a match and its running score,
kept by the rules engine's scorekeepers."""

from __future__ import annotations

from typing import Any

from games import engine
from tournaments import presets
from tournaments.models import Match
from tournaments.selectors import big_and_small, hamburg_target, points_match, tournament_options

from .models import DealVersion


def current_results(match: Match) -> list[dict[str, Any]]:
    """The engine results of a match's current deal versions, in deal order."""
    versions = DealVersion.objects.current().filter(deal__match=match).order_by("deal__number")
    return [v.result for v in versions]


def running_score(match: Match) -> dict[str, Any]:
    """Small/big points (and Liga match points for a Liga-Partie, or the Hamburg points
    for the Hamburg preset) after the current deals, as the engine's keepers count them."""
    results = current_results(match)
    options = tournament_options(match.round.tournament)
    if presets.is_points_game(options):
        return {"small_big": {}, "points_match": points_match(results, options).to_dict()}
    score: dict[str, Any] = {"small_big": engine.score_small_big(results).to_dict()}
    target = hamburg_target(match.round.tournament)
    if target is not None:  # the small points are Hamburg points: rounds to the target
        rounds, points = big_and_small(results, hamburg_target=target)
        score["hamburg"] = {"target": target, "rounds": list(rounds), "points": list(points)}
    if match.mode == Match.Mode.LIGA:
        try:
            score["liga"] = engine.score_liga(results, target=match.target or 51).to_dict()
        except engine.KeeperError as error:
            score["liga"] = {"error": str(error)}
    return score
