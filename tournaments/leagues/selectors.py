"""Reads of the league of clubs: who plays which role, a match day's result as its
tables stand, and a division's table from the final results.

A match day's four Liga-Partien are the matches of its hidden tournament: two sittings
(rounds) of two tables, home pair 1 – away pair 1 and 2–2, then 1–2 and 2–1; the home
pair sits on seats 0 and 2, so the home team is team 0 of each match. Nothing here writes.

A past season (its next season has been created) is archived: ``ensure_season_open``
refuses every change to its results, rosters and fixtures (409 ``season_archived``).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from django.db.models import F, Q, QuerySet
from django.utils.translation import gettext_lazy as _

from games.models import DealVersion
from tournaments.clubs.models import Player
from tournaments.clubs.names import shown_name
from tournaments.common.errors import Conflict
from tournaments.events.models import Match, Seat
from tournaments.events.selectors import scored_matches
from tournaments.leagues import league_ranking, league_table
from tournaments.leagues.models import Division, League, LeagueTeam, MatchDay

PARTIEN_PER_MATCH_DAY = 4
#: The order of a fixture list everywhere (pages, API, CSV, calendar): by date, match
#: days without one last, then by Spieltag, so a moved match day takes its new place.
IN_DATE_ORDER = (F("starts_at").asc(nulls_last=True), "round", "pk")


# --- roles ------------------------------------------------------------------------------


def _authenticated(user: Any) -> bool:
    return bool(getattr(user, "is_authenticated", False))


def organises_league(user: Any, league: League | int) -> bool:
    if not _authenticated(user):
        return False
    league_id = league if isinstance(league, int) else league.pk
    return bool(user.is_superuser) or user.organised_leagues.filter(pk=league_id).exists()


def organises_club_id(user: Any, club_id: int) -> bool:
    if not _authenticated(user):
        return False
    return bool(user.is_superuser) or user.organised_clubs.filter(pk=club_id).exists()


def organises_any_club(user: Any) -> bool:
    if not _authenticated(user):
        return False
    return bool(user.is_superuser) or user.organised_clubs.exists()


def captains(user: Any, team: LeagueTeam) -> bool:
    return _authenticated(user) and team.captain_id == user.pk


def acts_for_team(user: Any, team: LeagueTeam) -> bool:
    """The team's captain or an organiser of its club (asks for or answers a
    postponement)."""
    return captains(user, team) or organises_club_id(user, team.club_id)


def visible_leagues(user: Any) -> QuerySet[League]:
    return League.objects.visible_to(user)


def leagues_involving(user: Any) -> QuerySet[League]:
    """The visible leagues the user runs, plays in with a club they organise, or
    captains a team of."""
    involved = Q(organisers=user) | Q(divisions__teams__club__organisers=user)
    involved |= Q(divisions__teams__captain=user)
    return visible_leagues(user).filter(involved).distinct()


def leagues_of_club(club_id: int) -> QuerySet[League]:
    return League.objects.filter(divisions__teams__club_id=club_id).distinct()


def league_of(match_day: MatchDay) -> League:
    return match_day.division.league


# --- eligibility --------------------------------------------------------------------------


def played_for(league_id: int) -> dict[int, LeagueTeam]:
    """Per player id, the first team the player has played for in the league season (the
    pairs named when a match day's tables were opened)."""
    days = (
        MatchDay.objects.filter(division__league_id=league_id, tournament__isnull=False)
        .select_related("home", "away")
        .order_by(*IN_DATE_ORDER)
    )
    first: dict[int, LeagueTeam] = {}
    for day in days:
        for side, team in (("home", day.home), ("away", day.away)):
            for pair in day.pairs.get(side, []):
                for player_id in pair:
                    first.setdefault(player_id, team)
    return first


# --- a match day's result -----------------------------------------------------------------


@dataclass(frozen=True)
class Partie:
    number: int  # 1-4: sitting 1 tables 1 and 2, then sitting 2
    sitting: int
    table: int
    table_id: int
    match: int
    status: str
    home_pair: tuple[str, str]
    away_pair: tuple[str, str]
    augen: tuple[int, int]
    winner: str | None  # "home", "away" or None while undecided
    home_ids: tuple[int, int] = (0, 0)
    away_ids: tuple[int, int] = (0, 0)


@dataclass(frozen=True)
class DayResult:
    """The match day as its tables stand: Partien won and Augen per side."""

    partien: tuple[Partie, ...]
    home_partien: int
    away_partien: int
    home_augen: int
    away_augen: int

    @property
    def complete(self) -> bool:
        return len(self.partien) == PARTIEN_PER_MATCH_DAY and all(
            p.winner is not None for p in self.partien
        )

    @property
    def columns(self) -> dict[str, int]:
        return {
            "home_partien": self.home_partien,
            "away_partien": self.away_partien,
            "home_augen": self.home_augen,
            "away_augen": self.away_augen,
        }


EMPTY = DayResult((), 0, 0, 0, 0)


def _seat_names(matches: QuerySet[Match]) -> dict[int, list[tuple[int, str]]]:
    """Per table id, the players (id, public name) in seat order."""
    names: dict[int, list[tuple[int, str]]] = {}
    rows = Seat.objects.filter(table__match__in=matches).order_by("table_id", "position")
    for table_id, player_id, name, style, number in rows.values_list(
        "table_id", "player_id", "player__name", "player__name_style", "player__pseudonym"
    ):
        names.setdefault(table_id, []).append((player_id, shown_name(name, style, number)))
    return names


def day_result(match_day: MatchDay) -> DayResult:
    """The result of the match day's tables now (live, from the current deals)."""
    if match_day.tournament_id is None:
        return EMPTY
    matches = Match.objects.filter(round__tournament_id=match_day.tournament_id)
    scored = {s.match: s for s in scored_matches(matches)}
    names = _seat_names(matches)
    partien = []
    ordered = matches.select_related("table", "round").order_by("round__number", "table__number")
    for number, match in enumerate(ordered, start=1):
        s = scored.get(match.pk)
        seats = names.get(match.table_id, [(0, "")] * 4)
        winner = None if s is None or s.liga_winner is None else ("home", "away")[s.liga_winner]
        partien.append(
            Partie(
                number=number,
                sitting=match.round.number,
                table=match.table.number,
                table_id=match.table_id,
                match=match.pk,
                status=match.status,
                home_pair=(seats[0][1], seats[2][1]),
                away_pair=(seats[1][1], seats[3][1]),
                augen=s.match_points if s else (0, 0),
                winner=winner,
                home_ids=(seats[0][0], seats[2][0]),
                away_ids=(seats[1][0], seats[3][0]),
            )
        )
    return DayResult(
        partien=tuple(partien),
        home_partien=sum(p.winner == "home" for p in partien),
        away_partien=sum(p.winner == "away" for p in partien),
        home_augen=sum(p.augen[0] for p in partien),
        away_augen=sum(p.augen[1] for p in partien),
    )


def partie_deals(match_ids: list[int]) -> dict[int, list[DealVersion]]:
    """Per match, the current versions of its deals in order (what the captains read)."""
    versions = (
        DealVersion.objects.current()
        .filter(deal__match_id__in=match_ids)
        .select_related("deal")
        .order_by("deal__match_id", "deal__number")
    )
    deals: dict[int, list[DealVersion]] = {}
    for version in versions:
        deals.setdefault(version.deal.match_id, []).append(version)
    return deals


def stored_result(match_day: MatchDay) -> dict[str, int] | None:
    """The result the confirmations (and the acceptance) refer to, if any."""
    if match_day.home_partien is None:
        return None
    return {
        "home_partien": match_day.home_partien,
        "away_partien": match_day.away_partien or 0,
        "home_augen": match_day.home_augen or 0,
        "away_augen": match_day.away_augen or 0,
    }


def confirmed_sides(match_day: MatchDay) -> list[str]:
    return sorted(c.side for c in match_day.confirmations.all())


# --- tables -------------------------------------------------------------------------------


def match_days(division: Division) -> QuerySet[MatchDay]:
    return (
        division.match_days.select_related("home__club", "away__club", "forfeited_by")
        .prefetch_related("confirmations")
        .order_by(*IN_DATE_ORDER)
    )


def division_table(division: Division) -> list[dict[str, Any]]:
    """The division's table from its final match days, each row with the team's name
    and club; teams without a final result yet are listed too. A withdrawn team is last
    (``withdrawn``); the results of one withdrawn before half its match days are struck."""
    teams = list(division.teams.select_related("club").order_by("name", "pk"))
    struck = [t.pk for t in teams if t.results_struck]
    final = (
        division.match_days.filter(status=MatchDay.Status.FINAL)
        .exclude(home_id__in=struck)
        .exclude(away_id__in=struck)
    )
    results = [
        league_table.MatchDayResult(
            d.home_id,
            d.away_id,
            d.home_partien or 0,
            d.away_partien or 0,
            d.home_augen or 0,
            d.away_augen or 0,
        )
        for d in final
    ]
    by_id = {t.pk: t for t in teams}
    withdrawn = [t.pk for t in teams if t.withdrawn_at is not None]
    rows = league_table.division_table(results, teams=[t.pk for t in teams], withdrawn=withdrawn)
    return [
        {
            **row.to_dict(),
            "name": by_id[row.team].name,
            "club": by_id[row.team].club.name,
            "withdrawn": by_id[row.team].withdrawn_at is not None,
            "struck": by_id[row.team].results_struck,
        }
        for row in rows
        if row.team in by_id
    ]


def fixtures_of_team(team: LeagueTeam) -> list[MatchDay]:
    days = MatchDay.objects.filter(division_id=team.division_id).select_related(
        "home__club", "away__club", "division__league", "forfeited_by"
    )
    return [d for d in days.order_by(*IN_DATE_ORDER) if team.pk in (d.home_id, d.away_id)]


# --- the player ranking (Einzelwertung) -----------------------------------------------------


def _played_partien(
    league: League,
) -> tuple[list[league_ranking.PartiePlayed], dict[int, LeagueTeam]]:
    """The decided Partien of the league's final, played match days (no forfeits, no
    struck results), and per player the team they played for."""
    days = (
        MatchDay.objects.filter(
            division__league=league,
            status=MatchDay.Status.FINAL,
            forfeited_by__isnull=True,
            tournament__isnull=False,
        )
        .exclude(home__results_struck=True)
        .exclude(away__results_struck=True)
        .select_related("home__club", "away__club")
    )
    partien: list[league_ranking.PartiePlayed] = []
    team_of: dict[int, LeagueTeam] = {}
    for day in days.order_by("pk"):
        for p in day_result(day).partien:
            if p.winner is not None:
                partien.append(
                    league_ranking.PartiePlayed(p.home_ids, p.away_ids, p.augen, p.winner == "home")
                )
                team_of.update(dict.fromkeys(p.home_ids, day.home))
                team_of.update(dict.fromkeys(p.away_ids, day.away))
    return partien, team_of


def player_ranking(league: League) -> list[dict[str, Any]]:
    """Each player's Partien, won, Augen and Augen difference over the season, from the
    match days with a final result that were played."""
    partien, team_of = _played_partien(league)
    names = Player.objects.public_names(team_of)
    rows = league_ranking.player_ranking(partien, names=names)
    return [
        {
            **row.to_dict(),
            "name": names[row.player],
            "team": team_of[row.player].name,
            "club": team_of[row.player].club.name,
        }
        for row in rows
    ]


# --- past seasons ----------------------------------------------------------------------------

SEASON_ARCHIVED = _(
    "This season is over and archived (its next season exists): its results, rosters and "
    "fixtures can no longer be changed."
)


def season_archived(league_id: int) -> bool:
    """Whether the league season is past: its next season has been created from it."""
    return League.objects.filter(previous_id=league_id).exists()


def ensure_season_open(league_id: int) -> None:
    """Refuse a change to an archived season (409 ``season_archived``)."""
    if season_archived(league_id):
        raise Conflict("season_archived", SEASON_ARCHIVED)


def ensure_match_season_open(match: Match) -> None:
    """Refuse a change to the deals of a match day of an archived season; a match that
    is no league match day's is not concerned."""
    league_id = (
        MatchDay.objects.filter(tournament__rounds=match.round_id)
        .values_list("division__league_id", flat=True)
        .first()
    )
    if league_id is not None:
        ensure_season_open(league_id)
