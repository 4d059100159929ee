"""Who may read a league match day beyond its home club's organisers."""

from __future__ import annotations

from typing import Any

from django.db.models import Q

from tournaments.leagues.models import MatchDay


def reads_league_match_day(user: Any, tournament_id: int) -> bool:
    """Whether ``user`` may read the deals of the (hidden) tournament of a league match
    day without organising its club: a captain of either team, who confirms its result,
    and the league's organisers, who accept it (the home club's organisers organise the
    tournament anyway)."""
    if not getattr(user, "is_authenticated", False):
        return False
    sides = Q(home__captain=user) | Q(away__captain=user) | Q(division__league__organisers=user)
    return MatchDay.objects.filter(sides, tournament_id=tournament_id).exists()
