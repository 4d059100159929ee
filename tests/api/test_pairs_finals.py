"""Fixed pairs and finals through the API: forming, drawing (random and by cards),
renaming and dissolving pairs; registering with ``team=``; Swiss and round-robin rounds;
finals of 4 to the placings and the bracket. Every write is refused to the other club's
organiser, a stranger, anonymous and a table device, with no row changed."""

from __future__ import annotations

import uuid
from collections import Counter
from typing import Any

import pytest

from tests.conftest import client_for
from tests.factories import PlayerFactory, summary_record
from tests.support.clients import APIClient
from tournaments.draw import services as draw
from tournaments.events import services
from tournaments.events.models import Match, Round, Team, TeamMember, Tournament
from tournaments.pairs import services as pairs

pytestmark = pytest.mark.django_db


def pairs_tournament(club: Any, *, players: int = 8, **options: Any) -> Tournament:
    tournament = services.create_tournament(
        club=club,
        name="Paarturnier",
        slug=f"paare-{uuid.uuid4().hex[:6]}",
        format=Tournament.Format.PAIRS,
        deals_per_match=2,
        **options,
    )
    for n in range(players):
        registration = services.register_player(
            tournament=tournament, player=PlayerFactory(name=f"P{n:02d}")
        )
        services.check_in_registration(registration=registration)
    return tournament


def play_round(round_: Round, *, home_wins: bool = True) -> None:
    """Publish, enter two deals per table through the device API, close."""
    services.publish_round(round_=round_)
    for table in round_.tables.all():
        _, code = services.issue_device_code(table=table)
        device = client_for(device_code=code)
        points = 120 if home_wins else 40
        for number in (1, 2):
            record = summary_record(dealer=number - 1, team0_points=points)
            response = device.post(
                f"/api/matches/{table.match.pk}/deals/{number}/",
                record,
                format="json",
                HTTP_IDEMPOTENCY_KEY=str(uuid.uuid4()),
            )
            assert response.status_code == 201, response.json()
    services.close_round(round_=Round.objects.get(pk=round_.pk), force=True)


def outsiders(other_organiser: Any, stranger: Any, device_code: str) -> dict[str, APIClient]:
    return {
        "other_organiser": client_for(other_organiser),
        "stranger": client_for(stranger),
        "anonymous": APIClient(),
        "device": client_for(device_code=device_code),
    }


@pytest.fixture
def device_code(club_b: Any) -> str:
    """A table device of a running round of a tournament of club B."""
    tournament = pairs_tournament(club_b, players=4)
    services.start_tournament(tournament=tournament)
    pairs.draw_pairs(tournament=tournament, seed=1)
    round_ = draw.draw_round(tournament=tournament, seed=1)
    services.publish_round(round_=round_)
    return services.issue_device_code(table=round_.tables.first())[1]


@pytest.fixture
def tournament(club_a: Any, organiser: Any) -> Tournament:
    return pairs_tournament(club_a)


def test_form_rename_and_dissolve_a_pair(tournament: Tournament, organiser: Any) -> None:
    client = client_for(organiser)
    a, b = [r.player for r in tournament.registrations.order_by("player__name")[:2]]
    response = client.post(
        f"/api/tournaments/{tournament.pk}/pairs/", {"players": [a.pk, b.pk]}, format="json"
    )
    assert response.status_code == 201, response.json()
    body = response.json()
    assert body["name"] == "P00 / P01"
    assert {p["id"] for p in body["players"]} == {a.pk, b.pk}
    assert tournament.registrations.filter(team_id=body["id"]).count() == 2
    again = client.post(
        f"/api/tournaments/{tournament.pk}/pairs/", {"players": [a.pk, b.pk]}, format="json"
    )
    assert again.status_code == 409 and again.json()["code"] == "already_paired"

    renamed = client.patch(f"/api/pairs/{body['id']}/", {"name": "Die Buben"}, format="json")
    assert renamed.status_code == 200 and renamed.json()["name"] == "Die Buben"
    listed = client.get(f"/api/tournaments/{tournament.pk}/pairs/").json()
    assert [p["name"] for p in listed] == ["Die Buben"]
    gone = client.delete(f"/api/pairs/{body['id']}/")
    assert gone.status_code == 204
    assert not Team.objects.filter(pk=body["id"]).exists()
    assert not tournament.registrations.filter(team__isnull=False).exists()


