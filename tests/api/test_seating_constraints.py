"""Seating constraints through the API: a player's fixed table and forbidden pairings.
Every endpoint for every persona (status, body, database afterwards), the refusals with
their messages, and the next draw honouring both."""

from __future__ import annotations

from itertools import combinations
from typing import Any

import pytest

from tests.conftest import ROLES, Event
from tests.factories import PlayerFactory
from tests.support.clients import APIClient
from tournaments.draw import services as draw
from tournaments.events import services
from tournaments.events.models import ForbiddenPairing, Registration, Round, Tournament

pytestmark = pytest.mark.django_db

OK, CREATED, NO_CONTENT = 200, 201, 204
# role order: organiser, other_organiser, stranger, anonymous, device, other_device
BY_REGISTRATION = [OK, 404, 404, 401, 403, 403]
BY_TOURNAMENT = [OK, 403, 403, 401, 403, 403]  # the tournament is public: visible, not theirs


def expect(statuses: list[int]) -> list[tuple[str, int]]:
    return list(zip(ROLES, statuses, strict=True))


def registrations(event: Event) -> list[Registration]:
    return list(event.tournament.registrations.select_related("player").order_by("player_id"))


@pytest.fixture
def pairing(event: Event) -> ForbiddenPairing:
    first, second = registrations(event)[:2]
    return services.forbid_pairing(
        tournament=event.tournament, player_a=first.player, player_b=second.player
    )


# --- every persona against every endpoint -------------------------------------------


@pytest.mark.parametrize(("role", "expected"), expect(BY_REGISTRATION))
def test_fixed_table_per_role(event: Event, clients: dict, role: str, expected: int) -> None:
    registration = registrations(event)[0]

    response = clients[role].post(
        f"/api/registrations/{registration.pk}/fixed-table/", {"table": 2}, format="json"
    )

    assert response.status_code == expected, response.content[:300]
    registration.refresh_from_db()
    if expected == OK:
        body = response.json()
        assert body["id"] == registration.pk and body["fixed_table"] == 2
        assert body["player_name"] == registration.player.name
        assert registration.fixed_table == 2
    else:
        assert "detail" in response.json()
        assert registration.fixed_table is None


@pytest.mark.parametrize(("role", "expected"), expect(BY_TOURNAMENT))
def test_list_forbidden_pairings_per_role(
    event: Event, clients: dict, pairing: ForbiddenPairing, role: str, expected: int
) -> None:
    response = clients[role].get(f"/api/tournaments/{event.tournament.pk}/forbidden-pairings/")

    assert response.status_code == expected, response.content[:300]
    if expected == OK:
        assert response.json() == [
            {
                "id": pairing.pk,
                "tournament": event.tournament.pk,
                "player_a": pairing.player_a_id,
                "player_a_name": pairing.player_a.name,
                "player_b": pairing.player_b_id,
                "player_b_name": pairing.player_b.name,
            }
        ]
    else:
        assert "detail" in response.json()


@pytest.mark.parametrize(("role", "expected"), expect([CREATED, *BY_TOURNAMENT[1:]]))
def test_create_forbidden_pairing_per_role(
    event: Event, clients: dict, role: str, expected: int
) -> None:
    first, second = registrations(event)[2:4]

    response = clients[role].post(
        f"/api/tournaments/{event.tournament.pk}/forbidden-pairings/",
        {"player_a": second.player_id, "player_b": first.player_id},  # either order
        format="json",
    )

    assert response.status_code == expected, response.content[:300]
    stored = list(ForbiddenPairing.objects.values_list("player_a", "player_b"))
    if expected == CREATED:
        body = response.json()
        assert (body["player_a"], body["player_b"]) == (first.player_id, second.player_id)
        assert body["player_a_name"] == first.player.name
        assert body["tournament"] == event.tournament.pk
        assert stored == [(first.player_id, second.player_id)]  # lower id first
    else:
        assert "detail" in response.json()
        assert stored == []


@pytest.mark.parametrize(("role", "expected"), expect([NO_CONTENT, *BY_REGISTRATION[1:]]))
def test_delete_forbidden_pairing_per_role(
    event: Event, clients: dict, pairing: ForbiddenPairing, role: str, expected: int
) -> None:
    response = clients[role].delete(f"/api/forbidden-pairings/{pairing.pk}/")

    assert response.status_code == expected, response.content[:300]
    assert ForbiddenPairing.objects.filter(pk=pairing.pk).exists() == (expected != NO_CONTENT)
    if expected != NO_CONTENT:
        assert "detail" in response.json()


