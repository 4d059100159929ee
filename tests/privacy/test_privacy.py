"""Privacy (issue 39): how a player's name is shown, the member's data download, the
erasure that keeps every figure, retention and the club's imprint and privacy pages."""

from __future__ import annotations

import csv
import io
import json
from datetime import timedelta
from typing import Any

import pytest
from django.utils import timezone, translation

from tests.conftest import Event, client_for, make_event
from tests.support.clients import Client, committed
from tests.web.test_publishing import play_evening
from tournaments.clubs.models import ApiToken, Club, OrganiserInvitation, Player, Season
from tournaments.clubs.names import NameStyle, in_reader_language, stored_name, styled_name
from tournaments.events import services
from tournaments.events.models import DeviceCredential, Tournament
from tournaments.members import privacy, retention
from tournaments.results import snapshots
from tournaments.web import selectors

pytestmark = pytest.mark.django_db

SURNAMES = [
    "Quastmann",
    "Brölsch",
    "Zitzewitz",
    "Oberhuber",
    "Kleinert",
    "Wendrich",
    "Faltin",
    "Ruckus",
]


@pytest.mark.parametrize(
    ("name", "style", "shown"),
    [
        ("Anna Müller", NameStyle.FULL, "Anna Müller"),
        ("Anna Müller", NameStyle.FIRST_INITIAL, "Anna M."),
        ("Anna Maria Müller", NameStyle.FIRST_INITIAL, "Anna M."),
        ("Anna Maria Müller", NameStyle.INITIALS, "A. M. M."),
        ("Anna", NameStyle.FIRST_INITIAL, "Anna"),
        ("Anna", NameStyle.INITIALS, "A."),
        ("émile zola", NameStyle.INITIALS, "É. Z."),
    ],
)
def test_a_name_in_each_style(name: str, style: str, shown: str) -> None:
    assert styled_name(name, style) == shown


def test_a_stored_name_keeps_the_pseudonym_for_the_readers_language() -> None:
    with translation.override("de"):
        rows = [
            {"player": 17, **stored_name("Spieler 17", NameStyle.FULL, 17)},
            {"player": 3, **stored_name("Anna Müller", NameStyle.INITIALS)},
        ]
    assert rows == [
        {"player": 17, "name": "Spieler 17", "pseudonym": 17},
        {"player": 3, "name": "A. M."},
    ]
    for language, word in [("en", "Player"), ("fr", "Joueur"), ("nl", "Speler")]:
        with translation.override(language):
            assert [r["name"] for r in in_reader_language(rows)] == [f"{word} 17", "A. M."]
    assert rows[0]["name"] == "Spieler 17"  # the stored rows stay as they are


def played_evening(club: Club) -> Event:
    """A finished evening of 8 players with distinct two-word names; table 1 played."""
    event = make_event(club=club, seed=7)
    for i, player in enumerate(Player.objects.filter(registrations__tournament=event.tournament)):
        services.update_player(player=player, changes={"name": f"Annegret {SURNAMES[i]}"})
    play_evening(event, team0_points=64)
    return event


def seated_player(event: Event) -> Player:
    return event.table1.seats.select_related("player").get(position=0).player


def public_urls(event: Event, player: Player) -> list[str]:
    t, slug = event.tournament.pk, event.club.slug
    match = event.match1.pk
    return [
        f"/tournaments/{t}/",
        f"/tournaments/{t}/standings/",
        f"/tournaments/{t}/standings/table/",
        f"/tournaments/{t}/projector/",
        f"/tournaments/{t}/rounds/1/",
        f"/tournaments/{t}/rounds/1/hand-records/",
        f"/matches/{match}/deals/1/hand/",
        f"/clubs/{slug}/",
        f"/clubs/{slug}/feed.atom",
        f"/clubs/{slug}/print/boss/",
        f"/clubs/{slug}/print/table/",
        f"/clubs/{slug}/ratings/",
        f"/embed/clubs/{slug}/",
        f"/embed/tournaments/{t}/standings/",
        f"/players/{player.pk}/",
        f"/api/tournaments/{t}/standings/",
        f"/api/tournaments/{t}/registrations/",
        f"/api/rounds/{event.round.pk}/",
        f"/api/players/{player.pk}/rating-history/",
    ]