def test_draw_pairs_by_cards_pairs_everyone_present(tournament: Tournament, organiser: Any) -> None:
    client = client_for(organiser)
    response = client.post(
        f"/api/tournaments/{tournament.pk}/pairs/draw/",
        {"method": "cards", "seed": 4},
        format="json",
    )
    assert response.status_code == 201, response.json()
    body = response.json()
    assert len(body["pairs"]) == 4 and body["left_over"] is None and len(body["cards"]) == 8
    members = TeamMember.objects.filter(team__tournament=tournament)
    assert members.count() == 8
    assert Counter(members.values_list("team_id", flat=True)).most_common(1)[0][1] == 2
    # highest card with lowest
    order = sorted(body["cards"], key=lambda p: card_value(body["cards"][p]), reverse=True)
    team_of = dict(members.values_list("player_id", "team_id"))
    assert team_of[int(order[0])] == team_of[int(order[-1])]
    nothing_left = client.post(f"/api/tournaments/{tournament.pk}/pairs/draw/", {}, format="json")
    assert nothing_left.status_code == 400 and nothing_left.json()["code"] == "too_few_players"


def card_value(card: str) -> tuple[int, int]:
    return "789TJQKA".index(card[0]), "DHSC".index(card[1])


def test_registering_with_team_makes_a_member_and_the_draw_seats_the_pair(
    club_a: Any, organiser: Any
) -> None:
    tournament = pairs_tournament(club_a, players=0)
    client = client_for(organiser)
    teams = [Team.objects.create(tournament=tournament, name=f"Team {n}") for n in range(2)]
    for n in range(4):
        player = PlayerFactory()
        player.clubs.add(club_a)  # an organiser registers players of their own clubs only
        response = client.post(
            "/api/registrations/",
            {"tournament": tournament.pk, "player": player.pk, "team": teams[n % 2].pk},
            format="json",
        )
        assert response.status_code == 201, response.json()
        client.post(f"/api/registrations/{response.json()['id']}/check-in/")
    assert TeamMember.objects.filter(team__in=teams).count() == 4
    extra = PlayerFactory()
    extra.clubs.add(club_a)
    third = client.post(
        "/api/registrations/",
        {"tournament": tournament.pk, "player": extra.pk, "team": teams[0].pk},
        format="json",
    )
    assert third.status_code == 409 and third.json()["code"] == "pair_full"
    services.start_tournament(tournament=tournament)
    round_ = draw.draw_round(tournament=tournament, seed=2)
    match = Match.objects.get(round=round_)
    assert {match.home_team_id, match.away_team_id} == {t.pk for t in teams}
    assert round_.seats.count() == 4


@pytest.mark.parametrize("role", ["other_organiser", "stranger", "anonymous", "device"])
def test_pair_writes_refused_to_outsiders(
    tournament: Tournament,
    organiser: Any,
    other_organiser: Any,
    stranger: Any,
    device_code: str,
    role: str,
) -> None:
    client = outsiders(other_organiser, stranger, device_code)[role]
    a, b = [r.player.pk for r in tournament.registrations.all()[:2]]
    team = pairs.create_pair(
        tournament=tournament, players=[r.player for r in tournament.registrations.all()[2:4]]
    )
    before = (Team.objects.count(), TeamMember.objects.count(), Round.objects.count())
    answers = [
        client.post(f"/api/tournaments/{tournament.pk}/pairs/", {"players": [a, b]}, format="json"),
        client.post(f"/api/tournaments/{tournament.pk}/pairs/draw/", {}, format="json"),
        client.patch(f"/api/pairs/{team.pk}/", {"name": "X"}, format="json"),
        client.delete(f"/api/pairs/{team.pk}/"),
        client.post(f"/api/tournaments/{tournament.pk}/finals/", {"size": 4}, format="json"),
        client.post(f"/api/tournaments/{tournament.pk}/finals/next/"),
    ]
    statuses = [r.status_code for r in answers]
    assert all(s in (401, 403, 404) for s in statuses), statuses
    assert (Team.objects.count(), TeamMember.objects.count(), Round.objects.count()) == before
    assert Team.objects.get(pk=team.pk).name == team.name
    reads = client.get(f"/api/tournaments/{tournament.pk}/pairs/")
    assert reads.status_code == (403 if role == "device" else 200)


def test_private_tournament_pairs_and_bracket_are_404_to_outsiders(
    tournament: Tournament, other_organiser: Any
) -> None:
    Tournament.objects.filter(pk=tournament.pk).update(is_public=False)
    client = client_for(other_organiser)
    assert client.get(f"/api/tournaments/{tournament.pk}/pairs/").status_code == 404
    assert client.get(f"/api/tournaments/{tournament.pk}/bracket/").status_code == 404


