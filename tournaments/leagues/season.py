"""The services of a league season's events (RULES.md, "League decisions for a whole
season"): a forfeit recorded by the league's organiser, a postponement asked by one team,
answered by the other and decided by the league's organiser, the settlement of the match
days not played by the season's last date, a team's withdrawal during the season, and the
next season created from the final tables (promotion and relegation).

Who may call which function is the views' check (``league_selectors`` has the roles);
these functions check the state of the league and refuse in words.
"""

from __future__ import annotations

from datetime import date, datetime
from typing import Any

from django.db import IntegrityError, transaction
from django.db.models import Q
from django.utils import formats, timezone
from django.utils.translation import gettext_lazy as _

from tournaments.common.errors import Conflict, Refused
from tournaments.events import services
from tournaments.events.models import Round
from tournaments.leagues import league_table
from tournaments.leagues import selectors as league_selectors
from tournaments.leagues import services as leagues
from tournaments.leagues.models import Division, League, LeagueTeam, MatchDay, MatchDayPostponement

#: Match days that still wait to be played (or for their result).
UNSETTLED = (MatchDay.Status.SCHEDULED, MatchDay.Status.OPEN, MatchDay.Status.CONFIRMED)
PENDING = (
    MatchDayPostponement.Status.ASKED,
    MatchDayPostponement.Status.CONSENTED,
    MatchDayPostponement.Status.REFUSED,
)
WITHDRAWN_REASON = _("%(team)s withdrew from the league.")
UNPLAYED_REASON = _(
    "Not played by the season's last date; %(team)s had asked for the postponement."
)


def _lock(match_day: MatchDay) -> MatchDay:
    return (
        MatchDay.objects.select_for_update(of=("self",))
        .select_related("division__league", "home__club", "away__club")
        .get(pk=match_day.pk)
    )


def _team_of(match_day: MatchDay, team: LeagueTeam) -> LeagueTeam:
    if team.pk not in (match_day.home_id, match_day.away_id):
        raise Refused(
            "not_a_team_of_the_match_day",
            _("%(team)s does not play this match day."),
            params={"team": team.name},
        )
    return match_day.home if team.pk == match_day.home_id else match_day.away


def _close_tables(match_day: MatchDay) -> None:
    """End the match day's tables (and their device codes), if they were opened."""
    if match_day.tournament_id is None:
        return
    for round_ in Round.objects.filter(tournament_id=match_day.tournament_id).open():
        services.close_round(round_=round_, force=True)


# --- forfeit ------------------------------------------------------------------------------


def _forfeit(match_day: MatchDay, team: LeagueTeam, reason: str, user: Any) -> MatchDay:
    """The match day is lost by ``team``: each of the four Partien counts the Liga target
    to 0 Augen for the other team (RULES.md, "Forfeit"); it is final at once."""
    target = match_day.division.league.liga_target
    partien = league_selectors.PARTIEN_PER_MATCH_DAY
    home_lost = team.pk == match_day.home_id
    match_day.home_partien, match_day.away_partien = (0, partien) if home_lost else (partien, 0)
    augen = partien * target
    match_day.home_augen, match_day.away_augen = (0, augen) if home_lost else (augen, 0)
    match_day.forfeited_by = team
    match_day.forfeit_reason = str(reason)[:500]
    match_day.status = MatchDay.Status.FINAL
    match_day.accepted_at = timezone.now()
    match_day.accepted_by = user
    match_day.confirmations.all().delete()
    match_day.save()
    _close_tables(match_day)
    return match_day


@transaction.atomic
def record_forfeit(*, match_day: MatchDay, team: LeagueTeam, reason: str, user: Any) -> MatchDay:
    """The league's organiser records that ``team`` did not appear or could not field two
    pairs; refused for a match day whose result was confirmed or is final."""
    match_day = _lock(match_day)
    league_selectors.ensure_season_open(match_day.division.league_id)
    team = _team_of(match_day, team)
    if match_day.status not in (MatchDay.Status.SCHEDULED, MatchDay.Status.OPEN):
        raise Conflict(
            "match_day_settled",
            _("This match day is %(status)s: a forfeit can no longer be recorded."),
            params={"status": match_day.get_status_display()},
        )
    reason = reason.strip()
    if not reason:
        raise Refused("reason_missing", _("Say why the match day is forfeited."))
    return _forfeit(match_day, team, reason, user)


