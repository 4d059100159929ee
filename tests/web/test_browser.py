"""The four browser scenarios of the web pages, in headless Chromium against the live server:
a tablet enters deals and fixes one the engine refused; a tablet offline keeps two deals
and stores exactly two once back online (a lost response is retried without a duplicate);
an organiser runs a round from draft to close; the public standings change after a deal.
Screenshots of tablet, console and standings go to artifacts/screenshots/."""

from __future__ import annotations

import time
import uuid
from collections.abc import Callable
from typing import Any

import pytest
from playwright.sync_api import expect

from games.models import Deal, DealVersion
from tests.conftest import client_for, make_event
from tests.factories import UserFactory, summary_record
from tournaments.clubs.models import Club
from tournaments.events.models import Match, Registration, Round, Tournament

from .conftest import screenshot

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


def wait_until(page: Any, check: Callable[[], bool], *, timeout: float = 10.0) -> None:
    """Poll the database while letting Playwright dispatch its events (route handlers
    run only while the sync API waits)."""
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if check():
            return
        page.wait_for_timeout(100)
    raise AssertionError("condition not met in time")


def tap(page: Any, pick: str, value: Any) -> None:
    page.locator(f"#entry button[data-pick='{pick}'][data-value='{value}']").click()


def enter_deal(
    page: Any,
    *,
    declarer: int,
    kind: str = "orgi",
    upcard: str = "7H",
    points0: int = 64,
    trump: str | None = None,
) -> None:
    tap(page, "declarer", declarer)
    tap(page, "kind", kind)
    tap(page, "up-suit", upcard[1])
    tap(page, "up-rank", upcard[0])
    if trump:
        tap(page, "trump", trump)
    page.fill("#points0", str(points0))
    page.click("#entry button[type=submit]")


def deals_of(match: Match) -> list[DealVersion]:
    return list(DealVersion.objects.current().filter(deal__match=match).order_by("deal__number"))


@pytest.fixture
def club() -> Club:
    return Club.objects.create(name="KC Herzbube", slug="herzbube")


def test_tablet_enters_deals_and_fixes_a_refused_one(
    live_server: Any, page: Any, club: Club
) -> None:
    event = make_event(club=club, deals=4)
    page.goto(f"{live_server.url}/t/{event.code1}/")
    expect(page.locator(".entry-head h2")).to_contain_text("Spiel 1")
    names = [s.player.name for s in event.table1.seats.order_by("position")]
    expect(page.locator("#entry button[data-pick='declarer'][data-value='1']")).to_have_text(
        names[1]
    )

    enter_deal(page, declarer=1, points0=64)
    wait_until(page, lambda: len(deals_of(event.match1)) == 1)
    expect(page.locator(".entry-head h2")).to_contain_text("Spiel 2")
    expect(page.locator("#table-state .deal-list li")).to_have_count(1)
    # dealer rotates clockwise: deal 2 is dealt by seat 1
    expect(page.locator("[data-bind='dealer-name']").first).to_have_text(names[1])

    # 163 : 1 is no possible split of the card points: the engine refuses deal 2
    enter_deal(page, declarer=2, points0=163)
    error = page.locator("[data-error-for='card_points']")
    expect(error).to_contain_text("Die Kartenpunkte 163:1 sind so nicht möglich")
    expect(page.locator(".entry-head h2")).to_contain_text("Spiel 2")
    assert len(deals_of(event.match1)) == 1
    screenshot(page, "tablet-error")

    page.fill("#points0", "100")
    expect(page.locator("#points1")).to_have_value("64")
    page.click("#entry button[type=submit]")
    wait_until(page, lambda: len(deals_of(event.match1)) == 2)
    expect(page.locator("[data-error-for='card_points']")).to_have_text("")
    expect(page.locator("#outbox")).to_have_attribute("data-waiting", "0")
    stored = deals_of(event.match1)
    assert [v.record["card_points"] for v in stored] == [[64, 100], [100, 64]]
    assert [v.record["dealer"] for v in stored] == [0, 1]
    assert Deal.objects.filter(match=event.match1).count() == 2
    expect(page.locator("#table-state .deal-list li")).to_have_count(2)
    screenshot(page, "tablet")


