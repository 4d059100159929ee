"""Rating pages: a club's rating list, and the rating charts on a player's page (inline
SVG, coordinates built here as text, as the rank chart's are). Reads only; the ratings
are written by ``rating_services`` when rounds close."""

from __future__ import annotations

from typing import Any

from django.http import HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, render

from tournaments import rating_services
from tournaments.models import Club, Player, RatingList
from tournaments.permissions import visible_tournaments


def club_ratings(request: HttpRequest, slug: str) -> HttpResponse:
    club = get_object_or_404(Club, slug=slug)
    return render(
        request,
        "ratings/club.html",
        {
            "club": club,
            "rows": rating_services.club_rating_rows(club),
            "ledger": RatingList.objects.filter(club=club).first(),
        },
    )


def player_rating_charts(request: HttpRequest, player: Player) -> list[dict[str, Any]]:
    """One chart per club where the player is rated: the rating after each round played."""
    visible = visible_tournaments(request.user).filter(rounds__seats__player=player)
    clubs = rating_services.player_rating_history(
        player, visible_tournaments=visible.values_list("pk", flat=True)
    )
    return [{**club, "chart": rating_chart(club["history"])} for club in clubs if club["history"]]


def rating_chart(
    history: list[dict[str, Any]], *, width: int = 320, height: int = 160
) -> dict[str, Any]:
    """Coordinates for an inline SVG line of the rating after each round played (higher
    on top); the y axis spans the lowest and highest rating shown."""
    if not history:
        return {}
    pad = 28
    values = [entry["rating"] for entry in history]
    low, high = min(values + [0.0]), max(values + [0.0])
    span = max(high - low, 1.0)

    def x(index: int) -> float:
        return pad + (width - 2 * pad) * (index / max(len(history) - 1, 1))

    def y(value: float) -> float:
        return pad / 2 + (height - pad * 1.5) * ((high - value) / span)

    dots = [
        {
            "x": _svg(x(i)),
            "y": _svg(y(e["rating"])),
            "rating": _svg(e["rating"]),
            "tournament_name": e["tournament_name"],
            "round": e["round"],
            "games": e["games"],
        }
        for i, e in enumerate(history)
    ]
    return {
        "width": _svg(width),
        "height": _svg(height),
        "dots": dots,
        "line": " ".join(f"{d['x']},{d['y']}" for d in dots),
        "y_labels": [{"y": _svg(y(v)), "label": _svg(v)} for v in sorted({low, high})],
        "zero": _svg(y(0.0)),
        "left": _svg(pad),
        "right": _svg(width - pad),
        "baseline": _svg(height - pad),
    }


def _svg(value: float) -> str:
    """A number for SVG or a title, with a decimal point whatever the language."""
    return f"{value:.1f}"
