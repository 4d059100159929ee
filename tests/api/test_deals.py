"""Deal entry and correction: status, body and database for every role, idempotency,
duplicates (409), stale corrections (412) and confirmation."""

from __future__ import annotations

import random
import uuid
from typing import Any

import pytest
from rest_framework.fields import DateTimeField

from games.models import Deal, DealVersion, IdempotencyRecord
from tests.conftest import Event, client_for, make_event
from tests.factories import invalid_record, summary_record
from tests.support.clients import APIClient
from tournaments.deals import services
from tournaments.events.models import Match, Tournament

pytestmark = pytest.mark.django_db


def url(match: Match, number: int | None = None) -> str:
    base = f"/api/matches/{match.pk}/deals/"
    return base if number is None else f"{base}{number}/"


def post(client: APIClient, match: Match, number: int, record: dict, key: str | None = None):
    headers = {"HTTP_IDEMPOTENCY_KEY": key or str(uuid.uuid4())}
    return client.post(url(match, number), record, format="json", **headers)


def put(
    client: APIClient,
    match: Match,
    number: int,
    record: dict,
    *,
    version: Any,
    key: str | None = None,
):
    headers = {"HTTP_IDEMPOTENCY_KEY": key or str(uuid.uuid4())}
    if version is not None:
        headers["HTTP_IF_MATCH"] = f'"{version}"'
    return client.put(url(match, number), record, format="json", **headers)


def enter_all(client: APIClient, match: Match, deals: int = 4) -> None:
    for n in range(1, deals + 1):
        assert post(client, match, n, summary_record(dealer=(n - 1) % 4)).status_code == 201


# --- entering a deal ------------------------------------------------------------------


def test_device_enters_deal(event: Event, device: APIClient) -> None:
    response = post(device, event.match1, 1, summary_record())

    assert response.status_code == 201
    assert response["ETag"] == '"1"'
    body = response.json()
    assert body["number"] == 1 and body["version"] == 1
    assert body["result"]["points"] == [64, 100]
    assert body["result"]["winner_team"] == 1
    assert [v["version"] for v in body["history"]] == [1]
    version = DealVersion.objects.get(deal__match=event.match1, deal__number=1)
    assert version.is_current and version.created_by_device is not None
    assert (version.points_0, version.points_1, version.small_1) == (64, 100, 1)
    assert version.engine_version
    event.tournament.refresh_from_db()
    assert event.tournament.results_version == 1


@pytest.mark.parametrize(
    ("role", "expected"),
    [
        ("organiser", 201),
        ("other_organiser", 403),
        ("stranger", 403),
        ("anonymous", 401),
        ("device", 201),
        ("other_device", 403),
    ],
)
def test_enter_deal_per_role(event: Event, clients: dict, role: str, expected: int) -> None:
    response = post(clients[role], event.match1, 1, summary_record())

    assert response.status_code == expected
    assert Deal.objects.filter(match=event.match1).count() == (1 if expected == 201 else 0)
    if expected != 201:
        assert "detail" in response.json()


def test_invalid_record_is_rejected_with_engine_errors(event: Event, device: APIClient) -> None:
    response = post(device, event.match1, 1, invalid_record(), key="k1")

    assert response.status_code == 400
    body = response.json()
    assert "not valid" in body["detail"]
    assert {e["code"] for e in body["errors"]} == {"contract_mismatch", "impossible_points"}
    assert not Deal.objects.exists() and not DealVersion.objects.exists()
    assert not IdempotencyRecord.objects.exists()
    # the corrected record may be sent again with the same key
    assert post(device, event.match1, 1, summary_record(), key="k1").status_code == 201


@pytest.mark.parametrize(
    ("name", "value"),
    [("note", "table 4"), ("weis", []), ("stoeck", 0), ("roem", [0, 0]), ("turned", "7H")],
)
def test_a_field_this_game_has_not_is_refused_by_the_engine(
    event: Event, device: APIClient, name: str, value: Any
) -> None:
    # the Schieber's weis or the Klaverjas roem are no fields of a Klammern record
    response = post(device, event.match1, 1, {**summary_record(), name: value})

    assert response.status_code == 400
    body = response.json()
    assert body["code"] == "unknown_field"
    assert [(e["code"], e["field"], e["params"]) for e in body["errors"]] == [
        ("unknown_field", name, {"field": name})
    ]
    assert not Deal.objects.exists() and not IdempotencyRecord.objects.exists()


def test_an_unknown_field_comes_with_the_records_other_problems(
    event: Event, device: APIClient
) -> None:
    response = post(device, event.match1, 1, {**invalid_record(), "note": "x"})

    assert response.status_code == 400
    body = response.json()
    assert body["code"] == "unknown_field"
    assert [e["code"] for e in body["errors"]] == [
        "unknown_field",
        "contract_mismatch",
        "impossible_points",
    ]
    assert not Deal.objects.exists()


