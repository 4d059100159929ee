"""The console page of a fixed-pairs tournament: its pairs (formed by hand, drawn at
random or by cards, renamed, dissolved), how rounds are paired (random, Swiss, round
robin with or without return matches), the season it counts for, and the finals.
Thin views: one service call each; refusals become messages."""

from __future__ import annotations

from typing import Any

from django.contrib import messages
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.utils.translation import gettext as _
from django.views.decorators.http import require_POST

from tournaments.clubs.models import Player
from tournaments.events import services
from tournaments.events.models import Round, Team, Tournament
from tournaments.formats import PAIRS_AND_FINALS, format_profile
from tournaments.pairs import finals
from tournaments.pairs import services as pairs

from .console import _attempt, _tournament, organiser_required

SCHEMES = {
    "random": {"swiss": False, "round_robin": False, "home_and_away": False},
    "swiss": {"swiss": True, "round_robin": False, "home_and_away": False},
    "round_robin": {"swiss": False, "round_robin": True, "home_and_away": False},
    "home_and_away": {"swiss": False, "round_robin": True, "home_and_away": True},
}


def scheme_of(tournament: Tournament) -> str:
    if tournament.round_robin:
        return "home_and_away" if tournament.home_and_away else "round_robin"
    return "swiss" if tournament.swiss else "random"


def _context(tournament: Tournament) -> dict[str, Any]:
    teams = pairs.pairs_of(tournament)
    paired = {p.pk for t in teams for p in t.pair_players}
    unpaired = [
        r.player
        for r in tournament.registrations.active().select_related("player").order_by("player__name")
        if r.player_id not in paired
    ]
    stages = set(tournament.rounds.values_list("stage", flat=True))
    return {
        "tournament": tournament,
        "pairs": teams,
        "unpaired": unpaired,
        "scheme": scheme_of(tournament),
        "seasons": tournament.club.seasons.all(),
        "finals_started": bool(stages - {Round.Stage.PRELIMINARY}),
        "finals_played": finals.finals_played(tournament),
        "open_round": tournament.rounds.open().first(),
        "bracket": finals.bracket(tournament, include_drafts=True),
    }


@organiser_required
def pairs_console(request: HttpRequest, pk: int) -> HttpResponse:
    tournament = _tournament(request, pk)
    if not format_profile(tournament).allows(PAIRS_AND_FINALS):
        raise Http404("Not a tournament of fixed pairs.")
    return render(request, "console/pairs.html", _context(tournament))


def _pair(request: HttpRequest, pk: int) -> Team:
    return get_object_or_404(
        Team.objects.filter(tournament__in=Tournament.objects.organised_by(request.user)), pk=pk
    )


@organiser_required
@require_POST
def pairs_command(request: HttpRequest, pk: int, command: str) -> HttpResponse:
    tournament = _tournament(request, pk)
    post = request.POST
    if command == "form":
        ids = [post.get("player_a", ""), post.get("player_b", "")]
        found = Player.objects.in_bulk([int(i) for i in ids if i.isdigit()])
        chosen = [found[int(i)] for i in ids if i.isdigit() and int(i) in found]
        if _attempt(
            request,
            lambda: pairs.create_pair(
                tournament=tournament, players=chosen, name=post.get("name", "")
            ),
        ):
            messages.success(request, _("The pair is formed."))
    elif command == "draw":
        method = "cards" if post.get("method") == "cards" else "random"
        drawn = _attempt(request, lambda: pairs.draw_pairs(tournament=tournament, method=method))
        if drawn:
            messages.success(request, _("%(count)s pairs were drawn.") % {"count": len(drawn[0])})
    elif command == "scheme":
        changes = {
            **SCHEMES.get(post.get("scheme", ""), SCHEMES["random"]),
            "seed_by_rating": "seed_by_rating" in post,
            "finals_seeding": "rating" if post.get("finals_seeding") == "rating" else "standings",
        }
        if _attempt(
            request, lambda: services.update_tournament(tournament=tournament, changes=changes)
        ):
            messages.success(request, _("The pairing of rounds is saved."))
    elif command == "season":
        season = tournament.club.seasons.filter(pk=post.get("season") or 0).first()
        _attempt(request, lambda: services.assign_season(tournament=tournament, season=season))
    elif command in ("finals", "finals-next"):
        return _finals(request, tournament, command)
    else:
        raise Http404("Unknown command.")
    return redirect("console-pairs", pk=tournament.pk)


def _finals(request: HttpRequest, tournament: Tournament, command: str) -> HttpResponse:
    if command == "finals":
        size = 8 if request.POST.get("size") == "8" else 4
        round_ = _attempt(request, lambda: finals.start_finals(tournament=tournament, size=size))
    else:
        round_ = _attempt(request, lambda: finals.advance_finals(tournament=tournament))
    if round_ is not None:
        return redirect("console-round", pk=round_.pk)
    return redirect("console-pairs", pk=tournament.pk)


@organiser_required
@require_POST
def pair_command(request: HttpRequest, pk: int, command: str) -> HttpResponse:
    team = _pair(request, pk)
    tournament_id = team.tournament_id
    if command == "rename":
        _attempt(request, lambda: pairs.rename_pair(team=team, name=request.POST.get("name", "")))
    elif command == "dissolve":
        if _attempt(request, lambda: pairs.dissolve_pair(team=team) or True):
            messages.success(request, _("The pair is dissolved."))
    else:
        raise Http404("Unknown command.")
    return redirect("console-pairs", pk=tournament_id)