def test_swiss_rounds_then_finals_of_four_to_the_placings(club_a: Any, organiser: Any) -> None:
    tournament = pairs_tournament(club_a, players=16, swiss=True)
    client = client_for(organiser)
    client.post(f"/api/tournaments/{tournament.pk}/pairs/draw/", {"seed": 8}, format="json")
    services.start_tournament(tournament=tournament)
    met: Counter[frozenset[int]] = Counter()
    for number in range(1, 4):
        round_ = draw.draw_round(tournament=tournament, seed=number)
        for match in round_.matches.all():
            met[frozenset((match.home_team_id, match.away_team_id))] += 1
        play_round(round_)
    assert set(met.values()) == {1}  # no rematch in three Swiss rounds of 8 pairs
    early = client.post(f"/api/tournaments/{tournament.pk}/finals/next/")
    assert early.status_code == 409 and early.json()["code"] == "finals_not_started"

    response = client.post(f"/api/tournaments/{tournament.pk}/finals/", {"size": 4}, format="json")
    assert response.status_code == 201, response.json()
    semis = Round.objects.get(pk=response.json()["id"])
    assert semis.stage == Round.Stage.SEMI and semis.status == Round.Status.DRAFT
    rows = client.get(f"/api/tournaments/{tournament.pk}/standings/?fresh=1").json()["data"]["rows"]
    seeds = [r["entrant"] for r in rows[:4]]
    slots = {
        m.bracket_slot: (m.home_team_id, m.away_team_id, m.home_seed, m.away_seed)
        for m in semis.matches.all()
    }
    assert slots == {"SF1": (seeds[0], seeds[3], 1, 4), "SF2": (seeds[1], seeds[2], 2, 3)}
    again = client.post(f"/api/tournaments/{tournament.pk}/finals/", {"size": 4}, format="json")
    assert again.status_code == 409
    blocked = client.post(f"/api/tournaments/{tournament.pk}/rounds/", {}, format="json")
    assert blocked.status_code == 409

    play_round(semis, home_wins=False)  # the away pairs (seeds 4 and 3) win
    response = client.post(f"/api/tournaments/{tournament.pk}/finals/next/")
    assert response.status_code == 201, response.json()
    final_round = Round.objects.get(pk=response.json()["id"])
    slots = {m.bracket_slot: (m.home_team_id, m.away_team_id) for m in final_round.matches.all()}
    assert slots == {"F": (seeds[2], seeds[3]), "P3": (seeds[0], seeds[1])}
    play_round(final_round, home_wins=True)
    done = client.post(f"/api/tournaments/{tournament.pk}/finals/next/")
    assert done.status_code == 409 and done.json()["code"] == "finals_complete"

    bracket = APIClient().get(f"/api/tournaments/{tournament.pk}/bracket/").json()
    assert [s["stage"] for s in bracket["stages"]] == ["semi", "final"]
    assert [(p["place"], p["team"]) for p in bracket["placings"]] == [
        (1, seeds[2]),
        (2, seeds[3]),
        (3, seeds[0]),
        (4, seeds[1]),
    ]
    # the finals do not change the standings of the preliminary rounds
    after = client.get(f"/api/tournaments/{tournament.pk}/standings/?fresh=1").json()
    assert [r["entrant"] for r in after["data"]["rows"][:4]] == seeds
    assert after["data"]["rows"][0]["played"] == 3


def test_round_robin_of_pairs_with_home_and_away(club_a: Any, organiser: Any) -> None:
    tournament = pairs_tournament(club_a, players=8, round_robin=True, home_and_away=True)
    pairs.draw_pairs(tournament=tournament, seed=3)
    services.start_tournament(tournament=tournament)
    fixtures: Counter[tuple[int, int]] = Counter()
    for number in range(1, 7):
        round_ = draw.draw_round(tournament=tournament, seed=number)
        assert round_.cost["kind"] == "round_robin"
        for match in round_.matches.all():
            fixtures[(match.home_team_id, match.away_team_id)] += 1
        services.publish_round(round_=round_)
        services.close_round(round_=round_, force=True)
    teams = list(tournament.teams.values_list("pk", flat=True))
    assert set(fixtures) == {(a, b) for a in teams for b in teams if a != b}
    refused = client_for(organiser).post(
        f"/api/tournaments/{tournament.pk}/rounds/", {}, format="json"
    )
    assert refused.status_code == 409 and refused.json()["code"] == "fixtures_exhausted"
