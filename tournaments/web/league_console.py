"""The league of clubs in the organiser console: the leagues a user runs, plays in or
captains for; a league's page (divisions, teams, tables, the fixture list with what each
match day waits for); a team's page (name, captain, roster); a match day's page (date and
venue, opening its tables at the home venue, the sittings' table cards, confirming,
accepting or sending back the result).

Who may do what is checked here exactly as ``tournaments/leagues/api.py`` checks it (the
roles come from ``league_selectors``): a league's organisers change the league, its
divisions, the fixture list and match days and accept results or send them back; a
club's organisers enter and change their club's teams and, as the venue, open the tables
and confirm for both teams; a captain confirms for the team. A league the user cannot
see is a 404, an action the user's role does not allow a 403. Views are thin: a form,
one service call, a redirect; refusals of the services become messages
(``console.service_message``).
"""

from __future__ import annotations

from typing import Any

from django.contrib import messages
from django.core.exceptions import PermissionDenied
from django.db.models import QuerySet
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.utils.translation import gettext as _
from django.views.decorators.http import require_POST

from tournaments.clubs.models import Club
from tournaments.common.errors import ApplicationError
from tournaments.events.models import Round
from tournaments.leagues import season as league_season
from tournaments.leagues import selectors as league_selectors
from tournaments.leagues import services as leagues
from tournaments.leagues.models import Division, League, LeagueTeam, MatchDay, MatchDayPostponement

from .console import organiser_required, service_message
from .league_forms import (
    DivisionForm,
    FixturesForm,
    ForfeitForm,
    LeagueForm,
    LeagueSettingsForm,
    MatchDayForm,
    NextSeasonForm,
    OpenTablesForm,
    PostponementForm,
    RemakeFixturesForm,
    SendBackForm,
    TeamForm,
)

Form = Any


def _my_clubs(user: Any) -> QuerySet[Club]:
    return Club.objects.all() if user.is_superuser else Club.objects.filter(organisers=user)


def _league(request: HttpRequest, pk: int) -> League:
    return get_object_or_404(league_selectors.visible_leagues(request.user), pk=pk)


def _require(allowed: bool) -> None:
    if not allowed:
        raise PermissionDenied


def _attempt(request: HttpRequest, call: Any, success: str) -> Any:
    """One service call; its refusal becomes an error message and None."""
    try:
        result = call()
    except ApplicationError as exc:
        messages.error(request, service_message(exc))
        return None
    messages.success(request, success)
    return result


# --- the leagues ------------------------------------------------------------------------


@organiser_required
def league_list(request: HttpRequest) -> HttpResponse:
    may_create = league_selectors.organises_any_club(request.user)
    form = LeagueForm(request.POST or None)
    if request.method == "POST":
        _require(may_create)
        if form.is_valid():
            league = _attempt(
                request,
                lambda: leagues.create_league(organiser=request.user, **form.service_arguments()),
                _("The league is created. Add its divisions."),
            )
            if league is not None:
                return redirect("console-league", pk=league.pk)
    mine = league_selectors.leagues_involving(request.user).order_by("-created")
    others = (
        league_selectors.visible_leagues(request.user).exclude(pk__in=mine).order_by("-created")
    )
    context = {"leagues": mine, "other_leagues": others, "form": form, "may_create": may_create}
    return render(request, "console/leagues.html", context)


# --- a league's page ----------------------------------------------------------------------


def waiting_for(day: MatchDay, live: league_selectors.DayResult | None) -> str:
    """What the match day waits for, and whose turn it is, in words."""
    home_club = day.home.club.name
    if day.forfeited_by_id is not None:
        return _("Nothing: forfeited by %(team)s") % {"team": day.forfeited_by.name}
    if day.status == MatchDay.Status.NOT_PLAYED:
        return _("Nothing: not played, no points")
    if day.status == MatchDay.Status.SCHEDULED:
        return _("%(club)s opens the tables") % {"club": home_club}
    if day.status == MatchDay.Status.CONFIRMED:
        return _("The league's organiser accepts the result")
    if day.status == MatchDay.Status.FINAL:
        return _("Nothing: the result is final")
    if live is None or not live.complete:
        return _("The tables at %(club)s are playing") % {"club": home_club}
    sides = set(league_selectors.confirmed_sides(day))
    missing = [team for side, team in (("home", day.home), ("away", day.away)) if side not in sides]
    if not missing:
        return _("The league's organiser accepts the result")
    if len(missing) == 2:
        return _("Confirmation by both captains, or by %(club)s") % {"club": home_club}
    return _("Confirmation by the captain of %(team)s, or by %(club)s") % {
        "team": missing[0].name,
        "club": home_club,
    }