# --- postponement -------------------------------------------------------------------------


def _check_date(match_day: MatchDay, starts_at: datetime) -> None:
    """Refuse a new date after the season's last date or with a clash (in words)."""
    last_day = match_day.division.league.last_day
    if last_day is not None and timezone.localdate(starts_at) > last_day:
        raise Refused(
            "after_last_day",
            _("The season ends on %(date)s: a match day cannot be moved after it."),
            params={"date": formats.date_format(last_day, "SHORT_DATE_FORMAT")},
        )
    moved = MatchDay(
        pk=match_day.pk,
        division=match_day.division,
        round=match_day.round,
        home=match_day.home,
        away=match_day.away,
        venue=match_day.venue,
        starts_at=starts_at,
    )
    leagues.check_clashes(moved)


@transaction.atomic
def ask_postponement(
    *, match_day: MatchDay, team: LeagueTeam, starts_at: datetime, reason: str
) -> MatchDayPostponement:
    """One team asks to move a scheduled match day to ``starts_at``; the other team
    answers, then the league's organiser decides. A date with a clash is refused now."""
    match_day = _lock(match_day)
    league_selectors.ensure_season_open(match_day.division.league_id)
    team = _team_of(match_day, team)
    if match_day.status != MatchDay.Status.SCHEDULED:
        raise Conflict(
            "match_day_not_scheduled",
            _("Only a match day whose tables are not open yet can be postponed."),
        )
    if match_day.postponements.filter(status__in=PENDING).exists():
        raise Conflict(
            "postponement_pending",
            _("A postponement of this match day is already waiting for a decision."),
        )
    reason = reason.strip()
    if not reason:
        raise Refused("reason_missing", _("Say why the match day should be moved."))
    _check_date(match_day, starts_at)
    return MatchDayPostponement.objects.create(
        match_day=match_day, asked_by=team, starts_at=starts_at, reason=reason
    )


def _lock_postponement(postponement: MatchDayPostponement) -> MatchDayPostponement:
    return (
        MatchDayPostponement.objects.select_for_update(of=("self",))
        .select_related("match_day__division__league", "asked_by")
        .get(pk=postponement.pk)
    )


def other_team(postponement: MatchDayPostponement) -> LeagueTeam:
    day = postponement.match_day
    return day.away if postponement.asked_by_id == day.home_id else day.home


@transaction.atomic
def answer_postponement(
    *, postponement: MatchDayPostponement, consent: bool
) -> MatchDayPostponement:
    """The other team consents to the new date or refuses it."""
    postponement = _lock_postponement(postponement)
    league_selectors.ensure_season_open(postponement.match_day.division.league_id)
    if postponement.status != MatchDayPostponement.Status.ASKED:
        raise Conflict("postponement_answered", _("This request has already been answered."))
    postponement.status = (
        MatchDayPostponement.Status.CONSENTED if consent else MatchDayPostponement.Status.REFUSED
    )
    postponement.answered_at = timezone.now()
    postponement.save(update_fields=["status", "answered_at"])
    return postponement


