"""The club's Atom feed (tournaments/web/publishing.py) checked against RFC 4287 with an
XML parser: the feed's and every entry's required elements, the club as the feed's
author, ids of the site's own host, unique, and summaries whose names are escaped."""

from __future__ import annotations

import html
import re
import xml.etree.ElementTree as ET
from datetime import datetime
from html.parser import HTMLParser
from typing import Any
from urllib.parse import urlsplit

import pytest
from django.utils import timezone, translation

from tests.conftest import Event, make_event
from tests.support.clients import Client
from tests.web.test_publishing import play_evening, two_evenings  # noqa: F401  (a fixture)
from tournaments.clubs.models import Club, Player
from tournaments.web.publishing import NewsItem

pytestmark = pytest.mark.django_db

ATOM = "{http://www.w3.org/2005/Atom}"
#: RFC 3339 date-time, as RFC 4287 section 3.3 requires it (upper-case T and Z).
DATE_TIME = re.compile(r"^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(\.\d+)?(Z|[+-]\d\d:\d\d)$")
HOSTS = ["klammern.example", "karten.example", "testserver"]


def one(parent: ET.Element, name: str) -> ET.Element:
    """The single child element ``name`` (RFC 4287: "MUST contain exactly one")."""
    found = parent.findall(ATOM + name)
    assert len(found) == 1, f"{parent.tag} has {len(found)} atom:{name}"
    return found[0]


def checked_date(element: ET.Element) -> datetime:
    text = element.text or ""
    assert DATE_TIME.match(text), text
    return datetime.fromisoformat(text)


def iri(text: str | None) -> str:
    """An atom:id is an absolute IRI (RFC 4287, 4.2.6)."""
    assert text and urlsplit(text).scheme, text
    return text


class Tags(HTMLParser):
    """The start tags an HTML text has."""

    def __init__(self) -> None:
        super().__init__()
        self.tags: list[str] = []

    def handle_starttag(self, tag: str, attrs: Any) -> None:
        self.tags.append(tag)


def rfc4287(body: bytes) -> tuple[ET.Element, list[ET.Element]]:
    """The feed checked against RFC 4287's requirements (4.1.1, 4.1.2, 4.2); the feed
    and its entries."""
    feed = ET.fromstring(body)
    assert feed.tag == ATOM + "feed"
    iri(one(feed, "id").text)
    assert (one(feed, "title").text or "").strip()
    updated = checked_date(one(feed, "updated"))
    entries = feed.findall(ATOM + "entry")
    author = feed.findall(ATOM + "author")
    assert len(author) == 1, "the feed names its author (its entries name none)"
    assert (one(author[0], "name").text or "").strip()
    assert [link for link in feed.findall(ATOM + "link") if link.get("rel") == "self"]
    ids = []
    for entry in entries:
        ids.append(iri(one(entry, "id").text))
        assert (one(entry, "title").text or "").strip()
        assert checked_date(one(entry, "updated")) <= updated
        if not entry.findall(ATOM + "content"):
            alternate = [
                link
                for link in entry.findall(ATOM + "link")
                if link.get("rel", "alternate") == "alternate"
            ]
            assert alternate and urlsplit(alternate[0].get("href", "")).scheme
        for summary in entry.findall(ATOM + "summary"):
            assert summary.get("type", "text") in ("text", "html")
    assert len(set(ids)) == len(ids), "the entries' ids are unique"
    return feed, entries


def summary_tags(entry: ET.Element) -> list[str]:
    summary = one(entry, "summary")
    assert summary.get("type") == "html"
    parser = Tags()
    parser.feed(summary.text or "")
    return parser.tags


def test_the_feed_is_atom_by_rfc_4287_with_the_club_as_author(
    two_evenings: tuple[Event, Event, set[str], set[str]],  # noqa: F811
    client: Client,
    settings: Any,
) -> None:
    settings.ALLOWED_HOSTS = HOSTS
    club = two_evenings[0].club
    body = client.get(f"/clubs/{club.slug}/feed.atom", HTTP_HOST="klammern.example:8443").content
    feed, entries = rfc4287(body)
    assert len(entries) == 4
    author = one(feed, "author")
    assert one(author, "name").text == club.name
    assert one(author, "uri").text == f"http://klammern.example:8443/clubs/{club.slug}/"