def test_tablet_offline_keeps_two_deals_and_stores_exactly_two(
    live_server: Any, page: Any, context: Any, club: Club
) -> None:
    event = make_event(club=club, deals=4)
    page.goto(f"{live_server.url}/t/{event.code1}/")
    expect(page.locator(".entry-head h2")).to_contain_text("Spiel 1")

    context.set_offline(True)
    enter_deal(page, declarer=1, points0=64)
    expect(page.locator(".entry-head h2")).to_contain_text("Spiel 2")
    enter_deal(page, declarer=2, points0=90)
    expect(page.locator(".entry-head h2")).to_contain_text("Spiel 3")
    expect(page.locator("#outbox")).to_have_attribute("data-waiting", "2")
    expect(page.locator("#outbox")).to_contain_text("2 warten")
    screenshot(page, "tablet-offline")
    assert Deal.objects.filter(match=event.match1).count() == 0

    # The first answer gets lost on the way back: the server stored the deal, the tablet
    # saw a network error and retries with the same Idempotency-Key.
    lost: list[str] = []

    def lose_first_answer(route: Any) -> None:
        if not lost:
            route.fetch()
            lost.append(route.request.headers["idempotency-key"])
            route.abort()
        else:
            route.continue_()

    page.route("**/api/matches/*/deals/*/", lose_first_answer)
    context.set_offline(False)
    wait_until(page, lambda: Deal.objects.filter(match=event.match1).count() == 2, timeout=15)
    expect(page.locator("#outbox")).to_have_attribute("data-waiting", "0", timeout=15_000)
    assert lost, "the first answer was not intercepted"
    page.wait_for_timeout(1500)  # any further retry would have happened by now
    assert Deal.objects.filter(match=event.match1).count() == 2
    assert DealVersion.objects.filter(deal__match=event.match1).count() == 2
    assert [v.record["card_points"] for v in deals_of(event.match1)] == [[64, 100], [90, 74]]

    # a reload loses nothing and sends nothing twice
    page.reload()
    expect(page.locator(".entry-head h2")).to_contain_text("Spiel 3")
    expect(page.locator("#outbox")).to_have_attribute("data-waiting", "0")
    assert Deal.objects.filter(match=event.match1).count() == 2


def test_tablet_reload_while_queued_loses_nothing(
    live_server: Any, page: Any, context: Any, club: Club
) -> None:
    event = make_event(club=club, deals=4)
    page.goto(f"{live_server.url}/t/{event.code1}/")
    page.route("**/api/matches/*/deals/*/", lambda route: route.abort())  # server unreachable
    enter_deal(page, declarer=1, points0=64)
    expect(page.locator("#outbox")).to_have_attribute("data-waiting", "1")
    page.unroute("**/api/matches/*/deals/*/")
    page.close()
    assert Deal.objects.filter(match=event.match1).count() == 0

    fresh = context.new_page()
    fresh.goto(f"{live_server.url}/t/{event.code1}/")
    wait_until(fresh, lambda: Deal.objects.filter(match=event.match1).count() == 1)
    expect(fresh.locator("#outbox")).to_have_attribute("data-waiting", "0")
    expect(fresh.locator(".entry-head h2")).to_contain_text("Spiel 2")


def login(page: Any, base: str, username: str) -> None:
    page.goto(f"{base}/accounts/login/?next=/console/")
    page.fill("#id_username", username)
    page.fill("#id_password", "pw")
    page.click("form button.btn-primary")
    expect(page.locator("h1")).to_contain_text("Ihre Turniere")


