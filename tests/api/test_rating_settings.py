"""Seeding and balancing by rating as tournament settings: the API's fields (defaults,
validation, the OpenAPI schema), and what the draw does with them: a Swiss round 1 of
fixed pairs by the pairs' ratings, finals seeded by rating, an individual draw that
balances its tables (a player without a rating counting with mu 25)."""

from __future__ import annotations

import uuid
from typing import Any

import pytest

from tests.api.test_pairs_finals import pairs_tournament, play_round
from tests.factories import PlayerFactory
from tests.support.clients import APIClient
from tournaments.clubs.models import Club, Player
from tournaments.draw import services as draw
from tournaments.events import services
from tournaments.events.models import Seat, Team, Tournament
from tournaments.pairs import finals
from tournaments.pairs import services as pairs
from tournaments.ratings.models import PlayerRating

pytestmark = pytest.mark.django_db


def created(client: APIClient, club: Club, **fields: Any) -> Any:
    slug = f"t-{uuid.uuid4().hex[:6]}"
    return client.post(
        "/api/tournaments/",
        {"club": club.pk, "name": "Abend", "slug": slug, **fields},
        format="json",
    )


def test_the_rating_options_default_off(organiser_client: APIClient, club_a: Club) -> None:
    response = created(organiser_client, club_a)
    assert response.status_code == 201, response.content
    body = response.json()
    assert (body["seed_by_rating"], body["finals_seeding"], body["balance_by_rating"]) == (
        False,
        "standings",
        False,
    )


def test_an_individual_tournament_balances_its_tables_by_rating(
    organiser_client: APIClient, club_a: Club
) -> None:
    response = created(organiser_client, club_a, balance_by_rating=True)
    assert response.status_code == 201, response.content
    assert response.json()["balance_by_rating"] is True
    assert Tournament.objects.get(pk=response.json()["id"]).balance_by_rating


def test_a_pairs_tournament_seeds_by_rating(organiser_client: APIClient, club_a: Club) -> None:
    response = created(organiser_client, club_a, format="pairs", swiss=True)
    assert response.status_code == 201, response.content
    url = f"/api/tournaments/{response.json()['id']}/"
    patched = organiser_client.patch(
        url, {"seed_by_rating": True, "finals_seeding": "rating"}, format="json"
    )
    assert patched.status_code == 200, patched.content
    assert patched.json()["seed_by_rating"] is True
    tournament = Tournament.objects.get(pk=response.json()["id"])
    assert tournament.seed_by_rating and tournament.finals_seeding == "rating"


@pytest.mark.parametrize(
    ("fields", "field"),
    [
        ({"format": "pairs", "balance_by_rating": True}, "balance_by_rating"),
        ({"format": "individual", "seed_by_rating": True}, "seed_by_rating"),
        ({"format": "individual", "finals_seeding": "rating"}, "seed_by_rating"),
        ({"format": "pairs", "finals_seeding": "best"}, "finals_seeding"),
        ({"balance_by_rating": "maybe"}, "balance_by_rating"),
    ],
)
def test_a_rating_option_that_does_not_fit_is_refused(
    organiser_client: APIClient, club_a: Club, fields: dict[str, Any], field: str
) -> None:
    response = created(organiser_client, club_a, **fields)
    assert response.status_code == 400, response.content
    body = response.json()
    assert body["code"] == "invalid" and field in body and body["detail"]
    assert not Tournament.objects.filter(club=club_a).exists()


def test_a_patch_is_checked_against_the_stored_format(
    organiser_client: APIClient, club_a: Club
) -> None:
    body = created(organiser_client, club_a).json()  # individual
    url = f"/api/tournaments/{body['id']}/"
    refused = organiser_client.patch(url, {"seed_by_rating": True}, format="json")
    assert refused.status_code == 400 and "seed_by_rating" in refused.json()
    assert not Tournament.objects.get(pk=body["id"]).seed_by_rating


def test_the_schema_documents_the_rating_options(anonymous: APIClient) -> None:
    schema = anonymous.get("/api/schema/", HTTP_ACCEPT="application/vnd.oai.openapi+json").json()
    properties = schema["components"]["schemas"]["Tournament"]["properties"]
    assert properties["seed_by_rating"]["type"] == "boolean"
    assert properties["balance_by_rating"]["type"] == "boolean"
    finals_seeding = properties["finals_seeding"]
    enum_ref = finals_seeding.get("$ref") or finals_seeding["allOf"][0]["$ref"]
    enum = schema["components"]["schemas"][enum_ref.rsplit("/", 1)[1]]
    assert enum["enum"] == ["standings", "rating"]


# --- what the draw does with them -------------------------------------------------------


def rate(club: Club, player: Player, mu: float) -> None:
    PlayerRating.objects.create(club=club, player=player, mu=mu, sigma=5.0, rating=mu - 15.0)


