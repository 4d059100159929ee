"""A Belote table's pages (issue 21): the hand record of a full Belote deal renders and
says in words that no perfect-play analysis applies, the console's match page lists each
deal's announcements, belote and capot, the console's deal page carries Belote's sheet,
and the standings CSV speaks of points, not Augen, in every language."""

from __future__ import annotations

import csv
import io
import random
import uuid
from typing import Any

import pytest

from games.engine import random_deal
from tests.conftest import client_for
from tests.factories import PlayerFactory
from tests.support.clients import Client
from tournaments.clubs.models import Club
from tournaments.draw import services as draw
from tournaments.events import services
from tournaments.events.models import Match

pytestmark = pytest.mark.django_db


@pytest.fixture
def table(organiser: Any) -> tuple[Match, Club]:
    club = Club.objects.create(name="Belote Club Nice", slug="belote-nice")
    club.organisers.add(organiser)
    tournament = services.create_tournament(
        club=club, name="Soirée", slug="soiree", rules_preset="belote", rules_options={}
    )
    for name in ("Aline", "Bruno", "Chloé", "Denis"):
        registration = services.register_player(
            tournament=tournament, player=PlayerFactory(name=name)
        )
        services.check_in_registration(registration=registration)
    services.start_tournament(tournament=tournament)
    round_ = services.publish_round(round_=draw.draw_round(tournament=tournament, seed=1))
    match = round_.matches.get()
    _, code = services.issue_device_code(table=match.table)
    rng = random.Random(5)
    dealer, number = 0, 1
    while number <= 3:
        record = random_deal(rng, dealer=dealer, rules="belote")
        if record["contract"]["kind"] == "thrown_in":
            continue
        if number == 3:  # a summary with a capot: all 162 card points and all 8 tricks
            record = {
                "format": "klammern-deal/1",
                "dealer": dealer,
                "upcard": "7S",
                "contract": {"kind": "belote", "declarer": (dealer + 1) % 4, "trump": "S"}
                | {"round": 1},
                "card_points": [0, 162] if dealer % 2 == 0 else [162, 0],
                "tricks_won": [0, 8] if dealer % 2 == 0 else [8, 0],
            }
        reply = client_for(device_code=code).post(
            f"/api/matches/{match.pk}/deals/{number}/",
            record,
            format="json",
            HTTP_IDEMPOTENCY_KEY=str(uuid.uuid4()),
        )
        assert reply.status_code == 201, reply.json()
        dealer, number = (dealer + 1) % 4, number + 1
    return match, club


def speaking(web: Client, language: str) -> Client:
    web.cookies["django_language"] = language
    return web


def test_a_full_belote_deal_has_a_hand_record_without_analysis(
    table: tuple[Match, Club], web: Client
) -> None:
    match, _ = table
    for language, words in (("fr", "Donne"), ("de", "Spiel"), ("nl", "Spel"), ("en", "Deal")):
        reply = speaking(web, language).get(f"/matches/{match.pk}/deals/1/hand/")
        assert reply.status_code == 200
        assert words in reply.content.decode()


def test_the_console_match_page_lists_announcements_belote_and_capot(
    table: tuple[Match, Club], web: Client
) -> None:
    match, _ = table
    page = speaking(web, "fr").get(f"/console/matches/{match.pk}/").content.decode()
    assert "Annonces" in page and "Belote" in page and "Capot" in page
    assert "Roem" not in page and "Pit" not in page
    capot_team = (
        "1+3"
        if match.deals.get(number=3).versions.get(is_current=True).result["capot"] == 0
        else "2+4"
    )
    assert capot_team in page


def test_the_console_deal_page_carries_belotes_sheet(
    table: tuple[Match, Club], web: Client
) -> None:
    match, _ = table
    page = speaking(web, "fr").get(f"/console/matches/{match.pk}/deals/3/").content.decode()
    assert "entry-belote" in page and "entry_belote.js" in page
    assert "Belote-rebelote" in page and "Les 8 plis (capot)" in page


@pytest.mark.parametrize(
    ("language", "delimiter", "points"),
    [("de", ";", "Punkte"), ("en", ",", "Points"), ("fr", ";", "Points"), ("nl", ";", "Punten")],
)
def test_the_standings_csv_speaks_of_points(
    table: tuple[Match, Club], web: Client, language: str, delimiter: str, points: str
) -> None:
    match, _ = table
    tournament = match.round.tournament
    reply = speaking(web, language).get(f"/console/tournaments/{tournament.pk}/standings.csv")
    assert reply.status_code == 200
    rows = list(csv.reader(io.StringIO(reply.content.decode("utf-8-sig")), delimiter=delimiter))
    head = rows[0]
    assert any(points in h for h in head), head
    assert not [h for h in head if "Augen" in h or "Roem" in h or "roem" in h], head
