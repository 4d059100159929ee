"""Who sees a duplicate board when (RULES.md, "Duplicate tournaments", "Who sees a board
when"): until its round is closed, a board's cards, play, result, analysis and traveller
are seen only by the organisers and by the table that played it, on every page, export
and API answer.

Every URL pattern of the site is enumerated (a new one fails here until it is listed):
each is asked anonymously, by a signed-in stranger and by another table's device before
and after table 1 enters board 1, played in full, while the round is still open. What
they see must not change with that entry. Then the deal's own URLs are asked as the
table, the other table, the organiser and everyone else, during and after the round.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterator
from typing import Any

import pytest
from django.urls import URLPattern, URLResolver, get_resolver

from tests.conftest import client_for
from tests.factories import UserFactory
from tests.support.boards import DuplicateEvent, board_full_record, make_duplicate_event
from tests.support.clients import APIClient
from tournaments.deals import services
from tournaments.events import services as tournament_services
from tournaments.events.models import Match, Registration, Round

pytestmark = pytest.mark.django_db

Urls = Callable[["World"], list[str]]


class World:
    """A duplicate evening of club A: round 1 published, three tables, two boards."""

    def __init__(self, club: Any, organiser: Any) -> None:
        self.organiser = organiser
        self.event: DuplicateEvent = make_duplicate_event(club=club, deals=2)
        self.club = club
        self.tournament = self.event.tournament
        self.round: Round = self.event.round
        self.matches = [Match.objects.get(table=table) for table in self.event.tables]
        self.code1, self.code2 = self.event.codes[0], self.event.codes[1]
        seat = self.event.tables[1].seats.order_by("position").first()
        assert seat is not None
        self.player = seat.player
        self.registration = Registration.objects.get(tournament=self.tournament, player=self.player)

    @property
    def match1(self) -> Match:
        return self.matches[0]

    def enter_board_1(self) -> None:
        record = board_full_record(self.event.board(1))
        services.submit_deal(match=self.match1, number=1, record=record)

    def close(self) -> None:
        tournament_services.close_round(round_=self.round, force=True)


def _t(w: World) -> int:
    return w.tournament.pk


#: Every URL that may show a deal of the tournament, or anything built from one (a
#: table's result, standings, a player's results), filled in for the world.
SHOWN: dict[str, Urls] = {
    "healthz": lambda w: ["/healthz"],
    "device-table": lambda w: ["/api/device/"],
    "deal-list": lambda w: [f"/api/matches/{m.pk}/deals/" for m in w.matches],
    "deal-detail": lambda w: [f"/api/matches/{m.pk}/deals/1/" for m in w.matches],
    "deal-analysis": lambda w: [f"/api/matches/{w.match1.pk}/deals/1/analysis/"],
    "deal-line": lambda w: [f"/api/matches/{w.match1.pk}/deals/1/line/?after=0"],
    "registration-fixed-table": lambda w: [f"/api/registrations/{w.registration.pk}/fixed-table/"],
    "tournament-forbidden-pairings": lambda w: [f"/api/tournaments/{_t(w)}/forbidden-pairings/"],
    "pairs": lambda w: [f"/api/tournaments/{_t(w)}/pairs/"],
    "finals": lambda w: [f"/api/tournaments/{_t(w)}/finals/"],
    "bracket": lambda w: [f"/api/tournaments/{_t(w)}/bracket/"],
    "round-boards": lambda w: [f"/api/rounds/{w.round.pk}/boards/"],
    "round-board": lambda w: [f"/api/rounds/{w.round.pk}/boards/1/"],
    "board-traveller": lambda w: [f"/api/rounds/{w.round.pk}/boards/1/traveller/"],
    "club-list": lambda w: ["/api/clubs/"],
    "club-detail": lambda w: [f"/api/clubs/{w.club.pk}/"],
    "club-leaderboards": lambda w: [f"/api/clubs/{w.club.pk}/leaderboards/"],
    "club-ratings": lambda w: [
        f"/api/clubs/{w.club.pk}/ratings/",
        f"/clubs/{w.club.slug}/ratings/",
    ],
    "player-list": lambda w: ["/api/players/"],
    "player-detail": lambda w: [f"/api/players/{w.player.pk}/"],
    "player-rating-history": lambda w: [f"/api/players/{w.player.pk}/rating-history/"],
    "tournament-list": lambda w: ["/api/tournaments/"],
    "tournament-detail": lambda w: [f"/api/tournaments/{_t(w)}/"],
    "tournament-standings": lambda w: [f"/api/tournaments/{_t(w)}/standings/"],
    "registration-list": lambda w: [f"/api/registrations/?tournament={_t(w)}"],
    "registration-detail": lambda w: [f"/api/registrations/{w.registration.pk}/"],
    "round-list": lambda w: [f"/api/rounds/?tournament={_t(w)}"],
    "round-detail": lambda w: [f"/api/rounds/{w.round.pk}/"],
    "round-progress": lambda w: [f"/api/rounds/{w.round.pk}/progress/"],
    "table-detail": lambda w: [f"/api/tables/{w.event.tables[0].pk}/"],
    "match-list": lambda w: ["/api/matches/", f"/api/matches/?tournament={_t(w)}"],
    "match-detail": lambda w: [f"/api/matches/{m.pk}/" for m in w.matches],
    "season-list": lambda w: ["/api/seasons/"],
    "api-root": lambda w: ["/api/"],
    "home": lambda w: ["/"],
    "tournament": lambda w: [f"/tournaments/{_t(w)}/"],
    "seating": lambda w: [f"/tournaments/{_t(w)}/rounds/1/"],
    "standings": lambda w: [f"/tournaments/{_t(w)}/standings/"],
    "standings-table": lambda w: [f"/tournaments/{_t(w)}/standings/table/"],
    "projector": lambda w: [f"/tournaments/{_t(w)}/projector/"],
    "club": lambda w: [f"/clubs/{w.club.slug}/"],
    "club-feed": lambda w: [f"/clubs/{w.club.slug}/feed.atom"],
    "embed-club": lambda w: [f"/embed/clubs/{w.club.slug}/"],
    "club-og": lambda w: [f"/clubs/{w.club.slug}/share.png"],
    "standings-og": lambda w: [f"/tournaments/{_t(w)}/standings/share.png"],
    "club-print": lambda w: [f"/clubs/{w.club.slug}/print/{s}/" for s in ("boss", "table")],
    "embed-standings": lambda w: [f"/embed/tournaments/{_t(w)}/standings/"],
    "player": lambda w: [f"/players/{w.player.pk}/"],
    "tablet": lambda w: [f"/t/{w.code2}/"],
    "tablet-state": lambda w: [f"/t/{w.code2}/state/"],
    "tablet-hand-record": lambda w: [f"/t/{w.code2}/deals/1/"],
    "hand-record": lambda w: [f"/matches/{w.match1.pk}/deals/1/hand/"],
    "round-hand-records": lambda w: [f"/tournaments/{_t(w)}/rounds/1/hand-records/"],
    "player-link": lambda w: [f"/p/{w.registration.link_token}/"],
    "player-link-data-json": lambda w: [f"/p/{w.registration.link_token}/data.json"],
    "player-link-data-csv": lambda w: [f"/p/{w.registration.link_token}/data.csv"],
    "duplicate-boards": lambda w: [f"/tournaments/{_t(w)}/boards/"],
    "duplicate-traveller": lambda w: [f"/tournaments/{_t(w)}/rounds/1/boards/{b}/" for b in (1, 2)],
    "duplicate-traveller-csv": lambda w: [f"/tournaments/{_t(w)}/travellers.csv"],
    # the organisers' console: everyone else is sent to sign in or refused
    "console": lambda w: ["/console/"],
    "console-tournament": lambda w: [f"/console/tournaments/{_t(w)}/"],
    "console-results-csv": lambda w: [f"/console/tournaments/{_t(w)}/results.csv"],
    "console-standings-csv": lambda w: [f"/console/tournaments/{_t(w)}/standings.csv"],
    "console-round": lambda w: [f"/console/rounds/{w.round.pk}/"],
    "console-round-progress": lambda w: [f"/console/rounds/{w.round.pk}/progress/"],
    "console-table-cards": lambda w: [f"/console/rounds/{w.round.pk}/table-cards/"],
    "console-seating-print": lambda w: [f"/console/rounds/{w.round.pk}/seating/"],
    "console-score-sheets": lambda w: [f"/console/rounds/{w.round.pk}/score-sheets/"],
    "console-boards-print": lambda w: [f"/console/rounds/{w.round.pk}/boards/"],
    "console-match": lambda w: [f"/console/matches/{w.match1.pk}/"],
    "console-deal": lambda w: [f"/console/matches/{w.match1.pk}/deals/1/"],
    "console-player-cards": lambda w: [f"/console/tournaments/{_t(w)}/players/qr/"],
    "console-pairs": lambda w: [f"/console/tournaments/{_t(w)}/pairs/"],
    "console-bracket-print": lambda w: [f"/console/tournaments/{_t(w)}/bracket/print/"],
    "console-club": lambda w: [f"/console/clubs/{w.club.pk}/"],
    "console-club-players": lambda w: [f"/console/clubs/{w.club.pk}/players/"],
    "console-club-player": lambda w: [f"/console/clubs/{w.club.pk}/players/{w.player.pk}/"],
}

#: URL patterns that show nothing of a club tournament's deals, and why.
NEVER_SHOWN = {
    "readyz": "the site's readiness: the database, the cache and the worker's heartbeat",
    "metrics": "site-wide counts and timings behind a token, no deal, table or result",
    "api-token": "signs in",
    "api-tokens-list": "the caller's own API tokens",
    "api-tokens-detail": "the caller's own API tokens",
    "console-api-token-revoke": "a command (POST)",
    "api-signup": "signs up",
    "invitation-accept": "accepts an organiser invitation",
    "forbidden-pairing-detail": "a seating constraint",
    "pair-detail": "a fixed pair's names",
    "pairs-draw": "a command (POST)",
    "finals-next": "a command (POST)",
    "club-invitations": "a command (POST)",
    "tournament-draw-round": "a command (POST)",
    "tournament-finish": "a command (POST)",
    "tournament-start": "a command (POST)",
    "registration-check-in": "a command (POST)",
    "registration-withdraw": "a command (POST)",
    "round-close": "a command (POST)",
    "round-publish": "a command (POST)",
    "round-redraw": "a command (POST)",
    "table-device-credential": "a command (POST)",
    "table-revoke": "a command (POST)",
    "match-confirm": "a command (POST)",
    "season-detail": "a season of club evenings: finished evenings only",
    "season-table": "a season of club evenings: finished evenings only",
    "season-og": "a season of club evenings: finished evenings only",
    "season-print": "a season of club evenings: finished evenings only",
    "embed-season": "a season of club evenings: finished evenings only",
    "season": "a season of club evenings: finished evenings only",
    "season-csv": "a season of club evenings: finished evenings only",
    "schema": "the API's description",
    "api-docs": "the API's description",
    "set_language": "a language choice",
    "switch-language": "a language choice",
    "favicon": "an icon",
    "tablet-service-worker": "the tablet's offline script",
    "login": "signs in",
    "logout": "signs out",
    "signup": "signs up",
    "player-link-check-in": "a command (POST)",
    "player-link-name": "a command (POST)",
    "club-imprint": "the club's imprint",
    "club-privacy": "the club's privacy notice",
    "console-club-imprint": "the club's imprint and privacy notice",
    "console-club-player-anonymise": "a confirmation, then a command (POST)",
    "console-club-new": "a form",
    "console-club-history": "imported evenings of the club's spreadsheet: no deals",
    "console-club-history-confirm": "a command (POST)",
    "console-club-history-remove": "a command (POST)",
    "history-sample": "a sample spreadsheet",
    "history-preview": "a command (POST): a spreadsheet's preview, no deals",
    "history-imports": "imported evenings of the club's spreadsheet: no deals",
    "history-import-detail": "a command (DELETE)",
    "console-club-invite": "a command (POST)",
    "console-club-settings": "a command (POST)",
    "console-club-season": "a season's settings",
    "console-invitation": "an organiser invitation",
    "console-pairs-command": "a command (POST)",
    "console-pair": "a command (POST)",
    "console-register": "a command (POST)",
    "console-forbidden-pairing-add": "a command (POST)",
    "console-forbidden-pairing-remove": "a command (POST)",
    "console-fixed-table": "a command (POST)",
    "console-tournament-command": "a command (POST)",
    "console-registration": "a command (POST)",
    "console-check-in-scan": "checks a player in",
    "console-round-command": "a command (POST)",
}

#: The league of clubs: its match days are hidden tournaments of their own, never played
#: in duplicate (tests/leagues covers who sees their deals).
LEAGUE = re.compile(
    r"^(league|leagues|division|match-day|console-league|console-leagues|embed-division)(-|$)"
)


def url_names() -> set[str]:
    """The name of every URL pattern outside the Django admin (staff only)."""

    def walk(patterns: list[Any], prefix: str) -> Iterator[tuple[str, str | None]]:
        for pattern in patterns:
            if isinstance(pattern, URLResolver):
                yield from walk(pattern.url_patterns, prefix + str(pattern.pattern))
            elif isinstance(pattern, URLPattern):
                yield prefix + str(pattern.pattern), pattern.name

    return {
        name or route
        for route, name in walk(get_resolver().url_patterns, "")
        if not route.startswith("admin/")
    }


def test_every_url_pattern_is_listed() -> None:
    names = url_names()
    listed = set(SHOWN) | set(NEVER_SHOWN) | {n for n in names if LEAGUE.match(n)}
    assert names - listed == set(), "list each new URL pattern in SHOWN or NEVER_SHOWN"
    assert set(SHOWN) - names == set() and set(NEVER_SHOWN) - names == set()


#: What differs between two renderings whatever the deals (per-request secrets, the
#: feed's time of reading) or says only that results changed (the results version, in
#: the answers and in the pictures' and tables' cache keys), never what they are.
NOISE = [
    re.compile(rb'name="csrfmiddlewaretoken" value="[^"]*"'),
    re.compile(rb'nonce="[^"]*"'),
    re.compile(rb'"X-CSRFToken": "[^"]*"'),
    re.compile(rb'"results_version":\s*\d+'),
    re.compile(rb'data-version="\d+"'),
    re.compile(rb"share\.png\?lang=\w+&amp;v=\d+"),
    re.compile(rb"<updated>[^<]*</updated>"),
]


def seen(client: APIClient, url: str) -> tuple[int, bytes]:
    response = client.get(url)
    body = response.content if hasattr(response, "content") else b""
    if getattr(response, "streaming", False):
        body = b"".join(response.streaming_content)
    for noise in NOISE:
        body = noise.sub(b"", body)
    return response.status_code, body


def difference(old: bytes, new: bytes) -> str:
    """The first place two bodies differ, for the failure's message."""
    at = next((i for i, (a, b) in enumerate(zip(old, new, strict=False)) if a != b), 0)
    return f"{old[max(0, at - 80) : at + 80]!r} -> {new[max(0, at - 80) : at + 80]!r}"


