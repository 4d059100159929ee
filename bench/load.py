"""Load and latency benchmarks of the deal API against gunicorn, PostgreSQL, Redis and a
real Celery worker, all on 127.0.0.1. They print figures; they are not timed tests.

    .venv/bin/python bench/load.py                       # every scenario
    .venv/bin/python bench/load.py latency burst         # some of them
    .venv/bin/python bench/load.py --workers 3 --threads 4 --duration 60

Scenarios (targets from the issue):
- ``latency``: one tablet submits deals one after another: p50/p95/p99 (p95 < 50 ms).
- ``sustained``: many tablets for ``--duration`` s: deals/s (>= 150) and errors by status.
- ``burst``: 200 tables submit their last deal at once, a quarter of them retried with the
  same key while the first is in flight: time until all are acknowledged (< 5 s), then
  every deal checked stored once.
- ``reads``: public standings (API and HTML page) read with keep-alive while tablets keep
  submitting: requests/s (>= 500; through the proxy >= 10,000). Uses ``wrk`` when
  installed, else Python threads.

``--proxy`` runs them as deployed: nginx with the site's config (``deploy/nginx/``,
rendered by ``scripts/nginx_site.py``; its short cache serves the public reads) in front
of two gunicorn app servers, each with ``--workers`` and ``--threads``.

The Celery workers are started as deployed (docker-compose.yml): one for the default queue,
one for the par analyses under ``nice -n 19`` (``--shared-worker``: one for both).

It creates a fresh database ``klammern_bench`` (``--database``; dropped and recreated on
each run) and uses Redis database 5 (``--redis-db``), so it touches nobody else's data.
Rate limits (``THROTTLE_*``) are lifted for the benchmark: one machine plays every tablet
and every reader. Everything it starts (gunicorn, the Celery worker) is stopped when it
ends; load runs only for the given time.

``--checkout DIR`` runs the same scenarios against another checkout of the project (e.g. a
``git worktree`` of an older commit, with its own ``.venv``): this script re-executes
itself with that checkout's interpreter and serves that checkout's code, so two commits
are compared by the same script. A match has at most 64 deals (``MAX_DEALS_PER_MATCH``): a
scenario that needs more deals per table plays them on the same table of a further
tournament, set up beforehand.
"""

from __future__ import annotations

import argparse
import http.client
import json
import os
import random
import re
import shutil
import subprocess
import sys
import threading
import time
import uuid
from collections import Counter, deque
from collections.abc import Iterator
from concurrent.futures import ThreadPoolExecutor
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit

#: the checkout served (``--checkout`` re-executes this script with it set)
ROOT = Path(os.environ.get("KLAMMERN_BENCH_ROOT") or Path(__file__).resolve().parent.parent)
sys.path.insert(0, str(ROOT))
VENV_BIN = Path(sys.executable).parent
UNLIMITED = "10000000/min"
SCENARIOS = ("latency", "sustained", "burst", "reads")
#: the most deals a match may have (``tournaments.events.models.MAX_DEALS_PER_MATCH``)
MAX_DEALS_PER_MATCH = 64


def bench_env(args: argparse.Namespace) -> dict[str, str]:
    return {
        **os.environ,
        "DATABASE_URL": f"postgres://postgres@127.0.0.1:5432/{args.database}",
        "REDIS_URL": f"redis://127.0.0.1:6379/{args.redis_db}",
        "DJANGO_DEBUG": "0",
        "DJANGO_SECRET_KEY": "bench-only-not-a-secret-" + "x" * 40,
        "DJANGO_ALLOWED_HOSTS": "127.0.0.1,localhost",
        "DJANGO_SECURE_SSL_REDIRECT": "0",
        "DJANGO_LOG_LEVEL": "WARNING",
        "THROTTLE_ANON": UNLIMITED,
        "THROTTLE_USER": UNLIMITED,
        "THROTTLE_DEVICE": UNLIMITED,
        "THROTTLE_DEALS": UNLIMITED,
        # the production recommendation (docs/benchmarks.md): pooled connections, one
        # per gunicorn thread and two spare; recomputes coalesced over a short interval
        "DATABASE_POOL_MAX": str(args.threads + 2 if args.pool else 0),
        "RECOMPUTE_DEBOUNCE_SECONDS": str(args.debounce),
    }