def day_row(day: MatchDay) -> dict[str, Any]:
    live = league_selectors.day_result(day) if day.status == MatchDay.Status.OPEN else None
    result = league_selectors.stored_result(day)
    if live is not None and live.partien:
        result = live.columns
    return {
        "day": day,
        "result": result,
        "final": day.status == MatchDay.Status.FINAL,
        "waiting_for": waiting_for(day, live),
    }


def _division_context(
    request: HttpRequest, division: Division, forms: dict[str, Form], organiser: bool
) -> dict[str, Any]:
    days = list(league_selectors.match_days(division))
    teams = division.teams.select_related("club", "captain").prefetch_related("roster")
    fixtures_form = forms.get(f"fixtures-{division.pk}") or FixturesForm(
        prefix=f"fixtures-{division.pk}"
    )
    remake_form = forms.get(f"remake-{division.pk}") or RemakeFixturesForm(
        prefix=f"remake-{division.pk}"
    )
    played = [d for d in days if d.status != MatchDay.Status.SCHEDULED]
    rows = []
    for team in teams.order_by("name"):
        editable = league_selectors.organises_club_id(request.user, team.club_id)
        rows.append(
            {
                "team": team,
                "editable": editable,
                "removable": not days and (editable or organiser),
                "withdrawable": bool(days) and organiser and team.withdrawn_at is None,
            }
        )
    return {
        "division": division,
        "table": league_selectors.division_table(division),
        "teams": rows,
        "days": [day_row(d) for d in days],
        "fixtures_form": fixtures_form if organiser and not days else None,
        "remake_form": remake_form if organiser and days and not played else None,
        "played": played[0] if organiser and played else None,
    }


def render_league(
    request: HttpRequest, league: League, forms: dict[str, Form] | None = None, status: int = 200
) -> HttpResponse:
    """The league's console page; ``forms`` holds a form sent back with its errors."""
    forms = forms or {}
    organiser = league_selectors.organises_league(request.user, league.pk)
    divisions = list(league.divisions.all())
    open_divisions = league.divisions.filter(match_days__isnull=True)
    team_forms = [
        {
            "club": club,
            "form": forms.get(f"team-{club.pk}")
            or TeamForm(club=club, divisions=open_divisions, prefix=f"team-{club.pk}"),
        }
        for club in _my_clubs(request.user).order_by("name")
    ]
    context = {
        "league": league,
        "organiser": organiser,
        "organisers": league.organisers.order_by("username"),
        "divisions": [_division_context(request, d, forms, organiser) for d in divisions],
        "division_form": forms.get("division") or DivisionForm(prefix="division"),
        "settings_form": forms.get("settings") or _settings_form(league),
        "team_forms": team_forms if open_divisions.exists() else [],
        "next_season_form": forms.get("next-season") or NextSeasonForm(prefix="next"),
        "next_season": getattr(league, "next_season", None),
    }
    return render(request, "console/league.html", context, status=status)


def _settings_form(league: League) -> LeagueSettingsForm:
    fields = ("name", "season", "rules_preset", "liga_target", "is_public", "last_day")
    return LeagueSettingsForm(prefix="settings", initial={f: getattr(league, f) for f in fields})


@organiser_required
def league_console(request: HttpRequest, pk: int) -> HttpResponse:
    return render_league(request, _league(request, pk))


@organiser_required
@require_POST
def league_command(request: HttpRequest, pk: int, command: str) -> HttpResponse:
    league = _league(request, pk)
    if command == "division":
        return _add_division(request, league)
    if command == "settings":
        return _change_settings(request, league)
    if command == "team":
        return _enter_team(request, league)
    if command == "fixtures":
        return _make_fixtures(request, league)
    if command == "remake-fixtures":
        return _remake_fixtures(request, league)
    if command == "remove-fixtures":
        return _remove_fixtures(request, league)
    if command == "withdraw":
        return _withdraw_team(request, league)
    if command == "settle":
        return _settle(request, league)
    if command == "next-season":
        return _next_season(request, league)
    raise Http404("Unknown command.")


