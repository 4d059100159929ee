"""The table tablet without network: a service worker keeps the page and its files.

Browser test: the page is reloaded and reopened while offline, renders from the worker's
cache with its offline banner and waiting counter, keeps two deals and stores exactly two
once back online. Client tests: ``/t/sw.js`` itself (type, scope, no caching of writes).
"""

from __future__ import annotations

import json
import re
import time
from collections.abc import Iterator
from typing import Any

import pytest
from django.templatetags.static import static
from django.urls import resolve, reverse
from playwright.sync_api import expect

from games.models import Deal, DealVersion
from tests.conftest import make_event
from tests.support.clients import Client
from tournaments.clubs.models import Club
from tournaments.deals import api as games_api
from tournaments.deals.services import ApiResult
from tournaments.web import tablet

from .conftest import PHONE, SCREENSHOTS, assert_fits
from .test_browser import enter_deal, wait_until

CONTROLLED = "() => !!navigator.serviceWorker && !!navigator.serviceWorker.controller"
# both the page and its state partial are in one of the worker's caches
CACHED = """async () => {
  const state = JSON.parse(document.getElementById('tablet-config').textContent).stateUrl;
  for (const name of await caches.keys()) {
    const cache = await caches.open(name);
    const page = await cache.match(location.pathname, {ignoreVary: true});
    if (page && await cache.match(state, {ignoreVary: true})) { return true; }
  }
  return false;
}"""


def worker(client: Client) -> tuple[Any, str]:
    response = client.get("/t/sw.js")
    return response, response.content.decode()


def code_only(script: str) -> str:
    """The worker's script without its comments."""
    return re.sub(r"/\*.*?\*/|//[^\n]*", "", script, flags=re.S)


def test_worker_is_served_with_its_scope_and_no_stale_copy(client: Client) -> None:
    response, script = worker(client)
    assert response.status_code == 200
    assert response["Content-Type"].startswith("application/javascript")
    assert response["Service-Worker-Allowed"] == "/t/"
    cache_control = response["Cache-Control"]
    assert "no-cache" in cache_control and "max-age=0" in cache_control
    assert reverse("tablet-service-worker") == "/t/sw.js"
    assert re.search(r'var CACHE = "klammern-tablet-[0-9a-f]{12}";', script)
    assert "caches.delete(name)" in script  # old versions are cleaned on activate
    # the tablet routes still resolve next to it
    assert resolve("/t/ABC123/").url_name == "tablet"


def test_worker_never_touches_writes_or_the_api(client: Client) -> None:
    code = code_only(worker(client)[1])
    assert 'if (request.method !== "GET") { return; }' in code
    assert 'url.pathname.indexOf("/api/") === 0) { return; }' in code
    # the only handler that answers requests comes after both guards
    fetch_handler = code[code.index('addEventListener("fetch"') :]
    assert fetch_handler.index("respondWith") > fetch_handler.index('"/api/"')
    for word in ("POST", "PUT", "PATCH", "DELETE", "Idempotency"):
        assert word not in code


def test_worker_cache_name_follows_the_assets(client: Client, monkeypatch: Any) -> None:
    script = worker(client)[1]
    precached = json.loads(re.search(r"var ASSETS = (\[.*?\]);", script).group(1))
    assert precached == [static(name) for name in tablet.TABLET_ASSETS]
    monkeypatch.setattr(tablet, "SERVICE_WORKER_VERSION", "test-next")
    assert worker(client)[1] != script  # a new script: browsers install the new worker


@pytest.mark.django_db
def test_every_static_file_of_the_tablet_page_is_precached(client: Client) -> None:
    event = make_event(club=Club.objects.create(name="KC Herzbube", slug="herzbube"))
    page = client.get(f"/t/{event.code1}/").content.decode()
    used = set(re.findall(r'(?:src|href)="(/static/[^"]+)"', page))
    assert used, "the tablet page loads no static files?"
    precached = json.loads(re.search(r"var ASSETS = (\[.*?\]);", worker(client)[1]).group(1))
    assert used <= set(precached)
    assert 'data-from-cache="0"' in page  # the marker the worker flips for cached copies
    config = json.loads(re.search(r'id="tablet-config"[^>]*>(.*?)</script>', page).group(1))
    assert config["serviceWorker"] == "/t/sw.js"


