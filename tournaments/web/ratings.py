"""Rating pages: a club's rating list, and the rating charts on a player's page (inline
SVG, coordinates built here as text, as the rank chart's are). Reads only; the ratings
are written by ``rating_services`` when rounds close."""

from __future__ import annotations

from typing import Any

from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, render
from django.utils.formats import number_format

from games import profiles
from tournaments.clubs.models import Club, Player
from tournaments.events.permissions import visible_tournaments
from tournaments.ratings import services as rating_services
from tournaments.ratings.models import RatingList


def club_ratings(request: HttpRequest, slug: str) -> HttpResponse:
    """The club's rating list of one pool (``?pool=``; the default game's unless named):
    each game's tables count in their own pool, and the page says whose."""
    club = get_object_or_404(Club, slug=slug)
    pool = request.GET.get("pool") or profiles.DEFAULT_RATING_POOL
    if pool not in profiles.rating_pools():
        raise Http404
    return render(
        request,
        "ratings/club.html",
        {
            "club": club,
            "rows": rating_services.club_rating_rows(club, pool),
            "ledger": RatingList.objects.filter(club=club).first(),
            **rating_services.pool_view(club, pool),
        },
    )


def player_rating_charts(request: HttpRequest, player: Player) -> list[dict[str, Any]]:
    """One chart per club where the player is rated: the rating after each round played."""
    visible = visible_tournaments(request.user).filter(rounds__seats__player=player)
    clubs = rating_services.player_rating_history(
        player, visible_tournaments=visible.values_list("pk", flat=True)
    )
    return [{**club, "chart": rating_chart(club["history"])} for club in clubs if club["history"]]


#: At most this many round numbers under the chart's x axis (every n-th otherwise).
MAX_X_LABELS = 8


def rating_chart(
    history: list[dict[str, Any]], *, width: int = 320, height: int = 180
) -> dict[str, Any]:
    """Coordinates for an inline SVG line of the rating after each round played (higher
    on top), with a band of plus and minus the rating's uncertainty (sigma) around it
    and the rounds played numbered under the x axis. The y axis spans the lowest and
    highest value of the band (and 0). Coordinates keep a decimal point; the numbers a
    reader sees (axis labels, titles) are in the page's language."""
    if not history:
        return {}
    pad, bottom = 30, 34
    lows = [e["rating"] - e["sigma"] for e in history]
    highs = [e["rating"] + e["sigma"] for e in history]
    low, high = min(lows + [0.0]), max(highs + [0.0])
    span = max(high - low, 1.0)

    def x(index: int) -> float:
        return pad + (width - 2 * pad) * (index / max(len(history) - 1, 1))

    def y(value: float) -> float:
        return 10 + (height - bottom - 10) * ((high - value) / span)

    dots = [
        {
            "x": _svg(x(i)),
            "y": _svg(y(e["rating"])),
            "rating": _shown(e["rating"]),
            "sigma": _shown(e["sigma"]),
            "played": i + 1,
            "tournament_name": e["tournament_name"],
            "round": e["round"],
            "games": e["games"],
        }
        for i, e in enumerate(history)
    ]
    band = [f"{_svg(x(i))},{_svg(y(v))}" for i, v in enumerate(highs)] + [
        f"{_svg(x(i))},{_svg(y(v))}" for i, v in reversed(list(enumerate(lows)))
    ]
    shown = _x_label_indexes(len(history))
    return {
        "width": _svg(width),
        "height": _svg(height),
        "dots": dots,
        "line": " ".join(f"{d['x']},{d['y']}" for d in dots),
        "band": " ".join(band),
        "y_labels": [
            {"y": _svg(y(v)), "label": _shown(v)} for v in sorted({round(low, 1), round(high, 1)})
        ],
        "x_labels": [{"x": dots[i]["x"], "label": i + 1} for i in shown],
        "x_label_y": _svg(height - bottom + 14),
        "x_title_y": _svg(height - 3),
        "middle": _svg(width / 2),
        "zero": _svg(y(0.0)),
        "left": _svg(pad),
        "right": _svg(width - pad),
        "baseline": _svg(height - bottom),
    }


def _x_label_indexes(count: int) -> list[int]:
    """Which rounds get their number under the axis: every n-th (at most
    ``MAX_X_LABELS``) and the last, which replaces a regular one right before it."""
    every = -(-count // MAX_X_LABELS)
    shown = list(range(0, count, every))
    if shown[-1] != count - 1:
        if count - 1 - shown[-1] <= every / 2 and len(shown) > 1:
            shown.pop()
        shown.append(count - 1)
    return shown


def _svg(value: float) -> str:
    """A coordinate for SVG, with a decimal point whatever the language."""
    return f"{value:.1f}"


def _shown(value: float) -> str:
    """A number a reader sees, with one decimal in the page's language (6,7 in German)."""
    return number_format(round(value, 1) + 0.0, decimal_pos=1, use_l10n=True)  # no "-0,0"
