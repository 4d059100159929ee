"""The services of the league of clubs: leagues and divisions, teams entered by clubs,
the fixture list, opening a match day's tables at the home venue, confirming and
accepting its result or sending it back.

A match day is played on the home club's tablets: ``open_match_day`` creates a hidden
tournament of the home club (not public, Liga-Partien under the league's rules) whose
first published round seats home pair 1 against away pair 1 and 2 against 2;
``start_second_sitting`` closes it when both tables are done and seats 1–2 and 2–1. The
home
club's organisers issue the tables' device codes as on a club evening, the tablets enter
deals through the deal API, and the organisers correct them in the console. The result
(Partien won, Augen) is provisional until both captains or the venue's organiser confirm
it (``confirm_match_day`` stores the numbers they confirmed), and final when a league
organiser accepts it (``accept_match_day``: only if the tables still show the confirmed
numbers; it closes the round, which ends the device codes), or sent back to the captains
with a reason (``send_back_match_day``). Who may call which function
is the views' check (``league_selectors`` has the roles); these functions check the
state of the league.
"""

from __future__ import annotations

from collections.abc import Sequence
from datetime import datetime, timedelta
from typing import Any

from django.db import IntegrityError, transaction
from django.db.models import Q
from django.utils import formats, timezone
from django.utils.translation import gettext_lazy as _

from games import profiles
from tournaments.clubs.models import Club, ClubMembership, Player
from tournaments.common.errors import Conflict, Refused
from tournaments.events import services
from tournaments.events.models import Match, Round, Seat, Table, Tournament
from tournaments.formats import LEAGUE
from tournaments.leagues import selectors as league_selectors
from tournaments.leagues.fixtures import league_fixtures
from tournaments.leagues.models import Division, League, LeagueTeam, MatchDay, MatchDayConfirmation

#: The four Partien of a match day in two sittings (rounds of the hidden tournament), as
#: every pair plays twice: per sitting, (table number, home pair index, away pair index).
SITTINGS = {1: ((1, 0, 0), (2, 1, 1)), 2: ((1, 0, 1), (2, 1, 0))}
FINAL = _("The result of this match day is final.")
NOT_OPEN = _("The tables of this match day are not open.")
NOT_PLAYED = _("This match day is settled as not played: it can no longer be moved.")
#: The games a league of clubs may play.
LEAGUE_PROFILES = tuple(profile for profile in profiles.PROFILES.values() if profile.league)


# --- leagues, divisions, teams ------------------------------------------------------------


@transaction.atomic
def create_league(*, organiser: Any, name: str, slug: str, **options: Any) -> League:
    """A new league; its creator is its first organiser. Its rules are checked as a
    tournament's are (``check_league_rules``)."""
    check_league_rules(
        preset=options.get("rules_preset", profiles.DEFAULT_PRESET),
        options=options.get("rules_options", {}),
    )
    try:
        with transaction.atomic():
            league = League.objects.create(name=name, slug=slug, **options)
    except IntegrityError as exc:
        raise Conflict(
            "league_slug_taken",
            _("A league with slug '%(slug)s' already exists."),
            params={"slug": slug},
        ) from exc
    league.organisers.add(organiser)
    return league


@transaction.atomic
def update_league(*, league: League, changes: dict[str, Any]) -> League:
    rules = {"rules_preset", "rules_options", "liga_target"} & changes.keys()
    if (
        rules
        and MatchDay.objects.filter(division__league=league, tournament__isnull=False).exists()
    ):
        raise Conflict(
            "league_rules_locked",
            _("The rules are fixed since the first match day was opened."),
        )
    if {"rules_preset", "rules_options"} & changes.keys():
        check_league_rules(
            preset=changes.get("rules_preset", league.rules_preset),
            options=changes.get("rules_options", league.rules_options),
        )
    for field, value in changes.items():
        setattr(league, field, value)
    league.save(update_fields=list(changes))
    return league


def check_league_rules(*, preset: Any, options: Any) -> None:
    """The rules of a league's match days, refused when the league is made or changed
    rather than when its first match day opens: an unknown preset or option as for a
    tournament (``unknown_rules``, through the tournaments' own check), and a game the
    league of clubs does not play (``rules_format_mismatch``)."""
    services.checked_rules(preset=preset, options=options, game_format=LEAGUE.format)
    if not profiles.profile_for(preset, options).league:
        raise Refused(
            "rules_format_mismatch",
            _("A league of clubs plays %(games)s."),
            params={"games": ", ".join(str(p.label) for p in LEAGUE_PROFILES)},
        )


