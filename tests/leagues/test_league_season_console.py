"""Issue 23 in the console and on the public pages (in German, the site's language): the
league's organiser records a forfeit, a postponement is asked, consented and granted, a
team withdraws, the next season is created and the last one stays in the archive; the
home club names a substitute and is refused a player of another team in words; the
player ranking and its CSV; the reminders as sent mail and the console home's list of
what waits."""

from __future__ import annotations

import csv
import io
from datetime import datetime, timedelta
from typing import Any

import pytest
from django.contrib.messages import get_messages
from django.core import mail
from django.utils import timezone

from tests.leagues.conftest import LeagueWorld
from tests.leagues.test_league_api import play_day
from tests.leagues.test_league_season_api import finish, second_day
from tests.support.clients import Client
from tournaments import tasks
from tournaments.events import services
from tournaments.leagues import reminders as league_reminders
from tournaments.leagues import season as league_season
from tournaments.leagues import services as leagues
from tournaments.leagues.models import League, LeagueReminder, MatchDay, MatchDayConfirmation

pytestmark = pytest.mark.django_db


def browser(world: LeagueWorld, role: str) -> Client:
    client = Client()
    client.force_login(world.users[role])
    return client


def texts(response: Any) -> str:
    return " ".join(str(m) for m in get_messages(response.wsgi_request))


def command(day: MatchDay, name: str) -> str:
    return f"/console/match-days/{day.pk}/{name}/"


def test_the_league_records_a_forfeit_in_the_console(world: LeagueWorld) -> None:
    day = world.first_day
    client = browser(world, "league_organiser")
    assert 'id="forfeit-form"' in client.get(f"/console/match-days/{day.pk}/").content.decode()
    assert 'id="forfeit-form"' not in (
        browser(world, "organiser").get(f"/console/match-days/{day.pk}/").content.decode()
    )
    assert browser(world, "organiser").post(command(day, "forfeit"), {}).status_code == 403
    bad = client.post(command(day, "forfeit"), {"team": world.team_b.pk})
    assert bad.status_code == 400
    reply = client.post(
        command(day, "forfeit"), {"team": world.team_b.pk, "reason": "Nicht angetreten"}
    )
    assert "Das Nichtantreten ist eingetragen" in texts(reply)
    day.refresh_from_db()
    assert (day.status, day.forfeited_by_id, day.home_augen) == ("final", world.team_b.pk, 204)
    page = Client().get(f"/leagues/{world.league.slug}/").content.decode()
    assert "nicht angetreten: Schellen I</span>" in page
    csv_body = Client().get(f"/leagues/{world.league.slug}/fixtures.csv").content
    rows = list(csv.reader(io.StringIO(csv_body.decode("utf-8-sig")), delimiter=";"))
    assert rows[1][4:] == ["Herzbube I", "Schellen I", "forfeit", "4:0", "204:0"]


def test_a_postponement_through_the_console(world: LeagueWorld) -> None:
    day = world.first_day
    asker = browser(world, "captain_b")
    page = asker.get(f"/console/match-days/{day.pk}/").content.decode()
    assert 'id="postpone-form"' in page
    stranger = browser(world, "stranger").post(command(day, "postpone"), {"team": world.team_b.pk})
    assert stranger.status_code == 403
    reply = asker.post(
        command(day, "postpone"),
        {"team": world.team_b.pk, "starts_at": "2026-11-20T19:00", "reason": "Hochzeit"},
    )
    assert reply.status_code == 302, texts(reply)
    asked = day.postponements.get()
    answer = browser(world, "captain_a")
    assert 'id="answer-form"' in answer.get(f"/console/match-days/{day.pk}/").content.decode()
    answer.post(command(day, "answer"), {"postponement": asked.pk, "consent": "yes"})
    boss = browser(world, "league_organiser")
    home = boss.get("/console/").content.decode()
    assert 'id="league-waiting"' in home and "Herzbube I – Schellen I" in home
    assert 'id="decide-form"' in boss.get(f"/console/match-days/{day.pk}/").content.decode()
    boss.post(command(day, "decide"), {"postponement": asked.pk, "grant": "yes"})
    day.refresh_from_db()
    assert timezone.localtime(day.starts_at).date().isoformat() == "2026-11-20"
    assert day.postponed_by_id == world.team_b.pk
    assert "verlegt" in Client().get(f"/leagues/{world.league.slug}/").content.decode()


