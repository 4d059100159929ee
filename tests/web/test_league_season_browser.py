"""Issue 23, a whole league season in Chromium, as its secretary runs it (in German):
four clubs, two divisions; a match day played at the tablets and accepted; a forfeit
recorded; a postponement asked by one captain, consented by the other and granted; a
player of another team refused at the table; a team withdrawn in the second half; the
captains reminded by mail the day before (Django's test outbox) and the console home's
list of what waits; the season settled after its last date; the next season created with
promotion and relegation; the player ranking and the archive on the public pages.
Screenshots (phone 390x844 and projector 1920x1080) go to artifacts/screenshots/."""

from __future__ import annotations

from datetime import date, datetime, timedelta
from typing import Any

import pytest
from django.contrib.auth import get_user_model
from django.core import mail
from django.utils import timezone
from playwright.sync_api import expect

from tests.conftest import client_for
from tests.leagues.test_league_api import device_codes, play
from tests.web.conftest import SCREENSHOTS
from tests.web.test_league_console_browser import PASSWORD, log_in
from tournaments import tasks
from tournaments.clubs.models import Club
from tournaments.events import services
from tournaments.leagues import season as league_season
from tournaments.leagues import selectors as league_selectors
from tournaments.leagues import services as leagues
from tournaments.leagues.models import League, LeagueTeam, MatchDay

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

SHOTS = SCREENSHOTS / "league-season-browser"
PHONE = {"width": 390, "height": 844}
PROJECTOR = {"width": 1920, "height": 1080}


def shoot(page: Any, name: str) -> None:
    """The page at phone and projector width."""
    SHOTS.mkdir(parents=True, exist_ok=True)
    before = page.viewport_size
    for label, size in (("phone", PHONE), ("projector", PROJECTOR)):
        page.set_viewport_size(size)
        page.evaluate("window.scrollTo(0, 0)")
        page.wait_for_timeout(100)
        width = page.evaluate("document.documentElement.scrollWidth")
        assert width <= size["width"], (name, label, width)
        page.screenshot(path=str(SHOTS / f"{name}-{label}.png"), full_page=True)
    page.set_viewport_size(before)


def at(month: int, day: int, hour: int = 19) -> datetime:
    return timezone.make_aware(datetime(2026, month, day, hour, 0))


@pytest.fixture
def season() -> dict[str, Any]:
    """KC Eichel runs the Bodensee-Liga 2026/27; four clubs (Herzbube, Schellen, Laub,
    Eichel) with an organiser each; Oberliga: four first teams; Kreisliga: three second
    teams; each first team has a captain; the fixtures from September."""
    users = get_user_model().objects
    boss = users.create_user("liga", password=PASSWORD, email="liga@example.org")
    clubs: dict[str, Club] = {}
    for key in ("herz", "schell", "laub", "eichel"):
        club = Club.objects.create(name=f"KC {key.title()}", slug=key)
        club.organisers.add(users.create_user(key, password=PASSWORD, email=f"{key}@example.org"))
        clubs[key] = club
    clubs["eichel"].organisers.add(boss)
    league = leagues.create_league(
        organiser=boss, name="Bodensee-Liga", slug="bodensee", season="2026/27"
    )
    league.last_day = date(2026, 11, 20)
    league.save(update_fields=["last_day"])
    ober = leagues.create_division(league=league, name="Oberliga", order=1)
    kreis = leagues.create_division(league=league, name="Kreisliga", order=2)
    teams: dict[str, LeagueTeam] = {}
    for key, club in clubs.items():
        captain = users.create_user(f"kapitaen_{key}", password=PASSWORD, email=f"k{key}@ex.org")
        players = [services.create_player(club=club, name=f"{key.title()} {n}") for n in range(8)]
        teams[f"{key}1"] = leagues.enter_team(
            division=ober,
            club_id=club.pk,
            name=f"{club.name} I",
            captain=captain,
            roster=players[:4],
        )
        if key != "eichel":
            teams[f"{key}2"] = leagues.enter_team(
                division=kreis, club_id=club.pk, name=f"{club.name} II", roster=players[4:]
            )
    leagues.make_fixtures(division=ober, first_day=at(9, 5), days_between=7)
    leagues.make_fixtures(division=kreis, first_day=at(9, 6), days_between=7)
    return {"league": league, "ober": ober, "kreis": kreis, "teams": teams, "boss": boss}


