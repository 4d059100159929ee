"""A league season run from the organisers' console alone, in Chromium at desktop width.

Three clubs' organisers: ``liga`` (KC Eichel) creates the league and its division; the
organisers of KC Herzbube and KC Schellen each enter a team with a captain and a roster
of their players; ``liga`` makes the fixture list (home and away). On match day 1 (in
German) Herzbube's organiser opens the tables and prints the table cards; one table
enters its deals at a tablet (a phone) opened from its card's code, the others through
the device API with the printed codes (as test_whole_evening does for most tables); the
second sitting follows, both captains confirm in the console and ``liga`` accepts. Match
day 2 is played in English at Schellen: its organiser confirms for both teams as the
venue, the league's organiser sends the result back once with a reason, the venue reads
it and confirms again. The public league table then shows the figures computed by hand
from RULES.md. Screenshots of every console page go to artifacts/screenshots/.
"""

from __future__ import annotations

import re
import uuid
from typing import Any

import pytest
from django.contrib.auth import get_user_model
from playwright.sync_api import expect

from games.models import Deal
from tests.conftest import client_for
from tests.factories import summary_record
from tests.web.conftest import DESKTOP, PHONE, SCREENSHOTS, assert_fits
from tests.web.test_browser import enter_deal, wait_until
from tournaments.clubs.models import Club
from tournaments.events import services
from tournaments.events.models import Match, Round
from tournaments.leagues.models import League, MatchDay

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

SHOTS = SCREENSHOTS / "league-console-browser"
PASSWORD = "liga-abend-2026"
CLUBS = {"liga": "KC Eichel", "heim": "KC Herzbube", "gast": "KC Schellen"}
PLAYERS = {
    "heim": ["Anna Roth", "Bernd Roth", "Clara Maier", "Dieter Maier"],
    "gast": ["Emil Bauer", "Frieda Bauer", "Gustav Kern", "Hanna Kern"],
}


@pytest.fixture
def people() -> dict[str, Any]:
    """The three clubs with their organisers, the players of two of them, two captains."""
    users = get_user_model().objects
    found: dict[str, Any] = {}
    for key, name in CLUBS.items():
        club = Club.objects.create(name=name, slug=name.split()[1].lower())
        club.organisers.add(users.create_user(key, password=PASSWORD))
        found[key] = club
        for player in PLAYERS.get(key, []):
            services.create_player(club=club, name=player)
    for captain in ("kapitaen_heim", "kapitaen_gast"):
        users.create_user(captain, password=PASSWORD)
    return found


def shoot(page: Any, name: str, *, fits: int = DESKTOP["width"]) -> None:
    SHOTS.mkdir(parents=True, exist_ok=True)
    page.evaluate("window.scrollTo(0, 0)")
    page.wait_for_timeout(150)
    assert_fits(page, fits)
    page.screenshot(path=str(SHOTS / f"{name}.png"), full_page=True)


def log_in(contexts: Any, base: str, username: str, language: str = "de") -> Any:
    page = contexts(DESKTOP, language).new_page()
    page.goto(f"{base}/accounts/login/")
    page.fill("input[name=username]", username)
    page.fill("input[name=password]", PASSWORD)
    page.locator("form button, form input[type=submit]").last.click()
    page.wait_for_url(re.compile(r".*/(console/)?$"))
    return page


def submit(page: Any, form: str) -> None:
    page.locator(f"{form} button").last.click()
    page.wait_for_load_state()
    expect(page.locator(".message.is-error")).to_have_count(0)


# --- the organisers' steps ---------------------------------------------------------------


def create_league(page: Any, base: str) -> League:
    page.goto(f"{base}/console/")
    page.locator("#your-leagues a", has_text="Alle Ligen").click()
    shoot(page, "01-leagues-de")
    page.fill("input[name=name]", "Bodensee-Liga")
    page.fill("input[name=season]", "2026/27")
    submit(page, "#new-league form")
    league = League.objects.get(name="Bodensee-Liga")
    assert page.url.endswith(f"/console/leagues/{league.pk}/")
    page.fill("input[name=division-name]", "Oberliga")
    submit(page, "#new-division form")
    expect(page.locator("#division-" + str(league.divisions.get().pk) + " h2")).to_have_text(
        "Oberliga"
    )
    return league


def enter_team(page: Any, base: str, league: League, club: Club, name: str, captain: str) -> None:
    page.goto(f"{base}/console/clubs/{club.pk}/")
    page.locator("#club-leagues a", has_text="Liga ausrichten").click()
    page.locator("#other-leagues a, #my-leagues a", has_text="Bodensee-Liga").click()
    form = page.locator(f"#enter-team-{club.pk} form")
    form.locator("input[name$='-name']").fill(name)
    form.locator("input[name$='-captain']").fill(captain)
    for box in form.locator("input[type=checkbox]").all():
        box.check()
    submit(page, f"#enter-team-{club.pk}")
    expect(page.locator(".teams li", has_text=name)).to_contain_text(captain)


