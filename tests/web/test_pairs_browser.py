"""A new club's first pairs tournament in headless Chromium, from sign-up to the final: a
new user signs up, creates a club, registers and checks in 16 players, draws 8 pairs by
cards, plays three Swiss rounds (deals entered through the device API, as the tablets
send them), then finals of 4, and sees the bracket and the winners on the public page and
the projector. Screenshots go to artifacts/screenshots/."""

from __future__ import annotations

import uuid
from collections import Counter
from typing import Any

import pytest
from playwright.sync_api import expect

from tests.conftest import client_for
from tests.factories import summary_record
from tests.web.conftest import SCREENSHOTS
from tournaments.clubs.models import Club
from tournaments.events import services
from tournaments.events.models import Round, TeamMember, Tournament

from .conftest import DESKTOP, PHONE, assert_fits

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

SHOTS = SCREENSHOTS / "pairs-browser"


def shot(page: Any, name: str) -> None:
    SHOTS.mkdir(parents=True, exist_ok=True)
    before = page.viewport_size
    for label, size in (("phone", PHONE), ("desktop", DESKTOP)):
        page.set_viewport_size(size)
        page.evaluate("window.scrollTo(0, 0)")
        page.wait_for_timeout(150)
        assert_fits(page, size["width"])
        page.screenshot(path=str(SHOTS / f"{name}-{label}.png"), full_page=True)
    page.set_viewport_size(before)


def enter_results(round_: Round, *, home_wins: bool) -> None:
    """Both deals of every table, as the table tablets send them."""
    for table in round_.tables.order_by("number"):
        _, code = services.issue_device_code(table=table)
        device = client_for(device_code=code)
        for number in (1, 2):
            record = summary_record(dealer=number - 1, team0_points=120 if home_wins else 40)
            response = device.post(
                f"/api/matches/{table.match.pk}/deals/{number}/",
                record,
                format="json",
                HTTP_IDEMPOTENCY_KEY=str(uuid.uuid4()),
            )
            assert response.status_code == 201, response.content


def run_round(page: Any, base: str, tournament: Tournament, *, home_wins: bool = True) -> Round:
    """On the round's console page: publish, results come in, close."""
    expect(page.locator("#round-status")).to_have_text("Entwurf")
    round_ = tournament.rounds.order_by("number").last()
    page.locator(f"form[action$='/rounds/{round_.pk}/publish/'] button").click()
    expect(page.locator("#round-status")).to_have_text("Veröffentlicht")
    enter_results(round_, home_wins=home_wins)
    page.goto(f"{base}/console/rounds/{round_.pk}/")
    close = page.locator(f"form[action$='/rounds/{round_.pk}/close/']")
    close.locator("input[name=force]").check()  # the pairs have not confirmed at a tablet
    close.locator("button").click()
    expect(page.locator("#round-status")).to_have_text("Abgeschlossen")
    return round_


