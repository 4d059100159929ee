"""The pictures for sharing (tournaments/web/publishing.py, Open Graph PNGs) and the season
page they belong to: every letter of the players' names is really drawn (no empty
missing-glyph boxes), a long name never runs into the site's name, and a season of club
evenings shows its evenings' table on its page and in its picture."""

from __future__ import annotations

import re
from io import BytesIO
from pathlib import Path
from typing import Any

import pytest
from django.core.cache import cache
from django.utils import translation
from django.utils.translation import gettext
from PIL import Image, ImageDraw, ImageFont

from tests.conftest import make_event
from tests.support.clients import Client
from tests.web.conftest import SCREENSHOTS
from tests.web.test_publishing import og_image, play_evening
from tournaments.clubs.models import Club, Player, Season
from tournaments.events import services
from tournaments.events.models import Team, Tournament
from tournaments.results import seasons
from tournaments.web import publishing, selectors

pytestmark = pytest.mark.django_db

#: Names as the clubs' players write them, in every language the site speaks and a few
#: more (the font has to draw them all).
NAMES = (
    "Jörg Müller",
    "Straße",
    "Élodie Lefèvre",
    "Søren Kierkegård",
    "Şahin Çelik",
    "Åsa Öberg",
    "François Hüßner",
    "Ærøskøbing Œuvre",
    "Núñez Ğülşen",
    "IJsbrand van ’t Hof",
    "1–2 · 3×",
)
#: A letter Noto Sans does not draw: what a missing glyph looks like.
MISSING = "\u6f22"  # 漢
#: The sizes and weights the pictures are drawn in.
FONTS = [(26, False), (34, False), (40, True), (46, True), (52, True)]
#: The picture's own words, in every language.
PICTURE_WORDS = (
    "No results yet.",
    "All-time table",
    "Standings",
    "League table",
    "Season table of the club evenings",
)


