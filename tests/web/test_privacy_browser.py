"""Privacy (issue 39) in a real browser (headless Chromium): a member switches to initials on the
personal page, and no public page, feed, embed, share picture or anonymous API answer
shows the full name (each fetched); an organiser anonymises a player in the console
after its irreversible-warning confirmation, and every figure stays equal."""

from __future__ import annotations

from typing import Any

import pytest

from tests.privacy.test_privacy import figures, played_evening, public_urls, seated_player
from tests.web.conftest import SCREENSHOTS, screenshot
from tournaments.clubs.models import Club, Player

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

SHOTS = SCREENSHOTS.parent / "privacy"


def shot(page: Any, name: str) -> None:
    SHOTS.mkdir(parents=True, exist_ok=True)
    page.screenshot(path=str(SHOTS / f"{name}.png"), full_page=True)


def test_a_member_switches_to_initials_and_the_public_never_sees_the_full_name(
    live_server: Any, page: Any, club_a: Club, organiser: Any
) -> None:
    event = played_evening(club_a)
    player = seated_player(event)
    full = player.name
    token = player.registrations.get(tournament=event.tournament).link_token
    page.goto(f"{live_server.url}/p/{token}/")
    page.locator("#name-style input[value='initials']").check()
    page.locator("#name-style button").click()
    page.wait_for_url(f"**/p/{token}/")
    player.refresh_from_db()
    assert player.name_style == "initials"
    shown = page.locator("#public-name").inner_text()
    assert shown == player.public_name and shown != full
    shot(page, "personal-page-initials")
    urls = [
        *public_urls(event, player),
        f"/tournaments/{event.tournament.pk}/standings/share.png",
        f"/clubs/{club_a.slug}/share.png",
    ]
    fetched = 0
    for url in urls:
        response = page.request.get(live_server.url + url, headers={"Accept-Language": "de"})
        if response.status == 404:
            continue
        assert response.ok, (url, response.status)
        fetched += 1
        if url.endswith(".png"):
            assert response.headers["content-type"] == "image/png"
            continue
        body = response.text()
        assert full not in body, url
        assert full.split()[1] not in body, url
    assert fetched >= 17
    page.goto(f"{live_server.url}/tournaments/{event.tournament.pk}/standings/")
    assert player.public_name in page.content()
    screenshot(page, "privacy-standings-initials")
    page.goto(f"{live_server.url}/tournaments/{event.tournament.pk}/standings/share.png")
    shot(page, "share-picture-initials")
    page.goto(f"{live_server.url}/embed/clubs/{club_a.slug}/")
    assert full not in page.content()
    shot(page, "embed-initials")


def test_an_organiser_anonymises_a_player_and_every_figure_stays(
    live_server: Any, page: Any, club_a: Club, organiser: Any
) -> None:
    event = played_evening(club_a)
    player = seated_player(event)
    full = player.name
    before = figures(event)
    page.goto(f"{live_server.url}/accounts/login/")
    page.fill("input[name=username]", "organiser")
    page.fill("input[name=password]", "pw")
    page.locator("form button, form input[type=submit]").last.click()
    page.goto(f"{live_server.url}/console/clubs/{club_a.pk}/players/")
    page.locator(f"#player-{player.pk} summary").click()
    page.locator(f"#player-{player.pk} a.anonymise-link").click()
    assert page.locator("#irreversible").is_visible()
    shot(page, "anonymise-confirmation")
    page.locator("#anonymise-confirm").click()  # without the tick: the browser refuses
    player.refresh_from_db()
    assert player.pseudonym is None
    page.locator("input[name=confirm]").check()
    page.locator("#anonymise-confirm").click()
    page.wait_for_url("**/players/*")
    player = Player.objects.get(pk=player.pk)
    assert player.pseudonym == player.pk
    assert figures(event) == before
    shot(page, "anonymised-in-console")
    for url in public_urls(event, player):
        response = page.request.get(live_server.url + url, headers={"Accept-Language": "de"})
        if response.status == 200:
            assert full not in response.text(), url
    page.goto(f"{live_server.url}/tournaments/{event.tournament.pk}/standings/")
    assert f"Spieler {player.pk}" in page.content()
    shot(page, "standings-pseudonym")
