"""A league season of clubs played through the HTTP API (``manage.py simulate_league``
and the season test).

The league organiser creates the league and a division; each club's organiser creates
four players and enters a team with its captain; the league organiser makes the double
round robin. Every match day is then played at the home club: its organiser opens the
first sitting with both teams' pairs, issues the two tables' device codes, the tablets
send random legal deals (``games.engine.random_deal``, seeded) with an Idempotency-Key
until the Liga keeper (``score_liga``) says the Partie is over, the organiser starts the
second sitting and it is played the same way; both captains confirm (every third match
day the venue's organiser instead) and the league organiser accepts. At the end each
match day's stored result and the division's table are compared with what the sent deals
make (``problems``).

``api`` is anything with ``call(method, path, *, auth, json, headers) -> Reply``: the
simulation's HTTP client, or an in-process adapter in tests.
"""

from __future__ import annotations

import random
import uuid
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any, Protocol

from games import profiles
from games.engine import check, next_dealer, random_deal, score_liga
from tournaments.leagues import league_table

from .client import ApiError, Reply, expect

MAX_DEALS = 40
#: The rules of a league's Liga-Partien (who deals next).
LEAGUE_RULES = profiles.tournament_rules(profiles.DEFAULT_PRESET, None)


class CallsApi(Protocol):
    def call(
        self,
        method: str,
        path: str,
        *,
        auth: str | None = None,
        json: Any = None,
        headers: dict[str, str] | None = None,
    ) -> Reply: ...


@dataclass(frozen=True)
class ClubSide:
    """A club taking part: its id, its organiser's and its captain's Authorization
    header, and the captain's username."""

    club: int
    organiser: str
    captain: str
    captain_username: str


@dataclass
class SeasonReport:
    league: int = 0
    division: int = 0
    match_days: int = 0
    partien: int = 0
    deals: int = 0
    table: list[dict[str, Any]] = field(default_factory=list)
    expected: list[league_table.MatchDayResult] = field(default_factory=list)
    problems: list[str] = field(default_factory=list)


