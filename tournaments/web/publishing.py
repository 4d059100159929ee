"""Publishing a club's tables where the club already is: an Atom feed of the club's news
(finished evenings and evenings imported from the club's spreadsheet, marked so, with
their winners in their public names; changes of the KlammernBoss title), embeds for
the club's own website and printable tables for the notice board."""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Callable
from dataclasses import dataclass
from datetime import datetime, time
from io import BytesIO
from typing import Any
from urllib.parse import urlencode

from django.conf import settings
from django.contrib.syndication.views import Feed
from django.core.cache import cache
from django.db.models import Max
from django.http import Http404, HttpRequest, HttpResponse
from django.http.request import split_domain_port
from django.shortcuts import get_object_or_404, render
from django.template.loader import render_to_string
from django.urls import reverse
from django.utils import timezone, translation
from django.utils.cache import patch_cache_control, patch_vary_headers
from django.utils.csp import CSP
from django.utils.feedgenerator import Atom1Feed
from django.utils.formats import number_format
from django.utils.html import escape
from django.utils.translation import get_language, gettext
from django.views.decorators.clickjacking import xframe_options_exempt
from fontpkg import pil as fontpkg_pil
from PIL import Image, ImageDraw, ImageFont

from tournaments.clubs.models import Club, Player, Season
from tournaments.events import selectors as tournament_selectors
from tournaments.events.models import Tournament
from tournaments.history.models import ImportedEvening, ImportedResult
from tournaments.leagues import selectors as league_selectors
from tournaments.leagues.models import Division
from tournaments.results import seasons, snapshots

from . import selectors

FEED_EVENINGS = 20  # the newest finished evenings in a club's feed


@dataclass(frozen=True)
class NewsItem:
    """One entry of a club's feed: an evening's result (``kind`` "result": ``names`` its
    winners) or a new KlammernBoss ("boss": ``names`` the new one, ``previous`` whom the
    title was taken from, "" for the first). ``summary`` says it in words; ``imported``
    marks an evening imported from the club's spreadsheet (and a title won there)."""

    key: str
    kind: str
    title: str
    link: str
    when: datetime
    evening: str
    names: tuple[str, ...] = ()
    previous: str = ""
    imported: bool = False
    #: A result's evening as the title's history names it (an imported one: its id negated).
    evening_id: int | None = None

    @property
    def summary(self) -> str:
        """The entry's summary, HTML built by a template, so that the names in it are
        escaped (a player named ``<img src=x>`` is text to a feed reader, not a tag)."""
        return render_to_string("publishing/feed_summary.html", {"item": self}).strip()


def _finished_at(evenings: list[Tournament]) -> dict[int, datetime]:
    """When each evening ended: its last round's closing, else its creation."""
    closed = dict(
        Tournament.objects.filter(pk__in=[t.pk for t in evenings])
        .annotate(last=Max("rounds__closed_at"))
        .values_list("pk", "last")
    )
    return {t.pk: closed.get(t.pk) or t.created for t in evenings}


def _winners(tournament: Tournament) -> list[str]:
    rows = selectors.standings_view(tournament)["rows"]
    return [row["name"] for row in rows if row.get("rank") == 1 and row.get("played")]


def _played_news(club: Club) -> list[NewsItem]:
    """The newest finished public evenings, each with its winners."""
    evenings = list(
        Tournament.objects.public()
        .filter(club=club, status=Tournament.Status.FINISHED, league_match_day__isnull=True)
        .order_by("-created", "-pk")[:FEED_EVENINGS]
    )
    when = _finished_at(evenings)
    return [
        NewsItem(
            key=f"result-{evening.pk}",
            kind="result",
            title=gettext("Result: %(evening)s") % {"evening": evening.name},
            link=reverse("standings", args=[evening.pk]),
            when=when[evening.pk],
            evening=evening.name,
            names=tuple(_winners(evening)),
            evening_id=evening.pk,
        )
        for evening in evenings
    ]


