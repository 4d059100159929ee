"""Publishing a club's tables (tournaments/web/publishing.py): the club's Atom feed of
finished evenings and KlammernBoss title changes, read as a feed reader reads it."""

from __future__ import annotations

import html
import re
import uuid
from io import BytesIO
from typing import Any

import feedparser
import pytest
from django.core.exceptions import ValidationError
from PIL import Image

from tests.conftest import Event, client_for, make_event
from tests.factories import summary_record
from tests.history.files import csv_bytes
from tests.support.clients import Client, committed
from tests.web.conftest import SCREENSHOTS
from tournaments.clubs.models import Club, Player, Season
from tournaments.clubs.names import NameStyle
from tournaments.events import services
from tournaments.history import services as history
from tournaments.members import privacy
from tournaments.web import selectors

pytestmark = pytest.mark.django_db


def text(response: Any) -> str:
    return response.content.decode()


def play_evening(event: Event, team0_points: int) -> set[str]:
    """Table 1 plays its four deals, the evening is finished; the names of the winners."""
    device = client_for(device_code=event.code1)
    for number in range(1, 5):
        response = device.post(
            f"/api/matches/{event.match1.pk}/deals/{number}/",
            summary_record(dealer=(number - 1) % 4, team0_points=team0_points),
            format="json",
            HTTP_IDEMPOTENCY_KEY=str(uuid.uuid4()),
        )
        assert response.status_code == 201, response.content
    with committed():
        services.close_round(round_=event.round, force=True)
        services.finish_tournament(tournament=event.tournament)
    winning = 1 if team0_points < 82 else 0
    seats = event.table1.seats.select_related("player")
    return {s.player.name for s in seats if s.position % 2 == winning}


@pytest.fixture
def two_evenings(club_a: Club, organiser: Any) -> tuple[Event, Event, set[str], set[str]]:
    first = make_event(club=club_a, seed=7)
    first.tournament.name = "Erster Abend"
    first.tournament.save(update_fields=["name"])
    first_winners = play_evening(first, team0_points=64)
    second = make_event(club=club_a, seed=8)
    second.tournament.name = "Zweiter Abend"
    second.tournament.save(update_fields=["name"])
    second_winners = play_evening(second, team0_points=0)
    return first, second, first_winners, second_winners


def test_feed_lists_results_and_the_new_boss(
    two_evenings: tuple[Event, Event, set[str], set[str]], client: Client
) -> None:
    first, second, first_winners, second_winners = two_evenings
    club = first.club
    view = selectors.club_view(club)
    assert view["boss_name"] in second_winners, "the second evening's winner took the title"
    response = client.get(f"/clubs/{club.slug}/feed.atom", HTTP_ACCEPT_LANGUAGE="de")
    assert response.status_code == 200
    assert response["Content-Type"].startswith("application/atom+xml")
    feed = feedparser.parse(response.content)
    assert not feed.bozo, feed.bozo_exception
    assert feed.version == "atom10"
    assert feed.feed.title == f"{club.name}: Ergebnisse und KlammernBoss"
    assert feed.feed.language == "de"
    titles = [entry.title for entry in feed.entries]
    assert "Ergebnis: Zweiter Abend" in titles and "Ergebnis: Erster Abend" in titles
    assert f"Neuer KlammernBoss: {view['boss_name']}" in titles
    first_boss = selectors.club_view(club)["titles"][-1]["name"]
    assert f"Neuer KlammernBoss: {first_boss}" in titles
    change = next(e for e in feed.entries if e.title == f"Neuer KlammernBoss: {view['boss_name']}")
    assert f"übernimmt den Titel von {first_boss}" in change.summary
    assert "Zweiter Abend" in change.summary
    assert change.link.endswith(f"/clubs/{club.slug}/#titles")
    result = next(e for e in feed.entries if e.title == "Ergebnis: Zweiter Abend")
    assert result.link.endswith(f"/tournaments/{second.tournament.pk}/standings/")
    for name in second_winners:
        assert name in result.summary
    assert len({e.id for e in feed.entries}) == len(feed.entries) == 4
    assert feed.entries[0].updated_parsed >= feed.entries[-1].updated_parsed