def test_private_tournament_is_not_found_for_other_clubs(
    event: Event, clients: dict, pairing: ForbiddenPairing
) -> None:
    Tournament.objects.filter(pk=event.tournament.pk).update(is_public=False)
    path = f"/api/tournaments/{event.tournament.pk}/forbidden-pairings/"
    assert clients["organiser"].get(path).status_code == OK
    assert clients["other_organiser"].get(path).status_code == 404
    assert clients["stranger"].post(path, {}, format="json").status_code == 404
    assert (
        clients["anonymous"].get("/api/tournaments/999999/forbidden-pairings/").status_code == 401
    )
    assert (
        clients["organiser"].get("/api/tournaments/999999/forbidden-pairings/").status_code == 404
    )


# --- fixed tables: behaviour ---------------------------------------------------------


def fix(client: APIClient, registration: Registration, table: Any) -> Any:
    return client.post(
        f"/api/registrations/{registration.pk}/fixed-table/", {"table": table}, format="json"
    )


def test_fixed_table_is_cleared_with_null(event: Event, organiser_client: APIClient) -> None:
    registration = registrations(event)[0]
    assert fix(organiser_client, registration, 3).json()["fixed_table"] == 3

    response = fix(organiser_client, registration, None)

    assert response.status_code == OK and response.json()["fixed_table"] is None
    registration.refresh_from_db()
    assert registration.fixed_table is None


@pytest.mark.parametrize("table", [0, -1, 1000, "zwei", True])
def test_fixed_table_must_be_a_table_number(
    event: Event, organiser_client: APIClient, table: Any
) -> None:
    registration = registrations(event)[0]

    response = fix(organiser_client, registration, table)

    assert response.status_code == 400 and "table" in response.json()
    registration.refresh_from_db()
    assert registration.fixed_table is None


def test_fixed_table_needs_the_table_field(event: Event, organiser_client: APIClient) -> None:
    response = organiser_client.post(
        f"/api/registrations/{registrations(event)[0].pk}/fixed-table/", {}, format="json"
    )
    assert response.status_code == 400 and "table" in response.json()


def test_at_most_four_players_per_fixed_table(event: Event, organiser_client: APIClient) -> None:
    regs = registrations(event)
    for registration in regs[:4]:
        assert fix(organiser_client, registration, 1).status_code == OK

    response = fix(organiser_client, regs[4], 1)

    assert response.status_code == 409
    assert response.json()["detail"] == "Four players are already fixed to table 1."
    assert Registration.objects.filter(fixed_table=1).count() == 4
    # a withdrawn player's pin does not count
    services.withdraw_registration(registration=regs[0])
    assert fix(organiser_client, regs[4], 1).status_code == OK


def test_fixed_table_refused_when_the_tournament_is_finished(
    event: Event, organiser_client: APIClient
) -> None:
    registration = registrations(event)[0]
    Tournament.objects.filter(pk=event.tournament.pk).update(status=Tournament.Status.FINISHED)

    for table in (2, None):
        response = fix(organiser_client, registration, table)
        assert response.status_code == 409
        assert response.json()["detail"] == "The tournament is finished."
    registration.refresh_from_db()
    assert registration.fixed_table is None


def test_fixed_table_only_for_individual_tournaments(
    event: Event, organiser_client: APIClient
) -> None:
    Tournament.objects.filter(pk=event.tournament.pk).update(format=Tournament.Format.PAIRS)
    registration = registrations(event)[0]

    response = fix(organiser_client, registration, 2)

    assert response.status_code == 409
    assert response.json()["detail"] == "Fixed tables apply only to individual tournaments."
    assert fix(organiser_client, registration, None).status_code == OK  # clearing is fine


# --- forbidden pairings: behaviour -----------------------------------------------------


def forbid(client: APIClient, tournament: Tournament, a: int, b: int) -> Any:
    return client.post(
        f"/api/tournaments/{tournament.pk}/forbidden-pairings/",
        {"player_a": a, "player_b": b},
        format="json",
    )


def test_duplicate_pairing_is_refused_in_either_order(
    event: Event, organiser_client: APIClient, pairing: ForbiddenPairing
) -> None:
    a, b = pairing.player_a, pairing.player_b
    for first, second in ((a, b), (b, a)):
        response = forbid(organiser_client, event.tournament, first.pk, second.pk)
        assert response.status_code == 409
        assert response.json()["detail"] == f"{a.name} and {b.name} are already kept apart."
    assert ForbiddenPairing.objects.count() == 1


