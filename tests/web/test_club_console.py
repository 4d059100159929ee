"""A club run from the console without the admin: its name, city and KlammernBoss window
(a club setting, RULES.md), and its members and guests (add one, correct a name or a
household, make a guest a member); the same settings through the API."""

from __future__ import annotations

import re
from datetime import date
from typing import Any

import pytest
from playwright.sync_api import expect

from tests.conftest import Event, client_for, make_event
from tests.factories import UserFactory, summary_record
from tests.support.clients import Client, committed
from tournaments.clubs import services as clubs
from tournaments.clubs.models import Club, ClubMembership, Player, Season
from tournaments.deals.services import submit_deal
from tournaments.events import services
from tournaments.events.models import Tournament

from .conftest import PHONE, SCREENSHOTS, assert_fits
from .test_console_deals import console_page

pytestmark = pytest.mark.django_db


@pytest.fixture
def club() -> Club:
    club = Club.objects.create(name="KC Herzbube", slug="herzbube", city="Konstanz")
    club.organisers.add(UserFactory(username="leiterin"))
    return club


def organiser_client(club: Club) -> Client:
    client = Client()
    client.force_login(club.organisers.get())
    return client


def shoot(page: Any, name: str) -> None:
    SCREENSHOTS.mkdir(parents=True, exist_ok=True)
    page.evaluate("window.scrollTo(0, 0)")  # the sticky header stays on top
    page.screenshot(path=str(SCREENSHOTS / f"{name}.png"), full_page=True)


def finished_evening(event: Event) -> None:
    with committed():
        for number in range(1, 5):
            record = summary_record(dealer=(number - 1) % 4)
            submit_deal(match=event.match1, number=number, record=record)
            submit_deal(match=event.match2, number=number, record=record)
        services.close_round(round_=event.round, force=True)
        services.finish_tournament(tournament=event.tournament)


def test_the_settings_are_saved_and_a_new_window_recounts_the_club_tables(club: Club) -> None:
    finished_evening(make_event(club=club))
    version = Club.objects.get(pk=club.pk).results_version
    web = organiser_client(club)
    page = web.get(f"/console/clubs/{club.pk}/").content.decode()
    assert 'name="boss_window"' in page and 'value="3"' in page
    with committed():
        reply = web.post(
            f"/console/clubs/{club.pk}/settings/",
            {"name": "KC Herzbube Konstanz", "city": "Konstanz", "boss_window": "1"},
            follow=True,
        )
    assert "Die Vereinseinstellungen sind gespeichert." in reply.content.decode()
    club.refresh_from_db()
    assert (club.name, club.boss_window) == ("KC Herzbube Konstanz", 1)
    assert club.results_version == version + 1
    tables = client_for().get(f"/api/clubs/{club.pk}/leaderboards/").json()
    assert tables["up_to_date"] and tables["data"]["boss"]["window"] == 1
    public = client_for().get(f"/clubs/{club.slug}/").content.decode()
    assert "meiste gewonnene Partien am letzten Spielabend" in public


@pytest.mark.parametrize("window", ["0", "53", "drei", ""])
def test_a_wrong_window_is_refused_in_words_and_nothing_changes(club: Club, window: str) -> None:
    reply = organiser_client(club).post(
        f"/console/clubs/{club.pk}/settings/",
        {"name": "Anders", "city": "", "boss_window": window},
    )
    assert reply.status_code == 200
    assert 'class="errorlist' in reply.content.decode()
    club.refresh_from_db()
    assert (club.name, club.boss_window) == ("KC Herzbube", 3)


def test_another_clubs_organiser_cannot_see_or_change_anything(club: Club) -> None:
    member = services.create_player(club=club, name="Anna")
    stranger = Client()
    stranger.force_login(UserFactory())
    settings = {"name": "Gekapert", "city": "", "boss_window": "2"}
    assert stranger.post(f"/console/clubs/{club.pk}/settings/", settings).status_code == 404
    assert stranger.get(f"/console/clubs/{club.pk}/players/").status_code == 404
    row = {f"p{member.pk}-name": "X", f"p{member.pk}-kind": "member"}
    assert stranger.post(f"/console/clubs/{club.pk}/players/{member.pk}/", row).status_code == 404
    assert Club.objects.get(pk=club.pk).name == "KC Herzbube"
    assert Player.objects.get(pk=member.pk).name == "Anna"


