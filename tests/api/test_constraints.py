"""The database itself refuses duplicates: these tests bypass the services."""

from __future__ import annotations

import pytest
from django.db import IntegrityError, transaction

from games.models import Deal, DealVersion, IdempotencyRecord
from tests.conftest import Event
from tests.factories import PlayerFactory
from tournaments.events.models import Round, Seat

pytestmark = pytest.mark.django_db

RESULT = {"valid": True, "outcome": "made"}


def version(deal: Deal, number: int, *, current: bool) -> DealVersion:
    return DealVersion.objects.create(
        deal=deal,
        version=number,
        record={},
        result=RESULT,
        engine_version="t",
        is_current=current,
        outcome="made",
    )


def test_second_current_version_is_refused(event: Event) -> None:
    deal = Deal.objects.create(match=event.match1, number=1)
    version(deal, 1, current=True)

    with pytest.raises(IntegrityError), transaction.atomic():
        version(deal, 2, current=True)
    version(deal, 2, current=False)  # a non-current one is fine
    assert deal.versions.filter(is_current=True).count() == 1


def test_duplicate_version_number_is_refused(event: Event) -> None:
    deal = Deal.objects.create(match=event.match1, number=1)
    version(deal, 1, current=False)
    with pytest.raises(IntegrityError), transaction.atomic():
        version(deal, 1, current=False)


def test_duplicate_deal_number_is_refused(event: Event) -> None:
    Deal.objects.create(match=event.match1, number=1)
    with pytest.raises(IntegrityError), transaction.atomic():
        Deal.objects.create(match=event.match1, number=1)
    Deal.objects.create(match=event.match2, number=1)
    assert Deal.objects.count() == 2


def test_deal_number_zero_is_refused(event: Event) -> None:
    with pytest.raises(IntegrityError), transaction.atomic():
        Deal.objects.create(match=event.match1, number=0)


def test_idempotency_key_unique_per_scope() -> None:
    IdempotencyRecord.objects.create(
        scope="device:1", key="k", request_hash="h", status_code=201, response_body={}
    )
    with pytest.raises(IntegrityError), transaction.atomic():
        IdempotencyRecord.objects.create(
            scope="device:1", key="k", request_hash="x", status_code=201, response_body={}
        )
    IdempotencyRecord.objects.create(
        scope="device:2", key="k", request_hash="h", status_code=201, response_body={}
    )


def test_one_open_round_per_tournament(event: Event) -> None:
    with pytest.raises(IntegrityError), transaction.atomic():
        Round.objects.create(tournament=event.tournament, number=2)
    Round.objects.filter(pk=event.round.pk).update(status=Round.Status.CLOSED)
    Round.objects.create(tournament=event.tournament, number=2)


def test_player_sits_once_per_round(event: Event) -> None:
    seat = event.table1.seats.first()
    assert seat is not None
    with pytest.raises(IntegrityError), transaction.atomic():
        Seat.objects.create(table=event.table2, round=event.round, position=0, player=seat.player)
    with pytest.raises(IntegrityError), transaction.atomic():
        Seat.objects.create(
            table=event.table1, round=event.round, position=0, player=PlayerFactory()
        )