def test_missing_idempotency_key_is_400(event: Event, device: APIClient) -> None:
    response = device.post(url(event.match1, 1), summary_record(), format="json")

    assert response.status_code == 400
    assert "Idempotency-Key" in response.json()["detail"]
    assert not Deal.objects.exists()


def test_body_must_be_an_object(event: Event, device: APIClient) -> None:
    response = device.post(url(event.match1, 1), [1, 2], format="json", HTTP_IDEMPOTENCY_KEY="x")
    assert response.status_code == 400
    assert not Deal.objects.exists()


def test_retry_with_same_key_replays_first_response(event: Event, device: APIClient) -> None:
    first = post(device, event.match1, 1, summary_record(), key="same")
    again = post(device, event.match1, 1, summary_record(), key="same")

    assert first.status_code == again.status_code == 201
    assert again.json() == first.json()
    assert again["ETag"] == '"1"' and again["Idempotent-Replayed"] == "true"
    assert DealVersion.objects.count() == 1 and IdempotencyRecord.objects.count() == 1
    event.tournament.refresh_from_db()
    assert event.tournament.results_version == 1


def test_same_key_other_body_is_422(event: Event, device: APIClient) -> None:
    post(device, event.match1, 1, summary_record(), key="same")
    response = post(device, event.match1, 2, summary_record(team0_points=90), key="same")

    assert response.status_code == 422
    assert "different request" in response.json()["detail"]
    assert list(Deal.objects.values_list("number", flat=True)) == [1]


def test_second_entry_of_same_deal_is_409(
    event: Event, device: APIClient, organiser_client: APIClient
) -> None:
    assert post(device, event.match1, 1, summary_record()).status_code == 201
    response = post(organiser_client, event.match1, 1, summary_record(team0_points=90))

    assert response.status_code == 409
    assert response.json()["detail"] == "Deal 1 of this table was already entered."
    assert DealVersion.objects.get().points_0 == 64


def test_entry_of_a_deal_of_a_finished_match_is_409_already_entered(
    event: Event, device: APIClient
) -> None:
    enter_all(device, event.match1)
    response = post(device, event.match1, 4, summary_record(dealer=3, team0_points=90))

    assert response.status_code == 409
    assert response.json()["detail"] == "Deal 4 of this table was already entered."
    assert Deal.objects.filter(match=event.match1).count() == 4
    assert DealVersion.objects.filter(deal__number=4, points_0=90).count() == 0


def test_entered_deal_reports_its_own_id_and_time(event: Event, device: APIClient) -> None:
    """The answer names the deal and version as they are stored."""
    response = post(device, event.match1, 1, summary_record())

    version = DealVersion.objects.select_related("deal").get()
    assert response.status_code == 201
    assert version.deal.match_id == event.match1.pk and version.deal.number == 1
    assert version.is_current and version.created_by_device_id is not None
    assert response.json()["history"][0]["created"] == DateTimeField().to_representation(
        version.created
    )
    assert abs((version.deal.created - version.created).total_seconds()) < 5
    written = services.submit_deal(match=event.match1, number=2, record=summary_record(dealer=1))
    assert written.deal_id == written.deal.pk == Deal.objects.get(number=2).pk
    assert written.pk == DealVersion.objects.get(deal__number=2).pk
    assert written.deal.match == event.match1
    assert response.json()["record"] == version.record
    assert response.json()["result"] == version.result


def test_deal_beyond_planned_is_400(event: Event, device: APIClient) -> None:
    response = post(device, event.match1, 5, summary_record())

    assert response.status_code == 400
    assert "4 deals" in response.json()["detail"]
    assert not Deal.objects.exists()


def test_rules_other_than_tournament_are_rejected(event: Event, device: APIClient) -> None:
    record = summary_record(rules="klammern-hamburg")
    response = post(device, event.match1, 1, record)

    assert response.status_code == 400
    assert response.json()["errors"][0]["code"] == "rules_mismatch"
    assert not Deal.objects.exists()


def test_last_deal_finishes_match_and_blocks_more(event: Event, device: APIClient) -> None:
    enter_all(device, event.match1)
    event.match1.refresh_from_db()
    assert event.match1.status == Match.Status.FINISHED and event.match1.finished_at