@pytest.fixture
def world(club_a: Any, organiser: Any) -> World:
    return World(club_a, organiser)


def signed_in(user: Any) -> APIClient:
    """A browser session of ``user``: pages and API alike."""
    client = client_for()
    client.force_login(user)
    return client


def others(world: World) -> dict[str, APIClient]:
    """Everyone who neither organises the club nor plays at table 1."""
    return {
        "anonymous": client_for(),
        "stranger": signed_in(UserFactory(username="zaungast")),
        "another table": client_for(device_code=world.code2),
    }


def test_nothing_anyone_else_sees_changes_when_a_table_plays_a_board(world: World) -> None:
    """The leak's class: whatever an URL shows to the anonymous visitor, a stranger or
    another table's device must be the same before and after table 1 plays board 1 (a
    page may show that a table entered a deal, never what it was)."""
    clients = others(world)
    urls = [url for build in SHOWN.values() for url in build(world)]
    before = {(who, url): seen(client, url) for who, client in clients.items() for url in urls}
    world.enter_board_1()
    changed = []
    for who, client in clients.items():
        for url in urls:
            now = seen(client, url)
            if now != before[who, url]:
                changed.append(f"{who}: {url} ({before[who, url][0]} -> {now[0]})")
                print(who, url, difference(before[who, url][1], now[1]))
    assert changed == []