def fetch_all(client: Any, urls: list[str]) -> dict[str, str]:
    pages = {}
    for url in urls:
        response = client.get(url, HTTP_ACCEPT_LANGUAGE="de")
        assert response.status_code in (200, 404), (url, response.status_code)
        if response.status_code == 200:
            pages[url] = response.content.decode()
    return pages


def test_initials_chosen_on_the_personal_page_show_everywhere_public(
    club_a: Club, organiser: Any, client: Client
) -> None:
    event = played_evening(club_a)
    player = seated_player(event)
    full = player.name
    token = player.registrations.get(tournament=event.tournament).link_token
    response = client.post(f"/p/{token}/name/", {"name_style": "initials"})
    assert response.status_code == 302
    player.refresh_from_db()
    assert (
        player.name_style == "initials" and player.public_name == "A. " + full.split()[1][0] + "."
    )
    pages = fetch_all(client, public_urls(event, player))
    assert len(pages) >= 15, sorted(pages)
    for url, body in pages.items():
        assert full not in body, url
        assert full.split()[1] not in body, url  # not even the surname
    assert player.public_name in pages[f"/tournaments/{event.tournament.pk}/standings/"]
    share = client.get(f"/tournaments/{event.tournament.pk}/standings/share.png")
    assert share.status_code == 200 and share["Content-Type"] == "image/png"
    drawn = [row["name"] for row in selectors.standings_view(event.tournament)["rows"]]
    assert player.public_name in drawn and full not in drawn  # what the picture draws
    # the organiser's console and API keep the full name
    web = client_for(organiser)
    assert full in web.get(f"/api/players/{player.pk}/").content.decode()
    organiser_client = Client()
    organiser_client.force_login(organiser)
    csv_body = organiser_client.get(f"/console/tournaments/{event.tournament.pk}/standings.csv")
    assert full in csv_body.content.decode("utf-8-sig")


def test_a_club_default_applies_to_new_players(club_a: Club) -> None:
    club_a.default_name_style = NameStyle.FIRST_INITIAL
    club_a.save()
    player = services.create_player(club=club_a, name="Bernd Kowalski")
    assert player.public_name == "Bernd K."
    assert player.name == "Bernd Kowalski"


def figures(event: Event) -> tuple[Any, ...]:
    """Every figure of the evening's and the club's tables, without names (a pseudonym's
    number is one)."""

    def strip(rows: list[dict[str, Any]]) -> list[dict[str, Any]]:
        return [
            {k: v for k, v in row.items() if "name" not in k and k != "pseudonym"} for row in rows
        ]

    standings = snapshots.compute_tournament_standings(tournament_id=event.tournament.pk)
    club = snapshots.compute_club_leaderboards(club_id=event.club.pk)
    boss = {k: v for k, v in club["boss"].items() if "name" not in k}
    history = [{k: v for k, v in e.items() if "name" not in k} for e in boss.pop("history")]
    return (strip(standings["rows"]), strip(club["all_time"]), boss, history, club["leagues"])


def test_anonymising_keeps_every_figure_and_shows_the_pseudonym(
    club_a: Club, organiser: Any, client: Client
) -> None:
    event = played_evening(club_a)
    player = seated_player(event)
    full = player.name
    before = figures(event)
    organiser_client = Client()
    organiser_client.force_login(organiser)
    page = organiser_client.get(f"/console/clubs/{club_a.pk}/players/{player.pk}/anonymise/")
    assert (
        "cannot be undone" in page.content.decode() or "nicht rückgängig" in page.content.decode()
    )
    refused = organiser_client.post(f"/console/clubs/{club_a.pk}/players/{player.pk}/anonymise/")
    assert refused.status_code == 200
    player.refresh_from_db()
    assert player.pseudonym is None, "nothing happens without the confirmation"
    done = organiser_client.post(
        f"/console/clubs/{club_a.pk}/players/{player.pk}/anonymise/", {"confirm": "on"}
    )
    assert done.status_code == 302
    player.refresh_from_db()
    assert player.pseudonym == player.pk and player.household == "" and player.user is None
    assert player.name == f"Spieler {player.pk}"
    assert figures(event) == before
    pseudonym = f"Spieler {player.pk}"
    pages = fetch_all(client, public_urls(event, player))
    for url, body in pages.items():
        assert full not in body, url
    assert pseudonym in pages[f"/tournaments/{event.tournament.pk}/standings/"]
    assert pseudonym in pages[f"/clubs/{club_a.slug}/"]
    with pytest.raises(Exception):  # noqa: B017 - it cannot be done twice
        privacy.anonymise_player(player=player)