def _imported_news(club: Club) -> list[NewsItem]:
    """The newest evenings imported from the club's spreadsheet, each with its winners
    (the best games won and point difference, as its ranks say) in their public names,
    dated the day they were played and linked to their season (else the title's
    history)."""
    evenings = list(
        ImportedEvening.objects.filter(club=club)
        .select_related("club_season")
        .order_by("-date", "-pk")[:FEED_EVENINGS]
    )
    lines: defaultdict[int, list[tuple[tuple[int, int], int]]] = defaultdict(list)
    for evening, player, won, difference in ImportedResult.objects.filter(
        evening__in=evenings
    ).values_list("evening_id", "player_id", "won", "point_difference"):
        lines[evening].append(((won, difference), player))
    names = Player.objects.public_names({p for rows in lines.values() for _, p in rows})
    items = []
    for evening in evenings:
        best = max((figures for figures, _ in lines[evening.pk]), default=None)
        winners = [names.get(p, "") for figures, p in lines[evening.pk] if figures == best]
        name = snapshots.imported_evening_name(evening)
        season = evening.club_season
        link = (
            reverse("season", args=[club.slug, season.pk])
            if season
            else reverse("club", args=[club.slug]) + "#titles"
        )
        items.append(
            NewsItem(
                key=f"imported-{evening.pk}",
                kind="result",
                title=gettext("Result: %(evening)s (imported)") % {"evening": name},
                link=link,
                when=timezone.make_aware(datetime.combine(evening.date, time.min)),
                evening=name,
                names=tuple(winners),
                imported=True,
                evening_id=-evening.pk,
            )
        )
    return items


def club_news(club: Club) -> list[NewsItem]:
    """The club's news, newest first: each of the newest ``FEED_EVENINGS`` finished public
    evenings and imported evenings with its winners, and each change of the KlammernBoss
    title at one of them (RULES.md, "KlammernBoss")."""
    results = sorted(
        _played_news(club) + _imported_news(club), key=lambda i: (i.when, i.key), reverse=True
    )[:FEED_EVENINGS]
    by_evening = {item.evening_id: item for item in results}
    items = list(results)
    view = selectors.club_view(club)
    for title in view["titles"]:
        evening = by_evening.get(title.get("evening"))
        if not title["new"] or evening is None:
            continue
        items.append(
            NewsItem(
                # a played evening's title keeps the entry id it always had
                key=f"boss-{evening.key.removeprefix('result-')}-{title['boss']}",
                kind="boss",
                title=gettext("New KlammernBoss: %(name)s") % {"name": title["name"]},
                link=reverse("club", args=[club.slug]) + "#titles",
                when=evening.when,
                evening=title["tournament_name"],
                names=(title["name"],),
                previous=title.get("previous_name") or "",
                imported=evening.imported,
            )
        )
    return sorted(items, key=lambda item: (item.when, item.key), reverse=True)


@dataclass(frozen=True)
class FeedSource:
    """What the club's feed is made of: the club, the site's host (``tag_authority``,
    which makes the feed's and entries' ids this site's own: two sites running this
    software number their clubs and evenings alike) and the club page's address."""

    club: Club
    tag_authority: str
    club_url: str

    def tag(self, specific: str) -> str:
        """A tag URI (RFC 4151) of this site: ``tag:<host>,2026:<specific>``."""
        return f"tag:{self.tag_authority},2026:{specific}"


def tag_authority(request: HttpRequest) -> str:
    """The request's host without its port, as a tag URI's authority names it."""
    domain, _ = split_domain_port(request.get_host())
    return domain.strip("[]") or "localhost"


@dataclass(frozen=True)
class FeedEntry:
    """One news item with its id in the feed."""

    item: NewsItem
    guid: str