def test_a_team_withdraws_in_the_console_and_shows_as_withdrawn(world: LeagueWorld) -> None:
    client = browser(world, "league_organiser")
    url = f"/console/leagues/{world.league.pk}/withdraw/"
    assert "withdraw-team" in client.get(f"/console/leagues/{world.league.pk}/").content.decode()
    unticked = client.post(url, {"team": world.team_b.pk})
    assert "Setzen Sie das Häkchen, um die Mannschaft zurückzuziehen" in texts(unticked)
    world.team_b.refresh_from_db()
    assert world.team_b.withdrawn_at is None
    assert (
        browser(world, "other_organiser")
        .post(url, {"team": world.team_b.pk, "confirm": "on"})
        .status_code
        == 403
    )
    client.post(url, {"team": world.team_b.pk, "confirm": "on"})
    world.team_b.refresh_from_db()
    assert world.team_b.withdrawn_at is not None and world.team_b.results_struck
    page = Client().get(f"/leagues/{world.league.slug}/").content.decode()
    assert 'class="badge is-warn withdrawn"' in page
    team = Client().get(f"/leagues/{world.league.slug}/teams/{world.team_b.pk}/")
    assert 'id="withdrawn"' in team.content.decode()


def test_the_table_names_a_substitute_and_refuses_another_teams_player(
    world: LeagueWorld,
) -> None:
    division = leagues.create_division(league=world.league, name="Kreisliga", order=2)
    other = services.create_player(club=world.team_a.club, name="Zweite Mannschaft")
    leagues.enter_team(
        division=division, club_id=world.team_a.club_id, name="Herzbube II", roster=[other]
    )
    substitute = services.create_player(club=world.team_a.club, name="Ersatz Eins")
    day = world.first_day
    client = browser(world, "organiser")
    page = client.get(f"/console/match-days/{day.pk}/").content.decode()
    assert "Zweite Mannschaft (spielt für Herzbube II)" in page
    assert "Ersatz Eins" in page
    a, b = world.players_a, world.players_b
    body = {
        "home_1a": other.pk,
        "home_1b": a[1].pk,
        "home_2a": a[2].pk,
        "home_2b": a[3].pk,
        "away_1a": b[0].pk,
        "away_1b": b[1].pk,
        "away_2a": b[2].pk,
        "away_2b": b[3].pk,
    }
    reply = client.post(command(day, "open"), body)
    assert "Zweite Mannschaft spielt in dieser Liga schon für Herzbube II" in texts(reply)
    day.refresh_from_db()
    assert day.status == "scheduled"
    reply = client.post(command(day, "open"), {**body, "home_1a": substitute.pk})
    day.refresh_from_db()
    assert day.status == "open", texts(reply)
    assert substitute in world.team_a.roster.all()


def test_the_player_ranking_on_the_public_page_and_as_csv(world: LeagueWorld) -> None:
    finish(world, world.first_day, (True, True, False, True))
    page = Client().get(f"/leagues/{world.league.slug}/").content.decode()
    assert 'id="ranking"' in page and world.players_a[2].name in page
    body = Client().get(f"/leagues/{world.league.slug}/ranking.csv").content.decode("utf-8-sig")
    rows = list(csv.reader(io.StringIO(body), delimiter=";"))
    assert rows[0][:2] == ["Rang", "Spieler"]
    assert len(rows) == 9
    assert rows[1][1] in (world.players_a[2].name, world.players_a[3].name)
    assert rows[1][4:6] == ["2", "2"]