# --- the site -------------------------------------------------------------------------


def recreate_database(env: dict[str, str], name: str) -> None:
    import psycopg

    with psycopg.connect("postgresql://postgres@127.0.0.1:5432/postgres", autocommit=True) as c:
        c.execute(f"DROP DATABASE IF EXISTS {name} WITH (FORCE)")
        c.execute(f"CREATE DATABASE {name}")
    manage = [sys.executable, str(ROOT / "manage.py")]
    subprocess.run([*manage, "migrate", "--noinput", "-v0"], env=env, check=True, cwd=ROOT)
    subprocess.run([*manage, "collectstatic", "--noinput", "-v0"], env=env, check=True, cwd=ROOT)


def flush_redis(env: dict[str, str]) -> None:
    """Empty the benchmark's Redis database: a previous run's queued flags (a recompute
    or an analysis sweep whose message its stopped worker took along) would otherwise keep
    this run from queueing any, for up to their timeout, as its ids are the same again."""
    import redis

    redis.Redis.from_url(env["REDIS_URL"]).flushdb()


def create_organiser(env: dict[str, str]) -> tuple[str, str, str]:
    """The benchmark club and its organiser, written directly to the bench database."""
    os.environ.update(env)
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "klammern_site.settings")
    import django

    django.setup()
    from django.contrib.auth import get_user_model

    from tournaments.models import Club  # the app's models module, in old checkouts too

    club = Club.objects.create(name="Lastclub", slug="bench")
    user = get_user_model().objects.create_user("bench-organiser", password="bench-pw-1")
    club.organisers.add(user)
    return "bench-organiser", "bench-pw-1", "bench"


def nginx_renderer() -> Any:
    """``scripts/nginx_site.py`` of this script's own checkout (a ``--checkout`` of an
    older commit may have none): the same proxy config in front of either."""
    import importlib.util

    path = Path(__file__).resolve().parent.parent / "scripts" / "nginx_site.py"
    spec = importlib.util.spec_from_file_location("klammern_nginx_site", path)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module  # dataclasses look their module up
    spec.loader.exec_module(module)
    return module


def gunicorn_command(port: int, args: argparse.Namespace) -> list[str]:
    return [
        str(VENV_BIN / "gunicorn"),
        "klammern_site.wsgi",
        "-k",
        args.worker_class,
        "-w",
        str(args.workers),
        "--threads",
        str(args.threads),
        "-b",
        f"127.0.0.1:{port}",
        "--backlog",
        "2048",
        "--log-level",
        "warning",
    ]


def proxy_in_front(ports: list[int], logs: Path) -> tuple[str, list[str]]:
    """``--proxy``: the site's nginx config (NGINX_TLS=off) before the app servers on
    ``ports``; its URL and its command."""
    from tournaments.simulation.server import free_port

    nginx_site = nginx_renderer()
    nginx = nginx_site.find_nginx()
    if nginx is None:
        raise SystemExit("--proxy needs nginx (scripts/nginx.sh installs Debian's)")
    listen = f"127.0.0.1:{free_port()}"
    site = nginx_site.Site(
        directory=logs / "nginx",
        listen=listen,
        upstreams=[f"127.0.0.1:{port}" for port in ports],
        static_root=ROOT / "staticfiles",
        body_limit=256 * 1024,
        workers=1,
    )
    nginx_site.render(site)
    return f"http://{listen}", nginx_site.nginx_command(site, nginx)


@contextmanager
def running_site(env: dict[str, str], args: argparse.Namespace) -> Iterator[str]:
    """gunicorn and the Celery workers; with ``--proxy`` two app servers (each as
    ``--workers``/``--threads`` say, as docker-compose.yml's web and web2) behind nginx."""
    from tournaments.simulation.server import free_port

    port = args.port or free_port()
    logs = ROOT / "bench" / "load-logs"
    logs.mkdir(exist_ok=True)
    servers = [("gunicorn", gunicorn_command(port, args))]
    url = f"http://127.0.0.1:{port}"
    if args.proxy:
        env = {**env, "DJANGO_TRUSTED_PROXY_COUNT": "1"}
        second = free_port()
        servers.append(("gunicorn2", gunicorn_command(second, args)))
        url, nginx = proxy_in_front([port, second], logs)
        servers.append(("nginx", nginx))
    processes = []
    try:
        for name, command in (*servers, *celery_workers(port, args)):
            log = open(logs / f"{name}.log", "wb")  # noqa: SIM115 - closed with the process
            processes.append(
                (
                    subprocess.Popen(
                        command, env=env, cwd=ROOT, stdout=log, stderr=subprocess.STDOUT
                    ),
                    log,
                )
            )
        wait_for(url)
        yield url
    finally:
        for process, _log in processes:
            process.terminate()
        for process, log in processes:
            try:
                process.wait(timeout=20)
            except subprocess.TimeoutExpired:
                process.kill()
            log.close()


