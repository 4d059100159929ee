"""Public pages: clubs and tournaments, seating, live standings, club tables, players and
the projector view. Private tournaments are visible to their club's organisers only."""

from __future__ import annotations

import zlib
from typing import Any

from django.core.cache import cache
from django.db.models import Prefetch, Q, QuerySet
from django.http import (
    Http404,
    HttpRequest,
    HttpResponse,
    HttpResponsePermanentRedirect,
)
from django.shortcuts import get_object_or_404, render
from django.template.loader import render_to_string
from django.templatetags.static import static
from django.utils.cache import patch_cache_control, patch_vary_headers
from django.utils.safestring import mark_safe
from django.utils.translation import get_language
from django.utils.translation import gettext as _
from django.views.decorators.http import condition

from tournaments import formats
from tournaments.clubs.models import Club, Player, Season
from tournaments.clubs.permissions import organises_club
from tournaments.common.engine_messages import suit_context
from tournaments.deals import par_selectors
from tournaments.events import selectors as tournament_selectors
from tournaments.events.models import Round, Seat, Table, Tournament
from tournaments.events.permissions import visible_tournaments
from tournaments.pairs import finals
from tournaments.results import seasons, snapshots

from . import ratings, selectors


def _tournament(request: HttpRequest, pk: int) -> Tournament:
    return get_object_or_404(
        visible_tournaments(request.user).select_related("club", "season"), pk=pk
    )


def _visible_rounds(request: HttpRequest, tournament: Tournament) -> QuerySet[Round]:
    rounds = tournament.rounds.order_by("number")
    if organises_club(request.user, tournament.club_id):
        return rounds
    return rounds.filter(status__in=selectors.COUNTED)


def seating_tables(round_: Round) -> QuerySet[Table]:
    seats = Seat.objects.select_related("player").order_by("position")
    return round_.tables.prefetch_related(Prefetch("seats", queryset=seats)).select_related(
        "match", "match__home_team", "match__away_team"
    )


def favicon(request: HttpRequest) -> HttpResponsePermanentRedirect:
    """``/favicon.ico``, which browsers ask for on their own: the SVG icon in static."""
    return HttpResponsePermanentRedirect(static("tournaments/favicon.svg"))


def home(request: HttpRequest) -> HttpResponse:
    tournaments = visible_tournaments(request.user).select_related("club").order_by("-created")
    return render(
        request,
        "public/home.html",
        {
            "clubs": Club.objects.all(),
            "running": [t for t in tournaments if t.status == Tournament.Status.RUNNING],
            "others": [t for t in tournaments if t.status != Tournament.Status.RUNNING][:30],
        },
    )


def tournament_detail(request: HttpRequest, pk: int) -> HttpResponse:
    tournament = _tournament(request, pk)
    rounds = _visible_rounds(request, tournament)
    return render(
        request,
        "public/tournament.html",
        {
            "tournament": tournament,
            "rounds": rounds,
            "players": tournament.registrations.active().select_related("player"),
            "rules_label": tournament.format_profile.game_label(
                tournament_selectors.tournament_profile(tournament)
            ),
            "standings_words": tournament.format_profile.standings_words,
            "match_description": tournament_selectors.tournament_profile(
                tournament
            ).match_description(
                mode=tournament.match_mode,
                target=tournament.liga_target,
                deals=tournament.deals_per_match,
            ),
            "is_organiser": organises_club(request.user, tournament.club_id),
            "bracket": finals.bracket(tournament),
            "highlights": par_selectors.evening_highlights(tournament),
            **suit_context(tournament_selectors.tournament_suits(tournament)),
        },
    )


def round_seating(request: HttpRequest, pk: int, number: int) -> HttpResponse:
    tournament = _tournament(request, pk)
    round_ = get_object_or_404(_visible_rounds(request, tournament), number=number)
    return render(
        request,
        "public/seating.html",
        {
            "tournament": tournament,
            "round": round_,
            "tables": seating_tables(round_),
            "byes": round_.byes.select_related("player"),
            "rounds": _visible_rounds(request, tournament),
        },
    )


