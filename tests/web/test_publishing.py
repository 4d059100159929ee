"""Publishing a club's tables (tournaments/web/publishing.py): the club's Atom feed of
finished evenings and KlammernBoss title changes, read as a feed reader reads it."""

from __future__ import annotations

import uuid
from typing import Any

import feedparser
import pytest

from tests.conftest import Event, client_for, make_event
from tests.factories import summary_record
from tests.support.clients import Client, committed
from tournaments import services
from tournaments.models import Club
from tournaments.web import selectors

pytestmark = pytest.mark.django_db


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
