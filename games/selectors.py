"""Read-side helpers for deals: the running score of a match, kept by the engine."""

from __future__ import annotations

from typing import Any

from tournaments.models import Match
from tournaments.selectors import hamburg_targets, small_big

from .services import current_results, engine_module


def running_score(match: Match) -> dict[str, Any]:
    """Small/big points (and Liga match points for a Liga-Partie, or the Hamburg points
    for the Hamburg preset) after the current deals, as the engine's keepers count them."""
    engine = engine_module()
    results = current_results(match)
    score: dict[str, Any] = {"small_big": engine.score_small_big(results).to_dict()}
    target = hamburg_targets([match.round.tournament_id]).get(match.round.tournament_id)
    if target is not None:  # the small points are Hamburg points: rounds to the target
        rounds, points = small_big(
            ((r["small_points"][0], r["small_points"][1]) for r in results if r.get("valid")),
            hamburg_target=target,
        )
        score["hamburg"] = {"target": target, "rounds": list(rounds), "points": list(points)}
    if match.mode == Match.Mode.LIGA:
        try:
            score["liga"] = engine.score_liga(results, target=match.target or 51).to_dict()
        except engine.KeeperError as error:
            score["liga"] = {"error": str(error)}
    return score
