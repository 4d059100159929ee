"""The games kept as a match of summed deal points (``engine.score_match``): Klaverjas
(two teams) and Klammern for 2 or 3 single players. A match is a number of deals or to a
target, as the rules' ``match_by`` says; its winner has the most points once finished."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from django.utils.translation import gettext_lazy as _

from games import engine

from .base import DEALS, TO_TARGET, GameProfile, MatchState, Result, deals_finished
from .klammern import deals_text


@dataclass(frozen=True)
class PointsProfile(GameProfile):
    """A points match; ``game`` is the engine's ``Options.game`` of the profile."""

    game: str = ""

    def plays(self, options: engine.Options) -> bool:
        return options.game == self.game and options.players == self.players

    def match_fields(self, options: engine.Options) -> dict[str, Any]:
        """A match by deals is a fixed-deals match; one to a target uses the match mode
        "liga" with ``liga_target`` as the target."""
        if options.match_by == "deals":
            return {"match_mode": DEALS, "deals_per_match": options.deals_per_match}
        return {"match_mode": TO_TARGET, "liga_target": options.target_points}

    def match_description(self, *, mode: str, target: int, deals: int) -> str:
        if mode == TO_TARGET:
            return str(_("a match to %(target)s points")) % {"target": target}
        return deals_text(deals)

    def kept(self, results: Sequence[Result], options: engine.Options) -> engine.PointsMatchState:
        return engine.until_over(lambda rs: engine.score_match(rs, options), results)

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
        state = self.kept(results, options)
        points = state.points or (0,) * self.sides()
        finished = state.finished
        if mode != TO_TARGET and planned is not None:  # the match's own planned deals
            finished = deals_finished(results, planned=planned, played=played)
        winner = state.winner if finished else None
        return MatchState(
            kind="points",
            match_points=(points[0], points[1]) if self.teams else (0, 0),
            points=tuple(points),
            finished=finished,
            winner=winner,
            liga_winner=winner if self.teams else None,
            deals=len(results),
        )

    def running_score(
        self, results: Sequence[Result], options: engine.Options, *, mode: str, target: int
    ) -> dict[str, Any]:
        return {"small_big": {}, "points_match": self.kept(results, options).to_dict()}