def glyph(font: ImageFont.FreeTypeFont, char: str) -> bytes:
    """What ``font`` draws for one character: the pixels of a picture of it alone."""
    size = int(font.size)
    picture = Image.new("L", (3 * size, 2 * size))
    ImageDraw.Draw(picture).text((size // 2, size // 2), char, font=font, fill=255)
    return picture.tobytes()


def boxes(font: ImageFont.FreeTypeFont, text: str) -> list[str]:
    """The characters of ``text`` that ``font`` draws as its missing-glyph box."""
    missing = glyph(font, MISSING)
    return [char for char in text if not char.isspace() and glyph(font, char) == missing]


def test_the_check_finds_the_boxes_that_pillows_own_font_drew() -> None:
    """What the pictures showed before ("J□rg M□ller"), and that the check sees it."""
    default = ImageFont.load_default(size=34)
    assert boxes(default, "Jörg Müller") == ["ö", "ü"]
    assert {"ß", "É", "ø", "Ş", "Å", "–"} <= set(boxes(default, "".join(NAMES)))
    assert boxes(publishing.share_font(34), f"Jörg {MISSING}") == [MISSING]


@pytest.mark.parametrize(("size", "bold"), FONTS)
def test_the_share_font_draws_every_letter_of_the_names(size: int, bold: bool) -> None:
    font = publishing.share_font(size, bold=bold)
    for name in NAMES:
        assert boxes(font, name) == [], name
    for language in ("de", "nl", "fr", "en"):
        with translation.override(language):
            words = " ".join(gettext(w) for w in PICTURE_WORDS)
        assert boxes(font, words) == [], (language, words)


def test_the_share_font_is_the_pinned_package() -> None:
    """Loaded from the installed package, by its API, and named in requirements.txt."""
    font = publishing.share_font(34)
    assert font.getname()[0] == "Noto Sans"
    assert "/fontpkg_noto_sans/" in str(font.path)
    pins = (Path(__file__).resolve().parents[2] / "requirements.txt").read_text("utf-8")
    assert re.search(r"(?m)^fontpkg-noto-sans==[\d.]+$", pins)
    assert re.search(r"(?m)^fontpkg==[\d.]+$", pins)


def title_band_right_edge(picture: Image.Image) -> int:
    """The rightmost column where the title (white on the felt) has a pixel."""
    band = picture.convert("RGB").crop((0, 10, picture.width, 95))
    columns = [
        x
        for x in range(band.width)
        for y in range(band.height)
        if band.getpixel((x, y)) == (255,) * 3
    ]
    return max(columns)


def test_a_long_club_name_stops_before_the_sites_name(client: Client) -> None:
    long_name = "Klammerfreunde Großenbrode-Süd – Østerbro Åsa Müller Straße und Umgebung e. V."
    club = Club.objects.create(name=long_name, slug="lang")
    picture = Image.open(BytesIO(client.get(f"/clubs/{club.slug}/share.png?lang=de").content))
    label = publishing.share_font(26).getlength("Klammern")
    assert title_band_right_edge(picture) < 1200 - publishing.MARGIN - label - 10
    short = publishing.table_image("Jörg Müller", "", [])
    assert title_band_right_edge(Image.open(BytesIO(short))) < 600
    assert publishing.fit_text(long_name, publishing.share_font(40), 500).endswith("…")
    assert publishing.fit_text("Åsa", publishing.share_font(40), 500) == "Åsa"


def boxed(text: str) -> str:
    """``text`` with each letter beyond ASCII replaced by a letter the font lacks."""
    return "".join(char if char.isascii() else MISSING for char in text)


def test_the_club_picture_draws_the_names_letters(
    club_a: Club, organiser: Any, client: Client
) -> None:
    """The served picture of a club whose players have such names differs from the one
    it gives when those letters are missing-glyph boxes: they are drawn as letters."""
    event = make_event(club=club_a)
    players = [seat.player for seat in event.table1.seats.select_related("player")]
    for player, name in zip(players, NAMES, strict=False):
        player.name = name
        player.save(update_fields=["name"])
    club_a.name = "Klub Jörg Müller – Straße"
    club_a.save(update_fields=["name"])
    play_evening(event, team0_points=64)
    url = f"/clubs/{club_a.slug}/share.png?lang=fr"
    drawn = client.get(url).content
    SCREENSHOTS.mkdir(parents=True, exist_ok=True)
    (SCREENSHOTS / "share-club-names.png").write_bytes(drawn)
    for player in players:
        Player.objects.filter(pk=player.pk).update(name=boxed(player.name))
    Club.objects.filter(pk=club_a.pk).update(name=boxed(club_a.name))
    cache.clear()
    assert client.get(url).content != drawn


# --- the season of club evenings ------------------------------------------------------------


@pytest.fixture
def evening_season(club_a: Club, organiser: Any) -> tuple[Season, set[str]]:
    """A season of two finished club evenings; the names of the players at their first
    tables (the tables that played)."""
    season = Season.objects.create(
        club=club_a, name="Saison 2026", starts_on="2026-01-01", ends_on="2026-12-31"
    )
    names: set[str] = set()
    for seed, points in ((7, 64), (8, 0)):
        event = make_event(club=club_a, seed=seed)
        event.tournament.name = f"Abend {seed}"
        event.tournament.season = season
        event.tournament.save(update_fields=["name", "season"])
        play_evening(event, team0_points=points)
        names |= {seat.player.name for seat in event.table1.seats.select_related("player")}
    return season, names


def test_the_season_page_of_club_evenings_shows_their_table(
    evening_season: tuple[Season, set[str]], client: Client
) -> None:
    season, names = evening_season
    club = season.club
    body = client.get(f"/clubs/{club.slug}/seasons/{season.pk}/", HTTP_ACCEPT_LANGUAGE="de")
    page = body.content.decode()
    assert "2 Abende gespielt" in page
    assert "keine Ligapartie" not in page and "Ligatabelle" not in page
    table = seasons.season_table(season)
    assert len(table["rows"]) == 16, "two evenings of eight players each"
    assert names <= {row["name"] for row in table["rows"]}
    for row in table["rows"]:
        assert f'<a href="/players/{row["player"]}/">{row["name"]}</a>' in page
        assert f"<b>{row['total']}</b>" in page
    assert f'href="/clubs/{club.slug}/seasons/{season.pk}/print/"' in page
    assert '<meta property="og:title" content="Saison 2026">' in page


def test_the_season_picture_of_club_evenings_shows_their_table(
    evening_season: tuple[Season, set[str]], client: Client
) -> None:
    season, _ = evening_season
    club = season.club
    body = client.get(f"/clubs/{club.slug}/seasons/{season.pk}/", HTTP_ACCEPT_LANGUAGE="fr")
    url = og_image(body.content.decode()).removeprefix("http://testserver")
    assert url.startswith(f"/clubs/{club.slug}/seasons/{season.pk}/share.png?lang=fr")
    picture = client.get(url).content
    SCREENSHOTS.mkdir(parents=True, exist_ok=True)
    (SCREENSHOTS / "share-season-evenings.png").write_bytes(picture)
    rows = seasons.season_table(season)["rows"]
    with translation.override("fr"):
        subtitle = f"{club.name} · Classement de la saison des soirées du club"
        expected = publishing.table_image(
            season.name, subtitle, [(str(r["rank"]), r["name"], str(r["total"])) for r in rows]
        )
        empty = publishing.table_image(season.name, subtitle, [])
    assert picture == expected, "the picture is the season's evenings table"
    assert picture != empty, "not 'Pas encore de résultats'"


def test_a_league_season_keeps_its_league_table(club_a: Club, client: Client) -> None:
    season = Season.objects.create(
        club=club_a, name="Liga 2026", starts_on="2026-01-01", ends_on="2026-12-31"
    )
    league = services.create_tournament(
        club=club_a, name="Liga", slug="liga", format=Tournament.Format.LEAGUE, season=season
    )
    for name in ("Herz-Asse", "Schellen-Buben"):
        Team.objects.create(tournament=league, name=name)
    url = f"/clubs/{club_a.slug}/seasons/{season.pk}/"
    page = client.get(url, HTTP_ACCEPT_LANGUAGE="de").content.decode()
    assert "Ligatabelle · Liga 2026" in page and "<td>Herz-Asse</td>" in page
    assert "Abende gespielt" not in page and "Saisontabelle der Clubabende</h2>" not in page
    rows = selectors.league_rows(season)
    assert {row["name"] for row in rows} == {"Herz-Asse", "Schellen-Buben"}
    with translation.override("de"):
        expected = publishing.table_image(
            "Liga 2026",
            f"{club_a.name} · Ligatabelle",
            [(str(r["rank"]), r["name"], str(r["league_points"])) for r in rows],
        )
    assert client.get(url + "share.png?lang=de").content == expected