def celery_workers(port: int, args: argparse.Namespace) -> list[tuple[str, list[str]]]:
    """The Celery workers, as deployed (docker-compose.yml): one for the default queue
    and one for the par analyses at the lowest CPU priority; ``--shared-worker``: one
    worker for both queues at the same priority as the site."""
    celery = [str(VENV_BIN / "celery"), "-A", "klammern_site", "worker", "-c", "1"]
    quiet = ["--loglevel", "warning"]
    if args.shared_worker:
        return [("celery", [*celery, *quiet, "-n", f"bench-{port}@%h"])]
    return [
        ("celery", [*celery, "--queues", "celery", *quiet, "-n", f"bench-{port}@%h"]),
        (
            "analysis",
            ["nice", "-n", "19", *celery, "--queues", "analysis", *quiet]
            + ["-n", f"bench-analysis-{port}@%h"],
        ),
    ]


def wait_for(url: str) -> None:
    import requests

    deadline = time.monotonic() + 60
    while time.monotonic() < deadline:
        try:
            if requests.get(url + "/api/clubs/", timeout=5).status_code == 200:
                return
        except requests.RequestException:
            pass
        time.sleep(0.3)
    raise SystemExit("gunicorn did not answer within 60 s; see bench/load-logs/gunicorn.log")


# --- tournaments to play on -----------------------------------------------------------


@dataclass
class Field:
    """A published round of a fresh tournament: its tables, each with a device code."""

    tournament: int
    tables: list[Any]


class Bench:
    def __init__(self, url: str, organiser: tuple[str, str, str]) -> None:
        from tournaments.simulation.client import Api, expect

        self.api = Api(url, timeout=60)
        user, password, club_slug = organiser
        reply = self.api.post("/api/auth/token/", {"username": user, "password": password})
        self.token = expect(reply, 200, "organiser login").body["token"]
        self.club = self.api.get(f"/api/clubs/?slug={club_slug}").body["results"][0]["id"]
        self.records = deal_pool()
        self.bodies = [json.dumps(record).encode() for record in self.records]
        self.tablets = Tablets(url)

    def field(self, *, tables: int, deals: int) -> Field:
        """A tournament with ``tables`` tables of ``deals`` planned deals, round 1 open."""
        from tournaments.simulation.scenario import Options, Simulation

        options = Options(players=tables * 4, rounds=1, deals=deals, seed=1, concurrency=16)
        sim = Simulation(
            self.api,
            options=options,
            organiser_token=self.token,
            club=self.club,
            log=lambda _line: None,
        )
        tournament = sim.create_tournament()
        register_directly(tournament, players=tables * 4, club=self.club)
        sim.org("POST", f"/api/tournaments/{tournament}/start/", 200, "start")
        drawn = sim.draw_round(tournament, 1)
        round_ = sim.org("POST", f"/api/rounds/{drawn['id']}/publish/", 200, "publish").body
        from tournaments.simulation.scenario import Table

        field_tables = [Table(1, t["number"], t["id"], t["match"]) for t in round_["tables"]]
        with ThreadPoolExecutor(16) as pool:
            list(pool.map(sim.issue_device, field_tables))
        return Field(tournament, field_tables)

    def submit(self, table: Any, number: int, *, key: str | None = None) -> Sent:
        return self.tablets.post(
            f"/api/matches/{table.match}/deals/{number}/",
            self.bodies[(number - 1) % len(self.bodies)],
            auth=table.device,
            key=key or new_key(),
        )


