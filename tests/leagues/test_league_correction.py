"""Issue 35: a deal corrected by the organiser after the league accepted the match day
moves the league table and the player ranking (the API's and the public page's), as both
count the corrected deal; the match day stays final."""

from __future__ import annotations

import uuid
from typing import Any

import pytest

from tests.factories import summary_record
from tests.leagues.conftest import LeagueWorld
from tests.leagues.test_league_season_api import finish, second_day
from tests.support.clients import Client
from tournaments.leagues.models import MatchDay

pytestmark = pytest.mark.django_db

#: Home wins Partien 1, 2 and 4 (64:0 Augen each), away wins Partie 3 (8:56): 3:1, 200:56.
THREE_TO_ONE = (True, True, False, True)


def table(world: LeagueWorld) -> list[tuple[str, int, int, int]]:
    rows = world.client("anonymous").get(f"/api/divisions/{world.division.pk}/table/").data
    return [(r["name"], r["points"], r["partien_difference"], r["augen_difference"]) for r in rows]


def ranking(world: LeagueWorld) -> dict[str, tuple[int, int, int]]:
    rows = world.client("anonymous").get(f"/api/leagues/{world.league.pk}/ranking/").data
    return {r["name"]: (r["partien"], r["augen_for"], r["augen_against"]) for r in rows}


def correct_partie_1_deal_4(world: LeagueWorld, day: MatchDay, team0_points: int) -> Any:
    """The home club's organiser corrects deal 4 of Partie 1 as the console's deal page
    does: PUT with the version it corrects and a reason."""
    tournament = MatchDay.objects.get(pk=day.pk).tournament
    match = tournament.rounds.get(number=1).matches.order_by("table__number").first()
    return world.client("organiser").put(
        f"/api/matches/{match.pk}/deals/4/",
        {
            "record": summary_record(dealer=3, declarer=1, team0_points=team0_points),
            "reason": "Laut Spielzettel machte Schellen das Spiel",
        },
        format="json",
        HTTP_IDEMPOTENCY_KEY=str(uuid.uuid4()),
        HTTP_IF_MATCH='"1"',
    )


def test_a_deal_corrected_after_acceptance_moves_the_table_and_the_ranking(
    world: LeagueWorld,
) -> None:
    first, second = world.first_day, second_day(world)
    finish(world, first, THREE_TO_ONE)  # Herzbube I at home: 3:1, 200:56 Augen
    finish(world, second, THREE_TO_ONE)  # Schellen I at home: 3:1, 200:56 Augen
    # level on points, Partien and Augen, and 1:1 between them: by name
    assert table(world) == [("Herzbube I", 2, 0, 0), ("Schellen I", 2, 0, 0)]
    a, b = world.players_a, world.players_b
    before = ranking(world)
    assert {row[0] for row in before.values()} == {4}  # two Partien a match day each
    page = Client().get(f"/leagues/{world.league.slug}/").content.decode()
    assert "200:56" in page
    assert page.index("Herzbube I") < page.index("Schellen I")

    # deal 4 of Partie 1 was in truth made by the away team, 104:60 card points (10:6
    # Augen): home still reaches 51 (48 + 6), away has 10 of it
    reply = correct_partie_1_deal_4(world, first, team0_points=60)
    assert reply.status_code == 200, reply.data

    first.refresh_from_db()
    assert first.status == MatchDay.Status.FINAL
    assert (first.home_partien, first.away_partien) == (3, 1)
    assert (first.home_augen, first.away_augen) == (190, 66)
    # the table moved: Schellen I leads on Augen difference (266:246 over both days)
    assert table(world) == [("Schellen I", 2, 0, 20), ("Herzbube I", 2, 0, -20)]
    # the ranking moved: Partie 1 of match day 1 was a0 and a1 against b0 and b1, 54:10
    # now instead of 64:0; the others played no deal that changed
    after = ranking(world)
    for home_player in a[:2]:
        partien, augen_for, against = before[home_player.name]
        assert after[home_player.name] == (partien, augen_for - 10, against + 10)
    for away_player in b[:2]:
        partien, augen_for, against = before[away_player.name]
        assert after[away_player.name] == (partien, augen_for + 10, against - 10)
    for player in (*a[2:], *b[2:]):
        assert after[player.name] == before[player.name]
    page = Client().get(f"/leagues/{world.league.slug}/").content.decode()
    assert "190:66" in page and "200:56" in page  # day 2 unchanged
    assert page.index("Schellen I") < page.index("Herzbube I")