def make_fixtures(page: Any, base: str, league: League) -> None:
    page.goto(f"{base}/console/leagues/{league.pk}/")
    page.fill("input[name$='-first_day']", "2026-09-12T19:30")
    page.fill("input[name$='-days_between']", "14")
    submit(page, ".fixtures-form")
    expect(page.locator("table.fixtures tbody tr")).to_have_count(2)
    expect(page.locator("table.fixtures tbody tr").first).to_contain_text("KC Herzbube öffnet")
    shoot(page, "03-league-fixtures-de")


def table_codes(page: Any, round_: Round) -> dict[int, str]:
    """The codes printed on the sitting's table cards, by table number."""
    page.locator(".sittings li").nth(round_.number - 1).locator("a[href$='/table-cards/']").click()
    codes = {}
    for card in page.locator(".print-card").all():
        number = int(re.search(r"\d+", card.locator("h2").inner_text()).group())
        codes[number] = card.locator(".card-code .code").inner_text().strip()
    assert sorted(codes) == [1, 2] and all(len(c) == 8 for c in codes.values())
    return codes


def at_the_tablet(tablet: Any, base: str, match: Match, code: str, home_wins: bool) -> None:
    """The table's tablet (a phone) opens from its card's code and enters the Partie's
    four deals through its form, each acknowledged before the next."""
    tablet.goto(f"{base}/t/{code}/")
    for number in range(1, 5):
        expect(tablet.locator(".entry-head [data-bind='number']")).to_have_text(str(number))
        enter_deal(tablet, declarer=1, points0=100 if home_wins else 20)
        wait_until(tablet, lambda n=number: Deal.objects.filter(match=match).count() >= n)
    assert Match.objects.get(pk=match.pk).status == Match.Status.FINISHED


def tablets_play(
    round_: Round, codes: dict[int, str], home_wins: dict[int, bool], *, skip: int = 0
) -> None:
    """Each table's tablet (but table ``skip``, played at a real tablet) enters a
    Liga-Partie through the deal API with its code: the away team declares every deal
    and fails it (home 16 Augen a deal) or makes it 144:20 (14:2); four deals reach the
    target of 51."""
    for table, code in codes.items():
        if table == skip:
            continue
        match = Match.objects.get(round=round_, table__number=table)
        tablet = client_for(device_code=code)
        for number in range(1, 5):
            record = summary_record(
                dealer=number - 1, declarer=1, team0_points=100 if home_wins[table] else 20
            )
            reply = tablet.post(
                f"/api/matches/{match.pk}/deals/{number}/",
                record,
                format="json",
                HTTP_IDEMPOTENCY_KEY=str(uuid.uuid4()),
            )
            assert reply.status_code == 201, reply.content


def play_match_day(
    page: Any,
    base: str,
    day: MatchDay,
    wins: tuple[bool, bool, bool, bool],
    tag: str,
    tablet: Any = None,
) -> None:
    """The home organiser opens the tables, prints the cards, the tablets play (table 1
    of the first sitting on ``tablet``, a phone, if given); then the second sitting."""
    page.goto(f"{base}/console/match-days/{day.pk}/")
    shoot(page, f"04-match-day-scheduled-{tag}")
    submit(page, "#open-form")
    day.refresh_from_db()
    assert day.status == MatchDay.Status.OPEN
    first = Round.objects.get(tournament=day.tournament, number=1)
    shoot(page, f"05-match-day-open-{tag}")
    codes = table_codes(page, first)
    shoot(page, f"06-table-cards-{tag}")
    if tablet is not None:
        match = Match.objects.get(round=first, table__number=1)
        at_the_tablet(tablet, base, match, codes[1], wins[0])
        shoot(tablet, f"06b-tablet-{tag}", fits=PHONE["width"])
    tablets_play(first, codes, {1: wins[0], 2: wins[1]}, skip=1 if tablet is not None else 0)
    page.goto(f"{base}/console/match-days/{day.pk}/")
    page.locator("form[action$='/second-sitting/'] button").click()
    page.wait_for_load_state()
    second = Round.objects.get(tournament=day.tournament, number=2)
    tablets_play(second, table_codes(page, second), {1: wins[2], 2: wins[3]})
    page.goto(f"{base}/console/match-days/{day.pk}/")


# --- the season ----------------------------------------------------------------------------