@dataclass
class Sent:
    """A submission's answer: status, raw body, headers and round-trip time."""

    status: int
    body: bytes
    headers: Any
    seconds: float

    @property
    def replayed(self) -> bool:
        return self.headers.get("Idempotent-Replayed") == "true"


class Tablets:
    """The tablets' submissions, lean enough not to take the server's CPU: each thread
    keeps one HTTP/1.1 keep-alive connection (``http.client``, not ``requests``), and each
    pool record is encoded to JSON once. Every submission is still a whole real request:
    the full deal record, a new Idempotency-Key, the device credential, plain JSON; a
    429 is waited out and a dropped connection retried with the same key, as
    ``tournaments.simulation.client`` (what a tablet does) handles them."""

    def __init__(self, base_url: str, *, timeout: float = 60) -> None:
        parts = urlsplit(base_url)
        self.host, self.port, self.timeout = parts.hostname or "127.0.0.1", parts.port, timeout
        self._local = threading.local()

    def post(self, path: str, body: bytes, *, auth: str, key: str) -> Sent:
        headers = {
            "Content-Type": "application/json",
            "Accept": "application/json",
            "Authorization": auth,
            "Idempotency-Key": key,
        }
        throttled = dropped = 0
        while True:
            started = time.perf_counter()
            connection = self._connection()
            try:
                connection.request("POST", path, body, headers)
                response = connection.getresponse()
                raw = response.read()
            except (OSError, http.client.HTTPException):
                connection.close()
                self._local.connection = None
                dropped += 1
                if dropped > 3:
                    raise
                time.sleep(0.2 * dropped)
                continue
            seconds = time.perf_counter() - started
            if response.status == 429 and throttled < 5:
                throttled += 1
                time.sleep(min(float(response.headers.get("Retry-After") or 1), 10.0))
                continue
            return Sent(response.status, raw, response.headers, seconds)

    def _connection(self) -> http.client.HTTPConnection:
        connection = getattr(self._local, "connection", None)
        if connection is None:
            connection = http.client.HTTPConnection(self.host, self.port, timeout=self.timeout)
            self._local.connection = connection
        return connection


def register_directly(tournament_id: int, *, players: int, club: int) -> None:
    """Players registered and checked in through the services in this process: the
    set-up is not what is measured, and over HTTP it would take minutes for 800 players."""
    from tournaments.models import Club, Tournament

    services = event_services()

    tournament, club_row = Tournament.objects.get(pk=tournament_id), Club.objects.get(pk=club)
    for index in range(players):
        player = services.create_player(club=club_row, name=f"Last {tournament_id}-{index}")
        registration = services.register_player(tournament=tournament, player=player)
        services.check_in_registration(registration=registration)


def event_services() -> Any:
    """The module with ``create_player``, ``register_player`` and ``check_in_registration``:
    ``tournaments.events.services``, or ``tournaments.services`` in a checkout from before
    the sub-packages (``--checkout``)."""
    import importlib

    try:
        return importlib.import_module("tournaments.events.services")
    except ModuleNotFoundError:
        return importlib.import_module("tournaments.services")


def deal_pool(size: int = 400) -> list[dict[str, Any]]:
    """Legal full deal records from the engine, made once: the load generator shares the
    two cores with the server, so it does not deal cards while measuring."""
    import games.engine as engine

    rng, pool, dealer = random.Random(2026), [], 0
    for _ in range(size):  # deal n of a match is pool[n - 1]: dealt in turn, as checked
        record = engine.random_deal(rng, dealer=dealer)
        pool.append(record)
        dealer = following_dealer(engine, dealer, record)
    return pool


def following_dealer(engine: Any, dealer: int, record: dict[str, Any]) -> int:
    """Who deals after ``record``: the engine's rule, or, for a checkout from before the
    engine checked the turn (``--checkout``), the same rule for Klammern spelled out
    (a thrown-in deal is dealt again by the same seat)."""
    thrown_in = record["contract"]["kind"] == "thrown_in"
    if hasattr(engine, "next_dealer"):
        options = engine.PRESETS["klammern"]
        return int(engine.next_dealer(dealer, thrown_in=thrown_in, options=options))
    return dealer if thrown_in else (dealer + 1) % 4


def new_key() -> str:
    return str(uuid.uuid4())