class ClubFeed(Feed):  # type: ignore[type-arg]  # generic in the stubs only
    """The club's news as Atom (RFC 4287): /clubs/<slug>/feed.atom. The club is the
    feed's author; the ids are tag URIs of the site's host."""

    feed_type = Atom1Feed

    def get_object(self, request: HttpRequest, *args: Any, **kwargs: Any) -> FeedSource:
        club = get_object_or_404(Club, slug=kwargs["slug"])
        return FeedSource(
            club=club,
            tag_authority=tag_authority(request),
            club_url=request.build_absolute_uri(reverse("club", args=[club.slug])),
        )

    def title(self, obj: FeedSource) -> str:
        return gettext("%(club)s: results and KlammernBoss") % {"club": obj.club.name}

    def subtitle(self, obj: FeedSource) -> str:
        return gettext("Finished evenings and changes of the KlammernBoss title at %(club)s.") % {
            "club": obj.club.name
        }

    def link(self, obj: FeedSource) -> str:
        return reverse("club", args=[obj.club.slug])

    def feed_url(self, obj: FeedSource) -> str:
        return reverse("club-feed", args=[obj.club.slug])

    def feed_guid(self, obj: FeedSource) -> str:
        return obj.tag(f"club-{obj.club.pk}")

    def author_name(self, obj: FeedSource) -> str:
        return obj.club.name

    def author_link(self, obj: FeedSource) -> str:
        return obj.club_url

    def items(self, obj: FeedSource) -> list[FeedEntry]:
        return [FeedEntry(item, obj.tag(item.key)) for item in club_news(obj.club)]

    def item_title(self, entry: FeedEntry) -> str:
        return entry.item.title

    def item_description(self, entry: FeedEntry) -> str:
        return entry.item.summary

    def item_link(self, entry: FeedEntry) -> str:
        return entry.item.link

    def item_guid(self, entry: FeedEntry) -> str:
        return entry.guid

    item_guid_is_permalink = False

    def item_pubdate(self, entry: FeedEntry) -> datetime:
        return entry.item.when

    def item_updateddate(self, entry: FeedEntry) -> datetime:
        return entry.item.when

    def item_categories(self, entry: FeedEntry) -> tuple[str, ...]:
        """An imported evening's entries carry the category ``imported``."""
        return ("imported",) if entry.item.imported else ()


# --- embeds for the club's own website ----------------------------------------------------

EMBED_THEMES = ("light", "dark")
EMBED_SNIPPET_TOURNAMENTS = 3  # the club's newest public tournaments get a code to copy


def embed_policy(origins: list[str]) -> str:
    """The site's Content-Security-Policy with the club's web sites as the only frame
    ancestors (none if the club named none). Embed pages carry no inline script, so the
    nonce is left out."""
    config = {**settings.SECURE_CSP, "frame-ancestors": list(origins) or [CSP.NONE]}
    return "; ".join(
        " ".join([directive, *(str(v) for v in values if v != CSP.NONCE)])
        for directive, values in config.items()
    )


def _embed_language(request: HttpRequest) -> str:
    """``?lang=`` if it names a site language, else the request's (Accept-Language)."""
    code = request.GET.get("lang", "")
    return code if code in dict(settings.LANGUAGES) else (get_language() or settings.LANGUAGE_CODE)


def embed_query(request: HttpRequest) -> str:
    """The embed's own options (theme, language) to repeat in its polling address."""
    return urlencode({key: request.GET[key] for key in ("theme", "lang") if key in request.GET})


def _embed(
    request: HttpRequest, club: Club, template: str, context: Callable[[], dict[str, Any]]
) -> HttpResponse:
    """Render an embed page: the table only, in the requested theme and language (its
    ``context`` is built in that language too: the tables' column names are words),
    framed only by the club's web sites, setting no cookie (its templates use no CSRF
    token)."""
    theme = request.GET.get("theme", "light")
    language = _embed_language(request)
    with translation.override(language):
        response = render(
            request,
            template,
            {
                **context(),
                "club": club,
                "theme": theme if theme in EMBED_THEMES else "light",
                "embed_query": embed_query(request),
            },
        )
    response.headers["Content-Security-Policy"] = embed_policy(club.embed_origins)
    response.headers["Content-Language"] = language
    patch_vary_headers(response, ["Accept-Language"])
    return response


@xframe_options_exempt
def embed_club(request: HttpRequest, slug: str) -> HttpResponse:
    """The club's KlammernBoss and all-time table, for an iframe on the club's site."""
    club = get_object_or_404(Club, slug=slug)
    return _embed(
        request, club, "publishing/embed_club.html", lambda: {"tables": selectors.club_view(club)}
    )


