"""The models of the ``tournaments`` app, as Django finds them: each sub-package holds
its own (``clubs``, ``events``, ``results``, ``leagues``, ``ratings``) and this module
imports them all. App label, table names and migrations are the app's; the old
migrations also find ``default_tiebreaks`` and ``new_link_token`` here.
"""

from __future__ import annotations

from tournaments.clubs.models import (
    MAX_BOSS_WINDOW,
    Club,
    ClubMembership,
    OrganiserInvitation,
    Player,
    Season,
)
from tournaments.events.models import (
    MAX_DEALS_PER_MATCH,
    MAX_LIGA_TARGET,
    Bye,
    DeviceCredential,
    DeviceCredentialQuerySet,
    ForbiddenPairing,
    Match,
    MatchConfirmation,
    MatchQuerySet,
    Registration,
    RegistrationQuerySet,
    Round,
    RoundQuerySet,
    Seat,
    Table,
    Team,
    TeamMember,
    Tournament,
    TournamentQuerySet,
    default_tiebreaks,
    hash_device_code,
    new_link_token,
)
from tournaments.leagues.models import (
    Division,
    League,
    LeagueQuerySet,
    LeagueReminder,
    LeagueTeam,
    MatchDay,
    MatchDayConfirmation,
    MatchDayPostponement,
)
from tournaments.ratings.models import PlayerRating, RatedRound, RatingChange, RatingList
from tournaments.results.models import ClubSnapshot, StandingsSnapshot

__all__ = [
    "Bye",
    "Club",
    "ClubMembership",
    "ClubSnapshot",
    "DeviceCredential",
    "DeviceCredentialQuerySet",
    "Division",
    "ForbiddenPairing",
    "League",
    "LeagueQuerySet",
    "LeagueReminder",
    "LeagueTeam",
    "MAX_BOSS_WINDOW",
    "MAX_DEALS_PER_MATCH",
    "MAX_LIGA_TARGET",
    "Match",
    "MatchConfirmation",
    "MatchDay",
    "MatchDayConfirmation",
    "MatchDayPostponement",
    "MatchQuerySet",
    "OrganiserInvitation",
    "Player",
    "PlayerRating",
    "RatedRound",
    "RatingChange",
    "RatingList",
    "Registration",
    "RegistrationQuerySet",
    "Round",
    "RoundQuerySet",
    "Season",
    "Seat",
    "StandingsSnapshot",
    "Table",
    "Team",
    "TeamMember",
    "Tournament",
    "TournamentQuerySet",
    "default_tiebreaks",
    "hash_device_code",
    "new_link_token",
]
