"""The new-tournament form on a phone (390x844), in French: choosing Belote swaps the form
for Belote's (issue 35): its match length in a sentence, no small/big points, Liga-Partie
or Augen; the tournament it creates plays Belote."""

from __future__ import annotations

import re
from typing import Any

from playwright.sync_api import expect

from tests.support.game_words import forbidden, german_left, offences
from tests.web.conftest import PHONE, SCREENSHOTS, assert_fits
from tournaments.events.models import Tournament


def test_a_french_organiser_chooses_belote_on_a_phone(
    live_server: Any, contexts: Any, organiser: Any
) -> None:
    page = contexts(PHONE, "fr").new_page()
    page.goto(f"{live_server.url}/accounts/login/?next=/console/")
    page.fill("#id_username", organiser.username)
    page.fill("#id_password", "pw")
    page.click("form button.btn-primary")
    card = page.locator("#new-tournament")
    expect(card.locator("input[name='match_mode']").first).to_be_attached()
    card.locator("input[name='name']").fill("Soirée belote")  # typed before the game
    card.locator("input[name='game'][value='belote']").check()
    expect(page).to_have_url(re.compile(r"game=belote"))
    card = page.locator("#new-tournament")
    expect(card.locator("[data-bind='match-length']")).to_have_text("Une table joue 12 donnes.")
    expect(card.locator("input[name='match_mode']")).to_have_count(0)
    expect(card.locator("input[name='rules_preset']")).to_have_value("belote")
    shown = [card.locator("form[method='post']").inner_text()]
    shown.append(card.locator("[data-bind='match-length']").inner_text())
    assert offences(shown, forbidden("belote", "fr")) + german_left(shown, "belote") == []
    card.scroll_into_view_if_needed()
    assert_fits(page, PHONE["width"])
    SCREENSHOTS.mkdir(parents=True, exist_ok=True)
    card.screenshot(path=str(SCREENSHOTS / "new-tournament-belote-fr-phone.png"))
    expect(card.locator("input[name='name']")).to_have_value("Soirée belote")
    card.locator("form[method='post'] button.btn-primary").click()
    expect(page.locator("h1")).to_contain_text("Soirée belote")
    tournament = Tournament.objects.get(name="Soirée belote")
    assert (tournament.rules_preset, tournament.deals_per_match) == ("belote", 12)