def _withdraw_team(request: HttpRequest, league: League) -> HttpResponse:
    _require(league_selectors.organises_league(request.user, league.pk))
    team_id = request.POST.get("team", "")
    team = get_object_or_404(
        LeagueTeam, division__league=league, pk=int(team_id) if team_id.isdigit() else 0
    )
    if not request.POST.get("confirm"):
        messages.error(request, _("Tick the box to withdraw the team."))
        return redirect("console-league", pk=league.pk)
    _attempt(
        request,
        lambda: league_season.withdraw_team(team=team, user=request.user),
        _("%(team)s is withdrawn: it is last of its division and relegated.") % {"team": team.name},
    )
    return redirect("console-league", pk=league.pk)


def _settle(request: HttpRequest, league: League) -> HttpResponse:
    _require(league_selectors.organises_league(request.user, league.pk))
    _attempt(
        request,
        lambda: league_season.settle_season(league=league, user=request.user),
        _("The match days not played are settled."),
    )
    return redirect("console-league", pk=league.pk)


def _next_season(request: HttpRequest, league: League) -> HttpResponse:
    _require(league_selectors.organises_league(request.user, league.pk))
    form = NextSeasonForm(request.POST, prefix="next")
    if not form.is_valid():
        return render_league(request, league, {"next-season": form}, status=400)
    new = _attempt(
        request,
        lambda: league_season.next_season(league=league, user=request.user, **form.cleaned_data),
        _("The next season is created: the clubs confirm their teams' rosters."),
    )
    return redirect("console-league", pk=new.pk if new is not None else league.pk)


def _add_division(request: HttpRequest, league: League) -> HttpResponse:
    _require(league_selectors.organises_league(request.user, league.pk))
    form = DivisionForm(request.POST, prefix="division")
    if not form.is_valid():
        return render_league(request, league, {"division": form}, status=400)
    _attempt(
        request,
        lambda: leagues.create_division(league=league, **form.cleaned_data),
        _("The division is added."),
    )
    return redirect("console-league", pk=league.pk)


def _change_settings(request: HttpRequest, league: League) -> HttpResponse:
    _require(league_selectors.organises_league(request.user, league.pk))
    form = LeagueSettingsForm(request.POST, prefix="settings")
    if not form.is_valid():
        return render_league(request, league, {"settings": form}, status=400)
    changes = form.changes(league)
    _attempt(
        request,
        lambda: leagues.update_league(league=league, changes=changes),
        _("The league is saved."),
    )
    return redirect("console-league", pk=league.pk)


def _enter_team(request: HttpRequest, league: League) -> HttpResponse:
    club_id = request.POST.get("club", "")
    club = Club.objects.filter(pk=int(club_id)).first() if club_id.isdigit() else None
    if club is None or not league_selectors.organises_club_id(request.user, club.pk):
        raise PermissionDenied
    prefix = f"team-{club.pk}"
    divisions = league.divisions.filter(match_days__isnull=True)
    form = TeamForm(request.POST, club=club, divisions=divisions, prefix=prefix)
    if not form.is_valid():
        return render_league(request, league, {prefix: form}, status=400)
    _attempt(
        request,
        lambda: leagues.enter_team(club_id=club.pk, **form.cleaned_data),
        _("The team is entered."),
    )
    return redirect("console-league", pk=league.pk)


def _posted_division(request: HttpRequest, league: League) -> Division:
    _require(league_selectors.organises_league(request.user, league.pk))
    division_id = request.POST.get("division", "")
    return get_object_or_404(league.divisions, pk=int(division_id) if division_id.isdigit() else 0)


def _remake_fixtures(request: HttpRequest, league: League) -> HttpResponse:
    division = _posted_division(request, league)
    prefix = f"remake-{division.pk}"
    form = RemakeFixturesForm(request.POST, prefix=prefix)
    if not form.is_valid():
        return render_league(request, league, {prefix: form}, status=400)
    _attempt(
        request,
        lambda: leagues.make_fixtures(division=division, **form.service_arguments()),
        _("The fixture list is made anew: set dates and venues where they differ."),
    )
    return redirect("console-league", pk=league.pk)


def _remove_fixtures(request: HttpRequest, league: League) -> HttpResponse:
    division = _posted_division(request, league)
    if not request.POST.get("confirm"):
        messages.error(request, _("Tick the box to withdraw the fixture list."))
        return redirect("console-league", pk=league.pk)
    _attempt(
        request,
        lambda: leagues.remove_fixtures(division=division),
        _("The fixture list is withdrawn: teams may be entered or removed again."),
    )
    return redirect("console-league", pk=league.pk)