def test_the_next_season_in_the_console_and_the_archive(world: LeagueWorld) -> None:
    boss = world.users["league_organiser"]
    for day in MatchDay.objects.all():
        league_season.record_forfeit(match_day=day, team=world.team_b, reason="x", user=boss)
    client = browser(world, "league_organiser")
    reply = client.post(
        f"/console/leagues/{world.league.pk}/next-season/",
        {"next-season": "2027/28", "next-slug": "bodensee-27"},
    )
    new = League.objects.get(slug="bodensee-27")
    assert reply.status_code == 302 and reply.url == f"/console/leagues/{new.pk}/"
    page = client.get(reply.url).content.decode()
    assert page.count("Kader zu bestätigen") == 2
    listing = Client().get("/leagues/").content.decode()
    assert 'id="archive"' in listing
    assert listing.index('id="archive"') < listing.index(f'href="/leagues/{world.league.slug}/"')
    old = Client().get(f"/leagues/{world.league.slug}/").content.decode()
    assert f'href="/leagues/{new.slug}/"' in old and "Nächste Saison 2027/28" in old
    assert old.count('<td class="rank">') == 2  # its table; no Partie played: no ranking


# --- reminders ----------------------------------------------------------------------------


def with_emails(world: LeagueWorld) -> None:
    for role in ("captain_a", "captain_b", "league_organiser", "organiser"):
        user = world.users[role]
        user.email = f"{role}@example.org"
        user.save(update_fields=["email"])


def test_the_captains_are_reminded_the_day_before(world: LeagueWorld) -> None:
    with_emails(world)
    starts = timezone.make_aware(datetime(2026, 10, 3, 19, 0))
    leagues.update_match_day(match_day=world.first_day, changes={"starts_at": starts})
    two_days_before = starts - timedelta(days=2)
    assert league_reminders.due_reminders(two_days_before) == []
    evening_before = starts - timedelta(hours=22)
    assert league_reminders.due_reminders(evening_before) == [(world.first_day.pk, "day_before")]
    assert league_reminders.send_reminder(
        match_day_id=world.first_day.pk, kind="day_before", now=evening_before
    )
    assert len(mail.outbox) == 1
    message = mail.outbox[0]
    assert sorted(message.to) == ["captain_a@example.org", "captain_b@example.org"]
    assert "Herzbube I – Schellen I" in message.subject
    assert not league_reminders.send_reminder(
        match_day_id=world.first_day.pk, kind="day_before", now=evening_before
    )
    assert len(mail.outbox) == 1 and league_reminders.due_reminders(evening_before) == []


def test_results_waiting_remind_after_24_and_48_hours(world: LeagueWorld) -> None:
    with_emails(world)
    day = world.first_day
    play_day(world, day, (True,) * 4)
    now = timezone.now()
    assert league_reminders.due_reminders(now) == []
    assert league_reminders.due_reminders(now + timedelta(hours=25)) == [(day.pk, "confirm")]
    tasks.queue_league_reminders_task.apply()  # nothing is due yet: nothing is sent
    assert mail.outbox == []
    league_reminders.send_reminder(
        match_day_id=day.pk, kind="confirm", now=now + timedelta(hours=25)
    )
    assert sorted(mail.outbox[0].to) == [
        "captain_a@example.org",
        "captain_b@example.org",
        "organiser@example.org",
    ]
    leagues.confirm_match_day(match_day=day, side="venue", user=world.users["organiser"])
    later = now + timedelta(hours=49)
    MatchDayConfirmation.objects.filter(match_day=day).update(confirmed_at=now)
    assert league_reminders.due_reminders(later) == [(day.pk, "accept")]
    league_reminders.send_reminder(match_day_id=day.pk, kind="accept", now=later)
    assert mail.outbox[1].to == ["league_organiser@example.org"]
    assert set(LeagueReminder.objects.values_list("kind", flat=True)) == {"confirm", "accept"}


def test_the_beat_task_sends_what_is_due(world: LeagueWorld) -> None:
    with_emails(world)
    tomorrow = timezone.localtime() + timedelta(days=1)
    leagues.update_match_day(match_day=world.first_day, changes={"starts_at": tomorrow})
    leagues.update_match_day(
        match_day=second_day(world), changes={"starts_at": tomorrow + timedelta(days=7)}
    )
    assert tasks.queue_league_reminders_task.apply().result == 1
    assert len(mail.outbox) == 1
    assert tasks.queue_league_reminders_task.apply().result == 0
    assert len(mail.outbox) == 1