def test_club_page_links_the_feed_and_announces_the_title_change(
    two_evenings: tuple[Event, Event, set[str], set[str]], client: Client
) -> None:
    first, _, _, _ = two_evenings
    club = first.club
    body = client.get(f"/clubs/{club.slug}/", HTTP_ACCEPT_LANGUAGE="de").content.decode()
    feed_url = f"/clubs/{club.slug}/feed.atom"
    assert '<link rel="alternate" type="application/atom+xml"' in body
    assert f'href="{feed_url}"' in body
    assert "Neuigkeiten als Feed (Atom)" in body
    view = selectors.club_view(club)
    previous = view["titles"][-1]["name"]
    assert f"Neuer KlammernBoss: {view['boss_name']} hat den Titel von {previous}" in body
    assert 'id="titles"' in body


def test_feed_in_english_and_dutch_and_of_an_unknown_club(club_a: Club, client: Client) -> None:
    feed = feedparser.parse(
        client.get(f"/clubs/{club_a.slug}/feed.atom", HTTP_ACCEPT_LANGUAGE="nl").content
    )
    assert feed.feed.title == f"{club_a.name}: uitslagen en KlammernBoss"
    assert feed.entries == []
    english = client.get(f"/clubs/{club_a.slug}/feed.atom", HTTP_ACCEPT_LANGUAGE="en")
    assert feedparser.parse(english.content).feed.title.endswith("results and KlammernBoss")
    assert client.get("/clubs/nowhere/feed.atom").status_code == 404


def test_private_evenings_stay_out_of_the_feed(
    club_a: Club, organiser: Any, client: Client
) -> None:
    event = make_event(club=club_a)
    event.tournament.is_public = False
    event.tournament.save(update_fields=["is_public"])
    play_evening(event, team0_points=64)
    feed = feedparser.parse(client.get(f"/clubs/{club_a.slug}/feed.atom").content)
    assert not [e for e in feed.entries if e.title.endswith(event.tournament.name)]


IMPORTED = [
    ["date", "player", "played", "won", "difference", "season"],
    ["2025-01-10", "Anna Quastmann", 2, 2, 80, "2024/25"],
    ["2025-01-10", "Bernd Brölsch", 2, 0, -80, "2024/25"],
    ["2025-01-24", "Bernd Brölsch", 3, 3, 150, "2024/25"],
    ["2025-01-24", "Anna Quastmann", 3, 0, -150, "2024/25"],
]


def test_imported_evenings_are_in_the_feed_marked_and_named_as_chosen(
    club_a: Club, organiser: Any, client: Client
) -> None:
    """Evenings imported from the club's spreadsheet are entries of the feed, marked as
    imported (in the title and as a category), with their winners in the public name each
    chose, and the title they changed; a played evening stays beside them."""
    event = make_event(club=club_a, seed=7)
    play_evening(event, team0_points=64)
    preview = history.preview_import(
        club=club_a, user=organiser, data=csv_bytes(IMPORTED), file_name="h.csv"
    )
    with committed():
        history.confirm_import(club=club_a, user=organiser, token=preview.token)
    bernd = Player.objects.get(name="Bernd Brölsch")
    with committed():
        privacy.set_name_style(player=bernd, style=NameStyle.INITIALS)
    season = Season.objects.get(club=club_a, name="2024/25")
    response = client.get(f"/clubs/{club_a.slug}/feed.atom", HTTP_ACCEPT_LANGUAGE="de")
    body = response.content.decode()
    assert "Bernd Brölsch" not in body and "Brölsch" not in body
    feed = feedparser.parse(response.content)
    assert not feed.bozo, feed.bozo_exception
    entries = {e.title: e for e in feed.entries}
    last = entries["Ergebnis: 2024/25 2025-01-24 (übernommen)"]
    assert "Gewonnen hat B. B." in last.summary and "Aus der Tabelle des Vereins übernommen" in (
        last.summary
    )
    assert [t.term for t in last.tags] == ["imported"]
    assert last.link.endswith(f"/clubs/{club_a.slug}/seasons/{season.pk}/")
    assert last.updated.startswith("2025-01-24")
    first = entries["Ergebnis: 2024/25 2025-01-10 (übernommen)"]
    assert "Anna Quastmann" in first.summary
    crowned = entries["Neuer KlammernBoss: B. B."]
    assert "2024/25 2025-01-24" in crowned.summary and [t.term for t in crowned.tags] == [
        "imported"
    ]
    played = entries[f"Ergebnis: {event.tournament.name}"]
    assert not played.get("tags")
    club_page = client.get(f"/clubs/{club_a.slug}/").content.decode()
    assert "Brölsch" not in club_page  # a player of the imported history only: restyled
    assert feed.entries[0].updated_parsed >= feed.entries[-1].updated_parsed