def _make_fixtures(request: HttpRequest, league: League) -> HttpResponse:
    division = _posted_division(request, league)
    prefix = f"fixtures-{division.pk}"
    form = FixturesForm(request.POST, prefix=prefix)
    if not form.is_valid():
        return render_league(request, league, {prefix: form}, status=400)
    _attempt(
        request,
        lambda: leagues.make_fixtures(division=division, **form.cleaned_data),
        _("The fixture list is made: set dates and venues where they differ."),
    )
    return redirect("console-league", pk=league.pk)


# --- a team -------------------------------------------------------------------------------


@organiser_required
def team_console(request: HttpRequest, pk: int) -> HttpResponse:
    team = get_object_or_404(
        LeagueTeam.objects.filter(
            division__league__in=league_selectors.visible_leagues(request.user)
        ).select_related("club", "division__league", "captain"),
        pk=pk,
    )
    _require(league_selectors.organises_club_id(request.user, team.club_id))
    form = TeamForm(request.POST or None, club=team.club, team=team)
    if request.method == "POST" and form.is_valid():
        changes = dict(form.cleaned_data)
        saved = _attempt(
            request,
            lambda: leagues.update_team(team=team, changes=changes),
            _("The team is saved."),
        )
        if saved is not None:
            return redirect("console-league", pk=team.division.league_id)
    status = 400 if form.is_bound else 200
    context = {"team": team, "league": team.division.league, "form": form}
    return render(request, "console/league_team.html", context, status=status)


@organiser_required
@require_POST
def team_remove(request: HttpRequest, pk: int) -> HttpResponse:
    """Take back a team entered by mistake (its club's or the league's organisers), while
    its division has no fixture list; the box must be ticked."""
    team = get_object_or_404(
        LeagueTeam.objects.filter(
            division__league__in=league_selectors.visible_leagues(request.user)
        ).select_related("division"),
        pk=pk,
    )
    league_id = team.division.league_id
    _require(
        league_selectors.organises_club_id(request.user, team.club_id)
        or league_selectors.organises_league(request.user, league_id)
    )
    if not request.POST.get("confirm"):
        messages.error(request, _("Tick the box to remove the team."))
        return redirect("console-league", pk=league_id)
    name = team.name
    _attempt(
        request,
        lambda: leagues.remove_team(team=team),
        _("The team %(name)s is removed.") % {"name": name},
    )
    return redirect("console-league", pk=league_id)


# --- a match day --------------------------------------------------------------------------


def _match_day(request: HttpRequest, pk: int) -> MatchDay:
    return get_object_or_404(
        MatchDay.objects.filter(
            division__league__in=league_selectors.visible_leagues(request.user)
        ).select_related(
            "division__league", "home__club", "away__club", "tournament", "forfeited_by"
        ),
        pk=pk,
    )


def _roles(request: HttpRequest, day: MatchDay) -> dict[str, bool]:
    user = request.user
    return {
        "league_organiser": league_selectors.organises_league(user, day.division.league_id),
        "venue": league_selectors.organises_club_id(user, day.home.club_id),
        "home_captain": league_selectors.captains(user, day.home),
        "away_captain": league_selectors.captains(user, day.away),
    }


def _sittings(day: MatchDay) -> list[Round]:
    if day.tournament_id is None:
        return []
    return list(Round.objects.filter(tournament_id=day.tournament_id).order_by("number"))


