"""Every error of a refused deal (``errors[].message``) reaches the caller in the caller's
language, as ``detail`` does: the engine writes its messages in English, and the API's
exception handler fills each code's translated template with the error's parameters
(seats from 1, suits by name, cards by rank and suit)."""

from __future__ import annotations

import uuid
from typing import Any

import pytest

from tests.conftest import Event, client_for
from tests.factories import invalid_record, summary_record

pytestmark = pytest.mark.django_db


def post(event: Event, number: int, record: dict[str, Any], language: str) -> Any:
    return client_for(device_code=event.code1).post(
        f"/api/matches/{event.match1.pk}/deals/{number}/",
        record,
        format="json",
        HTTP_IDEMPOTENCY_KEY=str(uuid.uuid4()),
        HTTP_ACCEPT_LANGUAGE=language,
    )


def messages(reply: Any) -> dict[str, str]:
    return {error["code"]: error["message"] for error in reply.json()["errors"]}


@pytest.mark.parametrize(
    ("language", "expected"),
    [
        (
            "nl",
            {
                "contract_mismatch": "Troef Schoppen past niet bij de kleur Harten van de "
                "opgedraaide kaart voor dit spel (Orgi: dezelfde kleur, Kleines: een andere "
                "kleur, Besser: klaveren).",
                "impossible_points": "De kaartpunten 100:100 zijn niet mogelijk.",
            },
        ),
        (
            "de",
            {
                "contract_mismatch": "Trumpf Pik passt bei aufgedeckter Farbe Herz nicht zu "
                "diesem Spiel (Orgi: gleiche Farbe, Kleines: andere Farbe, Besser: Kreuz).",
                "impossible_points": "Die Kartenpunkte 100:100 sind so nicht möglich.",
            },
        ),
    ],
)
def test_the_engines_errors_come_in_the_callers_language(
    event: Event, language: str, expected: dict[str, str]
) -> None:
    reply = post(event, 1, invalid_record(), language)
    assert reply.status_code == 400 and reply.json()["code"] == "invalid_record"
    assert messages(reply) == expected
    assert reply.json()["errors"][0]["params"] == {"kind": "orgi", "trump": "S", "upcard_suit": "H"}


@pytest.mark.parametrize(
    ("language", "expected"),
    [
        ("nl", "Het spelverslag van dit spel heeft geen veld note: verwijder het."),
        ("de", "Die Spielangabe dieses Spiels hat kein Feld note: bitte entfernen."),
        ("en", "This game's deal record has no field note: remove it."),
    ],
)
def test_an_unknown_field_is_told_in_the_callers_language(
    event: Event, language: str, expected: str
) -> None:
    reply = post(event, 1, {**summary_record(), "note": "x"}, language)
    assert reply.json()["code"] == "unknown_field"
    assert reply.json()["errors"] == [
        {"code": "unknown_field", "message": expected, "field": "note", "params": {"field": "note"}}
    ]


@pytest.mark.parametrize(
    ("language", "detail", "message"),
    [
        (
            "nl",
            "Spel 2 wordt gedeeld door plaats 2, die aan de beurt is; het verslag noemt plaats 1.",
            "Plaats 1 is niet aan de beurt om te delen, maar Plaats 2.",
        ),
        (
            "de",
            "Spiel 2 gibt Platz 2, der an der Reihe ist; die Angabe nennt Platz 1.",
            "Platz 1 ist nicht mit Geben an der Reihe, sondern Platz 2.",
        ),
    ],
)
def test_a_dealer_out_of_turn_is_told_in_the_callers_language(
    event: Event, language: str, detail: str, message: str
) -> None:
    assert post(event, 1, summary_record(), language).status_code == 201
    reply = post(event, 2, summary_record(dealer=0), language)
    assert reply.json()["detail"] == detail
    assert messages(reply) == {"wrong_dealer": message}


def test_english_callers_read_the_same_templates(event: Event) -> None:
    reply = post(event, 1, invalid_record(), "en")
    assert messages(reply)["impossible_points"] == "The card points 100:100 are not possible."