@transaction.atomic
def create_division(
    *, league: League, name: str, order: int = 1, promoted: int = 1, relegated: int = 1
) -> Division:
    league_selectors.ensure_season_open(league.pk)
    try:
        with transaction.atomic():
            return Division.objects.create(
                league=league, name=name, order=order, promoted=promoted, relegated=relegated
            )
    except IntegrityError as exc:
        raise division_exists(name) from exc


def division_exists(name: str) -> Refused:
    return Refused(
        "division_exists",
        _("The league already has a division '%(name)s'."),
        params={"name": name},
    )


@transaction.atomic
def update_division(*, division: Division, changes: dict[str, Any]) -> Division:
    """Rename a division or change its order; a sibling's name is refused."""
    league_selectors.ensure_season_open(division.league_id)
    for field, value in changes.items():
        setattr(division, field, value)
    try:
        with transaction.atomic():
            division.save(update_fields=list(changes))
    except IntegrityError as exc:
        raise division_exists(division.name) from exc
    return division


def _ensure_no_fixtures(division: Division) -> None:
    if division.match_days.exists():
        raise Conflict(
            "fixtures_made",
            _("The fixture list of %(division)s is made: its teams can no longer change."),
            params={"division": division.name},
        )


def _check_roster(
    club_id: int, roster: Sequence[Player], *, league_id: int, team_id: int | None = None
) -> None:
    """Every player of the roster plays for the club and for no other team of the league
    this season (RULES.md, "Eligibility": rosters may not overlap within a league
    season, and a player who has played for one team plays for no other)."""
    members = set(
        ClubMembership.objects.filter(club_id=club_id, player__in=roster).values_list(
            "player_id", flat=True
        )
    )
    for player in roster:
        if player.pk not in members:
            raise Refused(
                "not_a_member",
                _("%(name)s does not play for this club."),
                params={"name": player.name},
            )
    _check_other_teams(roster, league_id=league_id, team_id=team_id)


def _check_other_teams(roster: Sequence[Player], *, league_id: int, team_id: int | None) -> None:
    """Refuse, in words, a player on another team's roster of the league or who has
    played for another team of it this season."""
    others = (
        LeagueTeam.roster.through.objects.filter(
            leagueteam__division__league_id=league_id, player__in=roster
        )
        .exclude(leagueteam_id=team_id)
        .select_related("player", "leagueteam")
        .order_by("player__name", "leagueteam__name")
    )
    taken = others.first()
    if taken is not None:
        raise Conflict(
            "player_on_other_team",
            _(
                "%(name)s already plays for %(team)s in this league: in one league season "
                "a player plays for one team only."
            ),
            params={"name": taken.player.name, "team": taken.leagueteam.name},
        )
    played = league_selectors.played_for(league_id)
    for player in sorted(roster, key=lambda p: p.name):
        first_team = played.get(player.pk)
        if first_team is not None and first_team.pk != team_id:
            raise Conflict(
                "player_played_for_other_team",
                _(
                    "%(name)s has played for %(team)s in this league season and may not "
                    "play for another team of it."
                ),
                params={"name": player.name, "team": first_team.name},
            )


@transaction.atomic
def enter_team(
    *,
    division: Division,
    club_id: int,
    name: str,
    captain: Any = None,
    roster: Sequence[Player] = (),
) -> LeagueTeam:
    """A club enters a team into a division (before its fixture list is made)."""
    division = Division.objects.select_for_update().get(pk=division.pk)
    league_selectors.ensure_season_open(division.league_id)
    _ensure_no_fixtures(division)
    _check_roster(club_id, roster, league_id=division.league_id)
    try:
        with transaction.atomic():
            team = LeagueTeam.objects.create(
                division=division, club_id=club_id, name=name, captain=captain
            )
    except IntegrityError as exc:
        raise team_name_taken(name) from exc
    team.roster.set(roster)
    return team


