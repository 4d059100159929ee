"""The ratings API: a club's rating list for everyone, a player's history where the
player's page is public or for the organisers of the player's clubs; rounds of a
tournament the caller may not see carry no tournament."""

from __future__ import annotations

from typing import Any

import pytest

from tests.conftest import client_for, make_event
from tests.factories import PlayerFactory
from tests.ratings.conftest import OUTCOMES, evening, play_round
from tests.support.clients import APIClient
from tournaments.clubs.models import Player
from tournaments.ratings.models import PlayerRating, RatingChange

pytestmark = pytest.mark.django_db


@pytest.fixture
def private_evening(club_a: Any) -> Any:
    tournament = evening(club_a, slug="intern", public=False)
    for i, points in enumerate(OUTCOMES[:2]):
        play_round(tournament, points, seed=10 + i)
    return tournament


def test_anyone_reads_a_club_rating_list(played: Any, club_a: Any, anonymous: APIClient) -> None:
    response = anonymous.get(f"/api/clubs/{club_a.pk}/ratings/")
    assert response.status_code == 200
    body = response.json()
    assert body["club"] == club_a.pk and body["rounds"] == 3 and "Plackett-Luce" in body["model"]
    rows = body["rows"]
    assert len(rows) == 8
    assert [r["rating"] for r in rows] == sorted((r["rating"] for r in rows), reverse=True)
    best = (
        PlayerRating.objects.filter(club=club_a).order_by("-rating", "player__name", "player_id")
    ).first()
    assert rows[0]["player"] == best.player_id and rows[0]["rank"] == 1
    assert rows[0]["games"] == 3 and rows[0]["mu"] == best.mu
    assert PlayerRating.objects.filter(club=club_a).count() == 8  # a read writes nothing


def test_a_club_without_ratings_has_an_empty_list(club_b: Any, anonymous: APIClient) -> None:
    response = anonymous.get(f"/api/clubs/{club_b.pk}/ratings/")
    assert response.status_code == 200 and response.json()["rows"] == []
    assert anonymous.get("/api/clubs/999999/ratings/").status_code == 404


def test_a_table_device_may_not_read_ratings(played: Any, club_a: Any) -> None:
    event = make_event(club=club_a, seed=99)
    device = client_for(device_code=event.code1)
    assert device.get(f"/api/clubs/{club_a.pk}/ratings/").status_code == 403


def test_a_public_players_history(played: Any, club_a: Any, anonymous: APIClient) -> None:
    tournament, rounds = played
    player = Player.objects.filter(registrations__tournament=tournament).first()
    response = anonymous.get(f"/api/players/{player.pk}/rating-history/")
    assert response.status_code == 200
    [club] = response.json()["clubs"]
    assert club["club"] == club_a.pk and club["games"] == 3
    history = club["history"]
    assert [h["sequence"] for h in history] == [1, 2, 3]
    assert [h["round"] for h in history] == [1, 2, 3]
    assert all(h["tournament"] == tournament.pk for h in history)
    last = RatingChange.objects.get(player=player, rated_round__round=rounds[-1])
    assert history[-1]["mu"] == last.mu and history[-1]["rating"] == round(last.rating, 1)


@pytest.mark.parametrize(
    ("role", "status"),
    [("anonymous", 404), ("stranger", 404), ("other_organiser", 404), ("organiser", 200)],
)
def test_a_player_of_private_tournaments_only(
    private_evening: Any, role: str, status: int, request: pytest.FixtureRequest
) -> None:
    client = request.getfixturevalue(f"{role}_client" if role != "anonymous" else "anonymous")
    player = Player.objects.filter(registrations__tournament=private_evening).first()
    response = client.get(f"/api/players/{player.pk}/rating-history/")
    assert response.status_code == status
    if status == 200:
        history = response.json()["clubs"][0]["history"]
        assert [h["tournament"] for h in history] == [private_evening.pk] * 2


def test_rounds_of_a_private_tournament_show_without_it(
    club_a: Any, organiser_client: APIClient, anonymous: APIClient
) -> None:
    people = [PlayerFactory() for _ in range(8)]
    public = evening(club_a, slug="offen", players=people)
    play_round(public, OUTCOMES[0], seed=1)
    private = evening(club_a, slug="intern", public=False, players=people)
    play_round(private, OUTCOMES[1], seed=2)
    url = f"/api/players/{people[0].pk}/rating-history/"
    seen = anonymous.get(url).json()["clubs"][0]["history"]
    assert [(h["tournament"], h["tournament_name"], h["round"]) for h in seen] == [
        (public.pk, public.name, 1),
        (None, "", None),
    ]
    assert [h["sequence"] for h in seen] == [1, 2]
    full = organiser_client.get(url).json()["clubs"][0]["history"]
    assert [h["tournament"] for h in full] == [public.pk, private.pk]


def test_both_endpoints_are_in_the_schema(anonymous: APIClient) -> None:
    schema = anonymous.get("/api/schema/", HTTP_ACCEPT="application/json")
    assert schema.status_code == 200
    text = schema.content.decode()
    assert "/api/clubs/{id}/ratings/" in text and "/api/players/{id}/rating-history/" in text