def test_organiser_runs_a_round_from_draft_to_close(
    live_server: Any, page: Any, context: Any, club: Club
) -> None:
    user = UserFactory(username="orga")
    club.organisers.add(user)
    base = live_server.url
    login(page, base, "orga")

    page.fill("#id_name", "Sommerturnier")
    page.fill("#id_deals_per_match", "2")
    page.get_by_role("button", name="Turnier anlegen").click()
    expect(page.locator("h1")).to_have_text("Sommerturnier")
    tournament = Tournament.objects.get(name="Sommerturnier")
    assert tournament.deals_per_match == 2

    for name in ["Anna", "Bernd", "Clara", "Dieter", "Eva"]:
        page.fill("#id_name", name)
        page.click("form[action$='/register/'] button")
        expect(page.locator("#registrations")).to_contain_text(name)
    # Eva is withdrawn again (htmx), the other four play
    eva = Registration.objects.get(tournament=tournament, player__name="Eva")
    page.once("dialog", lambda dialog: dialog.accept())  # "Eva zurückziehen?"
    page.locator(f"#reg-{eva.pk} button.btn-danger").click()
    expect(page.locator(f"#reg-{eva.pk}")).to_contain_text("Zurückgezogen")
    assert Registration.objects.get(pk=eva.pk).status == Registration.Status.WITHDRAWN
    screenshot(page, "console-tournament")

    page.get_by_role("button", name="Starten und Runde 1 auslosen").click()
    expect(page.locator("h1")).to_have_text("Runde 1")
    expect(page.locator("#round-status")).to_have_text("Entwurf")
    round_ = Round.objects.get(tournament=tournament)
    page.get_by_role("button", name="Neu auslosen").click()
    expect(page.locator(".message")).to_contain_text("neu ausgelost")
    assert Round.objects.get(pk=round_.pk).attempt == 2
    screenshot(page, "console-draft")
    page.get_by_role("button", name="Sitzordnung veröffentlichen").click()
    expect(page.locator("#round-status")).to_have_text("Veröffentlicht")

    page.get_by_role("link", name="Tischkarten mit QR").click()
    expect(page.locator(".print-card")).to_have_count(1)
    code = page.locator(".print-card .code").inner_text().strip()
    page.go_back()

    tablet = context.new_page()
    tablet.goto(f"{base}/t/{code}/")
    enter_deal(tablet, declarer=1, points0=64)
    expect(tablet.locator(".entry-head h2")).to_contain_text("Spiel 2")
    page.goto(f"{base}/console/rounds/{round_.pk}/")
    expect(page.locator("#progress [data-bind='entered']")).to_have_text("1")
    enter_deal(tablet, declarer=2, points0=100)
    # the progress table polls by itself
    expect(page.locator("#progress [data-bind='entered']")).to_have_text("2", timeout=10_000)
    expect(page.locator("#progress")).to_contain_text("wartet auf Bestätigung")

    for team in (0, 1):
        tablet.locator(f"button[data-confirm-team='{team}']").click()
        expect(tablet.locator(f"button[data-confirm-team='{team}']")).to_have_count(0)
    expect(page.locator("#progress")).to_contain_text("Bestätigt", timeout=10_000)
    screenshot(page, "console-round")

    page.get_by_role("button", name="Runde abschließen").click()
    expect(page.locator("#round-status")).to_have_text("Abgeschlossen")
    assert Round.objects.get(pk=round_.pk).status == Round.Status.CLOSED
    assert Match.objects.get(round=round_).status == Match.Status.CONFIRMED
    # a closed round's tablet still opens (an offline tablet may still send what it
    # holds); the confirmed match takes no more deals
    tablet.reload()
    expect(tablet.locator("#table-state")).to_contain_text("Beide Teams haben bestätigt")