@transaction.atomic
def update_team(*, team: LeagueTeam, changes: dict[str, Any]) -> LeagueTeam:
    """Rename a team, change its captain or its roster (players of its club)."""
    league_id = (
        Division.objects.filter(pk=team.division_id).values_list("league_id", flat=True).get()
    )
    league_selectors.ensure_season_open(league_id)
    roster = changes.pop("roster", None)
    if roster is not None:
        _check_roster(team.club_id, roster, league_id=league_id, team_id=team.pk)
        team.roster.set(roster)
        if not team.roster_confirmed:  # a team carried over: its club confirms the roster
            team.roster_confirmed = True
            team.save(update_fields=["roster_confirmed"])
    for field, value in changes.items():
        setattr(team, field, value)
    if changes:
        try:
            with transaction.atomic():
                team.save(update_fields=list(changes))
        except IntegrityError as exc:  # a sibling's name
            raise team_name_taken(team.name) from exc
    return team


def team_name_taken(name: str) -> Refused:
    return Refused(
        "team_name_taken",
        _("The division already has a team '%(name)s'."),
        params={"name": name},
    )


@transaction.atomic
def remove_team(*, team: LeagueTeam) -> None:
    """Take back a team entered by mistake, while its division has no fixture list."""
    division = Division.objects.select_for_update().get(pk=team.division_id)
    league_selectors.ensure_season_open(division.league_id)
    _ensure_no_fixtures(division)
    team.delete()


# --- the fixture list ---------------------------------------------------------------------


def _ensure_nothing_played(division: Division) -> None:
    played = (
        division.match_days.exclude(status=MatchDay.Status.SCHEDULED)
        .select_related("home", "away")
        .order_by("round", "pk")
        .first()
    )
    if played is not None:
        raise Conflict(
            "fixtures_played",
            _(
                "Match day %(round)s (%(home)s – %(away)s) has been played: the fixture list "
                "of %(division)s can no longer be remade."
            ),
            params={
                "round": played.round,
                "home": played.home.name,
                "away": played.away.name,
                "division": division.name,
            },
        )


@transaction.atomic
def remove_fixtures(*, division: Division) -> None:
    """Withdraw the division's fixture list while no match day of it has been played
    (its tables opened), so teams may be entered or removed again."""
    division = Division.objects.select_for_update().get(pk=division.pk)
    league_selectors.ensure_season_open(division.league_id)
    _ensure_nothing_played(division)
    division.match_days.all().delete()


@transaction.atomic
def make_fixtures(
    *,
    division: Division,
    first_day: datetime | None = None,
    days_between: int = 14,
    remake: bool = False,
) -> list[MatchDay]:
    """The division's double round robin (home and away): Spieltag n on ``first_day``
    plus (n - 1) × ``days_between`` days, at the home club. ``remake`` replaces a fixture
    list of which no match day has been played."""
    division = Division.objects.select_for_update().get(pk=division.pk)
    league_selectors.ensure_season_open(division.league_id)
    if remake:
        remove_fixtures(division=division)
    _ensure_no_fixtures(division)
    teams = list(division.teams.select_related("club").order_by("pk"))
    if len(teams) < 2:
        raise Conflict("too_few_teams", _("A division needs at least two teams."))
    unconfirmed = [t.name for t in teams if not t.roster_confirmed]
    if unconfirmed:
        raise Conflict(
            "roster_unconfirmed",
            _(
                "The roster of %(teams)s, carried over from the last season, is not "
                "confirmed by its club yet."
            ),
            params={"teams": ", ".join(sorted(unconfirmed))},
        )
    by_id = {t.pk: t for t in teams}
    days = []
    for league_round in league_fixtures(list(by_id), home_and_away=True):
        starts_at = None
        if first_day is not None:
            starts_at = first_day + timedelta(days=days_between * (league_round.number - 1))
        for home, away in league_round.matches:
            days.append(
                MatchDay(
                    division=division,
                    round=league_round.number,
                    home=by_id[home],
                    away=by_id[away],
                    starts_at=starts_at,
                    venue=venue_of(by_id[home].club),
                )
            )
    return MatchDay.objects.bulk_create(days)


def venue_of(club: Club) -> str:
    """A home match day's venue: the club's name and its venue address (street, town;
    the town defaults to the club's city), as the calendar's LOCATION and the map link
    use it."""
    town = club.venue_town or club.city
    return ", ".join(part for part in (club.name, club.venue_street, town) if part)[:300]