NETWORK = {"up": True}


def go_offline(context: Any) -> None:
    """No network, as a dead Wi-Fi. Chromium's offline emulation can still let through a
    write that a service-worker-controlled page sends (the worker's fallback to the
    network, microsoft/playwright#2311; a fresh tab may also start with navigator.onLine
    true), so deal entries are refused server-side too while "offline"."""
    NETWORK["up"] = False
    context.set_offline(True)


def go_online(context: Any) -> None:
    NETWORK["up"] = True
    context.set_offline(False)


@pytest.fixture
def network(monkeypatch: pytest.MonkeyPatch) -> Iterator[None]:
    """Entries (by the device fast path or the DRF view: both call ``enter_once``) are
    refused with 503 while "offline"."""
    enter_once = games_api.enter_once

    def unreachable_while_offline(**kwargs: Any) -> Any:
        if not NETWORK["up"]:
            return ApiResult(503, {"detail": "test: network down"})
        return enter_once(**kwargs)

    monkeypatch.setattr(games_api, "enter_once", unreachable_while_offline)
    NETWORK["up"] = True
    yield
    NETWORK["up"] = True


FORGET_STATE = """async () => {
  const state = JSON.parse(document.getElementById('tablet-config').textContent).stateUrl;
  for (const name of await caches.keys()) {
    await (await caches.open(name)).delete(state, {ignoreVary: true});
  }
}"""


@pytest.fixture
def club() -> Club:
    return Club.objects.create(name="KC Herzbube", slug="herzbube")


@pytest.mark.browser
@pytest.mark.django_db(transaction=True)
def test_tablet_reloads_offline_from_the_service_worker(
    live_server: Any, context: Any, club: Club, network: None
) -> None:
    event = make_event(club=club, deals=4)
    url = f"{live_server.url}/t/{event.code1}/"
    page = context.new_page()
    page.goto(url)
    expect(page.locator(".entry-head h2")).to_contain_text("Spiel 1")
    page.wait_for_function(CONTROLLED)
    page.wait_for_function(CACHED)
    expect(page.locator("#offline-banner")).to_be_hidden()

    go_offline(context)
    expect(page.locator("#offline-banner")).to_be_visible()
    enter_deal(page, declarer=1, points0=64)
    expect(page.locator("#outbox")).to_have_attribute("data-waiting", "1")

    # a reload without network: the worker answers from its cache, nothing is lost
    started = time.monotonic()
    page.reload()
    assert time.monotonic() - started < 5, "the cached page came only after the network timeout"
    expect(page.locator("#offline-banner")).to_be_visible()
    expect(page.locator("#offline-banner")).to_contain_text("Dieser Tisch ist offline")
    expect(page.locator("#offline-banner [data-bind='from-cache']")).to_be_visible()
    expect(page.locator("#outbox")).to_have_attribute("data-waiting", "1")
    expect(page.locator("#outbox")).to_contain_text("1 warten")
    expect(page.locator(".entry-head h2")).to_contain_text("Spiel 2")
    # the stylesheet came from the cache too: the page is laid out, not bare HTML
    assert page.evaluate("getComputedStyle(document.querySelector('.tablet-bar')).position") == (
        "sticky"
    )
    offline_screenshot(page, "tablet-offline-reloaded")

    enter_deal(page, declarer=2, points0=90)
    expect(page.locator("#outbox")).to_have_attribute("data-waiting", "2")
    expect(page.locator(".entry-head h2")).to_contain_text("Spiel 3")
    page.close()

    # a new tab, still offline
    page = context.new_page()
    page.goto(url)
    expect(page.locator("#offline-banner")).to_be_visible()
    expect(page.locator("#outbox")).to_have_attribute("data-waiting", "2")
    expect(page.locator("#outbox")).to_contain_text("2 warten")
    expect(page.locator(".entry-head h2")).to_contain_text("Spiel 3")
    offline_screenshot(page, "tablet-offline-reopened")
    assert Deal.objects.filter(match=event.match1).count() == 0

    # back online: both deals are sent, once each
    go_online(context)
    wait_until(page, lambda: Deal.objects.filter(match=event.match1).count() == 2, timeout=20)
    expect(page.locator("#outbox")).to_have_attribute("data-waiting", "0", timeout=15_000)
    expect(page.locator("#offline-banner")).to_be_hidden()
    page.wait_for_timeout(1500)  # any further retry would have happened by now
    assert Deal.objects.filter(match=event.match1).count() == 2
    assert DealVersion.objects.filter(deal__match=event.match1).count() == 2
    stored = DealVersion.objects.filter(deal__match=event.match1).order_by("deal__number")
    assert [v.record["card_points"] for v in stored] == [[64, 100], [90, 74]]

    # a further reload (online, from the network) sends nothing
    posts: list[str] = []
    page.on("request", lambda r: posts.append(r.url) if r.method == "POST" else None)
    page.reload()
    expect(page.locator(".entry-head h2")).to_contain_text("Spiel 3")
    expect(page.locator("#offline-banner")).to_be_hidden()
    expect(page.locator("#outbox")).to_have_attribute("data-waiting", "0")
    page.wait_for_timeout(1500)
    assert posts == []
    assert Deal.objects.filter(match=event.match1).count() == 2
    assert DealVersion.objects.filter(deal__match=event.match1).count() == 2