def _standings_context(tournament: Tournament) -> dict[str, Any]:
    return {"tournament": tournament, "standings": selectors.standings_view(tournament)}


def _standings_tournament(request: HttpRequest, pk: int) -> Tournament:
    tournaments = visible_tournaments(request.user).select_related("club", "season")
    return get_object_or_404(tournament_selectors.with_standings_versions(tournaments), pk=pk)


#: How long a rendered table or page is kept (a new snapshot names new ones).
STORED_SECONDS = 3600
STANDINGS_MAX_AGE = 5  # seconds an anonymous reader's browser or proxy may reuse them


def _stored_state(request: HttpRequest, pk: int) -> snapshots.StoredStandings:
    """The standings' state of a tournament the reader may see (404 otherwise), read once
    per request: the ETag and the answer both need it."""
    if not hasattr(request, "stored_standings"):
        state = snapshots.stored_standings(pk)
        if state is None or not (state.is_public or organises_club(request.user, state.club)):
            raise Http404
        request.stored_standings = state  # type: ignore[attr-defined]
    return request.stored_standings  # type: ignore[attr-defined,no-any-return]


def _table_tag(request: HttpRequest, pk: int) -> str:
    """Names the live table: the snapshot it shows (or, while none is stored, the
    results), the tournament's status (a finished tournament's table is not polled) and
    the language."""
    state = _stored_state(request, pk)
    shown = state.computed_version
    stored = f"v{shown}" if shown is not None else f"live{state.results_version}"
    return f"{state.tournament}-{stored}-{state.status}-{get_language()}"


def _standings_table_html(request: HttpRequest, pk: int) -> str:
    """The live table (``_standings_table.html``), the same for every reader who may see
    the tournament: rendered once per snapshot, status and language, shared by the page
    and the partial it polls, and kept in the cache (``_table_tag``)."""
    key = f"standings-table:{_table_tag(request, pk)}"
    html = cache.get(key)
    if html is None:
        tournament = _standings_tournament(request, pk)
        context = {
            "tournament": tournament,
            "standings": selectors.standings_view(tournament, live=False),
        }
        html = render_to_string("public/_standings_table.html", context, request)
        cache.set(key, html, STORED_SECONDS)
    return str(html)


def _same_for_everyone(request: HttpRequest) -> bool:
    """Whether the standings page is the same bytes for every reader: an anonymous one,
    without a query string or messages to show."""
    return (
        not request.GET and "messages" not in request.COOKIES and not request.user.is_authenticated
    )


def standings_page_etag(request: HttpRequest, pk: int) -> str | None:
    """The page's ETag, for the pages the same for everyone: the table's tag, the
    tournament's name and the rounds it links to."""
    if not _same_for_everyone(request):
        return None
    state = _stored_state(request, pk)
    name = zlib.crc32(state.name.encode())
    shown, last = state.rounds
    return f'"standings-page-{_table_tag(request, pk)}-{shown}-{last}-{name:x}"'


def _render_standings_page(request: HttpRequest, pk: int) -> HttpResponse:
    tournament = _standings_tournament(request, pk)
    rounds = list(_visible_rounds(request, tournament))
    return render(
        request,
        "public/standings.html",
        {
            "tournament": tournament,
            "rounds": rounds,
            # rendered by our template, once per snapshot and language
            "standings_table": mark_safe(_standings_table_html(request, pk)),  # noqa: S308
        },
    )


@condition(etag_func=standings_page_etag)
def standings(request: HttpRequest, pk: int) -> HttpResponse:
    """The page around the live table. For anonymous readers it is the same bytes for a
    snapshot, status and language: rendered once, then served as stored, and 304 to a
    matching ``If-None-Match``."""
    etag = standings_page_etag(request, pk)
    if etag is None:
        return _render_standings_page(request, pk)
    key = f"standings-page:{etag}"
    page = cache.get(key)
    if page is None:
        page = _render_standings_page(request, pk).content
        cache.set(key, page, STORED_SECONDS)
    response = HttpResponse(page)
    patch_cache_control(response, max_age=STANDINGS_MAX_AGE)
    return response


