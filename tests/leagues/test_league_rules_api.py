"""A league's rules and web address are checked when the league is made or changed, as a
tournament's are and by the same checks: an unknown preset, options that are no object
or name no option (``unknown_rules``), a game the league of clubs does not play
(``rules_format_mismatch``), and a web address that is not lower case (400 ``invalid``,
the field named) are refused, and nothing is stored; before, the league was stored and
only opening its first match day failed."""

from __future__ import annotations

from typing import Any

import pytest

from games import profiles
from tests.leagues.conftest import LeagueWorld
from tournaments.events.models import Tournament
from tournaments.leagues.models import Division, League
from tournaments.leagues.serializers import NextSeasonSerializer

pytestmark = pytest.mark.django_db

NOT_A_LEAGUE_GAME = next(key for key, profile in profiles.PROFILES.items() if not profile.league)
BAD_RULES = [
    {"rules_preset": "nonsense"},
    {"rules_options": "Abc"},
    {"rules_options": ["trump"]},
    {"rules_options": {"no_such_option": 1}},
    {"rules_preset": "nonsense", "rules_options": "Abc"},
]


def refused(reply: Any, status: int, code: str) -> dict[str, Any]:
    assert reply.status_code == status, reply.content
    body = reply.json()
    assert body["code"] == code and body["detail"], body
    return body


@pytest.mark.parametrize("rules", BAD_RULES)
def test_a_league_with_unknown_rules_is_not_created(world: LeagueWorld, rules: Any) -> None:
    client = world.client("organiser")
    body = {"name": "Unsinn", "slug": "unsinn", **rules}
    refused(client.post("/api/leagues/", body, format="json"), 400, "unknown_rules")
    assert not League.objects.filter(slug="unsinn").exists()
    # the tournaments answer the same rules with the same code
    tournament = {"club": world.team_a.club_id, "name": "Unsinn", "slug": "unsinn", **rules}
    refused(client.post("/api/tournaments/", tournament, format="json"), 400, "unknown_rules")
    assert not Tournament.objects.filter(slug="unsinn").exists()


def test_the_probes_league_is_refused_whole(world: LeagueWorld) -> None:
    """The probe's body: nonsense rules and a mixed-case address; no divisions follow."""
    body = {
        "name": "Unsinn",
        "slug": "Unsinn-Liga",
        "rules_preset": "nonsense",
        "rules_options": "Abc",
    }
    reply = world.client("organiser").post("/api/leagues/", body, format="json")
    assert reply.status_code == 400
    assert not League.objects.filter(name="Unsinn").exists()
    assert Division.objects.count() == 1


def test_a_game_the_league_does_not_play_is_refused(world: LeagueWorld) -> None:
    body = {"name": "Anders", "slug": "anders", "rules_preset": NOT_A_LEAGUE_GAME}
    reply = world.client("organiser").post("/api/leagues/", body, format="json")
    refused(reply, 400, "rules_format_mismatch")
    assert not League.objects.filter(slug="anders").exists()


@pytest.mark.parametrize(
    "preset", [key for key, profile in profiles.PROFILES.items() if profile.league]
)
def test_every_league_game_is_accepted(world: LeagueWorld, preset: str) -> None:
    body = {"name": "Gut", "slug": "gut", "rules_preset": preset, "rules_options": {}}
    reply = world.client("organiser").post("/api/leagues/", body, format="json")
    assert reply.status_code == 201, reply.content
    assert League.objects.get(slug="gut").rules_preset == preset


@pytest.mark.parametrize("slug", ["Unsinn-Liga", "UNSINN", "unsinn liga", "unsinn/liga"])
def test_a_web_address_not_in_lower_case_is_refused(world: LeagueWorld, slug: str) -> None:
    client = world.client("organiser")
    body = refused(
        client.post("/api/leagues/", {"name": "Unsinn", "slug": slug}, format="json"),
        400,
        "invalid",
    )
    assert body["slug"] and body["detail"].startswith("slug: ")
    assert not League.objects.filter(name="Unsinn").exists()
    tournament = {"club": world.team_a.club_id, "name": "Unsinn", "slug": slug}
    body = refused(client.post("/api/tournaments/", tournament, format="json"), 400, "invalid")
    assert body["slug"]
    assert not Tournament.objects.filter(name="Unsinn").exists()


def test_a_mixed_case_address_is_named_in_lower_case() -> None:
    serializer = NextSeasonSerializer(data={"season": "2026/27", "slug": "Bodensee-2026"})
    assert not serializer.is_valid()
    assert "bodensee-2026" in str(serializer.errors["slug"][0])


@pytest.mark.parametrize("rules", BAD_RULES)
def test_changing_to_unknown_rules_is_refused(world: LeagueWorld, rules: Any) -> None:
    client = world.client("league_organiser")
    reply = client.patch(f"/api/leagues/{world.league.pk}/", rules, format="json")
    refused(reply, 400, "unknown_rules")
    world.league.refresh_from_db()
    assert world.league.rules_preset == profiles.DEFAULT_PRESET
    assert world.league.rules_options == {}


def test_changing_to_a_game_the_league_does_not_play_is_refused(world: LeagueWorld) -> None:
    client = world.client("league_organiser")
    reply = client.patch(
        f"/api/leagues/{world.league.pk}/", {"rules_preset": NOT_A_LEAGUE_GAME}, format="json"
    )
    refused(reply, 400, "rules_format_mismatch")
    world.league.refresh_from_db()
    assert world.league.rules_preset == profiles.DEFAULT_PRESET


def test_known_rules_are_changed(world: LeagueWorld) -> None:
    other = next(
        key
        for key, profile in profiles.PROFILES.items()
        if profile.league and key != profiles.DEFAULT_PRESET
    )
    client = world.client("league_organiser")
    reply = client.patch(f"/api/leagues/{world.league.pk}/", {"rules_preset": other}, format="json")
    assert reply.status_code == 200, reply.content
    world.league.refresh_from_db()
    assert world.league.rules_preset == other