@xframe_options_exempt
def embed_standings(request: HttpRequest, pk: int) -> HttpResponse:
    """A public tournament's live standings, for an iframe on its club's site; polled by
    itself (htmx) while the tournament runs. The columns are named in the game's words
    (its profile's) in the embed's language."""
    tournament = get_object_or_404(Tournament.objects.public().select_related("club"), pk=pk)
    template = "publishing/embed_standings.html"
    if request.headers.get("HX-Request"):
        template = "publishing/_embed_standings_table.html"
    return _embed(
        request,
        tournament.club,
        template,
        lambda: {"tournament": tournament, "standings": selectors.standings_view(tournament)},
    )


@xframe_options_exempt
def embed_season(request: HttpRequest, slug: str, season_id: int) -> HttpResponse:
    """A season of club evenings: its table, for an iframe on the club's site."""
    club = get_object_or_404(Club, slug=slug)
    season = get_object_or_404(Season, club=club, pk=season_id)
    return _embed(
        request,
        club,
        "publishing/embed_season.html",
        lambda: {"season": season, "season_table": seasons.season_table(season)},
    )


def club_divisions(club: Club) -> list[Division]:
    """The divisions of public leagues in which the club has a team, current seasons
    first (an archived season's table may still be shown)."""
    return list(
        Division.objects.filter(league__is_public=True, teams__club=club)
        .select_related("league")
        .distinct()
        .order_by("-league__created", "order", "name")
    )


@xframe_options_exempt
def embed_division(request: HttpRequest, slug: str, division_id: int) -> HttpResponse:
    """A league division's table, for an iframe on the site of a club that has a team in
    it (framed only by that club's web sites); a division of a private league or without
    the club's team is not found."""
    club = get_object_or_404(Club, slug=slug)
    division = next((d for d in club_divisions(club) if d.pk == division_id), None)
    if division is None:
        raise Http404("No such division of a public league with a team of this club.")
    return _embed(
        request,
        club,
        "publishing/embed_division.html",
        lambda: {
            "league": division.league,
            "division": division,
            "table": league_selectors.division_table(division),
        },
    )


def embed_snippets(request: HttpRequest, club: Club) -> list[dict[str, str]]:
    """The ``<iframe>`` codes the console shows for the club to copy."""

    def snippet(path: str, title: str) -> dict[str, str]:
        url = request.build_absolute_uri(path)
        code = (
            f'<iframe src="{url}" title="{escape(title)}" width="100%" height="480" '
            'style="border:0" loading="lazy"></iframe>'
        )
        return {"title": title, "code": code, "url": url}

    out = [
        snippet(
            reverse("embed-club", args=[club.slug]),
            gettext("%(club)s: KlammernBoss and all-time table") % {"club": club.name},
        )
    ]
    for season in club.seasons.all():
        out.append(
            snippet(
                reverse("embed-season", args=[club.slug, season.pk]),
                gettext("%(club)s: season %(season)s") % {"club": club.name, "season": season.name},
            )
        )
    for division in club_divisions(club):
        out.append(
            snippet(
                reverse("embed-division", args=[club.slug, division.pk]),
                gettext("%(league)s: table of %(division)s")
                % {"league": str(division.league), "division": division.name},
            )
        )
    newest = Tournament.objects.public().filter(club=club).order_by("-created", "-pk")
    for tournament in newest[:EMBED_SNIPPET_TOURNAMENTS]:
        out.append(
            snippet(
                reverse("embed-standings", args=[tournament.pk]),
                gettext("%(tournament)s: live standings") % {"tournament": tournament.name},
            )
        )
    return out


# --- printable tables for the club's notice board -------------------------------------------

PRINT_SHEETS = ("boss", "table")
PRINT_TITLES = 12  # the newest entries of the title's history on the KlammernBoss sheet
#: The KlammernBoss sheet's ranking on one A4 page: one column up to this many rows, then
#: two columns side by side, smaller; more than ``PRINT_RANKING_MAX`` rows are left out
#: and the sheet says how many.
PRINT_RANKING_ONE_COLUMN = 25
PRINT_RANKING_MAX = 80


def print_ranking(rows: list[dict[str, Any]]) -> dict[str, Any]:
    """The ranking as the sheet prints it: its columns (lists of numbered rows) and how
    many rows are left out."""
    shown = [{**row, "place": n} for n, row in enumerate(rows[:PRINT_RANKING_MAX], start=1)]
    if len(shown) <= PRINT_RANKING_ONE_COLUMN:
        columns = [shown] if shown else []
    else:
        half = (len(shown) + 1) // 2
        columns = [shown[:half], shown[half:]]
    return {"columns": columns, "left_out": len(rows) - len(shown)}


