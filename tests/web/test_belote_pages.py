"""A Belote table's pages (issue 21): the hand record of a full Belote deal renders, with
its perfect-play analysis once the sweep has run (par per team, each card's value in
the step-through, the perfect line, the makeable table), the console's match page lists each
deal's announcements, belote and capot, the console's deal page carries Belote's sheet,
and the standings CSV speaks of points, not Augen, in every language."""

from __future__ import annotations

import csv
import io
import random
import uuid
from typing import Any

import pytest

from games import engine
from games.analysis_services import analyse_missing_deals
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


def test_a_full_belote_deal_has_a_hand_record(table: tuple[Match, Club], web: Client) -> None:
    match, _ = table
    for language, words in (("fr", "Donne"), ("de", "Spiel"), ("nl", "Spel"), ("en", "Deal")):
        reply = speaking(web, language).get(f"/matches/{match.pk}/deals/1/hand/")
        assert reply.status_code == 200
        body = reply.content.decode()
        assert words in body and "not-analysable" not in body


def test_a_belote_hand_record_shows_the_par_and_steps_through(
    table: tuple[Match, Club], web: Client
) -> None:
    """Deal 1 is full: the sweep analyses it (deal 3, a summary, is stored as not
    analysable), and its page shows the par per team, the costly plays, and at a step
    each legal card's value (margin), the perfect line to the end and the makeable table."""
    match, _ = table
    assert analyse_missing_deals() == 3
    version = match.deals.get(number=1).versions.get(is_current=True)
    analysis = version.analysis.analysis
    assert analysis["analysed"] and analysis == engine.analyse(version.record)
    body = speaking(web, "de").get(f"/matches/{match.pk}/deals/1/hand/").content.decode()
    assert 'class="par-row"' in body and "not-analysable" not in body
    par_cells = body.split('class="par-row"')[1].split("</tr>")[0]
    assert [f'<td class="num">{p}</td>' in par_cells for p in analysis["par"]] == [True, True]
    costly = [p for p in analysis["plays"] if p["cost"] > 0]
    assert body.count('class="trick-card is-costly') == len(costly)
    step = next(i for i, p in enumerate(analysis["plays"]) if len(p["values"]) > 1)
    page = speaking(web, "de").get(f"/matches/{match.pk}/deals/1/hand/?step={step}")
    replay = page.content.decode().split('id="replay"')[1].split("</section>")[0]
    values = analysis["plays"][step]["values"]
    assert replay.count('<li class="card-value') == len(values)
    for card, cost in values.items():
        item = replay.split(f'data-card="{card}"')[1].split("</li>")[0]
        assert ("beste" in item) if cost == 0 else (f"−{cost}</span>" in item), card
    assert replay.count('class="line-card"') == 32 - step
    par = analysis["plays"][step - 1]["par"] if step else analysis["par"]
    assert f"<strong>{par[0]}</strong>" in replay and f"<strong>{par[1]}</strong>" in replay
    assert 'class="data makeable"' in replay
    assert replay.count('class="num is-own"') == 1  # the deal's own trump and takers


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