def test_a_league_run_from_the_console(
    live_server: Any, contexts: Any, people: dict[str, Any]
) -> None:
    base = live_server.url
    liga = log_in(contexts, base, "liga")
    league = create_league(liga, base)
    shoot(liga, "02-league-new-de")

    heim, gast = log_in(contexts, base, "heim"), log_in(contexts, base, "gast")
    enter_team(heim, base, league, people["heim"], "Herzbube I", "kapitaen_heim")
    enter_team(gast, base, league, people["gast"], "Schellen I", "kapitaen_gast")
    gast.locator(".teams li", has_text="Schellen I").locator("a").click()
    expect(gast.locator("input[name=roster]:checked")).to_have_count(4)
    shoot(gast, "02b-team-de")
    # one club's organiser does not touch another club's team
    other = league.divisions.get().teams.get(name="Schellen I")
    heim.goto(f"{base}/console/leagues/{league.pk}/")
    assert (
        "Mannschaft bearbeiten" not in heim.locator(".teams li", has_text="Schellen I").inner_text()
    )
    assert heim.goto(f"{base}/console/league-teams/{other.pk}/").status == 403
    shoot(heim, "07-forbidden-de")
    make_fixtures(liga, base, league)

    # match day 1, in German, at KC Herzbube
    day1 = MatchDay.objects.get(round=1)
    assert day1.home.name == "Herzbube I"
    tablet = contexts(PHONE, "de").new_page()
    play_match_day(heim, base, day1, (True, True, True, False), "de", tablet)
    expect(heim.locator("#partien")).to_have_text("3:1")
    expect(heim.locator("#waiting-for")).to_contain_text("beide Mannschaftsführer")
    for captain, team in (("kapitaen_heim", "Herzbube I"), ("kapitaen_gast", "Schellen I")):
        page = log_in(contexts, base, captain)
        page.locator("#your-leagues a", has_text="Bodensee-Liga").click()
        page.locator("table.fixtures a").first.click()
        expect(page.locator(".confirm-actions button")).to_have_count(1)
        page.locator(".confirm-actions button", has_text=team).click()
        page.wait_for_load_state()
        expect(page.locator(".message.is-success")).to_contain_text("Bestätigung")
    shoot(page, "08-match-day-confirmed-de")
    liga.goto(f"{base}/console/leagues/{league.pk}/")
    expect(liga.locator(f"#day-{day1.pk} .waiting")).to_have_text("Die Liga nimmt das Ergebnis ab")
    liga.locator(f"#day-{day1.pk} a").click()
    submit(liga, "#accept-form")
    expect(liga.locator("#day-status")).to_contain_text("Endgültig")
    shoot(liga, "09-match-day-final-de")

    # match day 2, in English, at KC Schellen: the venue confirms for both teams
    gast_en = log_in(contexts, base, "gast", "en")
    day2 = MatchDay.objects.get(round=2)
    play_match_day(gast_en, base, day2, (True, True, False, False), "en")
    expect(gast_en.locator("#waiting-for")).to_contain_text("Confirmation by both captains")
    gast_en.locator(".confirm-actions button", has_text="venue").click()
    gast_en.wait_for_load_state()
    shoot(gast_en, "10-match-day-confirmed-en")
    liga_en = log_in(contexts, base, "liga", "en")
    liga_en.goto(f"{base}/console/match-days/{day2.pk}/")
    # the league's organiser sends it back once with a reason; the venue reads it and
    # confirms again
    liga_en.fill("#send-back-form input[name=reason]", "Table 2: please check deal 5's Bella")
    shoot(liga_en, "10a-match-day-send-back-en")
    submit(liga_en, "#send-back-form")
    expect(liga_en.locator(".message.is-success")).to_contain_text("sent back")
    expect(liga_en.locator("#day-status")).to_contain_text("Tables open")
    gast_en.goto(f"{base}/console/match-days/{day2.pk}/")
    expect(gast_en.locator("#sent-back")).to_contain_text("Table 2: please check deal 5's Bella")
    shoot(gast_en, "10b-match-day-sent-back-en")
    gast_en.locator(".confirm-actions button", has_text="venue").click()
    gast_en.wait_for_load_state()
    expect(gast_en.locator("#sent-back")).to_have_count(0)
    liga_en.goto(f"{base}/console/match-days/{day2.pk}/")
    submit(liga_en, "#accept-form")
    expect(liga_en.locator("#day-status")).to_contain_text("Final")
    liga_en.goto(f"{base}/console/leagues/{league.pk}/")
    expect(liga_en.locator("h2", has_text="Who does what")).to_be_visible()
    shoot(liga_en, "11-league-final-en")

    # the public table: day 1 3:1 (200:56 Augen) for Herzbube, day 2 2:2 (144:112)
    liga.goto(f"{base}/console/leagues/{league.pk}/")
    liga.locator("#public-league").click()
    rows = liga.locator("table.league-table tbody tr")
    expect(rows).to_have_count(2)
    cells = [[c.strip() for c in r.locator("td").all_inner_texts()] for r in rows.all()]
    assert [(c[1].splitlines()[0], c[2], c[3], c[4], c[5], c[6], c[7], c[8]) for c in cells] == [
        ("Herzbube I", "2", "1", "1", "0", "5:3", "112", "3"),
        ("Schellen I", "2", "0", "1", "1", "3:5", "-112", "1"),
    ]
    shoot(liga, "12-public-league-de")