def deal_urls(world: World) -> list[str]:
    match = world.match1.pk
    return [
        f"/api/matches/{match}/deals/",
        f"/api/matches/{match}/deals/1/",
        f"/api/matches/{match}/deals/1/analysis/",
        f"/api/matches/{match}/deals/1/line/?after=0",
        f"/api/matches/{match}/",
        f"/matches/{match}/deals/1/hand/",
    ]


def shows_the_play(status: int, body: bytes, world: World) -> bool:
    """Whether an answer shows table 1's board 1 (its play, or a deal list holding it)."""
    if status != 200:
        return False
    first_card = board_full_record(world.event.board(1))["plays"][0]
    return first_card.encode() in body or b'"number":1' in body.replace(b" ", b"")


def test_during_the_round_only_the_table_and_the_organiser_see_its_deal(world: World) -> None:
    world.enter_board_1()
    for who, client in others(world).items():
        for url in deal_urls(world):
            status, body = seen(client, url)
            assert status in (403, 404), f"{who}: {url} answered {status}"
            assert not shows_the_play(status, body, world), f"{who}: {url}"
    mine = {
        "the table": client_for(device_code=world.code1),
        "the organiser": signed_in(world.organiser),
    }
    for who, client in mine.items():
        for url in deal_urls(world)[:2]:
            assert shows_the_play(*seen(client, url), world), f"{who}: {url}"
    organiser = mine["the organiser"]
    for url in deal_urls(world)[2:]:
        assert seen(organiser, url)[0] == 200, url


