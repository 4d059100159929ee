"""Which deals a match accepts, judged by the service for every caller: a gap among the
entered deals or the next number (``deal_not_next`` beyond it), dealt by the seat whose
turn it is (``wrong_dealer`` otherwise; ``engine.next_dealer``), also for corrections,
which may keep the dealer their deal was played with."""

from __future__ import annotations

import uuid
from typing import Any

import pytest
from django.db import transaction

from games.models import Deal, DealVersion
from tests.api.test_solo_tables import next_round, solo_record, solo_tournament
from tests.conftest import Event, client_for, make_event
from tests.factories import summary_record
from tests.support.clients import APIClient
from tournaments.clubs.models import Club
from tournaments.common.errors import Refused
from tournaments.deals.services import correct_deal, deleting_history, submit_deal
from tournaments.events.models import Match

pytestmark = pytest.mark.django_db

THROWN_IN = {"format": "klammern-deal/1", "upcard": "8H", "contract": {"kind": "thrown_in"}}


def post(client: APIClient, match: Match, number: int, record: dict[str, Any], **headers: Any):
    return client.post(
        f"/api/matches/{match.pk}/deals/{number}/",
        record,
        format="json",
        HTTP_IDEMPOTENCY_KEY=str(uuid.uuid4()),
        **headers,
    )


def put(client: APIClient, match: Match, number: int, record: dict[str, Any], *, version: int):
    return client.put(
        f"/api/matches/{match.pk}/deals/{number}/",
        record,
        format="json",
        HTTP_IDEMPOTENCY_KEY=str(uuid.uuid4()),
        HTTP_IF_MATCH=f'"{version}"',
    )


@pytest.fixture
def device(event: Event) -> APIClient:
    return client_for(device_code=event.code1)


def test_a_deal_beyond_the_next_number_is_refused(event: Event, device: APIClient) -> None:
    assert post(device, event.match1, 1, summary_record()).status_code == 201
    reply = post(device, event.match1, 3, summary_record(dealer=2), HTTP_ACCEPT_LANGUAGE="en")
    assert reply.status_code == 409
    assert reply.json() == {
        "code": "deal_not_next",
        "detail": "Deal 3 cannot be entered yet: the next deal of this table is deal 2.",
    }
    assert list(Deal.objects.filter(match=event.match1).values_list("number", flat=True)) == [1]


def test_the_organiser_is_refused_a_deal_beyond_the_next_number_too(
    event: Event, organiser_client: APIClient
) -> None:
    reply = post(organiser_client, event.match1, 2, summary_record(dealer=1))
    assert reply.status_code == 409 and reply.json()["code"] == "deal_not_next"
    assert not Deal.objects.exists()


def remove_deals(match: Match, *numbers: int) -> None:
    """A gap as older data may hold one (entries are in order since ``deal_not_next``)."""
    with deleting_history():
        Deal.objects.filter(match=match, number__in=numbers).delete()


def test_a_gap_is_filled_by_the_dealer_after_the_deal_before_it(
    event: Event, device: APIClient
) -> None:
    for number in (1, 2, 3):
        submit_deal(match=event.match1, number=number, record=summary_record(dealer=number - 1))
    remove_deals(event.match1, 2)
    refused = post(device, event.match1, 2, summary_record(dealer=2))
    assert refused.status_code == 400 and refused.json()["code"] == "wrong_dealer"
    assert post(device, event.match1, 2, summary_record(dealer=1)).status_code == 201


def test_a_gap_after_a_missing_deal_takes_the_dealer_the_table_names(
    club_a: Club, organiser: Any
) -> None:
    """The deals missing before it may have been thrown in: the rotation is not known."""
    event = make_event(club=club_a, deals=8)
    for number in (1, 2, 3, 4):
        submit_deal(match=event.match1, number=number, record=summary_record(dealer=number - 1))
    remove_deals(event.match1, 2, 3)
    device = client_for(device_code=event.code1)
    assert post(device, event.match1, 3, summary_record(dealer=1)).status_code == 201