def test_public_standings_change_after_a_deal(live_server: Any, page: Any, club: Club) -> None:
    event = make_event(club=club, deals=4)
    page.goto(f"{live_server.url}/tournaments/{event.tournament.pk}/standings/")
    expect(page.locator("#standings")).to_contain_text("Noch keine Ergebnisse")
    expect(page.locator("#standings tbody tr")).to_have_count(8)
    assert set(
        page.locator("#standings tbody tr").evaluate_all("rows => rows.map(r => r.dataset.played)")
    ) == {"0"}

    device = client_for(device_code=event.code1)
    response = device.post(
        f"/api/matches/{event.match1.pk}/deals/1/",
        summary_record(),
        format="json",
        HTTP_IDEMPOTENCY_KEY=str(uuid.uuid4()),
    )
    assert response.status_code == 201

    rows = page.locator("#standings tbody tr")
    expect(page.locator("#standings")).not_to_contain_text("Noch keine Ergebnisse", timeout=8_000)
    expect(rows.nth(0)).to_have_attribute("data-played", "1")  # polled, no reload
    winners = {s.player.name for s in event.table1.seats.all() if s.position % 2 == 1}
    top = {
        rows.nth(0).locator("td.name a").inner_text(),
        rows.nth(1).locator("td.name a").inner_text(),
    }
    assert top == winners
    expect(rows.nth(0).locator("td.rank")).to_have_text("1")
    screenshot(page, "standings")

    # the other public pages around it
    winner = event.table1.seats.select_related("player").get(position=1).player
    page.goto(f"{live_server.url}/players/{winner.pk}/")
    expect(page.locator("h1")).to_have_text(winner.name)
    expect(page.locator(".chart polyline")).to_have_count(1)
    screenshot(page, "player")
    page.goto(f"{live_server.url}/tournaments/{event.tournament.pk}/projector/?seconds=5")
    expect(page.locator(".proj-slide.is-active")).to_contain_text("Tisch 1")
    screenshot(page, "projector")
    expect(page.locator(".proj-slide.is-active #standings")).to_be_visible(timeout=8_000)


def test_tablet_full_entry_card_by_card(live_server: Any, page: Any, club: Club) -> None:
    import random

    from games.engine import random_deal

    event = make_event(club=club, deals=4)
    deal = random_deal(random.Random(5))  # Orgi in Hearts, a Terz, Bella and Re
    page.goto(f"{live_server.url}/t/{event.code1}/")
    tap(page, "mode", "full")
    page.locator("[data-section='hands'] summary").click()
    page.fill("textarea[name='hands-text']", "\n".join(" ".join(h) for h in deal["hands"]))
    page.locator("[data-action='paste-hands']").click()
    expect(page.locator("[data-bind='hand-count'][data-seat='3']")).to_have_text("8/8")
    contract = deal["contract"]
    tap(page, "declarer", contract["declarer"])
    tap(page, "kind", contract["kind"])
    tap(page, "up-suit", deal["upcard"][1])
    tap(page, "up-rank", deal["upcard"][0])
    tap(page, "trump", contract["trump"])
    page.locator("details.meld-box summary").click()
    for meld in deal.get("melds", []):
        tap(page, "meld-seat", meld["seat"])
        tap(page, "meld-length", len(meld["cards"]))
        tap(page, "meld-suit", meld["cards"][0][1])
        tap(page, "meld-top", meld["cards"][-1][0])
        page.locator("[data-action='add-meld']").click()
    if "bella" in deal:
        tap(page, "bella", deal["bella"])
    tap(page, "doubling", deal.get("doubling", ""))
    for card in deal["plays"]:
        tap(page, "play-card", card)
    expect(page.locator("[data-bind='play-count']")).to_have_text("32/32")
    screenshot(page, "tablet-full")
    page.click("#entry button[type=submit]")

    wait_until(page, lambda: len(deals_of(event.match1)) == 1)
    stored = deals_of(event.match1)[0]
    assert stored.record["hands"] == deal["hands"] and stored.record["plays"] == deal["plays"]
    assert stored.record.get("melds", []) == deal.get("melds", [])
    assert stored.result["mode"] == "full" and len(stored.result["tricks"]) == 8
    expect(page.locator(".entry-head h2")).to_contain_text("Spiel 2")
