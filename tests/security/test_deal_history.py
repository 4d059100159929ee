"""Deal versions are append-only in PostgreSQL itself (games migration 0006): raw SQL can
neither delete, truncate nor change a version, except retiring the current version as a
correction does (with its successor in the same transaction), nor renumber a deal; no
plain session setting lifts that; a whole tournament can still be deleted in the admin."""

from __future__ import annotations

from typing import Any

import pytest
from django.db import DatabaseError, connection, transaction

from games.models import Deal, DealVersion
from tests.conftest import Event
from tests.factories import UserFactory, summary_record
from tests.support.clients import APIClient, Client
from tournaments.deals import services as deal_services
from tournaments.events.models import Tournament

pytestmark = [
    pytest.mark.django_db,
    pytest.mark.skipif(connection.vendor != "postgresql", reason="PostgreSQL triggers"),
]


@pytest.fixture
def corrected(event: Event) -> DealVersion:
    """Deal 1 of table 1, entered and corrected: version 1 is past, version 2 current."""
    deal_services.submit_deal(match=event.match1, number=1, record=summary_record())
    deal_services.correct_deal(
        match=event.match1,
        number=1,
        expected_version=1,
        record=summary_record(team0_points=90),
        reason="Tippfehler",
    )
    return DealVersion.objects.get(deal__match=event.match1, version=1)


def refused(sql: str, params: list[Any]) -> str:
    with pytest.raises(DatabaseError) as error, transaction.atomic(), connection.cursor() as c:
        c.execute(sql, params)
    return str(error.value)


def test_a_past_version_cannot_be_changed(corrected: DealVersion) -> None:
    message = refused("UPDATE games_dealversion SET points_0 = 999 WHERE id = %s", [corrected.pk])
    assert "Cannot update rows" in message
    refused("UPDATE games_dealversion SET record = '{}' WHERE id = %s", [corrected.pk])
    refused("UPDATE games_dealversion SET is_current = true WHERE id = %s", [corrected.pk])
    assert DealVersion.objects.get(pk=corrected.pk).points_0 == corrected.points_0


def test_no_version_can_be_deleted(corrected: DealVersion) -> None:
    message = refused("DELETE FROM games_dealversion WHERE id = %s", [corrected.pk])
    assert "Cannot delete rows" in message
    current = DealVersion.objects.get(deal=corrected.deal, is_current=True)
    refused("DELETE FROM games_dealversion WHERE id = %s", [current.pk])
    assert DealVersion.objects.filter(deal=corrected.deal).count() == 2


def test_the_current_version_can_only_be_retired(corrected: DealVersion) -> None:
    current = DealVersion.objects.get(deal=corrected.deal, is_current=True)
    refused(
        "UPDATE games_dealversion SET is_current = false, points_1 = 0 WHERE id = %s", [current.pk]
    )
    assert DealVersion.objects.get(pk=current.pk).is_current


def test_the_current_version_is_retired_only_with_a_successor(corrected: DealVersion) -> None:
    current = DealVersion.objects.get(deal=corrected.deal, is_current=True)
    message = refused_in_steps(
        [
            "SET CONSTRAINTS ALL IMMEDIATE",
            "UPDATE games_dealversion SET is_current = false WHERE id = %s",
        ],
        [[], [current.pk]],
    )
    assert "retired without a current successor" in message
    assert DealVersion.objects.get(pk=current.pk).is_current


def refused_in_steps(statements: list[str], params: list[list[Any]]) -> str:
    with pytest.raises(DatabaseError) as error, transaction.atomic(), connection.cursor() as c:
        for sql, values in zip(statements, params, strict=True):
            c.execute(sql, values)
    return str(error.value)


def test_history_cannot_be_truncated(corrected: DealVersion) -> None:
    for table in ("games_dealversion", "games_deal"):
        message = refused_in_steps(
            ["SET CONSTRAINTS ALL IMMEDIATE", f"TRUNCATE {table} CASCADE"], [[], []]
        )
        assert "Cannot truncate" in message
    assert DealVersion.objects.filter(deal=corrected.deal).count() == 2


