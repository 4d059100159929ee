"""Read-side helpers for deals: the running score of a match, kept by the engine."""

from __future__ import annotations

from typing import Any

from tournaments.models import Match

from .services import current_results, engine_module


def running_score(match: Match) -> dict[str, Any]:
    """Small/big points (and Liga match points for a Liga-Partie) after the current
    deals, as the engine's keepers count them."""
    engine = engine_module()
    results = current_results(match)
    score: dict[str, Any] = {"small_big": engine.score_small_big(results).to_dict()}
    if match.mode == Match.Mode.LIGA:
        try:
            score["liga"] = engine.score_liga(results, target=match.target or 51).to_dict()
        except engine.KeeperError as error:
            score["liga"] = {"error": str(error)}
    return score