# --- embeds ---------------------------------------------------------------------------------


def embed_urls(event: Event) -> list[str]:
    season = Season.objects.create(
        club=event.club, name="Saison 2026", starts_on="2026-01-01", ends_on="2026-12-31"
    )
    return [
        f"/embed/clubs/{event.club.slug}/",
        f"/embed/tournaments/{event.tournament.pk}/standings/",
        f"/embed/clubs/{event.club.slug}/seasons/{season.pk}/",
    ]


def directives(response: Any) -> dict[str, str]:
    policy = response["Content-Security-Policy"]
    return dict((part.strip().split(" ", 1) + [""])[:2] for part in policy.split(";"))


def test_embeds_may_be_framed_only_by_the_clubs_sites(event: Event, client: Client) -> None:
    event.club.embed_origins = ["https://www.herzbube.de", "https://verein.example"]
    event.club.save(update_fields=["embed_origins"])
    for url in embed_urls(event):
        response = client.get(url)
        assert response.status_code == 200, url
        policy = directives(response)
        assert policy["frame-ancestors"] == "https://www.herzbube.de https://verein.example"
        assert policy["script-src"] == "'self'", "no inline script, no third-party script"
        assert policy["default-src"] == "'self'"
        assert "X-Frame-Options" not in response
        assert not response.cookies, f"{url} set {list(response.cookies)}"
        assert "csrfmiddlewaretoken" not in text(response)
        assert "<script>" not in text(response) and "<script " not in text(response).replace(
            '<script src="/static/', ""
        )
    # every other page still refuses any frame
    other = client.get(f"/clubs/{event.club.slug}/")
    assert directives(other)["frame-ancestors"] == "'none'"
    assert other["X-Frame-Options"] == "DENY"


def test_an_embed_without_named_sites_is_framed_by_nobody(event: Event, client: Client) -> None:
    for url in embed_urls(event):
        response = client.get(url)
        assert directives(response)["frame-ancestors"] == "'none'"


def test_embed_theme_and_language(event: Event, client: Client) -> None:
    url = f"/embed/clubs/{event.club.slug}/"
    dark = text(client.get(url + "?theme=dark&lang=nl", HTTP_ACCEPT_LANGUAGE="de"))
    assert 'class="embed theme-dark"' in dark and 'lang="nl"' in dark
    assert "Eeuwige ranglijst" in dark
    french = text(client.get(url + "?lang=fr", HTTP_ACCEPT_LANGUAGE="de"))
    assert 'lang="fr"' in french and "Classement perpétuel" in french
    german = client.get(url + "?theme=neon", HTTP_ACCEPT_LANGUAGE="de")
    assert 'class="embed theme-light"' in text(german) and "Ewige Tabelle" in text(german)
    assert german["Content-Language"] == "de"
    assert "Accept-Language" in german["Vary"]
    english = text(client.get(url + "?lang=xx", HTTP_ACCEPT_LANGUAGE="en"))
    assert "All-time table" in english


def test_embedded_standings_poll_themselves_while_the_tournament_runs(
    event: Event, client: Client
) -> None:
    url = f"/embed/tournaments/{event.tournament.pk}/standings/"
    body = text(client.get(url + "?theme=dark&lang=de"))
    assert f'hx-get="{url}?theme=dark&amp;lang=de"' in body
    assert '<script src="/static/tournaments/htmx.min.js"' in body
    assert "hx-disable" in body, "the public partial's own polling stays off"
    partial = client.get(url + "?lang=de", HTTP_HX_REQUEST="true")
    assert text(partial).startswith("<div hx-disable>") and "<html" not in text(partial)
    assert directives(partial)["frame-ancestors"] == "'none'"