def _check_team_clash(match_day: MatchDay) -> None:
    """RULES.md, "Clashes": a team plays at most one match day a date."""
    assert match_day.starts_at is not None
    day = timezone.localdate(match_day.starts_at)
    teams = (match_day.home_id, match_day.away_id)
    clash = (
        MatchDay.objects.filter(starts_at__date=day)
        .filter(Q(home_id__in=teams) | Q(away_id__in=teams))
        .exclude(pk=match_day.pk)
        .select_related("home", "away")
        .order_by("starts_at", "pk")
        .first()
    )
    if clash is None:
        return
    team = match_day.home if match_day.home_id in (clash.home_id, clash.away_id) else match_day.away
    raise Conflict(
        "team_clash",
        _(
            "%(team)s already plays on %(date)s (match day %(round)s, %(home)s – %(away)s): "
            "a team plays at most one match day a date."
        ),
        params={
            "team": team.name,
            "date": formats.date_format(day, "SHORT_DATE_FORMAT"),
            "round": clash.round,
            "home": clash.home.name,
            "away": clash.away.name,
        },
    )


def _check_venue_capacity(match_day: MatchDay) -> None:
    """RULES.md, "Clashes": a venue hosts at most as many match days at once as the home
    club has tables for (``Club.venue_tables``)."""
    if not match_day.venue or match_day.starts_at is None:
        return
    day = timezone.localdate(match_day.starts_at)
    tables = match_day.home.club.venue_tables
    hosted = (
        MatchDay.objects.filter(starts_at__date=day, venue__iexact=match_day.venue)
        .exclude(pk=match_day.pk)
        .count()
    )
    if hosted >= tables:
        raise Conflict(
            "venue_full",
            _(
                "%(venue)s already hosts %(count)s match days on %(date)s and has tables "
                "for %(tables)s at once."
            ),
            params={
                "venue": match_day.venue,
                "count": hosted,
                "date": formats.date_format(day, "SHORT_DATE_FORMAT"),
                "tables": tables,
            },
        )


def check_clashes(match_day: MatchDay) -> None:
    """Refuse, in words, the match day's date if its venue is full then or one of its
    teams already plays that date (RULES.md, "Clashes"); nothing is written. The venue is
    asked first: a venue full that day stays full whatever else moves, so its refusal
    (``venue_full``) is the one that says another venue or date is needed, and it is not
    hidden behind ``team_clash`` when both apply."""
    if match_day.starts_at is not None:
        _check_venue_capacity(match_day)
        _check_team_clash(match_day)


@transaction.atomic
def update_match_day(*, match_day: MatchDay, changes: dict[str, Any]) -> MatchDay:
    """Move a match day (date, venue) unless its result is final, refusing a date on which
    one of its teams already plays or its venue is full (RULES.md, "Clashes")."""
    match_day = (
        MatchDay.objects.select_for_update(of=("self",))
        .select_related("home__club", "away")
        .get(pk=match_day.pk)
    )
    league_selectors.ensure_season_open(match_day.division.league_id)
    if match_day.status == MatchDay.Status.FINAL:
        raise Conflict("match_day_final", FINAL)
    if match_day.status == MatchDay.Status.NOT_PLAYED:
        raise Conflict("match_day_not_played", NOT_PLAYED)
    for field, value in changes.items():
        setattr(match_day, field, value)
    check_clashes(match_day)
    match_day.save(update_fields=list(changes))
    return match_day


# --- playing a match day ------------------------------------------------------------------


def _check_pairs(team: LeagueTeam, pairs: Sequence[Sequence[Player]]) -> None:
    """Two pairs of four different players, each on the team's roster or a player of its
    club on no other team's roster who has played for no other team of the league
    (RULES.md, "Eligibility"); such a substitute joins the roster on opening."""
    players = [p for pair in pairs for p in pair]
    if len(pairs) != 2 or any(len(pair) != 2 for pair in pairs) or len(set(players)) != 4:
        raise Refused(
            "bad_pairs",
            _("Each team fields two pairs of four different players."),
        )
    ids = [p.pk for p in players]
    on_roster = set(team.roster.filter(pk__in=ids).values_list("pk", flat=True))
    members = set(
        ClubMembership.objects.filter(club_id=team.club_id, player_id__in=ids).values_list(
            "player_id", flat=True
        )
    )
    for player in players:
        if player.pk not in on_roster and player.pk not in members:
            raise Refused(
                "not_on_roster",
                _("%(name)s is not on the roster of %(team)s."),
                params={"name": player.name, "team": team.name},
            )
    league_id = Division.objects.filter(pk=team.division_id).values_list("league_id", flat=True)
    _check_other_teams(players, league_id=league_id.get(), team_id=team.pk)