def test_the_other_table_gets_the_refusal_its_tablet_understands(world: World) -> None:
    world.enter_board_1()
    response = client_for(device_code=world.code2).get(f"/api/matches/{world.match1.pk}/deals/1/")
    assert response.status_code == 403
    anonymous = client_for().get(f"/api/matches/{world.match1.pk}/deals/1/")
    assert anonymous.status_code == 403
    assert anonymous.json()["code"] == "round_not_closed"
    assert "closed" in anonymous.json()["detail"]


def test_once_the_round_is_closed_everyone_sees_the_deal(world: World) -> None:
    world.enter_board_1()
    world.close()
    for who, client in others(world).items():
        if who == "another table":
            continue  # a table's device reads only its own table
        for url in deal_urls(world):
            status, body = seen(client, url)
            assert status == 200, f"{who}: {url} answered {status}"
        assert shows_the_play(*seen(client, deal_urls(world)[1]), world)
        traveller = f"/api/rounds/{world.round.pk}/boards/1/traveller/"
        assert seen(client, traveller)[0] == 200


def test_an_individual_evening_shows_its_deals_at_once(club_a: Any, organiser: Any) -> None:
    """Outside duplicate nothing is sealed: a public evening's deals are read live."""
    world = World(club_a, organiser)
    type(world.tournament).objects.filter(pk=world.tournament.pk).update(duplicate=False)
    world.match1.round.tournament.duplicate = False
    world.enter_board_1()
    status, body = seen(client_for(), f"/api/matches/{world.match1.pk}/deals/1/")
    assert status == 200 and shows_the_play(status, body, world)