def stored_pages(event: Event, season: Season) -> list[str]:
    """The public pages and downloads served from stored tables (standings snapshots, the
    club's leaderboards, the season table) that name the evening's players."""
    t, slug = event.tournament.pk, event.club.slug
    return [
        f"/tournaments/{t}/standings/",
        f"/tournaments/{t}/standings/table/",
        f"/tournaments/{t}/projector/",
        f"/embed/tournaments/{t}/standings/",
        f"/clubs/{slug}/",
        f"/clubs/{slug}/print/boss/",
        f"/clubs/{slug}/print/table/",
        f"/embed/clubs/{slug}/",
        f"/clubs/{slug}/seasons/{season.pk}/",
        f"/clubs/{slug}/seasons/{season.pk}/table.csv",
        f"/clubs/{slug}/seasons/{season.pk}/print/",
        f"/embed/clubs/{slug}/seasons/{season.pk}/",
        f"/clubs/{slug}/feed.atom",
    ]


@pytest.mark.parametrize(
    ("language", "word"), [("en", "Player"), ("nl", "Speler"), ("fr", "Joueur"), ("de", "Spieler")]
)
def test_the_pseudonym_is_in_the_readers_language_on_stored_pages(
    club_a: Club, client: Client, language: str, word: str
) -> None:
    """The tables are stored once (in German here: the site's language) and each page of
    them rendered once per snapshot and language: the pseudonym follows the reader."""
    event = played_evening(club_a)
    season = Season.objects.create(
        club=club_a, name="Herbst", starts_on=timezone.localdate(), ends_on=timezone.localdate()
    )
    Tournament.objects.filter(pk=event.tournament.pk).update(season=season)
    player = event.table1.seats.select_related("player").get(position=1).player  # a winner
    with translation.override("de"), committed():
        privacy.anonymise_player(player=player)
    with translation.override("de"):
        snapshots.recompute_standings(tournament_id=event.tournament.pk)
        snapshots.recompute_club_leaderboards(club_id=club_a.pk)
    urls = stored_pages(event, season)
    for url in urls:  # a German reader first: every page and table cached in German
        assert f"Spieler {player.pk}" in page_text(client.get(url, HTTP_ACCEPT_LANGUAGE="de")), url
    for url in urls:
        body = page_text(client.get(url, HTTP_ACCEPT_LANGUAGE=language))
        assert f"{word} {player.pk}" in body, url
        if language != "de":
            assert f"Spieler {player.pk}" not in body, url


def page_text(response: Any) -> str:
    assert response.status_code == 200
    return response.content.decode("utf-8-sig")


def test_the_member_downloads_their_data(club_a: Club, client: Client) -> None:
    event = played_evening(club_a)
    player = seated_player(event)
    token = player.registrations.get(tournament=event.tournament).link_token
    response = client.get(f"/p/{token}/data.json")
    assert response.status_code == 200
    assert response["Content-Disposition"].startswith("attachment")
    data = json.loads(response.content)
    assert data["player"]["name"] == player.name
    assert [r["tournament"] for r in data["registrations"]] == [event.tournament.name]
    assert len([d for d in data["deals"] if d["current"]]) == 4
    assert {d["seat"] for d in data["deals"]} == {1}
    assert "ratings" in data and "league_rosters" in data
    rows = list(
        csv.reader(
            io.StringIO(client.get(f"/p/{token}/data.csv").content.decode("utf-8-sig")),
            delimiter=";",
        )
    )
    flat = (
        rows
        if len(rows[0]) == 4
        else list(
            csv.reader(io.StringIO(client.get(f"/p/{token}/data.csv").content.decode("utf-8-sig")))
        )
    )
    assert ["player", "1", "name", player.name] in flat
    assert sum(1 for r in flat if r[0] == "deals" and r[2] == "deal") == 4
    assert client.get("/p/not-a-token/data.json").status_code == 404


