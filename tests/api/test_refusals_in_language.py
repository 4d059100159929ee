"""Refusals the API writes itself (not the services') reach the caller in the caller's
language, with their stable code: a German tablet reads German."""

from __future__ import annotations

import uuid

import pytest

from tests.conftest import Event, client_for
from tests.factories import invalid_record, summary_record

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


@pytest.mark.parametrize(
    ("language", "contract", "points"),
    [
        (
            "fr",
            "L'atout Pique ne correspond pas à la couleur de la retourne Cœur pour ce jeu "
            "(Orgi\u00a0: même couleur, Kleines\u00a0: une autre couleur, Besser\u00a0: Trèfle).",
            "Les points de cartes 100:100 ne sont pas possibles.",
        ),
        (
            "nl",
            "Troef Schoppen past niet bij de kleur Harten van de opgedraaide kaart voor dit "
            "spel (Orgi: dezelfde kleur, Kleines: een andere kleur, Besser: klaveren).",
            "De kaartpunten 100:100 zijn niet mogelijk.",
        ),
        (
            "en",
            "Trump Spades does not fit the upcard's suit Hearts for this game (Orgi: same "
            "suit, Kleines: another suit, Besser: Clubs).",
            "The card points 100:100 are not possible.",
        ),
    ],
)
def test_the_engines_errors_reach_the_caller_in_its_language(
    event: Event, language: str, contract: str, points: str
) -> None:
    """Issue 21: ``errors[].message`` stayed the engine's English under any language; the
    code, field and params stay the engine's."""
    reply = client_for(device_code=event.code1).post(
        f"/api/matches/{event.match1.pk}/deals/1/",
        invalid_record(),
        format="json",
        HTTP_IDEMPOTENCY_KEY=str(uuid.uuid4()),
        HTTP_ACCEPT_LANGUAGE=language,
    )
    assert reply.status_code == 400
    errors = {e["code"]: e for e in reply.json()["errors"]}
    assert errors["contract_mismatch"]["message"] == contract
    assert errors["impossible_points"]["message"] == points
    assert errors["impossible_points"]["params"] == {"card_points": [100, 100]}
    assert errors["contract_mismatch"]["field"] == "contract.trump"