def day_of(home: LeagueTeam, away: LeagueTeam) -> MatchDay:
    return MatchDay.objects.get(home=home, away=away)


def play_and_accept(day: MatchDay, home_wins: tuple[bool, ...], boss: Any) -> None:
    """The home club opens the tables, the tablets play both sittings, the venue confirms
    and the league accepts."""
    organiser = day.home.club.organisers.first()
    home, away = list(day.home.roster.order_by("pk")), list(day.away.roster.order_by("pk"))
    leagues.open_match_day(
        match_day=day, home_pairs=[home[:2], home[2:]], away_pairs=[away[:2], away[2:]]
    )
    api = client_for(organiser)
    for sitting in (1, 2):
        if sitting == 2:
            leagues.start_second_sitting(match_day=day)
        body = api.get(f"/api/match-days/{day.pk}/").data
        for match, code in device_codes(api, body).items():
            number = next(p["number"] for p in body["live"]["partien"] if p["match"] == match)
            play(match, code, home_wins=home_wins[number - 1])
    leagues.confirm_match_day(match_day=day, side="venue", user=organiser)
    leagues.accept_match_day(match_day=day, user=boss)


def test_a_whole_season_as_its_secretary_runs_it(
    live_server: Any, contexts: Any, season: dict[str, Any]
) -> None:
    base = live_server.url
    league: League = season["league"]
    t = season["teams"]
    boss = season["boss"]

    # a match day played at the tablets and accepted: the ranking has its Partien
    play_and_accept(day_of(t["herz1"], t["schell1"]), (True, True, False, True), boss)

    # 1. the league's organiser records a forfeit: KC Laub I did not come to KC Eichel
    liga = log_in(contexts, base, "liga")
    forfeit_day = day_of(t["eichel1"], t["laub1"])
    liga.goto(f"{base}/console/match-days/{forfeit_day.pk}/")
    form = liga.locator("#forfeit-form")
    form.get_by_label("KC Laub I").check()
    form.locator("input[name=reason]").fill("Nicht angetreten, keine Absage")
    shoot(liga, "season-forfeit-form")
    form.locator("button").click()
    expect(liga.locator(".message").first).to_contain_text("Das Nichtantreten ist eingetragen")
    expect(liga.locator("#forfeit")).to_contain_text("Nicht angetreten: KC Laub I")
    forfeit_day.refresh_from_db()
    assert (forfeit_day.home_partien, forfeit_day.home_augen) == (4, 204)

    # 2. a postponement: the captain of Schell I asks, Eichel I's captain consents
    moved = day_of(t["schell1"], t["eichel1"])
    asker = log_in(contexts, base, "kapitaen_schell")
    asker.set_viewport_size(PHONE)
    asker.goto(f"{base}/console/match-days/{moved.pk}/")
    postpone = asker.locator("#postpone-form")
    postpone.locator("input[name=starts_at]").fill("2026-11-14T15:00")
    postpone.locator("input[name=reason]").fill("Saal wegen Hochzeit belegt")
    postpone.locator("button").click()
    expect(asker.locator("#postponement .postponements")).to_contain_text("Beantragt")
    shoot(asker, "season-postponement-asked")
    other = log_in(contexts, base, "kapitaen_eichel")
    other.goto(f"{base}/console/")
    expect(other.locator("#league-waiting")).to_contain_text("Verlegungsantrag von KC Schell I")
    shoot(other, "season-console-home-waiting")
    other.goto(f"{base}/console/match-days/{moved.pk}/")
    other.locator("#answer-form button", has_text="zustimmen").click()
    expect(other.locator(".message").first).to_contain_text("Ihre Zustimmung ist eingetragen")
    liga.goto(f"{base}/console/match-days/{moved.pk}/")
    liga.locator("#decide-form button", has_text="Genehmigen").click()
    expect(liga.locator(".message").first).to_contain_text("Der Spieltag ist verlegt")
    moved.refresh_from_db()
    assert (timezone.localtime(moved.starts_at).day, moved.postponed_by_id) == (14, t["schell1"].pk)

    # 3. eligibility: KC Herz names a player of its second team at the table
    herz = log_in(contexts, base, "herz")
    open_day = day_of(t["herz1"], t["laub1"])
    herz.goto(f"{base}/console/match-days/{open_day.pk}/")
    second_team_player = t["herz2"].roster.order_by("pk").first()
    label = f"{second_team_player.name} (spielt für KC Herz II)"
    herz.locator("select[name=home_1a]").select_option(label=label)
    herz.locator("#open-form button").click()
    expect(herz.locator(".message.is-error")).to_contain_text(
        f"{second_team_player.name} spielt in dieser Liga schon für KC Herz II"
    )
    open_day.refresh_from_db()
    assert open_day.status == MatchDay.Status.SCHEDULED

    # 4. KC Laub I withdraws in the second half (3 of its 6 match days are final)
    for home, away in ((t["laub1"], t["herz1"]), (t["laub1"], t["eichel1"])):
        league_season.record_forfeit(
            match_day=day_of(home, away), team=away, reason="nicht angetreten", user=boss
        )
    liga.goto(f"{base}/console/leagues/{league.pk}/")
    row = liga.locator(f"#team-{t['laub1'].pk}")
    row.locator("summary", has_text="Mannschaft zurückziehen").click()
    row.locator("input[name=confirm]").check()
    row.locator("button", has_text="Mannschaft zurückziehen").click()
    expect(liga.locator(".message").first).to_contain_text("KC Laub I ist zurückgezogen")
    laub = LeagueTeam.objects.get(pk=t["laub1"].pk)
    assert laub.withdrawn_at is not None and not laub.results_struck
    remaining = MatchDay.objects.filter(division=season["ober"]).filter(away=laub)
    assert set(remaining.values_list("forfeited_by", flat=True)) == {laub.pk}
    ober_table = liga.locator(f"#division-{season['ober'].pk} table.league-table tbody tr")
    expect(ober_table.last).to_contain_text("zurückgezogen")

    # 5. reminders: the captains of tomorrow's match day get a mail; the home page lists
    tomorrow = timezone.localtime() + timedelta(days=1)
    reminded = day_of(t["herz1"], t["eichel1"])
    leagues.update_match_day(match_day=reminded, changes={"starts_at": tomorrow})
    mail.outbox.clear()
    assert tasks.queue_league_reminders_task.apply().result == 1
    assert len(mail.outbox) == 1
    assert sorted(mail.outbox[0].to) == ["keichel@ex.org", "kherz@ex.org"]
    assert "KC Herz I – KC Eichel I morgen" in mail.outbox[0].subject

    # 6. after the last date the season is settled: the postponed match day, not played,
    # is lost by Schell I, who asked for it; the others count as not played
    liga.goto(f"{base}/console/leagues/{league.pk}/")
    liga.locator("#settle-form button").click()
    expect(liga.locator(".message").first).to_contain_text("nicht gespielten Spieltage")
    moved.refresh_from_db()
    assert (moved.status, moved.forfeited_by_id) == ("final", t["schell1"].pk)
    assert not MatchDay.objects.filter(
        status__in=("scheduled", "open", "confirmed"), division__league=league
    ).exists()

    # 7. the public page: tables with the forfeit and the withdrawn team, the ranking
    public = contexts(PHONE).new_page()
    public.goto(f"{base}/leagues/{league.slug}/")
    expect(public.locator(".badge.forfeit").first).to_be_visible()
    expect(public.locator("#ranking table.ranking tbody tr")).to_have_count(8)
    expect(public.locator(".badge.withdrawn").first).to_contain_text("zurückgezogen")
    shoot(public, "season-public-league")

    # 8. the next season from the final tables
    liga.goto(f"{base}/console/leagues/{league.pk}/")
    nxt = liga.locator("#next-season-form")
    nxt.locator("input[name=next-season]").fill("2027/28")
    nxt.locator("input[name=next-slug]").fill("bodensee-2027")
    nxt.locator("button").click()
    expect(liga.locator(".message").first).to_contain_text("Die nächste Saison ist angelegt")
    new = League.objects.get(slug="bodensee-2027")
    placed = {d.name: {tm.name for tm in d.teams.all()} for d in new.divisions.all()}
    best_second = league_selectors.division_table(season["kreis"])[0]["name"]
    assert "KC Laub I" in placed["Kreisliga"] and best_second in placed["Oberliga"]
    expect(liga.locator(".badge", has_text="Kader zu bestätigen").first).to_be_visible()
    shoot(liga, "season-next-console")

    # 9. the archive keeps the past season readable
    public.goto(f"{base}/leagues/")
    expect(public.locator("#archive")).to_contain_text("2026/27")
    public.locator("#archive a").first.click()
    expect(public.locator("#seasons")).to_contain_text("Nächste Saison 2027/28")
    expect(public.locator("table.league-table").first).to_be_visible()