def _hidden_tournament(match_day: MatchDay) -> Tournament:
    league = match_day.division.league
    tournament = services.create_tournament(
        club=match_day.home.club,
        name=f"{league.name}: {match_day.home.name} – {match_day.away.name}"[:200],
        slug=f"liga-{match_day.pk}",
        format=LEAGUE.format,
        match_mode=Tournament.MatchMode.LIGA,
        liga_target=league.liga_target,
        rules_preset=league.rules_preset,
        rules_options=league.rules_options,
        is_public=False,
    )
    return services.start_tournament(tournament=tournament)


def _players(ids: Sequence[Sequence[int]]) -> list[list[Player]]:
    by_id = Player.objects.in_bulk([i for pair in ids for i in pair])
    return [[by_id[i] for i in pair] for pair in ids]


def _seat_sitting(match_day: MatchDay, tournament: Tournament, number: int) -> Round:
    """Publish round ``number`` of the match day's tournament with its two tables."""
    round_ = Round.objects.create(
        tournament=tournament,
        number=number,
        status=Round.Status.PUBLISHED,
        published_at=timezone.now(),
    )
    home, away = _players(match_day.pairs["home"]), _players(match_day.pairs["away"])
    for table_number, h, a in SITTINGS[number]:
        table = Table.objects.create(round=round_, number=table_number)
        Match.objects.create(
            round=round_, table=table, mode=Match.Mode.LIGA, target=tournament.liga_target
        )
        seated = (home[h][0], away[a][0], home[h][1], away[a][1])  # home on seats 0 and 2
        Seat.objects.bulk_create(
            Seat(table=table, round=round_, position=position, player=player)
            for position, player in enumerate(seated)
        )
    return round_


@transaction.atomic
def open_match_day(
    *,
    match_day: MatchDay,
    home_pairs: Sequence[Sequence[Player]],
    away_pairs: Sequence[Sequence[Player]],
) -> MatchDay:
    """Open the match day's four tables at the home venue with the pairs each team
    fields (from its roster): each home pair meets each away pair once."""
    match_day = (
        MatchDay.objects.select_for_update(of=("self",))
        .select_related("division__league", "home__club", "away")
        .get(pk=match_day.pk)
    )
    league_selectors.ensure_season_open(match_day.division.league_id)
    if match_day.status != MatchDay.Status.SCHEDULED:
        raise Conflict("match_day_opened", _("The tables of this match day are already open."))
    _check_pairs(match_day.home, home_pairs)
    _check_pairs(match_day.away, away_pairs)
    match_day.home.roster.add(*[p for pair in home_pairs for p in pair])
    match_day.away.roster.add(*[p for pair in away_pairs for p in pair])
    match_day.pairs = {
        "home": [[p.pk for p in pair] for pair in home_pairs],
        "away": [[p.pk for p in pair] for pair in away_pairs],
    }
    match_day.tournament = _hidden_tournament(match_day)
    _seat_sitting(match_day, match_day.tournament, 1)
    match_day.status = MatchDay.Status.OPEN
    match_day.save(update_fields=["pairs", "tournament", "status"])
    return match_day


@transaction.atomic
def start_second_sitting(*, match_day: MatchDay) -> MatchDay:
    """Close the first sitting (its device codes end) once both its Partien are decided,
    and seat the second: home pair 1 against away pair 2, 2 against 1."""
    match_day = _lock(match_day)
    league_selectors.ensure_season_open(match_day.division.league_id)
    if match_day.status != MatchDay.Status.OPEN or match_day.tournament is None:
        raise Conflict("match_day_not_open", NOT_OPEN)
    first = Round.objects.filter(tournament=match_day.tournament, number=1).first()
    if first is None or first.status == Round.Status.CLOSED:
        raise Conflict("second_sitting_started", _("The second sitting has already started."))
    if first.matches.unfinished().exists():
        raise Conflict(
            "sitting_unfinished", _("Both Partien of the first sitting must be finished first.")
        )
    services.close_round(round_=first, force=True)  # the league's own checks came first
    _seat_sitting(match_day, match_day.tournament, 2)
    return match_day