def test_closed_round_takes_late_deals_until_the_tournament_is_finished(
    event: Event, device: APIClient, organiser_client: APIClient
) -> None:
    organiser_client.post(f"/api/rounds/{event.round.pk}/close/", {"force": True}, format="json")
    # a tablet that was offline at the close sends what was played; the organiser
    # enters a missing deal
    assert post(device, event.match1, 1, summary_record()).status_code == 201
    assert post(organiser_client, event.match1, 2, summary_record(dealer=1)).status_code == 201
    organiser_client.post(f"/api/tournaments/{event.tournament.pk}/finish/")
    assert post(device, event.match1, 3, summary_record(dealer=2)).status_code == 401  # codes ended
    response = post(organiser_client, event.match1, 3, summary_record(dealer=2))
    assert response.status_code == 409 and response.json()["code"] == "tournament_finished"
    assert Deal.objects.count() == 2


# --- reading deals --------------------------------------------------------------------


@pytest.mark.parametrize(
    ("role", "expected"),
    [
        ("organiser", 200),
        ("other_organiser", 200),
        ("stranger", 200),
        ("anonymous", 200),
        ("device", 200),
        ("other_device", 403),
    ],
)
def test_read_deal_per_role(
    event: Event, clients: dict, device: APIClient, role: str, expected: int
) -> None:
    post(device, event.match1, 1, summary_record())

    detail = clients[role].get(url(event.match1, 1))
    listing = clients[role].get(url(event.match1))

    assert detail.status_code == listing.status_code == expected
    if expected == 200:
        assert detail["ETag"] == '"1"'
        assert detail.json()["result"]["points"] == [64, 100]
        assert listing.json()["count"] == 1
        assert listing.json()["results"][0]["number"] == 1


def test_private_tournament_deals_hidden_from_public(event: Event, clients: dict) -> None:
    Tournament.objects.filter(pk=event.tournament.pk).update(is_public=False)
    for role, expected in [
        ("anonymous", 404),
        ("stranger", 404),
        ("other_organiser", 404),
        ("organiser", 200),
        ("device", 200),
    ]:
        assert clients[role].get(url(event.match1)).status_code == expected, role
        if role != "device":  # the match itself is answered alike
            match = clients[role].get(f"/api/matches/{event.match1.pk}/")
            assert match.status_code == (404 if expected == 404 else 200), role


def test_unknown_deal_is_404(event: Event, device: APIClient) -> None:
    assert device.get(url(event.match1, 3)).status_code == 404


# --- corrections ----------------------------------------------------------------------


def test_correction_creates_new_version(event: Event, device: APIClient) -> None:
    post(device, event.match1, 1, summary_record())
    response = put(device, event.match1, 1, summary_record(team0_points=120), version=1)

    assert response.status_code == 200
    assert response["ETag"] == '"2"'
    body = response.json()
    assert body["version"] == 2 and body["result"]["points"] == [120, 44]
    assert [(v["version"], v["is_current"]) for v in body["history"]] == [(1, False), (2, True)]
    current = DealVersion.objects.get(is_current=True)
    assert (current.version, current.points_0) == (2, 120)
    assert DealVersion.objects.count() == 2
    event.tournament.refresh_from_db()
    assert event.tournament.results_version == 2


def test_stale_correction_is_412(
    event: Event, device: APIClient, organiser_client: APIClient
) -> None:
    post(device, event.match1, 1, summary_record())
    assert (
        put(device, event.match1, 1, summary_record(team0_points=120), version=1).status_code == 200
    )

    response = put(organiser_client, event.match1, 1, summary_record(team0_points=30), version=1)

    assert response.status_code == 412
    assert "version 2" in response.json()["detail"]
    assert DealVersion.objects.get(is_current=True).points_0 == 120


def test_correction_without_if_match_is_428(event: Event, device: APIClient) -> None:
    post(device, event.match1, 1, summary_record())
    response = put(device, event.match1, 1, summary_record(team0_points=120), version=None)

    assert response.status_code == 428
    assert "If-Match" in response.json()["detail"]
    assert DealVersion.objects.count() == 1


def test_invalid_correction_keeps_current_version(event: Event, device: APIClient) -> None:
    post(device, event.match1, 1, summary_record())
    response = put(device, event.match1, 1, invalid_record(), version=1)

    assert response.status_code == 400
    assert response.json()["errors"]
    assert DealVersion.objects.get(is_current=True).version == 1


def test_correction_replay_and_422(event: Event, device: APIClient) -> None:
    post(device, event.match1, 1, summary_record())
    first = put(device, event.match1, 1, summary_record(team0_points=120), version=1, key="c")
    again = put(device, event.match1, 1, summary_record(team0_points=120), version=1, key="c")
    other = put(device, event.match1, 1, summary_record(team0_points=10), version=2, key="c")

    assert (first.status_code, again.status_code, other.status_code) == (200, 200, 422)
    assert again.json() == first.json()
    assert DealVersion.objects.count() == 2