def test_embeds_of_what_is_not_public_are_not_found(event: Event, client: Client) -> None:
    event.tournament.is_public = False
    event.tournament.save(update_fields=["is_public"])
    assert client.get(f"/embed/tournaments/{event.tournament.pk}/standings/").status_code == 404
    assert client.get("/embed/clubs/nowhere/").status_code == 404
    assert client.get(f"/embed/clubs/{event.club.slug}/seasons/999999/").status_code == 404


@pytest.mark.parametrize(
    "origins",
    [
        ["http://www.herzbube.de"],
        ["https://www.herzbube.de/verein"],
        ["https://*.herzbube.de"],
        ["https://WWW.herzbube.de"],
        ["javascript:alert(1)"],
        ["https://a.de 'unsafe-inline'"],
        "https://www.herzbube.de",
        [f"https://s{i}.de" for i in range(11)],
    ],
)
def test_embed_origins_are_validated(club_a: Club, origins: Any) -> None:
    club_a.embed_origins = origins
    with pytest.raises(ValidationError):
        club_a.full_clean()


def test_embed_origins_through_the_api(event: Event, organiser: Any) -> None:
    api = client_for(organiser)
    url = f"/api/clubs/{event.club.pk}/"
    bad = api.patch(url, {"embed_origins": ["https://x.de/path"]}, format="json")
    assert bad.status_code == 400, bad.content
    good = api.patch(url, {"embed_origins": ["https://www.herzbube.de"]}, format="json")
    assert good.status_code == 200, good.content
    assert good.json()["embed_origins"] == ["https://www.herzbube.de"]
    event.club.refresh_from_db()
    assert event.club.embed_origins == ["https://www.herzbube.de"]
    stranger = client_for(None).patch(url, {"embed_origins": []}, format="json")
    assert stranger.status_code in (401, 403)


def test_console_names_the_sites_and_shows_the_codes_to_copy(event: Event, web: Client) -> None:
    club = event.club
    page = text(web.get(f"/console/clubs/{club.pk}/", HTTP_ACCEPT_LANGUAGE="de"))
    assert "Nennen Sie zuerst Ihre Website" in page and "<iframe" not in page
    settings = {"name": club.name, "city": "", "boss_window": "3"}
    wrong = web.post(
        f"/console/clubs/{club.pk}/settings/",
        {**settings, "embed_origins": "https://www.herzbube.de/verein"},
        HTTP_ACCEPT_LANGUAGE="de",
    )
    assert wrong.status_code == 200 and "ist nicht die Adresse einer Website" in text(wrong)
    club.refresh_from_db()
    assert club.embed_origins == []
    with committed():
        web.post(
            f"/console/clubs/{club.pk}/settings/",
            {**settings, "embed_origins": "HTTPS://WWW.Herzbube.de/\n\n https://verein.example \n"},
        )
    club.refresh_from_db()
    assert club.embed_origins == ["https://www.herzbube.de", "https://verein.example"]
    page = text(web.get(f"/console/clubs/{club.pk}/", HTTP_ACCEPT_LANGUAGE="de"))
    assert "Tabellen auf Ihrer Website" in page
    assert f"&lt;iframe src=&quot;http://testserver/embed/clubs/{club.slug}/&quot;" in page
    assert "https://www.herzbube.de\nhttps://verein.example</textarea>" in page
    standings = f"http://testserver/embed/tournaments/{event.tournament.pk}/standings/"
    assert f"&lt;iframe src=&quot;{standings}&quot;" in page
    assert f"{event.tournament.name}: Live-Stand" in page


# --- printable tables -----------------------------------------------------------------------


