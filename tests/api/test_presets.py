"""A tournament plays any engine preset; unknown presets and options are refused when the
tournament is created or changed (API and console), never later deal by deal."""

from __future__ import annotations

from typing import Any

import pytest

from tests.conftest import client_for
from tournaments.clubs.models import Club
from tournaments.events.models import Tournament

pytestmark = pytest.mark.django_db

PRESETS = [
    "klammern",
    "klammern-hamburg",
    "klaverjas-rotterdam",
    "klaverjas-amsterdam",
    "klammern-2",
    "klammern-3",
    "belote",
]


def create(organiser: Any, club: Club, **fields: Any) -> Any:
    body = {"club": club.pk, "name": "Avond", "slug": fields.pop("slug", "avond"), **fields}
    return client_for(organiser).post("/api/tournaments/", body, format="json")


@pytest.mark.parametrize("preset", PRESETS)
def test_every_engine_preset_can_be_played(organiser: Any, club_a: Club, preset: str) -> None:
    reply = create(organiser, club_a, rules_preset=preset)
    assert reply.status_code == 201, reply.json()
    assert Tournament.objects.get(pk=reply.json()["id"]).rules_preset == preset


@pytest.mark.parametrize(
    ("preset", "options", "word"),
    [
        ("no-such-game", {}, "no-such-game"),
        ("klaverjas-rotterdam", {"roem_doubled": True}, "roem_doubled"),
        ("klaverjas-rotterdam", {"deals_per_match": "16"}, "deals_per_match"),
        ("klammern-3", {"players": 4}, "players"),
    ],
)
def test_unknown_preset_or_option_is_refused_on_create(
    organiser: Any, club_a: Club, preset: str, options: dict[str, Any], word: str
) -> None:
    reply = create(organiser, club_a, rules_preset=preset, rules_options=options)
    assert reply.status_code == 400
    assert reply.json()["code"] == "unknown_rules"
    assert word in reply.json()["detail"]
    assert not Tournament.objects.exists()


@pytest.mark.parametrize("method", ["patch", "put"])
def test_unknown_preset_or_option_is_refused_on_change(
    organiser: Any, club_a: Club, method: str
) -> None:
    tid = create(organiser, club_a, rules_preset="klaverjas-rotterdam").json()["id"]
    client = client_for(organiser)
    body: dict[str, Any] = {"rules_options": {"no_such_option": 1}}
    if method == "put":
        body.update(name="Avond", slug="avond", rules_preset="klaverjas-rotterdam")
    reply = getattr(client, method)(f"/api/tournaments/{tid}/", body, format="json")
    assert reply.status_code == 400
    assert reply.json()["code"] == "unknown_rules"
    reply = client.patch(
        f"/api/tournaments/{tid}/", {"rules_preset": "no-such-game"}, format="json"
    )
    assert reply.status_code == 400
    assert reply.json()["code"] == "unknown_rules" and "no-such-game" in reply.json()["detail"]
    tournament = Tournament.objects.get(pk=tid)
    assert (tournament.rules_preset, tournament.rules_options) == ("klaverjas-rotterdam", {})


def test_klaverjas_match_length_comes_from_the_rules(organiser: Any, club_a: Club) -> None:
    tid = create(organiser, club_a, rules_preset="klaverjas-rotterdam").json()["id"]
    tournament = Tournament.objects.get(pk=tid)
    assert (tournament.match_mode, tournament.deals_per_match) == ("deals", 16)
    client = client_for(organiser)
    short = {"rules_options": {"match_by": "target", "target_points": 750}}
    assert client.patch(f"/api/tournaments/{tid}/", short, format="json").status_code == 200
    tournament.refresh_from_db()
    assert (tournament.match_mode, tournament.liga_target) == ("liga", 750)


def test_two_or_three_players_only_as_individual_tournament(organiser: Any, club_a: Club) -> None:
    reply = create(organiser, club_a, rules_preset="klammern-3", format="pairs")
    assert reply.status_code == 400
    assert reply.json()["code"] == "rules_format_mismatch"


def test_console_form_offers_the_presets_and_refuses_others(
    client: Any, organiser: Any, club_a: Club
) -> None:
    client.force_login(organiser)
    page = client.get("/console/")
    for preset in PRESETS:
        assert f'value="{preset}"' in page.content.decode()
    base = {
        "club": club_a.pk,
        "name": "Avond",
        "format": "individual",
        "match_mode": "deals",
        "deals_per_match": 8,
        "liga_target": 51,
        "is_public": "on",
    }
    refused = client.post("/console/", {**base, "rules_preset": "skat"})
    assert refused.status_code == 200
    assert not Tournament.objects.exists()
    created = client.post("/console/", {**base, "rules_preset": "klaverjas-amsterdam"})
    assert created.status_code == 302
    tournament = Tournament.objects.get()
    assert (tournament.rules_preset, tournament.deals_per_match) == ("klaverjas-amsterdam", 16)


def test_belote_is_created_in_the_console_with_its_own_match_length(
    client: Any, organiser: Any, club_a: Club
) -> None:
    """Issue 21: Belote is a platform preset through its profile: 12 deals a match."""
    client.force_login(organiser)
    page = client.get("/console/", HTTP_ACCEPT_LANGUAGE="fr").content.decode()
    assert 'value="belote"' in page and "Belote" in page
    body = {
        "club": club_a.pk,
        "name": "Soirée belote",
        "format": "individual",
        "match_mode": "deals",
        "deals_per_match": 8,
        "liga_target": 51,
        "is_public": "on",
        "rules_preset": "belote",
    }
    assert client.post("/console/", body).status_code == 302
    tournament = Tournament.objects.get()
    assert (tournament.rules_preset, tournament.match_mode) == ("belote", "deals")
    assert tournament.deals_per_match == 12