def test_the_console_home_lists_a_result_to_confirm(world: LeagueWorld) -> None:
    play_day(world, world.first_day, (True,) * 4)
    home = browser(world, "organiser").get("/console/").content.decode()
    assert 'id="league-waiting"' in home
    assert "Herzbube I – Schellen I" in home
    assert (
        'id="league-waiting"'
        not in browser(world, "other_organiser").get("/console/").content.decode()
    )


def test_the_club_confirms_a_carried_over_roster_by_saving_the_team(world: LeagueWorld) -> None:
    boss = world.users["league_organiser"]
    for day in MatchDay.objects.all():
        league_season.record_forfeit(match_day=day, team=world.team_b, reason="x", user=boss)
    new = league_season.next_season(league=world.league, season="2027/28", slug="b27", user=boss)
    carried = new.divisions.get().teams.get(name="Herzbube I")
    client = browser(world, "organiser")
    page = client.get(f"/console/league-teams/{carried.pk}/").content.decode()
    assert 'id="confirm-roster"' in page
    body = {"name": carried.name, "captain": "captain_a", "roster": [p.pk for p in world.players_a]}
    assert client.post(f"/console/league-teams/{carried.pk}/", body).status_code == 302
    carried.refresh_from_db()
    assert carried.roster_confirmed


# --- venues -------------------------------------------------------------------------------


def test_the_venue_address_goes_to_the_fixtures_the_map_and_the_calendar(
    world: LeagueWorld,
) -> None:
    club = world.team_a.club
    client = browser(world, "organiser")
    reply = client.post(
        f"/console/clubs/{club.pk}/settings/",
        {
            "name": club.name,
            "city": "Konstanz",
            "boss_window": 3,
            "venue_tables": 2,
            "venue_street": "Seestraße 4",
            "venue_town": "78464 Konstanz",
            "embed_origins": "",
        },
    )
    assert reply.status_code == 302
    club.refresh_from_db()
    assert (club.venue_street, club.venue_town) == ("Seestraße 4", "78464 Konstanz")
    leagues.make_fixtures(division=world.division, remake=True, first_day=timezone.now())
    day = MatchDay.objects.get(home=world.team_a)
    assert day.venue == f"{club.name}, Seestraße 4, 78464 Konstanz"
    page = Client().get(f"/leagues/{world.league.slug}/").content.decode()
    assert "https://www.openstreetmap.org/search?query=" in page
    assert "Seestra%C3%9Fe+4%2C+78464+Konstanz" in page
    ics = Client().get(f"/leagues/{world.league.slug}/calendar.ics").content.decode()
    assert "LOCATION:" + club.name + "\\, Seestraße 4\\, 78464 Konstanz" in ics.replace("\r\n ", "")
    away = MatchDay.objects.get(home=world.team_b)
    assert away.venue == world.team_b.club.name  # no address: the club's name, as before


def test_the_api_changes_the_venue_address(world: LeagueWorld) -> None:
    club = world.team_a.club
    reply = world.client("organiser").patch(
        f"/api/clubs/{club.pk}/", {"venue_street": "Hafen 1", "venue_town": ""}, format="json"
    )
    assert reply.status_code == 200, reply.data
    club.refresh_from_db()
    assert club.venue_street == "Hafen 1"
    club.city = "Radolfzell"
    assert leagues.venue_of(club) == f"{club.name}, Hafen 1, Radolfzell"  # the town: the city


def test_the_calendar_cancels_a_forfeited_match_day(world: LeagueWorld) -> None:
    first, second = world.first_day, second_day(world)
    leagues.update_match_day(match_day=first, changes={"starts_at": timezone.now()})
    leagues.update_match_day(
        match_day=second, changes={"starts_at": timezone.now() + timedelta(days=7)}
    )
    league_season.record_forfeit(
        match_day=first, team=world.team_b, reason="x", user=world.users["league_organiser"]
    )
    ics = Client().get(f"/leagues/{world.league.slug}/calendar.ics").content.decode()
    events = ics.split("BEGIN:VEVENT")[1:]
    by_uid = {f"match-day-{d.pk}@": d for d in (first, second)}
    cancelled = {uid for uid in by_uid for e in events if uid in e and "STATUS:CANCELLED" in e}
    assert cancelled == {f"match-day-{first.pk}@"}
