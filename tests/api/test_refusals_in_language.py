"""Refusals the API writes itself (not the services') reach the caller in the caller's
language, with their stable code: a German tablet reads German."""

from __future__ import annotations

import uuid

import pytest

from tests.conftest import Event, client_for
from tests.factories import summary_record

pytestmark = pytest.mark.django_db


@pytest.mark.parametrize(
    ("language", "detail"),
    [
        ("de", "Dieses Gerät gehört zu einem anderen Tisch."),
        ("en", "This device belongs to another table."),
        ("nl", "Dit apparaat hoort bij een andere tafel."),
        ("fr", "Cet appareil appartient à une autre table."),
    ],
)
def test_a_device_at_another_table_is_told_in_its_language(
    event: Event, language: str, detail: str
) -> None:
    reply = client_for(device_code=event.code1).post(
        f"/api/matches/{event.match2.pk}/deals/1/",
        summary_record(),
        format="json",
        HTTP_IDEMPOTENCY_KEY=str(uuid.uuid4()),
        HTTP_ACCEPT_LANGUAGE=language,
    )
    assert reply.status_code == 403
    assert reply.json() == {"code": "permission_denied", "detail": detail}


def test_a_wrong_page_size_is_told_in_the_callers_language(event: Event) -> None:
    reply = client_for().get("/api/tournaments/?page_size=0", HTTP_ACCEPT_LANGUAGE="de")
    assert reply.status_code == 400
    assert reply.json()["detail"] == "page_size muss eine ganze Zahl von 1 bis 200 sein."