def standings_table_etag(request: HttpRequest, pk: int) -> str:
    return f'"standings-table-{_table_tag(request, pk)}"'


@condition(etag_func=standings_table_etag)
def standings_table(request: HttpRequest, pk: int) -> HttpResponse:
    """The live table the standings page polls, with an ETag (304 while unchanged)."""
    response = HttpResponse(_standings_table_html(request, pk))
    patch_vary_headers(response, ["Accept-Language", "Cookie"])
    if not request.user.is_authenticated:
        patch_cache_control(response, max_age=STANDINGS_MAX_AGE)
    return response


def projector(request: HttpRequest, pk: int) -> HttpResponse:
    tournament = _tournament(request, pk)
    round_ = tournament.rounds.filter(status__in=selectors.COUNTED).order_by("number").last()
    return render(
        request,
        "public/projector.html",
        {
            "tournament": tournament,
            "round": round_,
            "tables": seating_tables(round_) if round_ else [],
            **_standings_context(tournament),
            "bracket": finals.bracket(tournament),
        },
    )


def club_detail(request: HttpRequest, slug: str) -> HttpResponse:
    club = get_object_or_404(Club, slug=slug)
    club_seasons = list(club.seasons.all())
    return render(
        request,
        "public/club.html",
        {
            "club": club,
            "tables": selectors.club_view(club),
            "seasons": club_seasons,
            "par_leaders": par_selectors.club_par_leaders(club, seasons=club_seasons),
            "highlights": par_selectors.latest_evening_highlights(club),
            "tournaments": visible_tournaments(request.user).filter(club=club).order_by("-created"),
            "season_tables": [
                {"season": s, "table": seasons.season_table(s)} for s in _evening_seasons(club)
            ],
        },
    )


def _evening_seasons(club: Club) -> QuerySet[Season]:
    """Seasons of club evenings (individual or pairs, played or imported from the club's
    spreadsheet), not league seasons."""
    played = Q(tournaments__format__in=formats.evening_formats())
    return club.seasons.filter(played | Q(imported_evenings__isnull=False)).distinct()


def season_table(request: HttpRequest, slug: str, season_id: int) -> HttpResponse:
    """A season's page: the season table of its club evenings, and its league table
    where league matches belong to it (``selectors.season_view``)."""
    club = get_object_or_404(Club, slug=slug)
    season = get_object_or_404(Season, club=club, pk=season_id)
    return render(
        request,
        "public/league.html",
        {"club": club, "season": season, **selectors.season_view(season)},
    )


MAX_CHARTS = 4  # rank charts on a player's page, newest tournaments first


def results_heading(results: list[dict[str, Any]]) -> str | None:
    """The heading above the result cells of a player's rounds where their formats name
    one (duplicate: match points), "Result" where rounds of such a format stand among
    others (each row's cells then say what they are), None for the game's points."""
    headings = {r["tournament"].format_profile.player_heading for r in results}
    if headings == {""}:
        return None
    return str(headings.pop()) if len(headings) == 1 else _("Result")


def player_detail(request: HttpRequest, pk: int) -> HttpResponse:
    player = get_object_or_404(Player, pk=pk)
    results = selectors.player_results(player)
    if not results and not player.registrations.filter(tournament__is_public=True).exists():
        raise Http404("This player has not played in a public tournament.")
    charts = []
    seen = set()
    for row in results:
        tournament = row["tournament"]
        if len(charts) == MAX_CHARTS:
            break  # each chart recomputes a tournament's standings round by round
        if tournament.pk in seen or tournament.uses_teams:
            continue
        seen.add(tournament.pk)
        chart = selectors.rank_chart(selectors.rank_history(tournament, player.pk))
        if chart:
            charts.append({"tournament": tournament, "chart": chart})
    return render(
        request,
        "public/player.html",
        {
            "player": player,
            "results": results,
            "only_points_games": bool(results) and all(r.get("points_game") for r in results),
            "results_heading": results_heading(results),
            "charts": charts,
            "clubs": player.clubs.all(),
            "footer_club": player.clubs.first(),
            "rating_charts": ratings.player_rating_charts(request, player),
            "par": par_selectors.player_par(player),
        },
    )