def render_match_day(
    request: HttpRequest, day: MatchDay, forms: dict[str, Form] | None = None, status: int = 200
) -> HttpResponse:
    forms = forms or {}
    roles = _roles(request, day)
    live = league_selectors.day_result(day)
    sides = league_selectors.confirmed_sides(day)
    scheduled = day.status == MatchDay.Status.SCHEDULED
    edit_form = forms.get("update") or MatchDayForm(
        initial={"starts_at": day.starts_at, "venue": day.venue}
    )
    open_form = forms.get("open") or OpenTablesForm(home=day.home, away=day.away)
    forfeit_form = forms.get("forfeit") or ForfeitForm(home=day.home, away=day.away)
    sides_for = [
        team for team in (day.home, day.away) if league_selectors.acts_for_team(request.user, team)
    ]
    postponements = list(day.postponements.select_related("asked_by").order_by("-created"))
    pending = next((p for p in postponements if p.status in league_season.PENDING), None)
    context = {
        "day": day,
        "league": day.division.league,
        "roles": roles,
        "live": live,
        "row": day_row(day),
        "confirmed_sides": sides,
        "sittings": _sittings(day),
        "edit_form": edit_form
        if roles["league_organiser"] and day.status not in ("final", "not_played")
        else None,
        "open_form": open_form if roles["venue"] and scheduled else None,
        "may_confirm": day.status == MatchDay.Status.OPEN and live.complete,
        "may_read_deals": _may_read_deals(roles) and bool(live.partien),
        "may_second_sitting": roles["venue"] and _second_sitting_due(day, live),
        "send_back_form": forms.get("send-back") or SendBackForm(),
        "forfeit_form": forfeit_form
        if roles["league_organiser"] and day.status in ("scheduled", "open")
        else None,
        "postponements": postponements,
        "pending": pending,
        "may_answer": pending is not None
        and pending.status == MatchDayPostponement.Status.ASKED
        and league_selectors.acts_for_team(request.user, league_season.other_team(pending)),
        "postpone_form": (forms.get("postpone") or PostponementForm())
        if sides_for and scheduled and pending is None
        else None,
        "postpone_teams": sides_for,
    }
    return render(request, "console/league_match_day.html", context, status=status)


def _may_read_deals(roles: dict[str, bool]) -> bool:
    return any(roles.values())  # the league's organisers, the venue, either captain


@organiser_required
def match_day_deals(request: HttpRequest, pk: int) -> HttpResponse:
    """The deals of a match day's four Partien, for the captains who confirm its result,
    the home club and the league's organisers (the same readers as the deal API)."""
    day = _match_day(request, pk)
    _require(_may_read_deals(_roles(request, day)))
    live = league_selectors.day_result(day)
    deals = league_selectors.partie_deals([p.match for p in live.partien])
    partien = [{"partie": p, "deals": deals.get(p.match, [])} for p in live.partien]
    context = {"day": day, "league": day.division.league, "live": live, "partien": partien}
    return render(request, "console/league_match_day_deals.html", context)


def _second_sitting_due(day: MatchDay, live: league_selectors.DayResult) -> bool:
    return (
        day.status == MatchDay.Status.OPEN
        and max((p.sitting for p in live.partien), default=0) == 1
    )


@organiser_required
def match_day_console(request: HttpRequest, pk: int) -> HttpResponse:
    return render_match_day(request, _match_day(request, pk))


@organiser_required
@require_POST
def match_day_command(request: HttpRequest, pk: int, command: str) -> HttpResponse:
    day = _match_day(request, pk)
    roles = _roles(request, day)
    handlers = {
        "update": (roles["league_organiser"], _update_day),
        "open": (roles["venue"], _open_tables),
        "second-sitting": (roles["venue"], _second_sitting),
        "confirm": (True, _confirm),  # the side decides: checked in _confirm
        "accept": (roles["league_organiser"], _accept),
        "send-back": (roles["league_organiser"], _send_back),
        "forfeit": (roles["league_organiser"], _forfeit),
        "postpone": (True, _postpone),  # the team decides: checked in _postpone
        "answer": (True, _answer),  # the other team: checked in _answer
        "decide": (roles["league_organiser"], _decide),
    }
    if command not in handlers:
        raise Http404("Unknown command.")
    allowed, handler = handlers[command]
    _require(allowed)
    return handler(request, day, roles)


def _update_day(request: HttpRequest, day: MatchDay, roles: dict[str, bool]) -> HttpResponse:
    form = MatchDayForm(request.POST)
    if not form.is_valid():
        return render_match_day(request, day, {"update": form}, status=400)
    _attempt(
        request,
        lambda: leagues.update_match_day(match_day=day, changes=form.cleaned_data),
        _("The match day is saved."),
    )
    return redirect("console-league-day", pk=day.pk)


def _open_tables(request: HttpRequest, day: MatchDay, roles: dict[str, bool]) -> HttpResponse:
    form = OpenTablesForm(request.POST, home=day.home, away=day.away)
    if not form.is_valid():
        return render_match_day(request, day, {"open": form}, status=400)
    _attempt(
        request,
        lambda: leagues.open_match_day(
            match_day=day, home_pairs=form.pairs("home"), away_pairs=form.pairs("away")
        ),
        _("The tables are open. Print the table cards for the tablets."),
    )
    return redirect("console-league-day", pk=day.pk)