def test_pairing_stored_reversed_elsewhere_still_counts_as_duplicate(
    event: Event, organiser_client: APIClient
) -> None:
    """A pair entered in the admin the other way round is found too."""
    low, high = registrations(event)[:2]
    ForbiddenPairing.objects.create(
        tournament=event.tournament, player_a=high.player, player_b=low.player
    )
    response = forbid(organiser_client, event.tournament, low.player_id, high.player_id)
    assert response.status_code == 409 and "already kept apart" in response.json()["detail"]
    assert ForbiddenPairing.objects.count() == 1


def test_same_player_twice_is_refused(event: Event, organiser_client: APIClient) -> None:
    player = registrations(event)[0].player_id

    response = forbid(organiser_client, event.tournament, player, player)

    assert response.status_code == 400
    assert response.json()["detail"] == "Choose two different players."
    assert not ForbiddenPairing.objects.exists()


def test_unregistered_player_is_refused(event: Event, organiser_client: APIClient) -> None:
    outsider = PlayerFactory(name="Fremder")
    outsider.clubs.add(event.club)

    response = forbid(
        organiser_client, event.tournament, registrations(event)[0].player_id, outsider.pk
    )

    assert response.status_code == 400
    assert response.json()["detail"] == "Fremder is not registered in this tournament."
    missing = forbid(organiser_client, event.tournament, registrations(event)[0].player_id, 999999)
    assert missing.status_code == 400 and "player_b" in missing.json()
    # a player of no club of the organiser's is answered as one that does not exist
    stranger = PlayerFactory(name="Unbekannt")
    unknown = forbid(
        organiser_client, event.tournament, registrations(event)[0].player_id, stranger.pk
    )
    assert unknown.status_code == 400 and "player_b" in unknown.json()
    assert "Unbekannt" not in unknown.content.decode()
    assert not ForbiddenPairing.objects.exists()


def test_forbidding_refused_when_finished(event: Event, organiser_client: APIClient) -> None:
    Tournament.objects.filter(pk=event.tournament.pk).update(status=Tournament.Status.FINISHED)
    a, b = registrations(event)[:2]

    response = forbid(organiser_client, event.tournament, a.player_id, b.player_id)

    assert response.status_code == 409
    assert response.json()["detail"] == "The tournament is finished."
    assert not ForbiddenPairing.objects.exists()


def test_pairings_of_another_tournament_are_not_listed(
    event: Event, organiser_client: APIClient, pairing: ForbiddenPairing, club_a: Any
) -> None:
    other = services.create_tournament(club=club_a, name="Winter", slug="winter")
    response = organiser_client.get(f"/api/tournaments/{other.pk}/forbidden-pairings/")
    assert response.status_code == OK and response.json() == []


# --- the next draw honours both ------------------------------------------------------


def tables_of(round_: Round) -> dict[int, set[int]]:
    return {
        table.number: {seat.player_id for seat in table.seats.all()}
        for table in round_.tables.prefetch_related("seats")
    }


def test_next_draw_respects_forbidden_pairing_and_fixed_table(
    organiser_client: APIClient, club_a: Any
) -> None:
    tournament = services.create_tournament(club=club_a, name="Frühjahr", slug="fruehjahr")
    regs = []
    for _ in range(8):
        registration = services.register_player(tournament=tournament, player=PlayerFactory())
        regs.append(services.check_in_registration(registration=registration))
    services.start_tournament(tournament=tournament)

    # Without constraints, this seed seats some pair together and someone at table 1.
    unconstrained = tables_of(draw.draw_round(tournament=tournament, seed=11))
    together = next(
        pair for seats in unconstrained.values() for pair in combinations(sorted(seats), 2)
    )
    fixed = next(r for r in regs if r.player_id in unconstrained[1] and r.player_id not in together)
    Round.objects.filter(tournament=tournament).delete()  # as if it had never been drawn

    assert forbid(organiser_client, tournament, *together).status_code == CREATED
    assert fix(organiser_client, fixed, 2).status_code == OK

    round_ = draw.draw_round(tournament=tournament, seed=11)

    drawn = tables_of(round_)
    assert sorted(len(seats) for seats in drawn.values()) == [4, 4]
    assert fixed.player_id in drawn[2]
    assert not any(set(together) <= seats for seats in drawn.values())
    assert round_.cost["forbidden"] == 0 and round_.cost["ignored_pins"] == []


def test_constraints_do_not_change_a_round_already_drawn(
    event: Event, organiser_client: APIClient
) -> None:
    before = tables_of(event.round)
    a, b = sorted(before[1])[:2]

    assert forbid(organiser_client, event.tournament, a, b).status_code == CREATED

    assert tables_of(event.round) == before  # takes effect from the next draw only