# --- figures --------------------------------------------------------------------------


@dataclass
class Tally:
    latencies: list[float] = field(default_factory=list)
    statuses: Counter[int] = field(default_factory=Counter)
    lock: threading.Lock = field(default_factory=threading.Lock)
    #: the first answer's body of each status other than 2xx
    samples: dict[int, bytes] = field(default_factory=dict)

    def add(self, reply: Any) -> None:
        with self.lock:
            self.statuses[reply.status] += 1
            if reply.status < 300:
                self.latencies.append(reply.seconds * 1000)
            else:
                self.samples.setdefault(reply.status, reply.body)

    def percentiles(self) -> str:
        from tournaments.simulation.checks import percentile

        p = [percentile(self.latencies, q) for q in (50, 95, 99)]
        return f"p50 {p[0]:.1f} ms, p95 {p[1]:.1f} ms, p99 {p[2]:.1f} ms"

    def by_status(self) -> str:
        return ", ".join(f"{k}: {v}" for k, v in sorted(self.statuses.items()))


def machine() -> str:
    load = ", ".join(f"{x:.2f}" for x in os.getloadavg())
    return f"load average {load} on {os.cpu_count()} cores"


def commit_of(checkout: Path) -> str:
    """The checkout's commit, with ``+`` when its files differ from it."""
    git = ["git", "-C", str(checkout)]
    commit = subprocess.run([*git, "rev-parse", "--short", "HEAD"], capture_output=True, text=True)
    dirty = subprocess.run([*git, "status", "--porcelain", "-uno"], capture_output=True, text=True)
    return commit.stdout.strip() + ("+" if dirty.stdout.strip() else "")


def headline(title: str) -> None:
    print(f"\n== {title} ({machine()})", flush=True)


# --- scenarios ------------------------------------------------------------------------