def _second_sitting(request: HttpRequest, day: MatchDay, roles: dict[str, bool]) -> HttpResponse:
    _attempt(
        request,
        lambda: leagues.start_second_sitting(match_day=day),
        _("The second sitting is seated. Print its table cards."),
    )
    return redirect("console-league-day", pk=day.pk)


def _confirm(request: HttpRequest, day: MatchDay, roles: dict[str, bool]) -> HttpResponse:
    side = request.POST.get("side", "")
    allowed = {
        "home": roles["home_captain"],
        "away": roles["away_captain"],
        "venue": roles["venue"],
    }
    if side not in allowed:
        messages.error(request, _("Choose whom you confirm for."))
        return redirect("console-league-day", pk=day.pk)
    _require(allowed[side])
    _attempt(
        request,
        lambda: leagues.confirm_match_day(match_day=day, side=side, user=request.user),
        _("Your confirmation is recorded."),
    )
    return redirect("console-league-day", pk=day.pk)


def _accept(request: HttpRequest, day: MatchDay, roles: dict[str, bool]) -> HttpResponse:
    _attempt(
        request,
        lambda: leagues.accept_match_day(match_day=day, user=request.user),
        _("The result is final and counts in the table."),
    )
    return redirect("console-league-day", pk=day.pk)


def _send_back(request: HttpRequest, day: MatchDay, roles: dict[str, bool]) -> HttpResponse:
    form = SendBackForm(request.POST)
    if not form.is_valid():
        return render_match_day(request, day, {"send-back": form}, status=400)
    _attempt(
        request,
        lambda: leagues.send_back_match_day(match_day=day, reason=form.cleaned_data["reason"]),
        _("The result is sent back: the captains confirm again."),
    )
    return redirect("console-league-day", pk=day.pk)


def _forfeit(request: HttpRequest, day: MatchDay, roles: dict[str, bool]) -> HttpResponse:
    form = ForfeitForm(request.POST, home=day.home, away=day.away)
    if not form.is_valid():
        return render_match_day(request, day, {"forfeit": form}, status=400)
    _attempt(
        request,
        lambda: league_season.record_forfeit(
            match_day=day,
            team=form.chosen_team(),
            reason=form.cleaned_data["reason"],
            user=request.user,
        ),
        _("The forfeit is recorded: each Partie counts for the other team."),
    )
    return redirect("console-league-day", pk=day.pk)


def _postpone(request: HttpRequest, day: MatchDay, roles: dict[str, bool]) -> HttpResponse:
    team_id = request.POST.get("team", "")
    team = {str(day.home_id): day.home, str(day.away_id): day.away}.get(team_id)
    _require(team is not None and league_selectors.acts_for_team(request.user, team))
    assert team is not None
    form = PostponementForm(request.POST)
    if not form.is_valid():
        return render_match_day(request, day, {"postpone": form}, status=400)
    _attempt(
        request,
        lambda: league_season.ask_postponement(match_day=day, team=team, **form.cleaned_data),
        _("The postponement is asked: the other team answers, then the league decides."),
    )
    return redirect("console-league-day", pk=day.pk)


def _postponement(request: HttpRequest, day: MatchDay) -> MatchDayPostponement:
    pk = request.POST.get("postponement", "")
    return get_object_or_404(day.postponements, pk=int(pk) if pk.isdigit() else 0)


def _answer(request: HttpRequest, day: MatchDay, roles: dict[str, bool]) -> HttpResponse:
    postponement = _postponement(request, day)
    _require(league_selectors.acts_for_team(request.user, league_season.other_team(postponement)))
    consent = request.POST.get("consent") == "yes"
    _attempt(
        request,
        lambda: league_season.answer_postponement(postponement=postponement, consent=consent),
        _("Your consent is recorded.") if consent else _("Your refusal is recorded."),
    )
    return redirect("console-league-day", pk=day.pk)


def _decide(request: HttpRequest, day: MatchDay, roles: dict[str, bool]) -> HttpResponse:
    postponement = _postponement(request, day)
    grant = request.POST.get("grant") == "yes"
    _attempt(
        request,
        lambda: league_season.decide_postponement(postponement=postponement, grant=grant),
        _("The match day is moved.") if grant else _("The postponement is declined."),
    )
    return redirect("console-league-day", pk=day.pk)
