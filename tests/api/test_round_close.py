"""Closing a round loses nothing: the console knows what each tablet still holds, a close
past unfinished, unconfirmed or waiting tables needs the override, a tablet that was
offline at the close still sends what was played before it, the organiser enters a
missing deal afterwards, and a thrown-in deal is not one of the planned deals."""

from __future__ import annotations

import uuid
from typing import Any

import pytest

from games.models import Deal
from tests.conftest import Event, client_for
from tests.factories import summary_record
from tests.support.clients import APIClient, Client
from tournaments.common.errors import Conflict
from tournaments.events import selectors, services
from tournaments.events.models import DeviceCredential, Match, Round

pytestmark = pytest.mark.django_db

THROWN_IN = {
    "format": "klammern-deal/1",
    "dealer": 0,
    "upcard": "8H",
    "contract": {"kind": "thrown_in"},
}


def post(client: APIClient, match: Match, number: int, record: dict[str, Any]) -> Any:
    return client.post(
        f"/api/matches/{match.pk}/deals/{number}/",
        record,
        format="json",
        HTTP_IDEMPOTENCY_KEY=str(uuid.uuid4()),
    )


def poll(event: Event, queued: int) -> None:
    """The tablet of table 1 polls its state, saying how many entries it holds."""
    response = Client().get(f"/t/{event.code1}/state/", {"queued": queued})
    assert response.status_code == 200


def test_the_poll_records_last_contact_and_waiting_entries(event: Event) -> None:
    poll(event, 2)
    credential = DeviceCredential.objects.usable().get(table=event.table1)
    assert credential.queued_entries == 2 and credential.last_seen_at is not None
    row = selectors.round_progress(event.round)[0]
    assert row["queued_entries"] == 2 and row["last_contact"] == credential.last_seen_at


def test_offline_entries_survive_a_forced_close(event: Event, organiser: Any) -> None:
    device = client_for(device_code=event.code1)
    for number in (1, 2):
        assert (
            post(device, event.match1, number, summary_record(dealer=(number - 1) % 4)).status_code
            == 201
        )
    poll(event, 2)  # deals 3 and 4 were entered while offline

    with pytest.raises(Conflict) as refused:
        services.close_round(round_=event.round)
    assert refused.value.code == "tables_unfinished"
    assert refused.value.params["waiting"] == "1"
    assert refused.value.params["unfinished"] == "1, 2"
    services.close_round(round_=event.round, force=True)

    for number in (3, 4):  # the tablet is back online and sends what it held
        assert (
            post(device, event.match1, number, summary_record(dealer=(number - 1) % 4)).status_code
            == 201
        )
    event.match1.refresh_from_db()
    assert event.match1.status == Match.Status.FINISHED
    assert Deal.objects.filter(match=event.match1).count() == 4


def test_unconfirmed_tables_block_the_close(event: Event) -> None:
    device = client_for(device_code=event.code1)
    for number in range(1, 5):
        post(device, event.match1, number, summary_record(dealer=(number - 1) % 4))
    with pytest.raises(Conflict) as refused:
        services.close_round(round_=event.round)
    assert refused.value.params["unconfirmed"] == "1"


def test_the_organiser_enters_a_missing_deal_after_the_close(event: Event, organiser: Any) -> None:
    services.close_round(round_=event.round, force=True)
    response = post(client_for(organiser), event.match2, 1, summary_record())
    assert response.status_code == 201
    assert Round.objects.get(pk=event.round.pk).status == Round.Status.CLOSED


def test_no_entries_once_the_tournament_is_finished(event: Event, organiser: Any) -> None:
    services.close_round(round_=event.round, force=True)
    services.finish_tournament(tournament=event.tournament)
    response = post(client_for(organiser), event.match2, 1, summary_record())
    assert response.status_code == 409 and response.json()["code"] == "tournament_finished"


def test_a_thrown_in_deal_is_not_a_planned_deal(event: Event) -> None:
    device = client_for(device_code=event.code1)
    assert post(device, event.match1, 1, summary_record()).status_code == 201
    # the same dealer (seat 1) deals again after the thrown-in deal 2
    assert post(device, event.match1, 2, {**THROWN_IN, "dealer": 1}).status_code == 201
    for number in (3, 4):
        assert (
            post(device, event.match1, number, summary_record(dealer=number - 2)).status_code == 201
        )
    event.match1.refresh_from_db()
    assert event.match1.status == Match.Status.OPEN  # 3 of 4 planned deals played
    assert post(device, event.match1, 5, summary_record(dealer=3)).status_code == 201
    event.match1.refresh_from_db()
    assert event.match1.status == Match.Status.FINISHED


def test_the_score_is_shown_in_the_matchs_own_terms(event: Event) -> None:
    device = client_for(device_code=event.code1)
    for number in range(1, 5):  # team 1 plays and makes every deal: 4 small points
        post(device, event.match1, number, summary_record(dealer=(number - 1) % 4, declarer=1))
    row = selectors.round_progress(event.round)[0]
    assert row["score"]["kind"] == "small_big"
    assert row["score"]["small"] == [0, 4] and row["score"]["big"] == [0, 0]
    assert row["score"]["laube"] == [False, True]
