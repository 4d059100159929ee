"""A revoke on the tablet's list of deals names the player who revoked (the record's revoke
seat), not the taker the line names first (issue 35: "♦ · Élodie Roux renonce" when
Marie Dupont revoked), in every game."""

from __future__ import annotations

import re
import uuid
from typing import Any

import pytest

from tests.conftest import client_for
from tests.factories import PlayerFactory
from tests.support.clients import Client
from tournaments.clubs.models import Club
from tournaments.draw import services as draw
from tournaments.events import services
from tournaments.events.models import Match

pytestmark = pytest.mark.django_db

NAMES = ("Élodie Roux", "Bruno Petit", "Marie Dupont", "Denis Martin")
TAKE_AND_REVOKE: dict[str, dict[str, Any]] = {
    "klammern": {
        "upcard": "7H",
        "contract": {"kind": "orgi", "declarer": 1, "trump": "H"},
        "card_points": [30, 40],
        "revoke": {"seat": 2, "card": "AS"},
    },
    "klaverjas-rotterdam": {
        "contract": {"kind": "klaverjas", "declarer": 1, "trump": "H"},
        "card_points": [30, 40],
        "revoke": {"seat": 2, "card": "AS"},
    },
    "belote": {
        "upcard": "7S",
        "contract": {"kind": "belote", "declarer": 1, "trump": "S", "round": 1},
        "card_points": [30, 40],
        "revoke": {"seat": 2, "card": "7C"},
    },
    "schieber": {
        "contract": {"kind": "schieber", "chooser": 1, "mode": "trump", "trump": "H"}
        | {"pushed": False},
        "card_points": [30, 40],
        "revoke": {"seat": 2, "card": "AS"},
    },
    "klammern-2": {
        "contract": {"kind": "take", "declarer": 1, "trump": "H"},
        "card_points": [30, 40],
        "revoke": {"seat": 0, "card": "AS"},
    },
    "klammern-3": {
        "contract": {"kind": "take", "declarer": 1, "trump": "H"},
        "card_points": [30, 40, 10],
        "revoke": {"seat": 2, "card": "AS"},
    },
}
TAKE_AND_REVOKE["klammern-hamburg"] = TAKE_AND_REVOKE["klammern"]


def revoked_table(club: Club, preset: str) -> tuple[Match, str]:
    players = 2 if preset == "klammern-2" else 3 if preset == "klammern-3" else 4
    tournament = services.create_tournament(
        club=club, name=f"Soirée {preset}", slug=f"soiree-{preset}", rules_preset=preset
    )
    for name in NAMES[:players]:
        registration = services.register_player(
            tournament=tournament, player=PlayerFactory(name=name)
        )
        services.check_in_registration(registration=registration)
    services.start_tournament(tournament=tournament)
    round_ = services.publish_round(round_=draw.draw_round(tournament=tournament, seed=1))
    match = round_.matches.get()
    _, code = services.issue_device_code(table=match.table)
    record = {"format": "klammern-deal/1", "dealer": 0, **TAKE_AND_REVOKE[preset]}
    reply = client_for(device_code=code).post(
        f"/api/matches/{match.pk}/deals/1/",
        record,
        format="json",
        HTTP_IDEMPOTENCY_KEY=str(uuid.uuid4()),
    )
    assert reply.status_code == 201, reply.json()
    return match, code


def seat_name(match: Match, seat: int) -> str:
    return str(match.table.seats.get(position=seat).player.name)


@pytest.mark.parametrize("preset", sorted(TAKE_AND_REVOKE))
@pytest.mark.parametrize(("language", "word"), [("fr", "renonce"), ("en", "revoke")])
def test_a_revoke_names_the_player_who_revoked(
    organiser: Any, web: Client, preset: str, language: str, word: str
) -> None:
    club = Club.objects.create(name="Cercle de Nice", slug="cercle-nice")
    club.organisers.add(organiser)
    match, code = revoked_table(club, preset)
    revoker = seat_name(match, TAKE_AND_REVOKE[preset]["revoke"]["seat"])
    taker = seat_name(match, 1)
    assert revoker != taker
    web.cookies["django_language"] = language
    page = web.get(f"/t/{code}/").content.decode()
    line = page.split('<li data-deal="1">')[1].split("</li>")[0]
    text = re.sub(r"\s+", " ", re.sub(r"<[^>]+>", " ", line))
    badge = re.search(r'<span class="badge[^"]*is-warn[^"]*">([^<]*)</span>', line)
    assert badge is not None, line
    if preset.startswith("klaverjas"):
        word = "verzaakt"  # Klaverjas's own word in every language
    colon = " : " if language == "fr" else ": "  # French puts a space before a colon
    assert badge.group(1).strip().lower() == f"{word}{colon}{revoker}".lower()
    assert taker not in badge.group(1) and revoker in text


@pytest.mark.parametrize("preset", ["klammern", "belote", "schieber"])
def test_the_console_names_the_player_who_revoked(organiser: Any, web: Client, preset: str) -> None:
    """The organiser's match page and the deal's history say who revoked as well."""
    club = Club.objects.create(name="Cercle de Nice", slug="cercle-nice")
    club.organisers.add(organiser)
    match, _ = revoked_table(club, preset)
    revoker = seat_name(match, TAKE_AND_REVOKE[preset]["revoke"]["seat"])
    web.cookies["django_language"] = "en"
    for url in (f"/console/matches/{match.pk}/", f"/console/matches/{match.pk}/deals/1/"):
        page = web.get(url).content.decode()
        text = re.sub(r"\s+", " ", re.sub(r"<[^>]+>", " ", page))
        assert f"revoke: {revoker}".lower() in text.lower(), url