def _lock(match_day: MatchDay) -> MatchDay:
    return (
        MatchDay.objects.select_for_update(of=("self",))
        .select_related("division__league", "tournament")
        .get(pk=match_day.pk)
    )


@transaction.atomic
def confirm_match_day(*, match_day: MatchDay, side: str, user: Any) -> MatchDay:
    """A captain (``home``/``away``) or the venue's organiser (``venue``) confirms the
    result the tables show now. Confirmations of other numbers (a deal was corrected
    since) are dropped. Both captains, or the venue, make it confirmed."""
    match_day = _lock(match_day)
    league_selectors.ensure_season_open(match_day.division.league_id)
    if match_day.status == MatchDay.Status.FINAL:
        raise Conflict("match_day_final", FINAL)
    if match_day.status == MatchDay.Status.SCHEDULED:
        raise Conflict("match_day_not_open", NOT_OPEN)
    result = league_selectors.day_result(match_day)
    if not result.complete:
        raise Conflict(
            "match_day_unfinished", _("Not every Partie of this match day is decided yet.")
        )
    if league_selectors.stored_result(match_day) != result.columns:
        match_day.confirmations.all().delete()
        for field, value in result.columns.items():
            setattr(match_day, field, value)
    MatchDayConfirmation.objects.get_or_create(
        match_day=match_day, side=side, defaults={"user": user}
    )
    sides = set(match_day.confirmations.values_list("side", flat=True))
    confirmed = MatchDayConfirmation.Side.VENUE in sides or {"home", "away"} <= sides
    match_day.status = MatchDay.Status.CONFIRMED if confirmed else MatchDay.Status.OPEN
    match_day.save(update_fields=["status", *result.columns])
    return match_day


def _lock_confirmed(match_day: MatchDay, unconfirmed: Any) -> MatchDay:
    """The match day, locked; refused unless its result is confirmed and not yet final."""
    match_day = _lock(match_day)
    if match_day.status == MatchDay.Status.FINAL:
        raise Conflict("match_day_final", FINAL)
    if match_day.status != MatchDay.Status.CONFIRMED:
        raise Conflict("match_day_unconfirmed", unconfirmed)
    return match_day


@transaction.atomic
def accept_match_day(*, match_day: MatchDay, user: Any) -> MatchDay:
    """A league organiser makes the confirmed result final; the match day's round is
    closed (its device codes end). Refused if the tables no longer show the confirmed
    numbers (a deal was corrected since): the captains confirm again."""
    league_selectors.ensure_season_open(match_day.division.league_id)
    match_day = _lock_confirmed(
        match_day, _("Both captains or the venue's organiser must confirm the result first.")
    )
    if league_selectors.day_result(match_day).columns != league_selectors.stored_result(match_day):
        raise Conflict(
            "result_changed",
            _("The tables show another result than the one confirmed: confirm it again."),
        )
    match_day.status = MatchDay.Status.FINAL
    match_day.sent_back_reason = ""
    match_day.sent_back_at = None
    match_day.accepted_at = timezone.now()
    match_day.accepted_by = user
    match_day.save(
        update_fields=["status", "accepted_at", "accepted_by", "sent_back_reason", "sent_back_at"]
    )
    for round_ in Round.objects.filter(tournament_id=match_day.tournament_id).open():
        services.close_round(round_=round_, force=True)
    return match_day


@transaction.atomic
def send_back_match_day(*, match_day: MatchDay, reason: str) -> MatchDay:
    """A league organiser refuses a confirmed result with a reason: the confirmations are
    dropped and the match day is open again, so the home club corrects its deals and the
    captains (or the venue) confirm anew. The reason stays on the match day until its
    result is accepted."""
    league_selectors.ensure_season_open(match_day.division.league_id)
    match_day = _lock_confirmed(match_day, _("Only a confirmed result can be sent back."))
    reason = reason.strip()
    if not reason:
        raise Refused("reason_missing", _("Say why the result is sent back."))
    match_day.confirmations.all().delete()
    match_day.status = MatchDay.Status.OPEN
    match_day.sent_back_reason = reason
    match_day.sent_back_at = timezone.now()
    match_day.save(update_fields=["status", "sent_back_reason", "sent_back_at"])
    return match_day
