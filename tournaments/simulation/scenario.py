"""An individual tournament played through the HTTP API.

The organiser (token auth) creates the tournament, registers and checks in the players,
starts it, and for each round draws it (answered at once with a draft, or 202 while the
Celery task seats it), publishes it, issues a device code per table and closes it when
every table has confirmed. Each table's tablet submits its deals one after another, all
tables at once; with probability ``chaos`` a deal is also retried with the same key,
raced by the organiser or by a second tap on the same tablet, or first sent invalid.
Every answer is checked against what the API promises, and at the end every stored deal
is compared with what was accepted (``checks``).
"""

from __future__ import annotations

import random
import secrets
import threading
import time
import uuid
from collections import Counter
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field
from typing import Any

from games import profiles
from games.engine import FIRST_DEALER, check, next_dealer, random_deal
from games.engine import Options as EngineOptions

from . import checks
from .client import Api, ApiError, Reply, expect

CHAOS_KINDS = ("retry", "organiser_duplicate", "double_tap", "invalid_first")
DRAW_TIMEOUT = 60.0
STANDINGS_TIMEOUT = 60.0
SERVER_ERROR_RETRIES = 3


@dataclass(frozen=True)
class Options:
    players: int
    rounds: int
    deals: int
    seed: int
    chaos: float = 0.2
    concurrency: int = 32
    #: The engine preset the tournament plays; Klaverjas and 2/3 players play matches
    #: of ``deals`` deals (their option ``deals_per_match``), at tables of 4, 3 or 2.
    rules: str = profiles.DEFAULT_PRESET

    @property
    def rules_options(self) -> dict[str, Any]:
        if not profiles.profile_for(self.rules).points_match:
            return {}
        return {"match_by": "deals", "deals_per_match": self.deals}

    @property
    def stored_rules(self) -> Any:
        """The ``rules`` every stored record carries: the tournament's (the server adds
        them to a record that names none)."""
        if not self.rules_options:
            return self.rules
        return {"preset": self.rules, "options": self.rules_options}

    @property
    def record_rules(self) -> Any:
        """The ``rules`` a tablet's records name: None (absent) for Klammern as before."""
        if self.rules == profiles.DEFAULT_PRESET:
            return None
        if not self.rules_options:
            return self.rules
        return {"preset": self.rules, "options": self.rules_options}

    @property
    def players_per_table(self) -> int:
        return profiles.PROFILES[self.rules].players

    @property
    def engine_options(self) -> EngineOptions:
        """The engine's options of the tournament's rules (who deals next)."""
        return profiles.tournament_rules(self.rules, self.rules_options)


@dataclass
class Report:
    """Everything the summary prints; ``problems`` non-empty means the run failed."""

    tournament: int = 0
    tables: int = 0
    deals_stored: int = 0
    #: Of the deals stored, those thrown in (recorded, but no planned deal of the match).
    thrown_in: int = 0
    submissions: int = 0
    play_seconds: float = 0.0
    latencies: list[float] = field(default_factory=list)
    statuses: Counter[int] = field(default_factory=Counter)
    chaos: Counter[str] = field(default_factory=Counter)
    throttled: int = 0
    problems: list[str] = field(default_factory=list)
    standings_verdict: str = ""
    top: list[dict[str, Any]] = field(default_factory=list)
    names: dict[int, str] = field(default_factory=dict)
    _lock: threading.Lock = field(default_factory=threading.Lock, repr=False)

    def note(self, reply: Reply) -> None:
        with self._lock:
            self.submissions += 1
            self.statuses[reply.status] += 1
            self.throttled += reply.throttled
            if reply.status in (200, 201):
                self.latencies.append(reply.seconds)

    def problem(self, text: str) -> None:
        with self._lock:
            self.problems.append(text)

    @property
    def deals_per_second(self) -> float:
        return self.deals_stored / self.play_seconds if self.play_seconds else 0.0


@dataclass
class Table:
    """One table of the round being played, as its tablet knows it."""

    round: int
    number: int
    table_id: int
    match: int
    device: str = ""