def test_a_deal_keeps_its_number(corrected: DealVersion) -> None:
    message = refused("UPDATE games_deal SET number = 7 WHERE id = %s", [corrected.deal_id])
    assert "keeps its number" in message
    assert Deal.objects.get(pk=corrected.deal_id).number == 1


@pytest.mark.parametrize(
    "lift",
    [
        "SET klammern.delete_history = 'on'",
        "SET LOCAL klammern.delete_history = 'on'",
        "SELECT set_config('klammern.delete_history', 'on', false)",
        "SET pgtrigger.ignore = '{pgtrigger_deal_version_never_deleted_decb2}'",
    ],
)
def test_a_plain_setting_lifts_no_guard(corrected: DealVersion, lift: str) -> None:
    message = refused_in_steps(
        [lift, "DELETE FROM games_dealversion WHERE id = %s"], [[], [corrected.pk]]
    )
    assert "Cannot delete rows" in message
    message = refused_in_steps(
        [lift, "UPDATE games_dealversion SET points_0 = 1 WHERE id = %s"], [[], [corrected.pk]]
    )
    assert "Cannot update rows" in message
    assert DealVersion.objects.filter(deal=corrected.deal).count() == 2


def test_corrections_through_the_api_still_work(event: Event, device: APIClient) -> None:
    url = f"/api/matches/{event.match1.pk}/deals/1/"
    assert (
        device.post(
            url, summary_record(), format="json", headers={"Idempotency-Key": "a"}
        ).status_code
        == 201
    )
    fixed = device.put(
        url,
        summary_record(team0_points=100),
        format="json",
        headers={"Idempotency-Key": "b", "If-Match": '"1"'},
    )
    assert fixed.status_code == 200 and fixed.json()["version"] == 2
    assert list(
        DealVersion.objects.filter(deal__match=event.match1)
        .order_by("version")
        .values_list("is_current", flat=True)
    ) == [False, True]


def test_a_whole_tournament_can_be_deleted_in_the_admin(
    event: Event, corrected: DealVersion
) -> None:
    admin = UserFactory(username="root", is_staff=True, is_superuser=True)
    client = Client()
    client.force_login(admin)
    pk = event.tournament.pk
    response = client.post(f"/admin/tournaments/tournament/{pk}/delete/", {"post": "yes"})
    assert response.status_code == 302
    assert not Tournament.objects.filter(pk=pk).exists()
    assert not Deal.objects.exists() and not DealVersion.objects.exists()


def test_the_admin_offers_no_deletion_of_deals_or_versions(corrected: DealVersion) -> None:
    admin = UserFactory(username="root", is_staff=True, is_superuser=True)
    client = Client()
    client.force_login(admin)
    response = client.get(f"/admin/games/dealversion/{corrected.pk}/delete/")
    assert response.status_code == 403
    assert client.get(f"/admin/games/deal/{corrected.deal_id}/delete/").status_code == 403
    listing = client.get("/admin/games/dealversion/")
    assert listing.status_code == 200 and "delete_selected" not in listing.content.decode()
    assert DealVersion.objects.filter(deal=corrected.deal).count() == 2


@pytest.mark.django_db(transaction=True)
def test_the_test_runners_flush_still_empties_the_tables(event: Event) -> None:
    """A transactional test's data (deal versions included) is flushed after it by
    TRUNCATE, which the guard allows only in a transaction that lifted it."""
    deal_services.submit_deal(match=event.match1, number=1, record=summary_record())
    assert DealVersion.objects.exists()
    with pytest.raises(DatabaseError), transaction.atomic(), connection.cursor() as cursor:
        cursor.execute("TRUNCATE games_dealversion CASCADE")
    with transaction.atomic(), connection.cursor() as cursor:
        cursor.execute(
            "SELECT set_config('klammern.delete_history', pg_current_xact_id()::text, true)"
        )
        cursor.execute("TRUNCATE games_dealversion CASCADE")
    assert not DealVersion.objects.exists()