def print_club(request: HttpRequest, slug: str, sheet: str) -> HttpResponse:
    """The KlammernBoss (with the ranking of the last evenings and the title's history) or
    the all-time table on one A4 page for the club's notice board."""
    club = get_object_or_404(Club, slug=slug)
    if sheet not in PRINT_SHEETS:
        raise Http404("No such sheet.")
    tables = selectors.club_view(club)
    return render(
        request,
        f"publishing/print_{sheet}.html",
        {
            "club": club,
            "tables": tables,
            "titles": tables["titles"][:PRINT_TITLES],
            "ranking": print_ranking(tables.get("ranking", [])),
        },
    )


def print_season(request: HttpRequest, slug: str, season_id: int) -> HttpResponse:
    """A season's table on one A4 page for the club's notice board."""
    club = get_object_or_404(Club, slug=slug)
    season = get_object_or_404(Season, club=club, pk=season_id)
    return render(
        request,
        "publishing/print_season.html",
        {"club": club, "season": season, "season_table": seasons.season_table(season)},
    )


# --- pictures for sharing (Open Graph, Twitter cards) ---------------------------------------

IMAGE_SIZE = (1200, 630)
IMAGE_ROWS = 8
IMAGE_CACHE_SECONDS = 24 * 3600
FELT, INK, MUTED, WHITE = "#14532d", "#1f2937", "#6b7280", "#ffffff"
#: The pictures' typeface: Noto Sans from the pinned package ``fontpkg-noto-sans`` (SIL
#: Open Font License), which draws every Latin letter of the players' names (ü, ß, é, ø,
#: ş, å, ...) and the dash; Pillow's built-in font draws them as empty boxes.
SHARE_FONT = "Noto Sans"
MARGIN = 50  # the picture's left and right margin
GAP = 30  # the least space between a name and what stands to its right
ELLIPSIS = "…"


def share_font(size: int, *, bold: bool = False) -> ImageFont.FreeTypeFont:
    """The pictures' font at ``size`` pixels (loaded anew for each picture: a picture is
    drawn once per results version and language, then cached)."""
    return fontpkg_pil.truetype(SHARE_FONT, size, weight=700 if bold else 400)


def fit_text(text: str, font: ImageFont.FreeTypeFont, width: float) -> str:
    """``text`` as it fits in ``width`` pixels: whole, or cut at a character and ended
    with an ellipsis."""
    if font.getlength(text) <= width:
        return text
    low, high = 0, len(text)  # the longest cut that fits lies in [low, high)
    while low < high:
        middle = (low + high + 1) // 2
        if font.getlength(text[:middle].rstrip() + ELLIPSIS) <= width:
            low = middle
        else:
            high = middle - 1
    return text[:low].rstrip() + ELLIPSIS


def fitting_font(
    text: str, width: float, sizes: tuple[int, ...], *, bold: bool = False
) -> ImageFont.FreeTypeFont:
    """The largest of ``sizes`` (largest first) at which ``text`` fits in ``width``, else
    the smallest."""
    for size in sizes:
        font = share_font(size, bold=bold)
        if font.getlength(text) <= width:
            return font
    return font


#: The platform's name, drawn beside the title of every shared picture.
SITE_LABEL = "Klammern"