def test_new_club_plays_swiss_pairs_and_finals_of_four(live_server: Any, page: Any) -> None:
    base = live_server.url
    page.goto(f"{base}/accounts/login/")
    page.locator("a[href^='/accounts/signup/']").click()
    page.fill("#id_username", "vereinsneu")
    page.fill("#id_email", "neu@example.org")
    page.fill("#id_password1", "Kreuz-Bube-77")
    page.fill("#id_password2", "Kreuz-Bube-77")
    shot(page, "01-signup")
    page.locator("form button.btn-primary").click()

    expect(page).to_have_url(f"{base}/console/clubs/new/")
    page.fill("#id_name", "KC Eichel Ulm")
    page.fill("#id_city", "Ulm")
    page.locator("form button.btn-primary").click()
    expect(page.locator(".message")).to_contain_text("KC Eichel Ulm")
    club = Club.objects.get(slug="kc-eichel-ulm")
    assert list(club.organisers.values_list("username", flat=True)) == ["vereinsneu"]
    expect(page).to_have_url(f"{base}/console/clubs/{club.pk}/")  # where invitations are made
    expect(page.locator(f"form[action='/console/clubs/{club.pk}/invite/']")).to_be_visible()
    shot(page, "02-club")
    page.goto(f"{base}/console/")
    shot(page, "02-console")

    page.fill("#id_name", "Paarturnier")
    page.locator("input[name='format'][value='pairs']").check()
    page.fill("#id_deals_per_match", "2")
    page.get_by_role("button", name="Turnier anlegen").click()
    expect(page.locator("h1")).to_have_text("Paarturnier")
    tournament = Tournament.objects.get(club=club)
    assert tournament.format == Tournament.Format.PAIRS

    names = [
        f"{first} {last}"
        for first, last in zip(
            [
                "Anna",
                "Bernd",
                "Clara",
                "Dieter",
                "Eva",
                "Fritz",
                "Gisela",
                "Hans",
                "Ida",
                "Jörg",
                "Karin",
                "Lutz",
                "Maria",
                "Norbert",
                "Olga",
                "Paul",
            ],
            [
                "Abt",
                "Bauer",
                "Christ",
                "Dorn",
                "Engel",
                "Fink",
                "Graf",
                "Hahn",
                "Igel",
                "Jung",
                "Kern",
                "Lang",
                "Mohr",
                "Nagel",
                "Ott",
                "Pfaff",
            ],
            strict=True,
        )
    ]
    for name in names:
        page.fill("#id_name", name)
        page.click("form[action$='/register/'] button")
        expect(page.locator("#registrations")).to_contain_text(name)
    assert tournament.registrations.checked_in().count() == 16

    page.locator(f"a[href='/console/tournaments/{tournament.pk}/pairs/']").click()
    page.locator("input[name='method'][value='cards']").check()
    page.locator("#draw-pairs form[action$='/pairs/draw/'] button").click()
    expect(page.locator("#pairs .list > li")).to_have_count(8)
    members = Counter(
        TeamMember.objects.filter(team__tournament=tournament).values_list("team", flat=True)
    )
    assert sorted(members.values()) == [2] * 8
    page.locator("input[name='scheme'][value='swiss']").check()
    page.locator("#scheme button").click()
    tournament.refresh_from_db()
    assert tournament.swiss and not tournament.round_robin
    shot(page, "03-pairs")

    met: Counter[frozenset[int]] = Counter()
    for number in (1, 2, 3):
        page.goto(f"{base}/console/tournaments/{tournament.pk}/")
        page.locator(f"form[action$='/tournaments/{tournament.pk}/draw/'] button").click()
        expect(page.locator("h1")).to_have_text(f"Runde {number}")
        if number == 1:
            pair = tournament.teams.order_by("name").first()
            expect(page.locator(".tables-grid")).to_contain_text(pair.name)
            shot(page, "04-round-draft")
        round_ = run_round(page, base, tournament, home_wins=number != 2)
        met.update(frozenset((m.home_team_id, m.away_team_id)) for m in round_.matches.all())
    assert set(met.values()) == {1}, "no rematch in three Swiss rounds"
    page.goto(f"{base}/tournaments/{tournament.pk}/standings/")
    expect(page.locator("#standings tbody tr")).to_have_count(8)
    shot(page, "05-standings")

    page.goto(f"{base}/console/tournaments/{tournament.pk}/pairs/")
    page.locator("#finals form[action$='/pairs/finals/'] button").click()
    expect(page.locator("h1")).to_have_text("Runde 4")
    semis = run_round(page, base, tournament, home_wins=False)
    assert semis.stage == Round.Stage.SEMI
    page.goto(f"{base}/console/tournaments/{tournament.pk}/pairs/")
    page.locator("#finals form[action$='/pairs/finals-next/'] button").click()
    expect(page.locator("h1")).to_have_text("Runde 5")
    final = run_round(page, base, tournament, home_wins=True)
    assert {m.bracket_slot for m in final.matches.all()} == {"F", "P3"}
    champion = final.matches.get(bracket_slot="F").home_team

    # issue 20: the seating says which table is the final, and after the final the
    # console offers to finish the tournament instead of a next finals round (409)
    page.goto(f"{base}/tournaments/{tournament.pk}/projector/?seconds=3")
    expect(page.locator(".table-card[data-slot='F'] .finals-label")).to_have_text("Finale")
    expect(page.locator(".table-card[data-slot='P3'] .finals-label")).to_have_text(
        "Spiel um Platz 3"
    )
    shot(page, "06-projector-final-seating")
    page.goto(f"{base}/console/tournaments/{tournament.pk}/pairs/")
    expect(page.locator("form[action$='/pairs/finals-next/']")).to_have_count(0)
    finish = page.locator("#finals form.finish-form")
    expect(finish).to_contain_text("Finale und das Spiel um Platz 3 sind gespielt")
    shot(page, "06-pairs-after-the-final")

    page.goto(f"{base}/tournaments/{tournament.pk}/")
    bracket = page.locator("#finals")
    expect(bracket.locator(".bracket-match")).to_have_count(4)
    expect(bracket.locator(".placings .place-1")).to_contain_text(champion.name)
    expect(bracket.locator(".bracket-match[data-slot='F'] .is-winner")).to_contain_text(
        champion.name
    )
    shot(page, "06-public-bracket")
    page.goto(f"{base}/tournaments/{tournament.pk}/projector/?seconds=3")
    slide = page.locator(".proj-slide", has=page.locator("#bracket"))
    expect(slide).to_have_class("proj-slide is-active", timeout=12_000)
    shot(page, "07-projector-bracket")

    page.goto(f"{base}/console/tournaments/{tournament.pk}/pairs/")
    finish = page.locator("#finals form.finish-form")
    finish.locator("input[name=confirm]").check()
    finish.locator("button").click()
    expect(page.locator("h1")).to_have_text("Paarturnier")  # back on the tournament's page
    expect(page.get_by_text("Beendet", exact=True).first).to_be_visible()
    tournament.refresh_from_db()
    assert tournament.status == Tournament.Status.FINISHED