@transaction.atomic
def decide_postponement(*, postponement: MatchDayPostponement, grant: bool) -> MatchDayPostponement:
    """The league's organiser grants a postponement the other team consented to (the
    match day moves, clashes refused in words) or declines a request."""
    postponement = _lock_postponement(postponement)
    league_selectors.ensure_season_open(postponement.match_day.division.league_id)
    if postponement.status not in PENDING:
        raise Conflict("postponement_decided", _("This request has already been decided."))
    if grant and postponement.status != MatchDayPostponement.Status.CONSENTED:
        raise Conflict(
            "postponement_not_consented",
            _(
                "%(team)s has not consented: a match day is moved at one team's request "
                "only with the other team's consent (the league's organiser may still "
                "move it itself)."
            ),
            params={"team": other_team(postponement).name},
        )
    if grant:
        day = leagues.update_match_day(
            match_day=postponement.match_day, changes={"starts_at": postponement.starts_at}
        )
        day.postponed_by = postponement.asked_by
        day.save(update_fields=["postponed_by"])
    postponement.status = (
        MatchDayPostponement.Status.GRANTED if grant else MatchDayPostponement.Status.DECLINED
    )
    postponement.decided_at = timezone.now()
    postponement.save(update_fields=["status", "decided_at"])
    return postponement


# --- the end of the season ----------------------------------------------------------------


@transaction.atomic
def settle_season(*, league: League, user: Any, today: date | None = None) -> list[MatchDay]:
    """After the season's last date, each match day not played (its tables not all
    decided) is forfeited by the team that asked for its postponement, or else counts as
    not played and gives no points (RULES.md, "Postponement")."""
    league_selectors.ensure_season_open(league.pk)
    today = today or timezone.localdate()
    if league.last_day is None:
        raise Conflict("no_last_day", _("Set the season's last date first."))
    if today <= league.last_day:
        raise Conflict(
            "season_not_over",
            _("The season runs until %(date)s: settle its match days after that."),
            params={"date": formats.date_format(league.last_day, "SHORT_DATE_FORMAT")},
        )
    settled = []
    days = MatchDay.objects.filter(
        division__league=league, status__in=(MatchDay.Status.SCHEDULED, MatchDay.Status.OPEN)
    ).select_related("postponed_by", "division__league")
    for day in days.select_for_update(of=("self",)).order_by("pk"):
        if league_selectors.day_result(day).complete:
            continue  # played: it waits for its confirmation only
        if day.postponed_by is not None:
            reason = UNPLAYED_REASON % {"team": day.postponed_by.name}
            settled.append(_forfeit(day, day.postponed_by, reason, user))
            continue
        day.status = MatchDay.Status.NOT_PLAYED
        day.save(update_fields=["status"])
        _close_tables(day)
        settled.append(day)
    return settled


# --- withdrawal ---------------------------------------------------------------------------


@transaction.atomic
def withdraw_team(*, team: LeagueTeam, user: Any) -> LeagueTeam:
    """A team withdraws during the season (RULES.md, "Withdrawal"): with less than half
    of its match days played, all its results are struck from the table (and its other
    match days are not played); otherwise its remaining match days are forfeits against
    it. It is shown last of its division and is relegated."""
    team = LeagueTeam.objects.select_for_update().get(pk=team.pk)
    league_selectors.ensure_season_open(team.division.league_id)
    if team.withdrawn_at is not None:
        raise Conflict(
            "team_withdrawn", _("%(team)s has withdrawn already."), params={"team": team.name}
        )
    days = list(
        MatchDay.objects.filter(Q(home=team) | Q(away=team))
        .select_related("division__league")
        .select_for_update(of=("self",))
        .order_by("pk")
    )
    if not days:
        raise Conflict(
            "no_fixtures_yet",
            _("%(team)s has no fixture list yet: remove the team instead."),
            params={"team": team.name},
        )
    played = sum(d.status == MatchDay.Status.FINAL for d in days)
    team.results_struck = 2 * played < len(days)
    team.withdrawn_at = timezone.now()
    team.save(update_fields=["results_struck", "withdrawn_at"])
    reason = WITHDRAWN_REASON % {"team": team.name}
    for day in days:
        if day.status not in UNSETTLED:
            continue
        if team.results_struck:
            day.status = MatchDay.Status.NOT_PLAYED
            day.save(update_fields=["status"])
            _close_tables(day)
        else:
            _forfeit(day, team, reason, user)
    return team