def test_a_player_of_another_club_cannot_be_changed_through_this_one(club: Club) -> None:
    other = Club.objects.create(name="Andere", slug="andere")
    outsider = services.create_player(club=other, name="Bernd")
    row = {f"p{outsider.pk}-name": "Geändert", f"p{outsider.pk}-kind": "member"}
    reply = organiser_client(club).post(f"/console/clubs/{club.pk}/players/{outsider.pk}/", row)
    assert reply.status_code == 404 and Player.objects.get(pk=outsider.pk).name == "Bernd"


def test_the_api_changes_the_settings_for_organisers_only(club: Club) -> None:
    url = f"/api/clubs/{club.pk}/"
    assert client_for().patch(url, {"boss_window": 2}, format="json").status_code == 401
    assert (
        client_for(UserFactory()).patch(url, {"boss_window": 2}, format="json").status_code == 403
    )
    organiser = client_for(club.organisers.get())
    refused = organiser.patch(url, {"boss_window": 0}, format="json")
    assert refused.status_code == 400 and "boss_window" in refused.json()
    assert organiser.patch(url, {"boss_window": "2"}, format="json").status_code == 400
    reply = organiser.patch(url, {"boss_window": 5, "city": " Radolfzell "}, format="json")
    assert reply.status_code == 200
    assert reply.json()["boss_window"] == 5 and reply.json()["city"] == "Radolfzell"
    assert reply.json()["slug"] == "herzbube"


@pytest.mark.browser
@pytest.mark.django_db(transaction=True)
@pytest.mark.parametrize("language", ["de", "en"])
def test_members_and_guests_are_kept_in_the_console(
    live_server: Any, contexts: Any, club: Club, language: str
) -> None:
    words = {
        "de": {"saved": "ist gespeichert", "added": "ist hinzugefügt", "guest": "Gast"},
        "en": {"saved": "is saved", "added": "is added", "guest": "Guest"},
    }[language]
    known = services.create_player(club=club, name="Anna Baumann", household="Baumann")
    page = console_page(contexts, live_server.url, language, PHONE)
    page.goto(f"{live_server.url}/console/clubs/{club.pk}/")
    assert_fits(page, PHONE["width"])
    shoot(page, f"club-console-{language}")
    page.locator("#club-players a.btn[href$='/players/']").click()
    page.wait_for_url(re.compile(r".*/players/$"))
    page.fill("#id_new-name", "Jörg Wagnr")
    page.select_option("#id_new-kind", "guest")
    page.click("#new-player button")
    expect(page.locator(".messages, .message").first).to_contain_text(words["added"])
    added = Player.objects.get(name="Jörg Wagnr")
    row = page.locator(f"#player-{added.pk}")
    expect(row).to_contain_text(words["guest"])

    # a typo corrected and the guest made a member
    row.locator("summary").click()
    page.fill(f"#id_p{added.pk}-name", "Jörg Wagner")
    page.fill(f"#id_p{added.pk}-household", "Wagner")
    page.select_option(f"#id_p{added.pk}-kind", "member")
    row.locator("button").click()
    expect(page.locator(".messages, .message").first).to_contain_text(
        f"Jörg Wagner {words['saved']}"
    )
    added.refresh_from_db()
    assert (added.name, added.household) == ("Jörg Wagner", "Wagner")
    assert ClubMembership.objects.get(club=club, player=added).kind == "member"
    assert Player.objects.get(pk=known.pk).name == "Anna Baumann"
    assert_fits(page, PHONE["width"])
    shoot(page, f"club-players-{language}")

    # a name the platform refuses is said in words, nothing changes
    row = page.locator(f"#player-{known.pk}")
    row.locator("summary").click()
    page.fill(f"#id_p{known.pk}-name", "   ")
    row.locator("button").click()
    expect(page.locator(".messages, .message").first).to_contain_text("Anna Baumann")
    assert Player.objects.get(pk=known.pk).name == "Anna Baumann"