def test_printable_sheets_render_and_are_linked(event: Event, client: Client) -> None:
    play_evening(event, team0_points=64)
    season = Season.objects.create(
        club=event.club, name="Saison 2026", starts_on="2026-01-01", ends_on="2026-12-31"
    )
    slug = event.club.slug
    boss = text(client.get(f"/clubs/{slug}/print/boss/", HTTP_ACCEPT_LANGUAGE="de"))
    name = selectors.club_view(event.club)["boss_name"]
    assert f"<b>{name}</b>" in boss and "Der letzte Spielabend" not in boss
    assert "Die letzten 3 Spielabende" in boss and "Geschichte des Titels" in boss
    assert "Platz ewig" in boss and 'data-action="print"' in boss
    assert "/static/tournaments/print_tables.css" in boss
    table = text(client.get(f"/clubs/{slug}/print/table/", HTTP_ACCEPT_LANGUAGE="nl"))
    assert "Eeuwige ranglijst" in table and name in table and "Voor het prikbord" in table
    season_sheet = client.get(f"/clubs/{slug}/seasons/{season.pk}/print/")
    assert season_sheet.status_code == 200 and "Saison 2026" in text(season_sheet)
    assert client.get(f"/clubs/{slug}/print/poster/").status_code == 404
    assert client.get(f"/clubs/{slug}/seasons/999999/print/").status_code == 404
    page = text(client.get(f"/clubs/{slug}/", HTTP_ACCEPT_LANGUAGE="de"))
    assert "Für den Aushang" in page
    assert f'href="/clubs/{slug}/print/boss/"' in page
    assert f'href="/clubs/{slug}/print/table/"' in page


# --- pictures for sharing -------------------------------------------------------------------


def og_image(body: str) -> str:
    match = re.search(r'<meta property="og:image" content="([^"]+)">', body)
    assert match, "no og:image"
    return html.unescape(match.group(1))


def test_share_tags_and_pictures_of_club_and_standings(
    event: Event, client: Client, django_assert_max_num_queries: Any
) -> None:
    play_evening(event, team0_points=64)
    club_page = text(client.get(f"/clubs/{event.club.slug}/", HTTP_ACCEPT_LANGUAGE="de"))
    assert '<meta name="twitter:card" content="summary_large_image">' in club_page
    assert f'<meta property="og:title" content="{event.club.name}">' in club_page
    standings_page = text(
        client.get(f"/tournaments/{event.tournament.pk}/standings/", HTTP_ACCEPT_LANGUAGE="nl")
    )
    for body, path in (
        (club_page, f"/clubs/{event.club.slug}/share.png"),
        (standings_page, f"/tournaments/{event.tournament.pk}/standings/share.png"),
    ):
        url = og_image(body)
        assert url.startswith(f"http://testserver{path}?lang=")
        response = client.get(url.removeprefix("http://testserver"))
        assert response.status_code == 200 and response["Content-Type"] == "image/png"
        picture = Image.open(BytesIO(response.content))
        assert picture.size == (1200, 630) and picture.format == "PNG"
        assert not response.cookies
        with django_assert_max_num_queries(3):  # cached per version and language
            again = client.get(url.removeprefix("http://testserver"))
        assert again.content == response.content
    empty = Club.objects.create(name="Neuer Verein", slug="neu")
    german = client.get(f"/clubs/{empty.slug}/share.png?lang=de").content
    dutch = client.get(f"/clubs/{empty.slug}/share.png?lang=nl").content
    assert german != dutch, "the picture's words are in the asked language"
    SCREENSHOTS.mkdir(parents=True, exist_ok=True)
    (SCREENSHOTS / "share-standings.png").write_bytes(response.content)
    event.tournament.is_public = False
    event.tournament.save(update_fields=["is_public"])
    hidden = f"/tournaments/{event.tournament.pk}/standings/share.png"
    assert client.get(hidden).status_code == 404


def test_share_picture_of_a_league_season(club_a: Club, client: Client) -> None:
    season = Season.objects.create(
        club=club_a, name="Liga 2026", starts_on="2026-01-01", ends_on="2026-12-31"
    )
    body = text(client.get(f"/clubs/{club_a.slug}/seasons/{season.pk}/", HTTP_ACCEPT_LANGUAGE="de"))
    assert '<meta property="og:title" content="Liga 2026">' in body
    url = og_image(body).removeprefix("http://testserver")
    assert url.startswith(f"/clubs/{club_a.slug}/seasons/{season.pk}/share.png?lang=de")
    picture = Image.open(BytesIO(client.get(url).content))
    assert picture.size == (1200, 630)
    assert client.get(f"/clubs/{club_a.slug}/seasons/999999/share.png").status_code == 404