# --- the next season ----------------------------------------------------------------------


def _final_order(division: Division) -> list[int]:
    return [row["team"] for row in league_selectors.division_table(division)]


def _ensure_season_over(league: League) -> None:
    """Refused, naming the first match day still waiting, unless every one is settled."""
    if hasattr(league, "next_season"):
        raise Conflict(
            "next_season_exists",
            _("The next season (%(season)s) has been created already."),
            params={"season": league.next_season.season or league.next_season.name},
        )
    waiting = (
        MatchDay.objects.filter(division__league=league, status__in=UNSETTLED)
        .select_related("home", "away")
        .order_by(*league_selectors.IN_DATE_ORDER)
        .first()
    )
    if waiting is not None:
        raise Conflict(
            "season_unfinished",
            _(
                "Match day %(round)s (%(home)s – %(away)s) has no final result yet: settle "
                "the season first."
            ),
            params={"round": waiting.round, "home": waiting.home.name, "away": waiting.away.name},
        )


def _new_league(league: League, *, season: str, slug: str) -> League:
    """The next season's league: the same name, rules and organisers."""
    try:
        with transaction.atomic():
            new = League.objects.create(
                name=league.name,
                slug=slug,
                season=season,
                is_public=league.is_public,
                rules_preset=league.rules_preset,
                rules_options=league.rules_options,
                liga_target=league.liga_target,
                previous=league,
            )
    except IntegrityError as exc:
        raise Conflict(
            "league_slug_taken",
            _("A league with slug '%(slug)s' already exists."),
            params={"slug": slug},
        ) from exc
    new.organisers.set(league.organisers.all())
    return new


def _placed_teams(league: League, divisions: list[Division]) -> list[list[int]]:
    """Per division (highest first), the team ids it has next season."""
    withdrawn = LeagueTeam.objects.filter(division__league=league, withdrawn_at__isnull=False)
    return league_table.promotion_and_relegation(
        [[row["team"] for row in league_selectors.division_table(d)] for d in divisions],
        promoted=[d.promoted for d in divisions],
        relegated=[d.relegated for d in divisions],
        withdrawn=set(withdrawn.values_list("pk", flat=True)),
    )


def _carry_over(old: LeagueTeam, division: Division) -> LeagueTeam:
    """The team in the new season's division, its roster to confirm by its club."""
    team = LeagueTeam.objects.create(
        division=division,
        club_id=old.club_id,
        name=old.name,
        captain_id=old.captain_id,
        roster_confirmed=False,
    )
    team.roster.set(old.roster.all())
    return team


@transaction.atomic
def next_season(*, league: League, season: str, slug: str, user: Any) -> League:
    """The new season of the league from the final tables of this one: the same
    divisions (with their numbers up and down), each division's best ``promoted`` teams
    one division up and its last ``relegated`` (and every withdrawn team) one down; the
    teams are carried over with captain and roster, each roster to confirm by its club
    before the new fixture list is made. This season stays readable in the archive."""
    league = League.objects.select_for_update().get(pk=league.pk)
    _ensure_season_over(league)
    divisions = list(league.divisions.order_by("order", "pk"))
    placed = _placed_teams(league, divisions)
    new = _new_league(league, season=season, slug=slug)
    teams = LeagueTeam.objects.in_bulk([t for members in placed for t in members])
    for division, members in zip(divisions, placed, strict=True):
        copy = Division.objects.create(
            league=new,
            name=division.name,
            order=division.order,
            promoted=division.promoted,
            relegated=division.relegated,
        )
        for team_id in members:
            _carry_over(teams[team_id], copy)
    return new


@transaction.atomic
def confirm_roster(*, team: LeagueTeam) -> LeagueTeam:
    """The club confirms the roster of a team carried over into a new season."""
    team = LeagueTeam.objects.select_for_update().get(pk=team.pk)
    team.roster_confirmed = True
    team.save(update_fields=["roster_confirmed"])
    return team
