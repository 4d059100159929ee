"""The API's contract findings of the outside probe (issue 20): a body's keys that name
no field the request may change are refused with ``unknown_fields`` naming them (a club
PATCH ignored them and answered 200), and a correction's reason over 500 characters is
refused with ``reason_too_long`` (it was cut silently)."""

from __future__ import annotations

import pytest

from games.models import DealVersion
from tests.conftest import Event
from tests.factories import summary_record
from tests.support.clients import APIClient
from tournaments.clubs.models import Club
from tournaments.deals import services as deal_services

pytestmark = pytest.mark.django_db


def test_club_patch_refuses_fields_it_cannot_change(
    organiser_client: APIClient, club_a: Club
) -> None:
    response = organiser_client.patch(
        f"/api/clubs/{club_a.pk}/",
        {"name": "KC Neu", "slug": "neu", "created": "2020-01-01T00:00:00Z", "colour": "red"},
        format="json",
    )
    assert response.status_code == 400
    body = response.json()
    assert body["code"] == "unknown_fields"
    assert [e["field"] for e in body["errors"]] == ["colour", "created", "slug"]
    assert "colour, created, slug" in body["detail"]
    club_a.refresh_from_db()
    assert (club_a.name, club_a.slug) == ("KC Herzbube", "herzbube")
    fine = organiser_client.patch(f"/api/clubs/{club_a.pk}/", {"name": "KC Neu"}, format="json")
    assert fine.status_code == 200 and fine.json()["name"] == "KC Neu"


def test_unknown_fields_are_refused_on_create_too(
    organiser_client: APIClient, club_a: Club
) -> None:
    response = organiser_client.post(
        "/api/players/", {"club": club_a.pk, "name": "Anna", "id": 7}, format="json"
    )
    assert response.status_code == 400 and response.json()["code"] == "unknown_fields"


def correct(client: APIClient, event: Event, reason: str) -> object:
    return client.put(
        f"/api/matches/{event.match1.pk}/deals/1/",
        {"record": summary_record(team0_points=90), "reason": reason},
        format="json",
        headers={"Idempotency-Key": f"reason-{len(reason)}", "If-Match": '"1"'},
    )


def test_a_reason_over_500_characters_is_refused_not_cut(
    event: Event, organiser_client: APIClient
) -> None:
    deal_services.submit_deal(match=event.match1, number=1, record=summary_record())
    response = correct(organiser_client, event, "x" * 501)
    assert response.status_code == 400  # type: ignore[attr-defined]
    body = response.json()  # type: ignore[attr-defined]
    assert body["code"] == "reason_too_long" and "500" in body["detail"]
    assert DealVersion.objects.filter(deal__match=event.match1).count() == 1
    accepted = correct(organiser_client, event, "y" * 500)
    assert accepted.status_code == 200  # type: ignore[attr-defined]
    assert DealVersion.objects.get(is_current=True, deal__match=event.match1).reason == "y" * 500


def test_a_reason_refuses_control_characters(event: Event, organiser_client: APIClient) -> None:
    deal_services.submit_deal(match=event.match1, number=1, record=summary_record())
    response = correct(organiser_client, event, "Tippfehler\x1b[31m")
    assert response.status_code == 400  # type: ignore[attr-defined]
    assert response.json()["code"] == "reason_forbidden_characters"  # type: ignore[attr-defined]
