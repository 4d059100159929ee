"""Accessibility (axe-core, through ``axe-playwright-python``) of every page a player or
an organiser uses, in German and in English: no serious or critical violation.

- the table tablet (phone width) of every game family: its empty sheet, the live entry
  sheet open and filled in, and a finished match (the teams' confirm step; a match of two
  or three players shows its winner);
- the public pages (desktop): the tournament, its seating, standings and projector, a
  player, the club (with its KlammernBoss), its ratings, a hand record and a round's hand
  records, a pairs tournament, a league, sign-in and sign-up;
- the console (desktop) of an evening (tournament, a live and a closed round, a match, a
  deal), the club and its players, pairs, and a league (its team and match day).

A failure lists each violation: the page, axe's rule, its impact, the element (target)
and axe's summary of what to fix."""

from __future__ import annotations

from typing import Any

import pytest
from axe_playwright_python.sync_playwright import Axe
from playwright.sync_api import expect

from .accessibility_world import ORGANISER, PASSWORD, World, build_world
from .conftest import DESKTOP, PHONE

pytestmark = [pytest.mark.browser, pytest.mark.slow, pytest.mark.django_db(transaction=True)]

BLOCKING = {"serious", "critical"}
AXE = Axe()
# Everything WCAG 2.1 A/AA asks, and axe's best practices (landmarks, headings).
RULES = {
    "runOnly": {
        "type": "tag",
        "values": ["wcag2a", "wcag2aa", "wcag21a", "wcag21aa", "best-practice"],
    }
}
# The sheet filled in as a player would start: the first choice of every group of
# buttons (a declarer, a game, a card, ...) except the switches that replace the sheet
# (thrown in, revoke, march), and points in every number field.
FILL_SHEET = """() => {
  const picked = new Set();
  for (const button of document.querySelectorAll("#entry button[data-pick]")) {
    const group = button.getAttribute("data-pick");
    const shown = button.offsetParent !== null && !button.disabled;
    if (shown && !picked.has(group) && !button.classList.contains("toggle")) {
      picked.add(group);
      button.click();
    }
  }
  document.querySelectorAll("#entry input[inputmode=numeric], #entry input[type=number]")
    .forEach((input, i) => {
      if (input.offsetParent !== null && !input.disabled) {
        input.value = String(60 + i);
        input.dispatchEvent(new Event("input", { bubbles: true }));
      }
    });
  return picked.size;
}"""


def violations(page: Any, where: str) -> list[str]:
    """The serious and critical violations on the page as it is now, one line each."""
    found = AXE.run(page, options=RULES).response["violations"]
    return [
        f"{where}: {rule['id']} ({rule['impact']}) at {node['target']}: "
        + " ".join((node.get("failureSummary") or rule["help"]).split())
        for rule in found
        if rule["impact"] in BLOCKING
        for node in rule["nodes"]
    ]


def visit(page: Any, url: str) -> None:
    page.goto(url)
    page.wait_for_load_state("networkidle")
    expect(page.locator("main")).to_have_count(1)  # one main landmark on every page


def tablet_pages(page: Any, base: str, world: World) -> list[str]:
    found: list[str] = []
    for tablet in world.tablets:
        visit(page, f"{base}/t/{tablet.live}/")
        found += violations(page, f"tablet {tablet.family}")
        assert page.evaluate(FILL_SHEET) >= 2, f"the {tablet.family} sheet has no choices?"
        expect(page.locator("#entry [aria-pressed=true]:visible").first).to_be_visible()
        found += violations(page, f"tablet {tablet.family}, sheet filled in")
        visit(page, f"{base}/t/{tablet.over}/")
        # the teams confirm; a match of two or three players just shows its winner
        over = page.locator("[data-confirm-team], [data-bind=winner]").first
        expect(over).to_be_visible()
        found += violations(page, f"tablet {tablet.family}, match over (confirm step)")
    return found


def site_pages(page: Any, base: str, pages: dict[str, str]) -> list[str]:
    found: list[str] = []
    for name, path in pages.items():
        visit(page, base + path)
        found += violations(page, name)
    return found


def log_in(page: Any, base: str) -> None:
    page.goto(f"{base}/accounts/login/")
    page.fill("#id_username", ORGANISER)
    page.fill("#id_password", PASSWORD)
    page.locator("form button.btn-primary").click()
    expect(page).to_have_url(f"{base}/console/")


@pytest.mark.parametrize("language", ["de", "en"])
def test_no_serious_violation_on_any_page(live_server: Any, contexts: Any, language: str) -> None:
    world = build_world()
    base = live_server.url
    phone = contexts(PHONE, language).new_page()
    found = tablet_pages(phone, base, world)
    desktop = contexts(DESKTOP, language).new_page()
    found += site_pages(desktop, base, world.public_pages())
    log_in(desktop, base)
    found += site_pages(desktop, base, world.console_pages())
    assert not found, "\n".join([f"{len(found)} serious or critical violations:", *found])
