"""The KlammernBoss sheet for the notice board (issue 25): the whole ranking of the last
evenings on one A4 page: up to 25 players in one column, more in two smaller columns;
beyond 80 the sheet says how many are left out. In headless Chromium the sheet of 80
players prints on one A4 page."""

from __future__ import annotations

import re
from typing import Any

import pytest

from tests.support.clients import Client
from tests.web.conftest import SCREENSHOTS
from tournaments.clubs.models import Club
from tournaments.web.publishing import PRINT_RANKING_MAX, print_ranking

SHOTS = SCREENSHOTS / "boss-sheet"


def tables(players: int) -> dict[str, Any]:
    ranking = [
        {
            "player": n,
            "name": f"Spieler {n:03d}",
            "won": 100 - n,
            "point_difference": 3 * n,
            "all_time_rank": n,
        }
        for n in range(1, players + 1)
    ]
    return {"boss": 1, "boss_name": "Spieler 001", "ranking": ranking, "titles": []}


@pytest.fixture
def many(monkeypatch: pytest.MonkeyPatch) -> Any:
    def use(players: int) -> None:
        monkeypatch.setattr(
            "tournaments.web.publishing.selectors.club_view", lambda club: tables(players)
        )

    return use


def test_short_rankings_keep_one_column_long_ones_two() -> None:
    assert [len(c) for c in print_ranking(tables(25)["ranking"])["columns"]] == [25]
    split = print_ranking(tables(41)["ranking"])
    assert [len(c) for c in split["columns"]] == [21, 20] and split["left_out"] == 0
    assert split["columns"][1][0]["place"] == 22
    assert print_ranking([]) == {"columns": [], "left_out": 0}


@pytest.mark.django_db
def test_forty_players_all_on_the_sheet(club_a: Club, many: Any) -> None:
    many(40)
    body = Client().get(f"/clubs/{club_a.slug}/print/boss/", HTTP_ACCEPT_LANGUAGE="de")
    html = body.content.decode()
    assert all(f"Spieler {n:03d}" in html for n in range(1, 41))
    assert html.count('class="data boss-ranking"') == 2 and 'id="left-out"' not in html


@pytest.mark.django_db
def test_the_sheet_says_how_many_are_left_out(club_a: Club, many: Any) -> None:
    many(PRINT_RANKING_MAX + 10)
    html = Client().get(f"/clubs/{club_a.slug}/print/boss/", HTTP_ACCEPT_LANGUAGE="de").content
    text = html.decode()
    assert f"Spieler {PRINT_RANKING_MAX:03d}" in text
    assert f"Spieler {PRINT_RANKING_MAX + 1:03d}" not in text
    assert "10 weitere Spieler stehen nicht auf diesem Blatt" in text


@pytest.mark.browser
@pytest.mark.django_db(transaction=True)
def test_the_longest_sheet_prints_on_one_a4_page(
    live_server: Any, page: Any, club_a: Club, many: Any
) -> None:
    many(PRINT_RANKING_MAX)
    page.set_viewport_size({"width": 794, "height": 1123})
    page.goto(f"{live_server.url}/clubs/{club_a.slug}/print/boss/")
    assert page.locator(".boss-ranking tbody tr").count() == PRINT_RANKING_MAX
    page.emulate_media(media="print")
    SHOTS.mkdir(parents=True, exist_ok=True)
    page.screenshot(path=str(SHOTS / "boss-sheet.png"))
    pdf = page.pdf(format="A4", print_background=True)
    assert len(re.findall(rb"/Type\s*/Page[^s]", pdf)) == 1