def test_a_renamed_player_shows_in_the_standings(club: Club) -> None:
    event = make_event(club=club)
    player = event.table1.seats.get(position=0).player
    with committed():
        submit_deal(match=event.match1, number=1, record=summary_record())
    web = organiser_client(club)
    row = {
        f"p{player.pk}-name": "Neuer Name",
        f"p{player.pk}-household": "",
        f"p{player.pk}-kind": "guest",
    }
    with committed():
        web.post(f"/console/clubs/{club.pk}/players/{player.pk}/", row)
    standings = client_for().get(f"/tournaments/{event.tournament.pk}/standings/").content.decode()
    assert "Neuer Name" in standings
    assert ClubMembership.objects.get(club=club, player=player).kind == "guest"


def test_a_tournaments_details_are_changed_in_the_console(club: Club) -> None:
    event = make_event(club=club)
    finished_evening(event)
    web = organiser_client(club)
    details = f"/console/tournaments/{event.tournament.pk}/details/"
    with committed():
        reply = web.post(
            details, {"name": "Herbstturnier 2026", "planned_rounds": "4"}, follow=True
        )
    assert "Die Angaben zum Turnier sind gespeichert." in reply.content.decode()
    tournament = type(event.tournament).objects.get(pk=event.tournament.pk)
    assert (tournament.name, tournament.planned_rounds, tournament.is_public) == (
        "Herbstturnier 2026",
        4,
        False,
    )
    assert client_for().get(f"/tournaments/{tournament.pk}/").status_code == 404  # private now
    history = client_for().get(f"/api/clubs/{club.pk}/leaderboards/").json()["data"]["boss"]
    assert [h["tournament_name"] for h in history["history"]] == ["Herbstturnier 2026"]

    refused = web.post(details, {"name": " ", "is_public": "on"}, follow=True).content.decode()
    assert 'class="message is-error"' in refused
    assert type(event.tournament).objects.get(pk=tournament.pk).name == "Herbstturnier 2026"


def test_a_season_is_changed_on_the_club_page(club: Club) -> None:
    season = clubs.create_season(
        club=club, name="Saison 2026", starts_on=date(2026, 1, 1), ends_on=date(2026, 12, 31)
    )
    web = organiser_client(club)
    page = web.get(f"/console/clubs/{club.pk}/").content.decode()
    assert f'id="season-{season.pk}"' in page and 'value="Saison 2026"' in page
    url = f"/console/clubs/{club.pk}/seasons/{season.pk}/"
    row = {
        f"s{season.pk}-name": "Saison 2026/27",
        f"s{season.pk}-starts_on": "2026-01-01",
        f"s{season.pk}-ends_on": "2027-06-30",
        f"s{season.pk}-best_of": "5",
        f"s{season.pk}-min_evenings": "2",
    }
    saved = web.post(url, row, follow=True).content.decode()
    assert "Saison 2026/27 ist gespeichert." in saved
    season.refresh_from_db()
    assert (season.name, season.ends_on, season.best_of, season.min_evenings) == (
        "Saison 2026/27",
        date(2027, 6, 30),
        5,
        2,
    )
    backwards = {**row, f"s{season.pk}-ends_on": "2025-12-31"}
    refused = web.post(url, backwards, follow=True).content.decode()
    assert 'class="message is-error"' in refused and "endet nach" in refused
    assert Season.objects.get(pk=season.pk).ends_on == date(2027, 6, 30)
    stranger = Client()
    stranger.force_login(UserFactory())
    assert stranger.post(url, row).status_code == 404