class LeagueSeason:
    def __init__(
        self,
        api: CallsApi,
        *,
        league_organiser: str,
        clubs: list[ClubSide],
        seed: int = 1,
        slug: str = "simulationsliga",
        log: Callable[[str], None] = print,
    ) -> None:
        self.api, self.boss, self.clubs, self.seed, self.slug = (
            api,
            league_organiser,
            clubs,
            seed,
            slug,
        )
        self.log = log
        self.report = SeasonReport()
        self.by_team: dict[int, ClubSide] = {}
        self.rosters: dict[int, list[int]] = {}
        self.outcomes: dict[int, tuple[int, int, int]] = {}  # match: winner, Augen 0, 1

    def ask(
        self, method: str, path: str, auth: str, status: int, what: str, body: Any = None
    ) -> Any:
        json = body if body is not None or method == "GET" else {}
        return expect(self.api.call(method, path, auth=auth, json=json), status, what).body

    # --- setting up ----------------------------------------------------------------------

    def run(self) -> SeasonReport:
        league = self.ask(
            "POST",
            "/api/leagues/",
            self.boss,
            201,
            "create the league",
            {"name": "Simulationsliga", "slug": self.slug, "season": "2025/26"},
        )
        division = self.ask(
            "POST",
            "/api/divisions/",
            self.boss,
            201,
            "create the division",
            {"league": league["id"], "name": "Oberliga"},
        )
        self.report.league, self.report.division = league["id"], division["id"]
        for number, side in enumerate(self.clubs, start=1):
            self.enter_team(division["id"], number, side)
        days = self.ask(
            "POST",
            f"/api/divisions/{division['id']}/fixtures/",
            self.boss,
            201,
            "make the fixtures",
            {"first_day": "2025-09-06T19:00:00+02:00"},
        )
        for day in sorted(days, key=lambda d: (d["round"], d["id"])):
            self.play_match_day(day)
        self.verify()
        return self.report

    def enter_team(self, division: int, number: int, side: ClubSide) -> None:
        players = [
            self.ask(
                "POST",
                "/api/players/",
                side.organiser,
                201,
                "create a player",
                {"club": side.club, "name": f"Team {number} Spieler {i}"},
            )["id"]
            for i in range(1, 5)
        ]
        team = self.ask(
            "POST",
            "/api/league-teams/",
            side.organiser,
            201,
            "enter a team",
            {
                "division": division,
                "club": side.club,
                "name": f"Team {number}",
                "captain": side.captain_username,
                "roster": players,
            },
        )
        self.by_team[team["id"]] = side
        self.rosters[team["id"]] = players

    # --- a match day ---------------------------------------------------------------------

    def play_match_day(self, day: dict[str, Any]) -> None:
        home, away = day["home"]["id"], day["away"]["id"]
        venue = self.by_team[home].organiser
        url = f"/api/match-days/{day['id']}/"
        h, a = self.rosters[home], self.rosters[away]
        body = self.ask(
            "POST",
            url + "open/",
            venue,
            200,
            "open the tables",
            {"home_pairs": [h[:2], h[2:]], "away_pairs": [a[:2], a[2:]]},
        )
        self.play_sitting(body, 1, venue)
        body = self.ask("POST", url + "second-sitting/", venue, 200, "start the second sitting")
        self.play_sitting(body, 2, venue)
        self.report.expected.append(self.expected_result(home, away, body))
        if day["id"] % 3 == 0:
            self.ask("POST", url + "confirm/", venue, 200, "venue confirms", {"side": "venue"})
        else:
            for side, captain in (("home", self.by_team[home]), ("away", self.by_team[away])):
                self.ask(
                    "POST",
                    url + "confirm/",
                    captain.captain,
                    200,
                    f"{side} captain confirms",
                    {"side": side},
                )
        final = self.ask("POST", url + "accept/", self.boss, 200, "accept the result")
        if final["status"] != "final":
            self.report.problems.append(f"match day {day['id']} is {final['status']}")
        self.report.match_days += 1
        self.log(
            f"Spieltag {day['round']}: {day['home']['name']} – {day['away']['name']} "
            f"{final['result']['home_partien']}:{final['result']['away_partien']}"
        )

    def play_sitting(self, body: dict[str, Any], sitting: int, venue: str) -> None:
        for partie in body["live"]["partien"]:
            if partie["sitting"] != sitting:
                continue
            code = self.ask(
                "POST",
                f"/api/tables/{partie['table_id']}/device-credential/",
                venue,
                201,
                "issue a device code",
            )["code"]
            self.play_partie(partie["match"], f"Device {code}")

    def play_partie(self, match: int, device: str) -> None:
        rng = random.Random(f"{self.seed}:{match}")
        results: list[dict[str, Any]] = []
        dealer = 0
        for number in range(1, MAX_DEALS + 1):
            record = random_deal(rng, dealer=dealer, rules=profiles.DEFAULT_PRESET)
            reply = self.api.call(
                "POST",
                f"/api/matches/{match}/deals/{number}/",
                auth=device,
                json=record,
                headers={"Idempotency-Key": str(uuid.uuid4())},
            )
            expect(reply, 201, f"deal {number} of match {match}")
            self.report.deals += 1
            results.append(check(record))
            thrown_in = record["contract"]["kind"] == "thrown_in"
            dealer = next_dealer(dealer, thrown_in=thrown_in, options=LEAGUE_RULES)
            state = score_liga(results, target=51)
            if state.finished:
                self.outcomes[match] = (state.winner, *state.points)
                self.report.partien += 1
                return
        raise ApiError(f"match {match}: no winner after {MAX_DEALS} deals")

    def expected_result(
        self, home: int, away: int, body: dict[str, Any]
    ) -> league_table.MatchDayResult:
        outcomes = [self.outcomes[p["match"]] for p in body["live"]["partien"]]
        return league_table.MatchDayResult(
            home,
            away,
            sum(o[0] == 0 for o in outcomes),
            sum(o[0] == 1 for o in outcomes),
            sum(o[1] for o in outcomes),
            sum(o[2] for o in outcomes),
        )

    # --- checks --------------------------------------------------------------------------

    def verify(self) -> None:
        division = self.report.division
        table = self.ask("GET", f"/api/divisions/{division}/table/", "", 200, "the table")
        self.report.table = table
        expected = league_table.division_table(self.report.expected, teams=sorted(self.by_team))
        got = [(r["team"], r["points"], r["partien_won"], r["augen_for"]) for r in table]
        want = [(r.team, r.points, r.partien_won, r.augen_for) for r in expected]
        if sorted(got) != sorted(want) or [g[1] for g in got] != [w[1] for w in want]:
            self.report.problems.append(f"table {got} differs from the deals sent: {want}")