def test_a_dealer_out_of_turn_is_refused_with_a_code(event: Event, device: APIClient) -> None:
    assert post(device, event.match1, 1, summary_record()).status_code == 201
    reply = post(device, event.match1, 2, summary_record(dealer=3), HTTP_ACCEPT_LANGUAGE="en")
    assert reply.status_code == 400
    body = reply.json()
    assert body["code"] == "wrong_dealer"
    assert body["detail"] == (
        "Deal 2 is dealt by seat 2, whose turn it is; the record names seat 4."
    )
    assert body["errors"] == [
        {
            "code": "wrong_dealer",
            "message": "Seat 4 may not deal this deal: it is Seat 2's turn to deal.",
            "field": "dealer",
            "params": {"seat": 3, "expected": 1},
        }
    ]
    assert Deal.objects.filter(match=event.match1).count() == 1


def test_the_first_deal_is_dealt_by_the_first_seat(event: Event, device: APIClient) -> None:
    reply = post(device, event.match1, 1, summary_record(dealer=1))
    assert reply.status_code == 400 and reply.json()["code"] == "wrong_dealer"


def test_after_a_thrown_in_deal_the_same_seat_deals_again(event: Event, device: APIClient) -> None:
    assert post(device, event.match1, 1, summary_record()).status_code == 201
    assert post(device, event.match1, 2, {**THROWN_IN, "dealer": 1}).status_code == 201
    assert post(device, event.match1, 3, summary_record(dealer=2)).json()["code"] == "wrong_dealer"
    assert post(device, event.match1, 3, summary_record(dealer=1)).status_code == 201


def test_three_players_pass_the_deal_on_after_a_thrown_in_one(club_a: Club) -> None:
    tournament = solo_tournament(club_a, 3)
    match = next_round(tournament, 1).matches.get()
    submit_deal(match=match, number=1, record=solo_record(0, 1, [30, 100, 32]))
    thrown_in = {"format": "klammern-deal/1", "dealer": 1, "contract": {"kind": "thrown_in"}}
    submit_deal(match=match, number=2, record=thrown_in)
    with pytest.raises(Refused) as refused, transaction.atomic():
        submit_deal(match=match, number=3, record=solo_record(1, 2, [30, 32, 100]))
    assert refused.value.code == "wrong_dealer"
    assert submit_deal(match=match, number=3, record=solo_record(2, 0, [100, 30, 32])).pk


def test_a_correction_keeps_its_dealer_or_takes_the_one_in_turn(
    event: Event, device: APIClient
) -> None:
    for number in (1, 2, 3):
        assert post(device, event.match1, number, summary_record(dealer=number - 1)).status_code
    moved = put(device, event.match1, 2, summary_record(dealer=2), version=1)
    assert moved.status_code == 400 and moved.json()["code"] == "wrong_dealer"
    # deal 2 was thrown in: seat 1 dealt deal 3 again, which the table corrects next
    assert put(device, event.match1, 2, {**THROWN_IN, "dealer": 1}, version=1).status_code == 200
    kept = put(device, event.match1, 3, summary_record(dealer=2, team0_points=90), version=1)
    assert kept.status_code == 200  # the dealer it was played with may stay
    in_turn = put(device, event.match1, 3, summary_record(dealer=1), version=2)
    assert in_turn.status_code == 200
    assert DealVersion.objects.get(deal__number=3, is_current=True).record["dealer"] == 1


def test_a_correction_of_the_first_deal_keeps_the_first_dealer(event: Event) -> None:
    submit_deal(match=event.match1, number=1, record=summary_record())
    with pytest.raises(Refused) as refused:
        correct_deal(
            match=event.match1, number=1, expected_version=1, record=summary_record(dealer=3)
        )
    assert refused.value.code == "wrong_dealer"


def test_a_thrown_in_deal_is_not_one_of_the_planned_ones(event: Event, device: APIClient) -> None:
    """Four planned deals: a thrown-in deal among them lets the numbers run to 5, and the
    match finishes with the fourth deal played, not with deal number 4."""
    match = event.match1
    entries = [
        (1, summary_record()),
        (2, {**THROWN_IN, "dealer": 1}),
        (3, summary_record(dealer=1)),
        (4, summary_record(dealer=2)),
    ]
    for number, record in entries:
        assert post(device, match, number, record).status_code == 201
        match.refresh_from_db()
        assert match.status == Match.Status.OPEN, number
    assert post(device, match, 5, summary_record(dealer=3)).status_code == 201
    match.refresh_from_db()
    assert match.status == Match.Status.FINISHED