def test_two_sites_give_their_feeds_ids_of_their_own(
    two_evenings: tuple[Event, Event, set[str], set[str]],  # noqa: F811
    client: Client,
    settings: Any,
) -> None:
    settings.ALLOWED_HOSTS = HOSTS
    club = two_evenings[0].club
    ids = {}
    for host in ("klammern.example", "karten.example"):
        feed, entries = rfc4287(client.get(f"/clubs/{club.slug}/feed.atom", HTTP_HOST=host).content)
        ids[host] = {one(feed, "id").text} | {one(e, "id").text for e in entries}
        assert one(feed, "id").text == f"tag:{host},2026:club-{club.pk}"
        assert all((i or "").startswith(f"tag:{host},2026:") for i in ids[host])
    assert not ids["klammern.example"] & ids["karten.example"]


HOSTILE = ("<img src=x>", "Tom & <b>Jerry</b>")


@pytest.fixture
def hostile_evening(club_a: Club, organiser: Any) -> Event:
    """A finished evening won by two players whose names are markup."""
    event = make_event(club=club_a, seed=9)
    event.tournament.name = "Abend mit Markup"
    event.tournament.save(update_fields=["name"])
    seats = event.table1.seats.select_related("player").order_by("position")
    winners = [seat.player for seat in seats if seat.position % 2 == 1]
    for player, name in zip(winners, HOSTILE, strict=True):
        Player.objects.filter(pk=player.pk).update(name=name)
    assert play_evening(event, team0_points=0) == set(HOSTILE)
    return event


def test_names_in_the_summaries_are_escaped(hostile_evening: Event, client: Client) -> None:
    club = hostile_evening.club
    _, entries = rfc4287(client.get(f"/clubs/{club.slug}/feed.atom").content)
    result = next(e for e in entries if one(e, "title").text == "Ergebnis: Abend mit Markup")
    assert summary_tags(result) == [], "a name is text to the reader, never a tag"
    text = html.unescape(one(result, "summary").text or "")
    assert text.startswith("Gewonnen haben "), "two winners"
    assert set(text.removeprefix("Gewonnen haben ").split(", ")) == set(HOSTILE)
    boss = next(e for e in entries if (one(e, "title").text or "").startswith("Neuer"))
    assert one(boss, "title").text in {f"Neuer KlammernBoss: {name}" for name in HOSTILE}
    assert summary_tags(boss) == []
    for entry in entries:
        assert summary_tags(entry) == []


@pytest.mark.parametrize(
    ("language", "one_winner", "two_winners"),
    [
        ("en", "Winner: Åsa", "Winners: Åsa, Jörg"),
        ("de", "Gewonnen hat Åsa", "Gewonnen haben Åsa, Jörg"),
        ("nl", "Winnaar: Åsa", "Winnaars: Åsa, Jörg"),
        ("fr", "Vainqueur : Åsa", "Vainqueurs : Åsa, Jörg"),
    ],
)
def test_one_winner_and_two_winners(language: str, one_winner: str, two_winners: str) -> None:
    def summary(*names: str) -> str:
        item = NewsItem(
            key="result-1",
            kind="result",
            title="",
            link="/",
            when=timezone.now(),
            evening="Abend",
            names=names,
        )
        with translation.override(language):
            return item.summary

    assert summary("Åsa") == one_winner
    assert summary("Åsa", "Jörg") == two_winners


def test_the_summaries_in_the_readers_language(
    two_evenings: tuple[Event, Event, set[str], set[str]],  # noqa: F811
    client: Client,
) -> None:
    first, _, _, second_winners = two_evenings
    body = client.get(f"/clubs/{first.club.slug}/feed.atom", HTTP_ACCEPT_LANGUAGE="nl").content
    _, entries = rfc4287(body)
    result = next(e for e in entries if one(e, "title").text == "Uitslag: Zweiter Abend")
    text = one(result, "summary").text or ""
    assert text.startswith("Winnaars: ")
    assert {html.unescape(n) for n in text.removeprefix("Winnaars: ").split(", ")} == second_winners
