"""The club's rating list page and the rating chart on a player's page, in German (the
default) and English; SVG numbers keep their decimal point in German too."""

from __future__ import annotations

import re
from typing import Any

import pytest

from tests.support.clients import Client
from tournaments.clubs.models import Player
from tournaments.ratings.models import PlayerRating
from tournaments.web.ratings import rating_chart

pytestmark = pytest.mark.django_db


def english(client: Client) -> Client:
    client.cookies["django_language"] = "en"
    return client


def test_rating_list_in_german(played: Any, club_a: Any, client: Client) -> None:
    body = client.get(f"/clubs/{club_a.slug}/ratings/").content.decode()
    assert "<h1>Wertungen: Klammern</h1>" in body and "Noch keine" not in body
    assert "Aus jeder Partie von 3 abgeschlossenen Runden" in body
    best = PlayerRating.objects.filter(club=club_a).order_by("-rating").first()
    assert f'<a href="/players/{best.player_id}/">' in body
    shown = f"{best.rating:.1f}".replace(".", ",")
    assert f'<td class="num">{shown}</td>' in body  # the German decimal comma
    club_page = client.get(f"/clubs/{club_a.slug}/").content.decode()
    assert f'href="/clubs/{club_a.slug}/ratings/"' in club_page and "Wertungsliste" in club_page


def test_rating_list_in_english(played: Any, club_a: Any, client: Client) -> None:
    body = english(client).get(f"/clubs/{club_a.slug}/ratings/").content.decode()
    assert "<h1>Ratings: Klammern</h1>" in body and "From every game of 3 closed rounds" in body
    assert "Rating list" in english(client).get(f"/clubs/{club_a.slug}/").content.decode()


def test_an_empty_rating_list(club_b: Any, client: Client) -> None:
    body = client.get(f"/clubs/{club_b.slug}/ratings/").content.decode()
    assert "Noch keine gewerteten Partien." in body
    assert client.get("/clubs/nirgends/ratings/").status_code == 404


@pytest.mark.parametrize(
    ("language", "heading", "games"), [("de", "Wertung", "3 Partien"), ("en", "Rating", "3 games")]
)
def test_player_page_shows_the_rating_chart(
    played: Any, club_a: Any, client: Client, language: str, heading: str, games: str
) -> None:
    tournament, _ = played
    player = Player.objects.filter(registrations__tournament=tournament).first()
    client.cookies["django_language"] = language
    body = client.get(f"/players/{player.pk}/").content.decode()
    rating = PlayerRating.objects.get(club=club_a, player=player).rating
    shown = f"{rating:.1f}" if language == "en" else f"{rating:.1f}".replace(".", ",")
    assert f"<h2>{heading} Klammern: {shown}</h2>" in body and games in body  # its pool
    start = body.index("<h2>" + heading)
    chart = body[body.index("<svg", start) : body.index("</svg>", start)]
    points = re.search(r'<polyline class="line" points="([^"]+)"', chart).group(1)
    assert len(points.split()) == 3
    # x,y pairs with decimal points, whatever the language
    assert all(re.fullmatch(r"-?\d+\.\d,-?\d+\.\d", pair) for pair in points.split())
    assert f"{tournament.name}," in chart


def chart_of(body: str, heading: str) -> str:
    start = body.index("<h2>" + heading)
    return body[body.index("<svg", start) : body.index("</section>", start)]


@pytest.mark.parametrize(
    ("language", "decimal", "axis"),
    [
        ("de", ",", "Gespielte Runden"),
        ("nl", ",", "Gespeelde rondes"),
        ("fr", ",", "Rondes jouées"),
        ("en", ".", "Rounds played"),
    ],
)
def test_the_rating_chart_has_a_round_axis_a_band_and_local_numbers(
    played: Any, club_a: Any, client: Client, language: str, decimal: str, axis: str
) -> None:
    """Issue 20: no round axis, no uncertainty band, and "6.7" under "Wertung: 6,7"."""
    tournament, _ = played
    player = Player.objects.filter(registrations__tournament=tournament).first()
    client.cookies["django_language"] = language
    body = client.get(f"/players/{player.pk}/").content.decode()
    heading = {"de": "Wertung", "nl": "Rating", "en": "Rating", "fr": "Cote"}[language]
    chart = chart_of(body, heading)
    y_labels = re.findall(r'<text x="2" y="[\d.]+" dy="4">([^<]+)</text>', chart)
    assert len(y_labels) == 2
    assert all(re.fullmatch(rf"-?\d+{re.escape(decimal)}\d", label) for label in y_labels)
    x_labels = re.findall(r'<text class="x-label"[^>]*>(\d+)</text>', chart)
    assert x_labels == ["1", "2", "3"] and axis in chart
    band = re.search(r'<polygon class="band" points="([^"]+)"', chart).group(1)
    assert len(band.split()) == 6  # above and below each of the 3 rounds
    rating = PlayerRating.objects.get(club=club_a, player=player)
    sigma = f"{rating.sigma:.1f}".replace(".", decimal)
    assert f"± {sigma}</title>" in chart  # the last dot: rating ± sigma


def test_the_rating_list_explains_its_columns_in_words(
    played: Any, club_a: Any, client: Client
) -> None:
    """Issue 20: the headings were "μ" and "σ", upper-cased by the table style to "M"
    and "Σ", and explained nowhere."""
    body = client.get(f"/clubs/{club_a.slug}/ratings/").content.decode()
    head = body[body.index("<thead>") : body.index("</thead>")]
    assert "μ" not in head and "σ" not in head
    assert ">Spielstärke</th>" in head and ">Unsicherheit</th>" in head
    legend = body[body.index('id="rating-legend"') : body.index("</dl>")]
    assert "dreimal die Unsicherheit" in legend and "geschätzte Spielstärke" in legend
    body = english(client).get(f"/clubs/{club_a.slug}/ratings/").content.decode()
    assert ">Skill</th>" in body and "how unsure the estimate still is" in body


@pytest.mark.parametrize(
    ("rounds", "labelled"),
    [
        (1, [1]),
        (3, [1, 2, 3]),
        (8, [1, 2, 3, 4, 5, 6, 7, 8]),
        (10, [1, 3, 5, 7, 10]),  # not 9 right beside 10
        (50, [1, 8, 15, 22, 29, 36, 43, 50]),
    ],
)
def test_the_round_axis_numbers_at_most_eight_rounds_and_the_last(
    rounds: int, labelled: list[int]
) -> None:
    history = [
        {"rating": float(i), "sigma": 1.0, "tournament_name": "", "round": None, "games": i}
        for i in range(rounds)
    ]
    chart = rating_chart(history)
    assert [label["label"] for label in chart["x_labels"]] == labelled