def test_a_tournament_that_has_not_started_can_be_deleted(club: Club) -> None:
    web = organiser_client(club)
    draft = services.create_tournament(club=club, name="Probe", slug="probe")
    services.register_player(tournament=draft, player=services.create_player(club=club, name="A"))
    page = web.get(f"/console/tournaments/{draft.pk}/").content.decode()
    assert 'id="delete-form"' in page
    unconfirmed = web.post(f"/console/tournaments/{draft.pk}/delete/", follow=True)
    assert "Zum Löschen bitte den Haken setzen." in unconfirmed.content.decode()
    assert Tournament.objects.filter(pk=draft.pk).exists()
    deleted = web.post(f"/console/tournaments/{draft.pk}/delete/", {"confirm": "on"}, follow=True)
    assert "Probe ist gelöscht." in deleted.content.decode()
    assert not Tournament.objects.filter(pk=draft.pk).exists()
    assert Player.objects.filter(name="A").exists()  # the club keeps its player

    started = make_event(club=club).tournament
    assert 'id="delete-form"' not in web.get(f"/console/tournaments/{started.pk}/").content.decode()
    refused = web.post(f"/console/tournaments/{started.pk}/delete/", {"confirm": "on"}, follow=True)
    assert 'class="message is-error"' in refused.content.decode()
    assert Tournament.objects.filter(pk=started.pk).exists()
    stranger = Client()
    stranger.force_login(UserFactory())
    other = services.create_tournament(club=club, name="Zweite", slug="zweite")
    assert (
        stranger.post(f"/console/tournaments/{other.pk}/delete/", {"confirm": "on"}).status_code
        == 404
    )
    assert Tournament.objects.filter(pk=other.pk).exists()


def test_a_new_club_lands_on_its_page_where_invitations_are_made() -> None:
    """Issue 20: creating a club landed on the tournament list, not on the club's page."""
    client = Client()
    client.force_login(UserFactory(username="gruenderin"))
    reply = client.post("/console/clubs/new/", {"name": "KC Eichel Ulm", "city": "Ulm"})
    club = Club.objects.get(slug="kc-eichel-ulm")
    assert reply.status_code == 302 and reply["Location"] == f"/console/clubs/{club.pk}/"
    page = client.get(reply["Location"]).content.decode()
    assert f'action="/console/clubs/{club.pk}/invite/"' in page
    assert "KC Eichel Ulm" in page


@pytest.mark.parametrize("language", ["de", "en", "fr", "nl"])
def test_the_season_forms_show_their_dates_in_every_language(club: Club, language: str) -> None:
    """Issue 20: ``<input type=date>`` got "01/01/2026" and showed an empty field."""
    season = clubs.create_season(
        club=club, name="Saison 2026", starts_on=date(2026, 1, 1), ends_on=date(2026, 12, 31)
    )
    web = organiser_client(club)
    web.cookies["django_language"] = language
    page = web.get(f"/console/clubs/{club.pk}/").content.decode()
    for name, value in (("starts_on", "2026-01-01"), ("ends_on", "2026-12-31")):
        field = re.search(rf'<input type="date" name="s{season.pk}-{name}"[^>]*>', page)
        assert field is not None and f'value="{value}"' in field.group(0)


def test_the_public_club_page_calls_its_seasons_seasons_of_club_evenings(club: Club) -> None:
    clubs.create_season(
        club=club, name="Saison 2026", starts_on=date(2026, 1, 1), ends_on=date(2026, 12, 31)
    )
    page = Client().get(f"/clubs/{club.slug}/").content.decode()
    assert "Saisons der Clubabende" in page and "Liga-Saisons" not in page


def test_the_venue_capacity_of_league_match_days_is_a_club_setting(club: Club) -> None:
    """RULES.md, "Clashes": a venue hosts as many match days at once as it has tables
    for, a club setting (default 2)."""
    assert club.venue_tables == 2
    web = organiser_client(club)
    page = web.get(f"/console/clubs/{club.pk}/").content.decode()
    assert 'name="venue_tables"' in page
    settings = {"name": club.name, "city": club.city, "boss_window": "3", "venue_tables": "3"}
    assert web.post(f"/console/clubs/{club.pk}/settings/", settings).status_code == 302
    club.refresh_from_db()
    assert club.venue_tables == 3
    api = client_for(club.organisers.get())
    refused = api.patch(f"/api/clubs/{club.pk}/", {"venue_tables": 0}, format="json")
    assert refused.status_code == 400 and "venue_tables" in refused.json()
    reply = api.patch(f"/api/clubs/{club.pk}/", {"venue_tables": 1}, format="json")
    assert reply.status_code == 200 and reply.json()["venue_tables"] == 1
    assert Club.objects.get(pk=club.pk).venue_tables == 1