class Simulation:
    def __init__(
        self,
        api: Api,
        *,
        options: Options,
        organiser_token: str,
        club: int,
        log: Callable[[str], None] = print,
    ) -> None:
        self.api, self.options, self.club, self.log = api, options, club, log
        self.organiser = f"Token {organiser_token}"
        self.report = Report()
        self.expected: dict[checks.DealKey, dict[str, Any]] = {}
        self.matches: list[int] = []
        self._lock = threading.Lock()

    # --- organiser -------------------------------------------------------------------

    def run(self, *, before_verify: Callable[[Simulation], None] | None = None) -> Report:
        tournament = self.create_tournament()
        self.report.tournament = tournament
        self.register_players(tournament)
        self.org("POST", f"/api/tournaments/{tournament}/start/", 200, "start the tournament")
        for number in range(1, self.options.rounds + 1):
            self.play_round(tournament, number)
        self.org("POST", f"/api/tournaments/{tournament}/finish/", 200, "finish the tournament")
        if before_verify is not None:
            before_verify(self)
        self.verify(tournament)
        return self.report

    def org(
        self, method: str, path: str, status: int | tuple[int, ...], what: str, json: Any = None
    ) -> Reply:
        body = json if json is not None or method == "GET" else {}
        reply = self.api.call(method, path, auth=self.organiser, json=body)
        return expect(reply, status, what)

    def create_tournament(self) -> int:
        o = self.options
        name = f"Simulation s{o.seed} ({o.players} Spieler, {o.rounds} Runden)"
        body = {
            "club": self.club,
            "name": name,
            "slug": f"sim-{o.seed}-{secrets.token_hex(3)}",
            "deals_per_match": o.deals,
            "planned_rounds": o.rounds,
            "rules_preset": o.rules,
            "rules_options": o.rules_options,
            "is_public": True,
        }
        return self.org("POST", "/api/tournaments/", 201, "create tournament", body).body["id"]

    def register_players(self, tournament: int) -> None:
        def one(index: int) -> None:
            name = f"Spieler {index:04d} (s{self.options.seed})"
            player = self.org(
                "POST", "/api/players/", 201, "create player", {"club": self.club, "name": name}
            ).body["id"]
            registration = self.org(
                "POST",
                "/api/registrations/",
                201,
                "register",
                {"tournament": tournament, "player": player},
            ).body["id"]
            self.org("POST", f"/api/registrations/{registration}/check-in/", 200, "check in")
            with self._lock:
                self.report.names[player] = name

        with ThreadPoolExecutor(min(self.options.concurrency, 16)) as pool:
            list(pool.map(one, range(1, self.options.players + 1)))
        self.log(f"registered and checked in {self.options.players} players")

    def draw_round(self, tournament: int, number: int) -> dict[str, Any]:
        seed = random.Random(f"{self.options.seed}:draw:{number}").randrange(2**31)
        drawn = self.org(
            "POST",
            f"/api/tournaments/{tournament}/rounds/",
            (201, 202),
            f"draw round {number}",
            {"seed": seed},
        ).body
        deadline = time.monotonic() + DRAW_TIMEOUT
        while drawn.get("status") == "drawing":
            if time.monotonic() > deadline:
                raise ApiError(f"round {number} still drawing after {DRAW_TIMEOUT:.0f} s")
            time.sleep(0.1)
            drawn = self.org("GET", f"/api/rounds/{drawn['id']}/", 200, "poll the draw").body
        if drawn.get("status") != "draft":
            raise ApiError(f"round {number} ended its draw as {drawn.get('status')!r}")
        return drawn

    def play_round(self, tournament: int, number: int) -> None:
        drawn = self.draw_round(tournament, number)
        round_ = self.org("POST", f"/api/rounds/{drawn['id']}/publish/", 200, "publish").body
        tables = [Table(number, t["number"], t["id"], t["match"]) for t in round_["tables"]]
        with ThreadPoolExecutor(min(self.options.concurrency, 16)) as pool:
            list(pool.map(self.issue_device, tables))
        self.matches += [t.match for t in tables]
        self.report.tables += len(tables)
        started = time.perf_counter()
        with ThreadPoolExecutor(max(1, min(self.options.concurrency, len(tables)))) as pool:
            list(pool.map(self.play_table, tables))
        seconds = time.perf_counter() - started
        self.report.play_seconds += seconds
        self.org("POST", f"/api/rounds/{round_['id']}/close/", 200, f"close round {number}")
        self.log(
            f"round {number}: {len(tables)} tables, {len(round_['byes'])} byes, "
            f"played in {seconds:.1f} s"
        )

    def issue_device(self, table: Table) -> None:
        reply = self.org(
            "POST",
            f"/api/tables/{table.table_id}/device-credential/",
            201,
            f"device code for table {table.number}",
        )
        table.device = f"Device {reply.body['code']}"

    # --- a table's tablet ------------------------------------------------------------

    def play_table(self, table: Table) -> None:
        rng = random.Random(f"{self.options.seed}:deals:{table.round}:{table.number}")
        chaos = random.Random(f"{self.options.seed}:chaos:{table.round}:{table.number}")
        dealer, seats, played = FIRST_DEALER, self.options.players_per_table, 0
        try:
            # Deals are entered until the server says the match is complete, as at a real
            # table: a thrown-in deal is recorded but is no planned deal (RULES.md), so it
            # takes one more deal to finish.
            for number in range(1, self.max_deals + 1):
                record = random_deal(rng, dealer=dealer, rules=self.options.record_rules)
                kind = chaos.choice(CHAOS_KINDS) if chaos.random() < self.options.chaos else ""
                accepted = self.enter_deal(table, number, record, kind)
                if accepted is None:
                    return
                thrown_in = record["contract"]["kind"] == "thrown_in"
                played += not thrown_in
                if match_complete(accepted.body, played=played, planned=self.options.deals):
                    break
                rules = self.options.engine_options
                dealer = next_dealer(dealer, thrown_in=thrown_in, options=rules)
            else:
                self.report.problem(
                    f"table {table.round}/{table.number}: match still open after "
                    f"{self.max_deals} deals"
                )
                return
            if seats == 4:  # tables of single players have no teams to confirm
                self.confirm(table)
        except Exception as error:  # noqa: BLE001 - one table's failure is reported, not fatal
            self.report.problem(f"table {table.round}/{table.number}: {error!r}")

    def submit(
        self,
        table: Table,
        number: int,
        record: dict[str, Any],
        *,
        key: str,
        auth: str | None = None,
    ) -> Reply:
        path = f"/api/matches/{table.match}/deals/{number}/"
        for _ in range(SERVER_ERROR_RETRIES):
            reply = self.api.post(
                path, record, auth=auth or table.device, headers={"Idempotency-Key": key}
            )
            self.report.note(reply)
            if reply.status < 500:
                break
        return reply

    @property
    def max_deals(self) -> int:
        """A bound on one match's entries (planned deals and the thrown-in ones between
        them), so a server that never reports the match complete ends the run."""
        return 4 * self.options.deals + 20

    def enter_deal(
        self, table: Table, number: int, record: dict[str, Any], kind: str
    ) -> Reply | None:
        """Enters deal ``number`` (with the chaos ``kind``) and returns the accepted
        answer, or None (with a problem reported) when no entry was accepted."""
        where = f"table {table.round}/{table.number} deal {number}"
        if kind:
            with self._lock:
                self.report.chaos[kind] += 1
        if kind == "invalid_first":
            wrong = self.submit(table, number, invalid_version(record), key=new_key())
            if wrong.status != 400 or not wrong.body.get("errors"):
                self.report.problem(f"{where}: invalid record answered {wrong.status}")
        if kind in ("organiser_duplicate", "double_tap"):
            won = self.race(table, number, record, organiser=kind == "organiser_duplicate")
        else:
            key = new_key()
            first = self.submit(table, number, record, key=key)
            won = first if first.status == 201 and not first.replayed else None
            if won is None:
                self.report.problem(f"{where}: answered {first.status}: {str(first.body)[:200]}")
            elif kind == "retry":
                self.check_replay(where, first, self.submit(table, number, record, key=key))
        if won is None:
            return None
        with self._lock:
            self.expected[(table.match, number)] = {**record, "rules": self.options.stored_rules}
            self.report.deals_stored += 1
            self.report.thrown_in += record["contract"]["kind"] == "thrown_in"
        return won

    def race(
        self, table: Table, number: int, record: dict[str, Any], *, organiser: bool
    ) -> Reply | None:
        """Two submissions of the same deal with different keys at the same moment: from
        the tablet and the organiser, or two taps on the tablet. One 201, one 409."""
        replies: list[Reply] = []
        other = self.organiser if organiser else table.device
        second = threading.Thread(
            target=lambda: replies.append(
                self.submit(table, number, record, key=new_key(), auth=other)
            )
        )
        second.start()
        replies.append(self.submit(table, number, record, key=new_key()))
        second.join()
        statuses = sorted(r.status for r in replies)
        if statuses != [201, 409] or any(r.replayed for r in replies):
            self.report.problem(
                f"table {table.round}/{table.number} deal {number}: "
                f"racing entries answered {statuses}, expected [201, 409]"
            )
        return next((r for r in replies if r.status == 201), None)

    def check_replay(self, where: str, first: Reply, again: Reply) -> None:
        if again.status != 201 or not again.replayed or again.body != first.body:
            self.report.problem(
                f"{where}: retry with the same key answered {again.status}"
                f" (replayed={again.replayed}), not the first response"
            )

    def confirm(self, table: Table) -> None:
        for team in (0, 1):
            reply = self.api.post(
                f"/api/matches/{table.match}/confirm/", {"team": team}, auth=table.device
            )
            expect(reply, 200, f"confirm team {team}")
        if reply.body.get("status") != "confirmed":
            self.report.problem(f"table {table.round}/{table.number}: match not confirmed")

    # --- the end ---------------------------------------------------------------------

    def verify(self, tournament: int) -> None:
        stored: dict[int, list[dict[str, Any]]] = {}

        def fetch(match: int) -> None:
            stored[match] = self.api.get_all(f"/api/matches/{match}/deals/", auth=self.organiser)

        with ThreadPoolExecutor(min(self.options.concurrency, 16)) as pool:
            list(pool.map(fetch, self.matches))
        self.report.problems += checks.verify_deals(self.expected, stored)
        self.verify_standings(tournament)

    def verify_standings(self, tournament: int) -> None:
        """Waits for the snapshot to catch up with the results, then compares it with a
        fresh recompute (where the server offers one)."""
        path = f"/api/tournaments/{tournament}/standings/"
        snapshot = self.org("GET", path, 200, "standings").body
        offered = checks.offers_fresh(snapshot, self.org("GET", path + "?fresh=1", 200, "").body)
        if not offered and snapshot.get("computed_version") is None:
            self.report.standings_verdict = "SKIPPED: this server computes no standings yet"
            return
        deadline = time.monotonic() + STANDINGS_TIMEOUT
        while not snapshot.get("up_to_date") and time.monotonic() < deadline:
            time.sleep(0.25)
            snapshot = self.org("GET", path, 200, "standings").body
        fresh = self.org("GET", path + "?fresh=1", 200, "fresh standings").body if offered else None
        problems, verdict = checks.verify_standings(snapshot, fresh)
        self.report.problems += problems
        self.report.standings_verdict = verdict + ("" if not problems else ": MISMATCH")
        self.report.top = checks.standing_rows(snapshot.get("data"))[:10]


def match_complete(answer: Any, *, played: int, planned: int) -> bool:
    """Whether the accepted deal completed its match: the server's ``match_status``, or
    (a server whose answer lacks it) the played deals reaching the planned number."""
    status = answer.get("match_status") if isinstance(answer, dict) else None
    return played >= planned if status is None else status != "open"


def new_key() -> str:
    return str(uuid.uuid4())


def invalid_version(record: dict[str, Any]) -> dict[str, Any]:
    """The record with its first two cards swapped (the leader plays a card from the next
    seat's hand), or with a dealer that does not exist; checked to be invalid."""
    wrong = dict(record)
    if len(record.get("plays", [])) >= 2:
        plays = list(record["plays"])
        plays[0], plays[1] = plays[1], plays[0]
        wrong["plays"] = plays
    if check(wrong)["valid"]:
        wrong["dealer"] = 7
    return wrong