@pytest.mark.parametrize(
    ("role", "expected"),
    [
        ("organiser", 200),
        ("other_organiser", 403),
        ("stranger", 403),
        ("anonymous", 401),
        ("device", 200),
        ("other_device", 403),
    ],
)
def test_correct_deal_per_role(
    event: Event, clients: dict, device: APIClient, role: str, expected: int
) -> None:
    post(device, event.match1, 1, summary_record())
    response = put(clients[role], event.match1, 1, summary_record(team0_points=120), version=1)

    assert response.status_code == expected
    assert DealVersion.objects.count() == (2 if expected == 200 else 1)


def test_correct_unknown_deal_is_404(event: Event, organiser_client: APIClient) -> None:
    response = put(organiser_client, event.match1, 2, summary_record(), version=1)
    assert response.status_code == 404
    assert "not been entered" in response.json()["detail"]


# --- confirmation ---------------------------------------------------------------------


def confirm(client: APIClient, match: Match, team: int):
    return client.post(f"/api/matches/{match.pk}/confirm/", {"team": team}, format="json")


def test_confirmed_match_only_changed_by_organiser(
    event: Event, device: APIClient, organiser_client: APIClient
) -> None:
    enter_all(device, event.match1)
    assert confirm(device, event.match1, 0).status_code == 200
    response = confirm(device, event.match1, 1)
    assert response.status_code == 200 and response.json()["status"] == "confirmed"
    assert response.json()["confirmed_teams"] == [0, 1]

    by_device = put(device, event.match1, 2, summary_record(dealer=1, team0_points=120), version=1)
    assert by_device.status_code == 409
    assert "only the organiser" in by_device.json()["detail"]

    by_organiser = put(
        organiser_client, event.match1, 2, summary_record(dealer=1, team0_points=120), version=1
    )
    assert by_organiser.status_code == 200
    event.match1.refresh_from_db()
    assert event.match1.status == Match.Status.CONFIRMED
    assert DealVersion.objects.get(deal__number=2, is_current=True).created_by_user is not None


def test_correction_before_both_confirmed_resets_confirmations(
    event: Event, device: APIClient
) -> None:
    enter_all(device, event.match1)
    confirm(device, event.match1, 0)
    assert (
        put(device, event.match1, 1, summary_record(team0_points=120), version=1).status_code == 200
    )
    assert not event.match1.confirmations.exists()


@pytest.mark.parametrize(
    ("role", "expected"),
    [
        ("organiser", 200),
        ("other_organiser", 403),
        ("stranger", 403),
        ("anonymous", 401),
        ("device", 200),
        ("other_device", 403),
    ],
)
def test_confirm_per_role(
    event: Event, clients: dict, device: APIClient, role: str, expected: int
) -> None:
    enter_all(device, event.match1)
    response = confirm(clients[role], event.match1, 0)

    assert response.status_code == expected
    assert event.match1.confirmations.count() == (1 if expected == 200 else 0)


def test_confirm_unfinished_match_is_409(event: Event, device: APIClient) -> None:
    response = confirm(device, event.match1, 0)
    assert response.status_code == 409
    assert not event.match1.confirmations.exists()


# --- with the engine's own deals ------------------------------------------------------


def test_full_random_deals_and_running_score(event: Event, device: APIClient) -> None:
    from games.engine import random_deal

    rng = random.Random(5)
    for n in range(1, 5):
        response = post(device, event.match1, n, random_deal(rng, dealer=(n - 1) % 4))
        assert response.status_code == 201, response.json()
        assert response.json()["result"]["mode"] == "full"

    body = device.get("/api/device/").json()

    assert body["status"] == "finished" and len(body["deals"]) == 4
    small_big = body["running_score"]["small_big"]
    assert len(small_big["history"]) == sum(
        1 for v in DealVersion.objects.all() if v.outcome != "thrown_in"
    )


def test_liga_match_ends_at_target(club_a: Any, organiser: Any) -> None:
    liga = make_event(club=club_a, liga=True, seed=11)
    device = client_for(device_code=liga.code1)
    for n in range(1, 6):  # 10 match points per deal to team 1
        assert (
            post(
                device,
                liga.match1,
                n,
                summary_record(dealer=(n - 1) % 4, declarer=1, team0_points=64),
            ).status_code
            == 201
        )
    liga.match1.refresh_from_db()
    assert liga.match1.status == "open"

    assert (
        post(
            device, liga.match1, 6, summary_record(dealer=1, declarer=1, team0_points=64)
        ).status_code
        == 201
    )
    liga.match1.refresh_from_db()
    assert liga.match1.status == "finished"
    late = post(device, liga.match1, 7, summary_record(dealer=2))
    assert late.status_code == 409 and "finished" in late.json()["detail"]
    score = device.get("/api/device/").json()["running_score"]["liga"]
    assert score["points"] == [36, 60] and score["winner"] == 1
