"""On a phone in headless Chromium: the tablet opens the hand record of an analysed Belote
deal and steps through it (issue 24): the par per team, each legal card's value at a
costly play, the perfect line after another card ("what if"), the makeable table of the
four trumps. Screenshots go to ``artifacts/screenshots/belote-replay-*``."""

from __future__ import annotations

import random
from typing import Any

import pytest
from playwright.sync_api import expect

from games import engine
from games.analysis_services import analyse_missing_deals
from tests.factories import PlayerFactory
from tournaments.clubs.models import Club
from tournaments.deals.services import submit_deal
from tournaments.draw import services as draw
from tournaments.events import services

from .conftest import PHONE, screenshot

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


def _played_deal() -> dict[str, Any]:
    """A Belote deal taken and played to the end with a costly play after the first."""
    rng = random.Random(41)
    while True:
        record = engine.random_deal(rng, dealer=0, rules="belote")
        if record["contract"]["kind"] != "belote" or "revoke" in record:
            continue
        if any(p["cost"] > 0 for p in engine.analyse(record)["plays"][1:]):
            return record


def test_a_belote_deal_steps_through_with_card_values(live_server: Any, contexts: Any) -> None:
    club = Club.objects.create(name="Belote Club Nice", slug="belote-nice")
    tournament = services.create_tournament(
        club=club, name="Soirée", slug="soiree", rules_preset="belote", rules_options={}
    )
    for name in ("Aline", "Bruno", "Chloé", "Denis"):
        registration = services.register_player(
            tournament=tournament, player=PlayerFactory(name=name)
        )
        services.check_in_registration(registration=registration)
    services.start_tournament(tournament=tournament)
    match = services.publish_round(round_=draw.draw_round(tournament=tournament, seed=1))
    match = match.matches.get()
    record = _played_deal()
    submit_deal(match=match, number=1, record=record)
    assert analyse_missing_deals() == 1
    analysis = engine.analyse(record)
    _, code = services.issue_device_code(table=match.table)

    page = contexts(PHONE, "de").new_page()
    page.goto(f"{live_server.url}/lang/de/?next=/t/{code}/deals/1/")
    page.get_by_role("link", name="Schritt für Schritt").click()
    replay = page.locator("#replay")
    expect(replay.locator(".replay-where")).to_have_text("Stich 1 · Karte 1 von 32")
    par = analysis["par"]
    expect(replay.locator(".replay-par")).to_contain_text(f"Team 1 {par[0]} · Team 2 {par[1]}")
    replay.locator(".replay-nav a[rel='next']").click()
    expect(replay.locator(".replay-where")).to_contain_text("Karte 2 von 32")

    step = next(p["play"] for p in analysis["plays"][1:] if p["cost"] > 0)
    page.goto(f"{live_server.url}/t/{code}/deals/1/?step={step}#replay")
    entry = analysis["plays"][step]
    choice = replay.locator(".replay-choice")
    expect(choice.locator(".card-value")).to_have_count(len(entry["values"]))
    expect(choice.locator(".card-value.is-played")).to_contain_text(f"−{entry['cost']}")
    best = entry["best"][0]
    choice.locator(f".card-value[data-card='{best}']").click()
    expect(choice.locator(".what-if")).to_contain_text("(0):")
    expect(choice.locator(".what-if")).to_contain_text("Stich 8:")
    expect(replay.locator(".makeable tbody tr")).to_have_count(4)
    expect(replay.locator(".makeable td.is-own")).to_have_count(1)
    screenshot(page, "belote-replay-de")
