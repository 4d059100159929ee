"""The history import (issue 39; its other tests are in tests/history/): a new club
brings in three past evenings from the sample .xlsx in the browser, the preview shows the
one refused row, the organiser confirms, and the club's page shows the imported history in
the KlammernBoss, the title's history, the all-time table and the season the file names
(its table, marked as imported)."""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

import pytest
from playwright.sync_api import expect

from tests.factories import UserFactory
from tests.web.test_console_deals import console_page
from tournaments.clubs.models import Club, Season
from tournaments.history.models import ImportedEvening
from tournaments.results import seasons, snapshots

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.browser]

ROOT = Path(__file__).resolve().parents[2]
SHOTS = ROOT / "artifacts" / "screenshots" / "history"


def shoot(page: Any, name: str) -> None:
    SHOTS.mkdir(parents=True, exist_ok=True)
    page.screenshot(path=str(SHOTS / f"{name}.png"), full_page=True)


@pytest.mark.parametrize("language", ["en", "de"])
def test_a_new_club_imports_three_past_evenings(
    live_server: Any,
    contexts: Any,
    language: str,
) -> None:
    club = Club.objects.create(name="KC Neuanfang", slug="neuanfang", city="Ulm")
    club.organisers.add(UserFactory(username="leiterin"))
    page = console_page(contexts, live_server.url, language, {"width": 1280, "height": 900})
    page.goto(f"{live_server.url}/console/clubs/{club.pk}/")
    page.click(f"a[href='/console/clubs/{club.pk}/history/']")
    page.set_input_files("#id_file", str(ROOT / "docs" / "history-sample.xlsx"))
    page.click("#preview-import")
    refused = page.locator("#refused-rows tbody tr")
    expect(refused).to_have_count(1)
    expect(refused.first).to_contain_text("31.02.2025")
    reason = {"en": "is no date of a past evening", "de": "ist kein Datum eines vergangenen"}
    expect(refused.first).to_contain_text(reason[language])
    expect(page.locator("table.evening-preview")).to_have_count(3)
    expect(page.locator("#new-players li")).to_have_count(8)
    expect(page.locator("#seasons li.new-season")).to_have_count(1)
    expect(page.locator("#seasons li.new-season")).to_contain_text("2025/26")
    assert not ImportedEvening.objects.exists()  # nothing written before the confirmation
    shoot(page, f"preview-{language}")
    page.click("#confirm-import")
    expect(page.locator("#imports li")).to_have_count(1)
    assert ImportedEvening.objects.filter(club=club).count() == 3
    shoot(page, f"imported-{language}")

    expected = snapshots.compute_club_leaderboards(club_id=club.pk)
    boss_name = expected["boss"]["current_name"]
    assert boss_name == "Carla Schmid"  # 7 games won over the three evenings
    page.goto(f"{live_server.url}/clubs/{club.slug}/")
    expect(page.locator(".boss")).to_contain_text(boss_name)
    titles = page.locator("#titles li")
    expect(titles).to_have_count(3)
    expect(titles.first).to_contain_text("2025-09-19")
    expect(titles.first).to_contain_text({"en": "imported", "de": "übernommen"}[language])
    season = Season.objects.get(club=club, name="2025/26")  # the season the file names
    season_card = page.locator(f"#season-{season.pk}")
    expect(season_card.locator("tbody tr")).to_have_count(8)
    expect(season_card).to_contain_text(
        {"en": "3 of them imported", "de": "davon 3 übernommen"}[language]
    )
    expect(season_card.locator("tbody tr").first).to_contain_text(
        seasons.season_table(season)["rows"][0]["name"]
    )
    rows = page.locator(".grid-main table.data tbody tr")  # the all-time table
    expect(rows).to_have_count(8)
    first = expected["all_time"][0]
    expect(rows.first).to_contain_text(first["name"])
    expect(rows.first).to_contain_text(str(first["point_difference"]))
    shoot(page, f"club-{language}")
    page.goto(f"{live_server.url}/clubs/{club.slug}/print/boss/")
    expect(page.locator("body")).to_contain_text(boss_name)
    assert re.search(r"2025-09-05", page.content())
    shoot(page, f"print-boss-{language}")