def four_rated_pairs(club: Club, **options: Any) -> tuple[Tournament, dict[str, Team]]:
    """Pairs A-D in creation order; ratings (sum of mu) D 70, B 60, A 55, C 50: C's
    players have no rating and count with mu 25 each."""
    tournament = pairs_tournament(club, players=8, swiss=True, **options)
    players = [r.player for r in tournament.registrations.order_by("player__name")]
    mus = {"A": (30.0, 25.0), "B": (31.0, 29.0), "C": None, "D": (36.0, 34.0)}
    teams = {}
    for n, (name, pair_mus) in enumerate(mus.items()):
        two = players[2 * n : 2 * n + 2]
        teams[name] = pairs.create_pair(tournament=tournament, players=two, name=name)
        for player, mu in zip(two, pair_mus or (), strict=False):
            rate(club, player, mu)
    services.start_tournament(tournament=tournament)
    return tournament, teams


def meetings(round_: Any) -> set[frozenset[int]]:
    return {frozenset((m.home_team_id, m.away_team_id)) for m in round_.matches.all()}


def test_swiss_round_one_is_seeded_by_the_pairs_ratings(club_a: Club) -> None:
    tournament, t = four_rated_pairs(club_a, seed_by_rating=True)
    round_ = draw.draw_round(tournament=tournament, seed=5)
    assert meetings(round_) == {
        frozenset((t["D"].pk, t["B"].pk)),
        frozenset((t["A"].pk, t["C"].pk)),
    }
    assert round_.cost["seeded_by_rating"] is True and round_.cost["standing_distance"] == 0


def test_without_the_setting_swiss_round_one_follows_registration(club_a: Club) -> None:
    tournament, t = four_rated_pairs(club_a)
    round_ = draw.draw_round(tournament=tournament, seed=5)
    assert meetings(round_) == {
        frozenset((t["A"].pk, t["B"].pk)),
        frozenset((t["C"].pk, t["D"].pk)),
    }
    assert "seeded_by_rating" not in round_.cost


def test_finals_seeded_by_rating_play_1v4_and_2v3(club_a: Club) -> None:
    tournament, t = four_rated_pairs(club_a, finals_seeding=Tournament.FinalsSeeding.RATING)
    play_round(draw.draw_round(tournament=tournament, seed=2))
    semis = finals.start_finals(tournament=tournament, size=4)
    slots = {
        m.bracket_slot: (m.home_team_id, m.away_team_id, m.home_seed, m.away_seed)
        for m in semis.matches.all()
    }
    assert slots == {
        "SF1": (t["D"].pk, t["C"].pk, 1, 4),
        "SF2": (t["B"].pk, t["A"].pk, 2, 3),
    }


def individual_evening(club: Club, *, balance: bool) -> Tournament:
    """Eight players with mu 40, 35, ..., 10 and one without a rating (mu 25 then):
    two tables whose teams can be exactly even."""
    tournament = services.create_tournament(
        club=club, name="Abend", slug=f"a-{uuid.uuid4().hex[:6]}", balance_by_rating=balance
    )
    for n, mu in enumerate([40.0, 35.0, 30.0, None, 20.0, 15.0, 10.0, 5.0]):
        player = PlayerFactory(name=f"S{n}")
        if mu is not None:
            rate(club, player, mu)
        registration = services.register_player(tournament=tournament, player=player)
        services.check_in_registration(registration=registration)
    services.start_tournament(tournament=tournament)
    return tournament


def team_gaps(round_: Any, mus: dict[int, float]) -> list[float]:
    gaps = []
    for table in round_.tables.all():
        seats = dict(Seat.objects.filter(table=table).values_list("position", "player_id"))
        first = mus.get(seats[0], 25.0) + mus.get(seats[2], 25.0)
        second = mus.get(seats[1], 25.0) + mus.get(seats[3], 25.0)
        gaps.append(abs(first - second))
    return gaps


@pytest.mark.parametrize("seed", [1, 2, 3])
def test_the_individual_draw_balances_tables_by_rating(club_a: Club, seed: int) -> None:
    tournament = individual_evening(club_a, balance=True)
    round_ = draw.draw_round(tournament=tournament, seed=seed)
    mus = dict(PlayerRating.objects.filter(club=club_a).values_list("player_id", "mu"))
    assert team_gaps(round_, mus) == [0.0, 0.0]
    assert round_.cost["rating_gap"] == 0.0 and round_.cost["kind"] == "individual"


def test_off_the_individual_draw_reports_no_rating_gap(club_a: Club) -> None:
    tournament = individual_evening(club_a, balance=False)
    round_ = draw.draw_round(tournament=tournament, seed=1)
    assert "rating_gap" not in round_.cost
