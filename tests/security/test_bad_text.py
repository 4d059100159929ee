"""Text an outside probe sends to every endpoint (issue 20): a lone surrogate is refused
where the API parses JSON (400 ``invalid_text``, translated), for anonymous callers and
organisers alike; names refuse invisible characters and words mixing look-alike
alphabets; a control character cannot reach a league's CSV or calendar."""

from __future__ import annotations

from typing import Any

import pytest
from django.core.exceptions import ValidationError

from klammern_site.parsers import has_lone_surrogate
from tests.conftest import Event
from tests.support.clients import APIClient
from tournaments.clubs.models import Club, Player
from tournaments.common.validators import validate_name
from tournaments.leagues.models import League

pytestmark = pytest.mark.django_db

SURROGATE = '"\\ud800"'  # as JSON text: the escape, not the character


def raw_post(client: APIClient, url: str, body: str, **headers: Any) -> Any:
    return client.post(url, body, content_type="application/json", **headers)


def assert_invalid_text(response: Any) -> None:
    assert response.status_code == 400, response.content
    body = response.json()
    assert body["code"] == "invalid_text"
    assert "Unicode" in body["detail"]


def test_token_and_signup_refuse_a_lone_surrogate(anonymous: APIClient) -> None:
    assert_invalid_text(
        raw_post(anonymous, "/api/auth/token/", f'{{"username": {SURROGATE}, "password": "x"}}')
    )
    body = f'{{"username": "anna", "email": "a@example.org", "password": {SURROGATE}}}'
    assert_invalid_text(raw_post(anonymous, "/api/auth/signup/", body))


def test_a_surrogate_in_a_key_or_deep_inside_is_refused(organiser_client: APIClient) -> None:
    body = f'{{"name": "Herbst", "club": 1, "x": [{{"y": [{SURROGATE}]}}], {SURROGATE}: 1}}'
    assert_invalid_text(raw_post(organiser_client, "/api/tournaments/", body))


def test_deal_entry_refuses_a_lone_surrogate(event: Event, device: APIClient) -> None:
    response = raw_post(
        device,
        f"/api/matches/{event.match1.pk}/deals/1/",
        f'{{"kind": {SURROGATE}}}',
        HTTP_IDEMPOTENCY_KEY="surrogate",
    )
    assert_invalid_text(response)
    assert not event.match1.deals.exists()


def test_the_refusal_is_translated(anonymous: APIClient) -> None:
    response = raw_post(
        anonymous,
        "/api/auth/token/",
        f'{{"username": {SURROGATE}}}',
        HTTP_ACCEPT_LANGUAGE="de",
    )
    assert response.status_code == 400 and response.json()["code"] == "invalid_text"
    assert "Unicode" in response.json()["detail"] and "Text" in response.json()["detail"]


# --- one validator for every name -------------------------------------------------------

LOOK_ALIKES = [
    ("\u0430dmin", "mixed_scripts"),  # Cyrillic а in a Latin word
    ("Ol\u0435g", "mixed_scripts"),  # Cyrillic е
    ("org\u200baniser", "invisible_characters"),  # zero-width space
    ("Anna\u2060", "invisible_characters"),  # word joiner
    ("\u3164", "invisible_characters"),  # Hangul filler
    ("Krone\rX-INJECT:1", "forbidden_characters"),  # a bare CR
    ("Saal\u2028B", "forbidden_characters"),  # line separator
]
REAL_NAMES = ["Jürgen", "Çelik", "Ольга", "Ολγα Παππά", "Straße", "Olga Ольга", "ΑΕΚ FC"]


@pytest.mark.parametrize(("name", "code"), LOOK_ALIKES)
def test_validator_refuses_look_alikes(name: str, code: str) -> None:
    with pytest.raises(ValidationError) as refused:
        validate_name(name)
    assert refused.value.code == code


@pytest.mark.parametrize("name", REAL_NAMES)
def test_names_in_one_script_stay_fine(name: str) -> None:
    validate_name(name)


def test_a_player_with_a_look_alike_name_is_refused(
    organiser_client: APIClient, club_a: Club
) -> None:
    response = organiser_client.post(
        "/api/players/", {"club": club_a.pk, "name": "\u0430nna"}, format="json"
    )
    assert response.status_code == 400 and "alphabets" in response.json()["name"][0]
    assert not Player.objects.exists()
    fine = organiser_client.post("/api/players/", {"club": club_a.pk, "name": "Ольга"})
    assert fine.status_code == 201


@pytest.mark.parametrize(
    ("field", "value"),
    [("name", "Liga\x1b"), ("season", "2025\r26"), ("name", "Liga\u202e")],
)
def test_league_fields_refuse_control_characters(
    organiser_client: APIClient, club_a: Club, field: str, value: str
) -> None:
    body = {"name": "Bodensee-Liga", "slug": "bodensee", field: value}
    response = organiser_client.post("/api/leagues/", body, format="json")
    assert response.status_code == 400 and field in response.json()
    assert not League.objects.exists()


def test_club_city_and_pair_names_refuse_control_characters(
    organiser_client: APIClient, club_a: Club
) -> None:
    created = organiser_client.post("/api/clubs/", {"name": "KC Neu", "city": "Be\rrn"})
    assert created.status_code == 400 and "city" in created.json()
    patched = organiser_client.patch(f"/api/clubs/{club_a.pk}/", {"city": "Konstanz\x07"})
    assert patched.status_code == 400 and "city" in patched.json()
    club_a.refresh_from_db()
    assert club_a.city == ""


# --- the check itself (klammern_site.parsers) ------------------------------------------


@pytest.mark.parametrize(
    ("data", "lone"),
    [
        ({"name": "Jürgen \U0001f0a1", "hands": [["♥A", "10"]]}, False),  # a pair: one char
        ({"name": "ab\ud800"}, True),
        ({"ok": [1, {"x\udfff": 2}]}, True),  # in a key
        ([[["\udc00"]]], True),
        ({"n": None, "f": 1.5, "b": True}, False),
    ],
)
def test_lone_surrogates_are_found_anywhere(data: object, lone: bool) -> None:
    assert has_lone_surrogate(data) is lone


def test_a_body_too_deep_for_the_encoder_is_walked() -> None:
    deep: list[object] = ["\ud800"]
    for _ in range(5000):  # deeper than the C encoder's recursion limit
        deep = [deep]
    assert has_lone_surrogate(deep)
    fine: list[object] = ["fine"]
    for _ in range(5000):
        fine = [fine]
    assert not has_lone_surrogate(fine)