def latency(bench: Bench, args: argparse.Namespace) -> dict[str, Any]:
    """One tablet at a time: the deals of 8-deal matches, one table after the other, as
    at a club evening (each match's last deal also finishes it)."""
    headline(f"latency: one tablet, {args.latency_deals} deals one after another")
    tables = bench.field(tables=args.latency_deals // 8 + 2, deals=8).tables
    for number in range(1, 9):  # warm-up: connections, caches
        bench.submit(tables[-1], number)
    tally = Tally()
    for index in range(args.latency_deals):
        tally.add(bench.submit(tables[index // 8], index % 8 + 1))
    print(f"submissions {tally.by_status()}; {tally.percentiles()} (target p95 < 50 ms)")
    return {"statuses": dict(tally.statuses), "percentiles": tally.percentiles()}


def sustained(
    bench: Bench,
    args: argparse.Namespace,
    *,
    seconds: float | None = None,
    quiet: bool = False,
    stop: threading.Event | None = None,
    ready: threading.Event | None = None,
) -> dict[str, Any]:
    seconds = seconds or args.duration
    tables, clients = args.sustained_tables, args.sustained_clients
    if not quiet:
        headline(f"sustained: {tables} tables, {clients} client threads, {seconds:.0f} s")
    # enough deals for 400 deals/s: the client threads are not served evenly (some
    # tables get twice the average), and a table out of deals would only get 400s. An
    # entry counts its match's earlier deals (an index scan), so longer matches cost
    # next to nothing more; nothing is rescored per entry (Liga matches aside). Past
    # MAX_DEALS_PER_MATCH a table goes on at its seat of a further tournament.
    needed = int(seconds * 400 / tables) + 10
    deals = min(needed, MAX_DEALS_PER_MATCH)
    fields = [bench.field(tables=tables, deals=deals) for _ in range(-(-needed // deals))]
    seats = [[f.tables[index] for f in fields] for index in range(tables)]
    tally, next_deal = Tally(), Counter[int]()
    stop = stop or threading.Event()
    windows: Counter[int] = Counter()
    if ready is not None:
        ready.set()
    started = time.perf_counter()

    # the tables take turns: a client thread takes the table waiting longest, sends its
    # next deal and puts it back last (a table is never sent two deals at once), so
    # every table advances at the same pace whichever threads the GIL favours
    waiting = deque(range(tables))

    def tablet_loop(_index: int) -> None:
        while not stop.is_set() and time.perf_counter() - started < seconds:
            try:
                seat = waiting.popleft()
            except IndexError:  # every table is full (or in another thread's hands)
                time.sleep(0.001)
                continue
            entered = next_deal[seat]
            next_deal[seat] += 1
            if entered >= deals * len(fields):  # every tournament's match is full
                continue
            table = seats[seat][entered // deals]
            reply = bench.submit(table, entered % deals + 1)
            waiting.append(seat)
            tally.add(reply)
            if reply.status == 201:
                with tally.lock:
                    windows[int((time.perf_counter() - started) // 10)] += 1

    with ThreadPoolExecutor(clients) as pool:
        list(pool.map(tablet_loop, range(clients)))
    elapsed = time.perf_counter() - started
    created = tally.statuses[201]
    rate = created / elapsed
    per_window = ", ".join(f"{windows[w] / 10:.0f}" for w in sorted(windows))
    errors = sum(n for s, n in tally.statuses.items() if s >= 500)
    if not quiet:
        print(f"{created} deals stored in {elapsed:.1f} s: {rate:.1f} deals/s (target >= 150)")
        print(f"deals/s per 10 s window: {per_window}")
        print(f"answers {tally.by_status()}; server errors: {errors}; {tally.percentiles()}")
        for status_code, body in sorted(tally.samples.items()):
            print(f"first {status_code} answer: {body[:300]!r}")
    return {
        "deals": created,
        "seconds": elapsed,
        "rate": rate,
        "errors": errors,
        "statuses": dict(tally.statuses),
        "percentiles": tally.percentiles(),
    }


def burst(bench: Bench, args: argparse.Namespace) -> dict[str, Any]:
    tables = args.burst_tables
    headline(f"burst: {tables} tables send their last deal at once, 25% retried")
    bench_field = bench.field(tables=tables, deals=4)
    with ThreadPoolExecutor(32) as pool:  # deals 1-3 of every table, before the burst
        list(pool.map(lambda t: [bench.submit(t, n) for n in (1, 2, 3)], bench_field.tables))
    retried = set(random.Random(7).sample(range(tables), tables // 4))
    gate = threading.Barrier(tables + 1)
    done: dict[int, tuple[float, list[Any]]] = {}

    def last_deal(index: int) -> None:
        table, key, replies = bench_field.tables[index], new_key(), []
        retry = None
        if index in retried:  # the tablet gave up waiting and sends again, same key
            retry = threading.Thread(
                target=lambda: (time.sleep(0.05), replies.append(bench.submit(table, 4, key=key)))
            )
        gate.wait()
        if retry:
            retry.start()
        replies.append(bench.submit(table, 4, key=key))
        if retry:
            retry.join()
        done[index] = (time.perf_counter(), replies)

    threads = [threading.Thread(target=last_deal, args=(i,)) for i in range(tables)]
    for thread in threads:
        thread.start()
    gate.wait()
    started = time.perf_counter()
    for thread in threads:
        thread.join()
    finished = max(at for at, _ in done.values()) - started
    statuses = Counter(r.status for _, replies in done.values() for r in replies)
    replays = sum(r.replayed for _, replies in done.values() for r in replies)
    problems = verify_burst(bench, bench_field, done)
    print(
        f"all {tables} tables acknowledged in {finished:.2f} s (target < 5 s); "
        f"answers {dict(sorted(statuses.items()))}, replays {replays}"
    )
    print(
        "verification: "
        + (
            "every deal stored exactly once (4 per table, 1 version)"
            if not problems
            else f"{len(problems)} PROBLEMS: {problems[:5]}"
        )
    )
    return {
        "seconds": finished,
        "statuses": dict(statuses),
        "replays": replays,
        "problems": problems,
    }


def verify_burst(bench: Bench, bench_field: Field, done: dict[int, Any]) -> list[str]:
    from tournaments.simulation.checks import verify_deals

    # The bench's tournaments play Klammern and its records name no rules: a server that
    # stores every record with its tournament's rules (since 4c92ecb) adds "klammern".
    expected = {
        (t.match, n): bench.records[n - 1] for t in bench_field.tables for n in (1, 2, 3, 4)
    }
    stored: dict[int, list[dict[str, Any]]] = {}
    organiser = f"Token {bench.token}"

    def fetch(table: Any) -> None:
        stored[table.match] = bench.api.get_all(
            f"/api/matches/{table.match}/deals/", auth=organiser
        )

    with ThreadPoolExecutor(16) as pool:
        list(pool.map(fetch, bench_field.tables))
    for deals in stored.values():
        for deal in deals:
            if deal.get("record", {}).get("rules") == "klammern":
                deal["record"] = {k: v for k, v in deal["record"].items() if k != "rules"}
    problems = verify_deals(expected, stored)
    for index, (_, replies) in done.items():
        if [r.status for r in replies] != [201] * len(replies):
            problems.append(f"table {index + 1}: answers {[r.status for r in replies]}")
        elif len(replies) == 2 and json.loads(replies[0].body) != json.loads(replies[1].body):
            problems.append(f"table {index + 1}: the retry got another body")
    return problems


def reads(bench: Bench, args: argparse.Namespace) -> dict[str, Any]:
    seconds = args.reads_duration
    headline(f"reads: public standings for {seconds:.0f} s while tablets submit")
    target = bench.field(tables=10, deals=4)
    with ThreadPoolExecutor(10) as pool:  # a finished round, so the standings have rows
        list(pool.map(lambda t: [bench.submit(t, n) for n in (1, 2, 3, 4)], target.tables))
    stop, ready = threading.Event(), threading.Event()
    writes: dict[str, Any] = {}
    writer_args = argparse.Namespace(**{**vars(args), "sustained_clients": args.reads_writers})
    writer = threading.Thread(
        target=lambda: writes.update(
            sustained(
                bench, writer_args, seconds=seconds * 2 + 30, quiet=True, stop=stop, ready=ready
            )
        )
    )
    writer.start()
    ready.wait(timeout=120)  # the writers' tournament is set up and submitting
    results = {}
    for name, path in (
        ("API", f"/api/tournaments/{target.tournament}/standings/"),
        ("HTML page", f"/tournaments/{target.tournament}/standings/"),
    ):
        results[name] = read_load(bench.api.base_url + path, seconds, args.reads_connections)
        print(f"{name} {path}: {results[name]}")
    stop.set()
    writer.join()
    print(
        f"meanwhile tablets stored {writes['deals']} deals ({writes['rate']:.1f}/s over "
        f"{writes['seconds']:.0f} s incl. set-up gaps), server errors {writes['errors']}"
    )
    return {"reads": results, "writes": writes}


def read_load(url: str, seconds: float, connections: int) -> str:
    if shutil.which("wrk"):
        out = subprocess.run(
            ["wrk", "-t2", f"-c{connections}", f"-d{seconds:.0f}s", url],
            capture_output=True,
            text=True,
            check=True,
        ).stdout
        rps = re.search(r"Requests/sec:\s+([\d.]+)", out)
        bad = re.search(r"Non-2xx or 3xx responses: (\d+)", out)
        lat = re.search(r"Latency\s+(\S+)\s+(\S+)\s+(\S+)", out)
        return (
            f"{float(rps.group(1)) if rps else 0:.0f} req/s with wrk, {connections} "
            f"connections; non-2xx: {bad.group(1) if bad else 0}; "
            f"latency avg {lat.group(1) if lat else '?'}"
        )
    return python_read_load(url, seconds, connections)


def python_read_load(url: str, seconds: float, connections: int) -> str:
    import requests

    counts: Counter[int] = Counter()
    lock = threading.Lock()
    deadline = time.perf_counter() + seconds

    def reader() -> None:
        session, mine = requests.Session(), Counter[int]()
        while time.perf_counter() < deadline:
            mine[session.get(url, timeout=30).status_code] += 1
        with lock:
            counts.update(mine)

    with ThreadPoolExecutor(connections) as pool:
        for _ in range(connections):
            pool.submit(reader)
    total = sum(counts.values())
    return (
        f"{total / seconds:.0f} req/s with Python threads (the client itself may be the "
        f"limit), answers {dict(counts)}"
    )


# --- main -----------------------------------------------------------------------------


def parse(argv: list[str]) -> argparse.Namespace:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("scenarios", nargs="*", help=f"any of {', '.join(SCENARIOS)}; all")
    parser.add_argument("--workers", type=int, default=2, help="gunicorn worker processes")
    parser.add_argument("--threads", type=int, default=8, help="threads per gunicorn worker")
    parser.add_argument("--worker-class", default="gthread", help="gunicorn -k")
    parser.add_argument("--duration", type=float, default=60, help="sustained run, seconds")
    parser.add_argument(
        "--no-pool",
        dest="pool",
        action="store_false",
        help="no connection pool (CONN_MAX_AGE and health checks instead)",
    )
    parser.add_argument(
        "--debounce",
        type=float,
        default=1.0,
        help="RECOMPUTE_DEBOUNCE_SECONDS for the site (0: recompute at once)",
    )
    parser.add_argument(
        "--shared-worker",
        action="store_true",
        help="one Celery worker for both queues (the par analyses at the site's priority)",
    )
    parser.add_argument("--latency-deals", type=int, default=200)
    parser.add_argument("--sustained-tables", type=int, default=200)
    parser.add_argument("--sustained-clients", type=int, default=32)
    parser.add_argument("--burst-tables", type=int, default=200)
    parser.add_argument("--reads-duration", type=float, default=20)
    parser.add_argument("--reads-connections", type=int, default=32)
    parser.add_argument("--reads-writers", type=int, default=4, help="tablets during reads")
    parser.add_argument("--json", type=Path, help="also write the figures here")
    parser.add_argument("--database", default="klammern_bench", help="dropped and recreated")
    parser.add_argument("--redis-db", type=int, default=5, help="Redis database number")
    parser.add_argument("--port", type=int, default=0, help="gunicorn's port (default: free)")
    parser.add_argument(
        "--proxy",
        action="store_true",
        help="as deployed: nginx (deploy/nginx/) in front of two app servers",
    )
    parser.add_argument(
        "--checkout",
        type=Path,
        help="serve this checkout (with its own .venv) instead of this one",
    )
    return parser.parse_args(argv)


def run_in_checkout(checkout: Path, argv: list[str]) -> None:
    """Re-execute this script with ``checkout``'s interpreter, serving its code."""
    python = checkout.resolve() / ".venv" / "bin" / "python"
    if not python.exists():
        raise SystemExit(f"{python} is missing: create the checkout's virtual environment")
    os.environ["KLAMMERN_BENCH_ROOT"] = str(checkout.resolve())
    os.environ["PYTHONPATH"] = str(checkout.resolve())  # its packages, never this one's
    os.chdir(checkout.resolve())
    os.execv(python, [str(python), str(Path(__file__).resolve()), *argv])


def main(argv: list[str]) -> None:
    args = parse(argv)
    if args.checkout and args.checkout.resolve() != ROOT.resolve():
        rest = [a for i, a in enumerate(argv) if a != "--checkout" and argv[i - 1] != "--checkout"]
        run_in_checkout(args.checkout, [a for a in rest if not a.startswith("--checkout=")])
    chosen = args.scenarios or list(SCENARIOS)
    if unknown := set(chosen) - set(SCENARIOS):
        raise SystemExit(f"unknown scenarios: {', '.join(sorted(unknown))}")
    env = bench_env(args)
    print(
        f"machine before: {machine()}; serving {ROOT} ({commit_of(ROOT)}); gunicorn -k "
        f"{args.worker_class} -w {args.workers} --threads {args.threads}"
        + (" twice, behind nginx (--proxy)" if args.proxy else "")
    )
    recreate_database(env, args.database)
    flush_redis(env)
    organiser = create_organiser(env)
    figures: dict[str, Any] = {"machine_before": machine()}
    with running_site(env, args) as url:
        bench = Bench(url, organiser)
        for name in chosen:
            cpu, wall = time.process_time(), time.perf_counter()
            figures[name] = globals()[name](bench, args)
            cpu, wall = time.process_time() - cpu, time.perf_counter() - wall
            print(f"(load generator used {cpu:.1f} s CPU in {wall:.0f} s, set-up included)")
            figures[name]["generator_cpu_seconds"] = round(cpu, 1)
    figures["machine_after"] = machine()
    if args.json:
        args.json.write_text(json.dumps(figures, indent=2, default=str))


if __name__ == "__main__":
    main(sys.argv[1:])