def table_image(title: str, subtitle: str, rows: list[tuple[str, str, str]]) -> bytes:
    """A PNG (1200×630) of a table's top rows: rank, name and value, under a title. A
    long title is set smaller and then cut with an ellipsis so that it never runs into
    the site's name beside it; long names and subtitles are cut likewise."""
    image = Image.new("RGB", IMAGE_SIZE, WHITE)
    draw = ImageDraw.Draw(image)
    right = IMAGE_SIZE[0] - MARGIN
    small, middle = share_font(26), share_font(34)
    draw.rectangle((0, 0, IMAGE_SIZE[0], 150), fill=FELT)
    draw.text((right, 62), SITE_LABEL, font=small, fill="#bbf7d0", anchor="rs")
    title_width = right - small.getlength(SITE_LABEL) - GAP - MARGIN
    big = fitting_font(title, title_width, (52, 46, 40), bold=True)
    draw.text((MARGIN, 78), fit_text(title, big, title_width), font=big, fill=WHITE, anchor="ls")
    subtitle_width = right - MARGIN
    draw.text(
        (MARGIN, 126),
        fit_text(subtitle, small, subtitle_width),
        font=small,
        fill="#bbf7d0",
        anchor="ls",
    )
    for i, (rank, name, value) in enumerate(rows[:IMAGE_ROWS]):
        y = 175 + i * 54
        if i % 2 == 0:
            draw.rectangle((30, y - 6, IMAGE_SIZE[0] - 30, y + 46), fill="#f0fdf4")
        baseline = y + 33
        draw.text((55, baseline), rank, font=middle, fill=INK, anchor="ls")
        draw.text((right + 5, baseline), value, font=middle, fill=INK, anchor="rs")
        name_width = right + 5 - middle.getlength(value) - GAP - 140
        draw.text(
            (140, baseline), fit_text(name, middle, name_width), font=middle, fill=INK, anchor="ls"
        )
    if not rows:
        draw.text((55, 233), gettext("No results yet."), font=middle, fill=MUTED, anchor="ls")
    out = BytesIO()
    image.save(out, format="PNG", optimize=True)
    return out.getvalue()


def _png(request: HttpRequest, key: str, build: Any) -> HttpResponse:
    """The picture, cached per snapshot version and language (both in ``key``)."""
    language = _embed_language(request)
    with translation.override(language):
        data = cache.get_or_set(f"og:{key}:{language}", build, IMAGE_CACHE_SECONDS)
    response = HttpResponse(data, content_type="image/png")
    patch_cache_control(response, public=True, max_age=300)
    return response


def og_club(request: HttpRequest, slug: str) -> HttpResponse:
    """The club's KlammernBoss and all-time table as a picture for sharing."""
    club = get_object_or_404(Club, slug=slug)

    def build() -> bytes:
        tables = selectors.club_view(club)
        rows = [(str(r["rank"]), r["name"], str(r["won"])) for r in tables["all_time"]]
        boss = tables["boss_name"]
        subtitle = f"KlammernBoss: {boss}" if boss else gettext("All-time table")
        return table_image(club.name, subtitle, rows)

    return _png(request, f"club:{club.pk}:{club.results_version}", build)


def og_standings(request: HttpRequest, pk: int) -> HttpResponse:
    """A public tournament's standings as a picture for sharing."""
    tournament = get_object_or_404(Tournament.objects.public(), pk=pk)

    def build() -> bytes:
        view = selectors.standings_view(tournament)
        rows = [
            (str(r["rank"]), r["name"], str(r["cells"][0]["value"] if r.get("cells") else ""))
            for r in view["rows"]
            if view["has_games"]
        ]
        return table_image(tournament.name, gettext("Standings"), rows)

    tag = tournament_selectors.standings_tag(tournament)
    return _png(request, f"standings:{pk}:{tag}:{tournament.status}", build)


def og_season(request: HttpRequest, slug: str, season_id: int) -> HttpResponse:
    """A season's table (its page's, ``selectors.season_view``) as a picture for sharing:
    the season table of its club evenings, or the league table of a league season."""
    club = get_object_or_404(Club, slug=slug)
    season = get_object_or_404(Season, club=club, pk=season_id)

    def build() -> bytes:
        view = selectors.season_view(season)
        table, league = view["season_table"], view["league_rows"]
        if table is not None and (table["rows"] or not league):
            rows = [
                (str(r["rank"] or "–"), r.get("name", ""), number_format(r["total"]))
                for r in table["rows"]
            ]
            words = gettext("Season table of the club evenings")
        else:
            rows = [
                (str(r["rank"]), r.get("name", ""), str(r["league_points"])) for r in league or []
            ]
            words = gettext("League table")
        return table_image(season.name, f"{club.name} · {words}", rows)

    finished = season.tournaments.filter(status=Tournament.Status.FINISHED).count()
    version = f"{club.results_version}:{season.best_of}:{season.min_evenings}:{finished}"
    return _png(request, f"season:{season.pk}:{version}", build)
