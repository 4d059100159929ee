"""``GET /api/matches/{match}/deals/{number}/line/?after=<plays>[&card=<card>]``: a
perfect line from a position of a deal, or after a card the record did not play there;
clear errors with stable codes for bad input; visible as the hand record is."""

from __future__ import annotations

from typing import Any

import pytest

from games.analysis_services import analyse_missing_deals
from games.models import DealAnalysis
from tests.conftest import Event, client_for
from tests.factories import summary_record
from tests.support.clients import APIClient, Client
from tests.support.hand_records import COSTLY_DEAL, COSTLY_PLAY
from tournaments.deals import services
from tournaments.events import services as tournament_services

pytestmark = pytest.mark.django_db

PLAY, SEAT, CARD, COST, BEST = COSTLY_PLAY


@pytest.fixture
def analysed(event: Event) -> Event:
    services.submit_deal(match=event.match1, number=1, record=COSTLY_DEAL)
    services.submit_deal(match=event.match1, number=2, record=summary_record(dealer=1))
    analyse_missing_deals()
    return event


def line_url(event: Event, query: str, number: int = 1) -> str:
    return f"/api/matches/{event.match1.pk}/deals/{number}/line/?{query}"


def stored_plays(event: Event) -> list[dict]:
    row = DealAnalysis.objects.get(version__deal__match=event.match1, version__deal__number=1)
    return row.analysis["plays"]


def test_the_line_from_a_position(analysed: Event, organiser_client: APIClient) -> None:
    for client in (client_for(device_code=analysed.code1), organiser_client):
        response = client.get(line_url(analysed, f"after={PLAY}"))
        assert response.status_code == 200, response.content
        body = response.json()
        assert body["version"] == 1 and body["after"] == PLAY and "card" not in body
        assert len(body["line"]) == 32 - PLAY and body["line"][0]["seat"] == SEAT
        assert body["line"][0]["card"] in BEST
        assert body["par"] == stored_plays(analysed)[PLAY - 1]["par"]


def test_the_line_after_the_card_the_record_played(
    analysed: Event, organiser_client: APIClient
) -> None:
    body = organiser_client.get(line_url(analysed, f"after={PLAY}&card={CARD}")).json()
    assert body["card"] == CARD and body["cost"] == COST
    assert body["line"][0] == {"play": PLAY, "trick": PLAY // 4 + 1, "seat": SEAT, "card": CARD}
    assert body["par"] == stored_plays(analysed)[PLAY]["par"]
    best = organiser_client.get(line_url(analysed, f"after={PLAY}&card={BEST[0]}")).json()
    assert best["cost"] == 0 and best["par"] == stored_plays(analysed)[PLAY - 1]["par"]


@pytest.mark.parametrize(
    "query, code",
    [
        ("", "invalid"),
        ("after=abc", "invalid"),
        ("after=-1", "invalid"),
        ("after=33", "bad_position"),
        (f"after={PLAY}&card=ZZ", "bad_card"),
        (f"after={PLAY}&card=7H", "bad_card"),  # not in the hand of the seat to play
    ],
)
def test_bad_input_is_a_clear_error(
    analysed: Event, organiser_client: APIClient, query: str, code: str
) -> None:
    response = organiser_client.get(line_url(analysed, query))
    assert response.status_code == 400, response.content
    body = response.json()
    assert body["code"] == code and body["detail"]


def test_a_summary_has_no_line(analysed: Event, organiser_client: APIClient) -> None:
    response = organiser_client.get(line_url(analysed, "after=0", number=2))
    assert response.status_code == 400
    assert response.json()["code"] == "summary_not_analysable"
    assert organiser_client.get(line_url(analysed, "after=0", number=3)).status_code == 404


def test_others_only_after_the_close_and_where_allowed(
    analysed: Event, anonymous: APIClient, other_organiser_client: APIClient
) -> None:
    url = line_url(analysed, "after=0")
    for client in (anonymous, other_organiser_client, client_for(device_code=analysed.code2)):
        assert client.get(url).status_code == 404
    tournament_services.close_round(round_=analysed.round, force=True)
    assert anonymous.get(url).status_code == 200
    analysed.tournament.hand_records_public = False
    analysed.tournament.save(update_fields=["hand_records_public"])
    assert anonymous.get(url).status_code == 404


def test_the_pages_session_may_ask_too(analysed: Event, organiser: Any) -> None:
    web = Client()
    web.force_login(organiser)  # the organiser's hand record page, logged in
    response = web.get(line_url(analysed, f"after={PLAY}&card={CARD}"))
    assert response.status_code == 200 and response.json()["cost"] == COST


def test_the_schema_documents_the_endpoint(anonymous: APIClient) -> None:
    paths = anonymous.get("/api/schema/", HTTP_ACCEPT="application/json").json()["paths"]
    assert "/api/matches/{match_id}/deals/{number}/line/" in paths
