"""A whole season through the HTTP API only: four clubs' teams play the double round
robin (12 match days, 48 Liga-Partien of random legal full deal records, each played
until the Liga keeper ends it) on the home clubs' tablets, with device codes issued by
the home organisers, deals sent with ``Authorization: Device`` and an Idempotency-Key,
the captains' (or the venue's) confirmations and the league organiser's acceptance. The
table must equal a tally of the deals sent, done here by hand after RULES.md."""

from __future__ import annotations

import json
import time
from collections import defaultdict
from typing import Any

import pytest

from tests.factories import ClubFactory, UserFactory
from tests.support.clients import APIClient
from tournaments.clubs.services import issue_api_token
from tournaments.events.models import Match
from tournaments.leagues.models import MatchDay
from tournaments.simulation.client import Reply
from tournaments.simulation.league import ClubSide, LeagueSeason

pytestmark = [pytest.mark.django_db, pytest.mark.slow]


class InProcessApi:
    """The simulation's ``call`` over Django's test client: the same requests, no socket."""

    def __init__(self) -> None:
        self.client = APIClient()

    def call(
        self,
        method: str,
        path: str,
        *,
        auth: str | None = None,
        json: Any = None,
        headers: dict[str, str] | None = None,
    ) -> Reply:
        extra = {f"HTTP_{k.upper().replace('-', '_')}": v for k, v in (headers or {}).items()}
        if auth:
            extra["HTTP_AUTHORIZATION"] = auth
        body = "" if json is None else _dumps(json)
        started = time.perf_counter()
        response = self.client.generic(method, path, body, content_type="application/json", **extra)
        seconds = time.perf_counter() - started
        content = response.json() if response.content else None
        return Reply(response.status_code, content, dict(response.headers), seconds)


def _dumps(value: Any) -> str:
    return json.dumps(value)


def token(user: Any) -> str:
    return f"Token {issue_api_token(user=user)[1]}"


def hand_table(results: list[Any]) -> dict[int, tuple[int, int, int]]:
    """RULES.md by hand: 2 points for more Partien won, 1 for 2:2; Partien and Augen
    differences."""
    table: dict[int, list[int]] = defaultdict(lambda: [0, 0, 0])
    for r in results:
        for team, won, lost, augen_for, augen_against in (
            (r.home, r.home_partien, r.away_partien, r.home_augen, r.away_augen),
            (r.away, r.away_partien, r.home_partien, r.away_augen, r.home_augen),
        ):
            table[team][0] += 2 if won > lost else 1 if won == lost else 0
            table[team][1] += won - lost
            table[team][2] += augen_for - augen_against
    return {team: (p, d, a) for team, (p, d, a) in table.items()}


def test_a_season_of_four_clubs_through_the_api() -> None:
    boss = UserFactory(username="liga-leiter")
    ClubFactory(slug="liga-verwaltung").organisers.add(boss)
    sides = []
    for n in range(1, 5):
        club = ClubFactory(name=f"Klammerclub {n}", slug=f"kc-{n}")
        organiser, captain = UserFactory(username=f"org{n}"), UserFactory(username=f"kap{n}")
        club.organisers.add(organiser)
        sides.append(ClubSide(club.pk, token(organiser), token(captain), captain.username))
    report = LeagueSeason(
        InProcessApi(), league_organiser=token(boss), clubs=sides, seed=3, log=lambda _: None
    ).run()

    assert report.problems == []
    assert (report.match_days, report.partien) == (12, 48)
    assert MatchDay.objects.filter(status=MatchDay.Status.FINAL).count() == 12
    assert Match.objects.filter(mode=Match.Mode.LIGA, status=Match.Status.FINISHED).count() == 48
    assert report.deals >= 48 * 3
    by_hand = hand_table(report.expected)
    table = report.table
    assert {
        row["team"]: (row["points"], row["partien_difference"], row["augen_difference"])
        for row in table
    } == by_hand
    assert [row["points"] for row in table] == sorted(
        (p for p, _, _ in by_hand.values()), reverse=True
    )
    assert sum(row["played"] for row in table) == 24
    assert sum(row["points"] for row in table) == 12 * 2