def offline_screenshot(page: Any, name: str) -> None:
    """Phone width only: the offline page is a tablet/phone matter."""
    SCREENSHOTS.mkdir(parents=True, exist_ok=True)
    page.set_viewport_size(PHONE)
    page.evaluate("window.scrollTo(0, 0)")
    page.wait_for_timeout(150)
    assert_fits(page, PHONE["width"])
    page.screenshot(path=str(SCREENSHOTS / f"{name}-phone.png"), full_page=False)


@pytest.mark.browser
@pytest.mark.django_db(transaction=True)
def test_cached_page_counts_deals_acknowledged_after_it_was_kept(
    live_server: Any, context: Any, club: Club, network: None
) -> None:
    """The cached page lists no deal, deal 1 was acknowledged later: offline, the next
    deal is still 2 (in English, the language chosen before going offline)."""
    event = make_event(club=club, deals=4)
    page = context.new_page()
    page.goto(f"{live_server.url}/t/{event.code1}/")
    page.wait_for_function(CONTROLLED)  # the worker controls /t/ before the page is left
    page.click(".lang a[hreflang='en']")
    expect(page.locator(".entry-head h2")).to_contain_text("Deal 1")
    page.wait_for_function(CONTROLLED)
    page.wait_for_function(CACHED)
    enter_deal(page, declarer=1, points0=64)
    wait_until(page, lambda: Deal.objects.filter(match=event.match1).count() == 1)
    expect(page.locator("#outbox")).to_have_attribute("data-waiting", "0")

    # without the (newer) cached score panel, only the deals the page remembered in
    # localStorage can tell that deal 1 is taken
    page.evaluate(FORGET_STATE)
    go_offline(context)
    page.reload()
    expect(page.locator("#offline-banner")).to_contain_text("This table is offline.")
    expect(page.locator(".entry-head h2")).to_contain_text("Deal 2")
    enter_deal(page, declarer=2, points0=90)
    expect(page.locator("#outbox")).to_contain_text("1 waiting")
    offline_screenshot(page, "tablet-offline-reloaded-en")
    assert Deal.objects.filter(match=event.match1).count() == 1

    go_online(context)
    wait_until(page, lambda: Deal.objects.filter(match=event.match1).count() == 2, timeout=20)
    expect(page.locator("#outbox")).to_have_attribute("data-waiting", "0", timeout=15_000)
    numbers = Deal.objects.filter(match=event.match1).values_list("number", flat=True)
    assert sorted(numbers) == [1, 2]