def test_retention_removes_what_is_past_its_time(
    club_a: Club, organiser: Any, settings: Any
) -> None:
    event = played_evening(club_a)
    now = timezone.now()
    old = now - timedelta(days=settings.RETENTION_DEVICE_CODE_DAYS + 1)
    used = DeviceCredential.objects.filter(table=event.table1)  # entered the deals
    unused = DeviceCredential.objects.filter(table=event.table2)
    used.update(expires_at=old)
    unused.update(expires_at=old)
    fresh_code, _ = services.issue_device_code(table=event.table2)
    stale_invitation = OrganiserInvitation.objects.create(
        club=club_a, token_hash="a" * 64, expires_at=now - timedelta(days=40)
    )
    live_invitation = OrganiserInvitation.objects.create(
        club=club_a, token_hash="b" * 64, expires_at=now + timedelta(days=3)
    )
    old_token = ApiToken.objects.create(
        user=organiser, key_hash="c" * 64, created=now - timedelta(days=400)
    )
    removed = retention.purge_expired(now=now)
    assert removed["device_codes"] == unused.count() or removed["device_codes"] >= 1
    assert used.exists(), "a code that entered deals stays with the deal history"
    assert DeviceCredential.objects.filter(pk=fresh_code.pk).exists()
    assert not DeviceCredential.objects.filter(table=event.table2, expires_at=old).exists()
    assert not OrganiserInvitation.objects.filter(pk=stale_invitation.pk).exists()
    assert OrganiserInvitation.objects.filter(pk=live_invitation.pk).exists()
    assert not ApiToken.objects.filter(pk=old_token.pk).exists()
    assert retention.purge_expired(now=now) == {
        "device_codes": 0,
        "invitations": 0,
        "api_tokens": 0,
        "reminder_recipients": 0,
    }


def test_the_beat_schedule_runs_the_retention_task(settings: Any) -> None:
    entry = settings.CELERY_BEAT_SCHEDULE["purge-expired-data"]
    assert entry["task"] == "tournaments.tasks.purge_expired_data_task"


@pytest.mark.parametrize(
    ("language", "word"),
    [
        ("de", "Verantwortlich"),
        ("en", "Controller"),
        ("fr", "Responsable"),
        ("nl", "Verwerkingsverantwoordelijke"),
    ],
)
def test_imprint_and_privacy_pages_linked_from_every_public_page(
    club_a: Club, organiser: Any, client: Client, language: str, word: str
) -> None:
    event = make_event(club=club_a)
    organiser_client = Client()
    organiser_client.force_login(organiser)
    form = organiser_client.get(
        f"/console/clubs/{club_a.pk}/imprint/", HTTP_ACCEPT_LANGUAGE=language
    )
    assert word in form.content.decode(), "the notice starts from the template"
    saved = organiser_client.post(
        f"/console/clubs/{club_a.pk}/imprint/",
        {
            "imprint_responsible": "Hilde Vorstand",
            "imprint_address": "Marktstätte 1\n78462 Konstanz",
            "imprint_contact": "vorstand@example.org",
            "privacy_text": "Unser Text zum Datenschutz.",
        },
    )
    assert saved.status_code == 302
    imprint = client.get(f"/clubs/{club_a.slug}/imprint/").content.decode()
    assert "Hilde Vorstand" in imprint and "78462 Konstanz" in imprint
    assert (
        "Unser Text zum Datenschutz."
        in client.get(f"/clubs/{club_a.slug}/privacy/").content.decode()
    )
    for url in (
        f"/clubs/{club_a.slug}/",
        f"/tournaments/{event.tournament.pk}/",
        f"/tournaments/{event.tournament.pk}/standings/",
        f"/embed/clubs/{club_a.slug}/",
        f"/embed/tournaments/{event.tournament.pk}/standings/",
    ):
        body = client.get(url).content.decode()
        assert f"/clubs/{club_a.slug}/imprint/" in body, url
        assert f"/clubs/{club_a.slug}/privacy/" in body, url
