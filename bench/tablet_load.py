"""The table tablet's first load on a venue's slow link, cold and warm, in Chromium.

    .venv/bin/python bench/tablet_load.py                     # starts its own site
    .venv/bin/python bench/tablet_load.py --rules klaverjas-rotterdam --runs 5
    .venv/bin/python bench/tablet_load.py --base-url https://example.org --code ABC123

Chromium (``/usr/bin/chromium``, headless, a phone's viewport) emulates the link through
the DevTools protocol (``Network.emulateNetworkConditions``: 400 kbit/s down, 300 ms
latency by default). Each run opens the table's page ``/t/<code>/`` in a fresh browser
context twice:

- cold: the browser's cache disabled (``Network.setCacheDisabled``), no service worker;
- warm: a reload once the page's service worker controls it, the cache on.

For each load it prints the bytes the page's requests transferred (headers and bodies as
they came over the wire, i.e. compressed where the server compressed), the number of
responses, and the time from the start of navigation until the entry sheet takes input
(``tablet.js`` has set up the sheet: ``window.klammernTablet`` is assigned). The service
worker's own downloads (it keeps the page's files for offline reloads once the sheet is
ready) are counted apart. Medians over ``--runs``.

Without ``--base-url`` it starts the site as a deployment serves it, on the embedded
default database (SQLite in a temporary directory, Celery in-process, no Redis): DEBUG
off, static files collected into ``staticfiles/`` (whitenoise), gunicorn on a loopback
port. It creates a club, a tournament of the chosen preset with a published round,
plays ``--deals`` deals at table 1 and issues table 1 a device code. The figures are not
a test: the machine's load average is printed with them.
"""

from __future__ import annotations

import argparse
import json
import os
import socket
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import requests

ROOT = Path(__file__).resolve().parent.parent
VENV_BIN = Path(sys.executable).parent
PHONE = {"width": 390, "height": 844}
CHROMIUM_ARGS = [
    "--no-sandbox",
    "--disable-gpu",
    "--disable-background-networking",
    "--disable-component-update",
    "--no-first-run",
    "--disable-sync",
]
# Records the moment tablet.js publishes its handle (the last line of its set-up).
READY_PROBE = """
Object.defineProperty(window, "klammernTablet", {
  configurable: true,
  get() { return this.__klammernTablet; },
  set(value) { this.__klammernTablet = value; window.__sheetReady = performance.now(); },
});
"""
CONTROLLED = "() => !!navigator.serviceWorker && !!navigator.serviceWorker.controller"

# Run by ``manage.py shell -c`` on the fresh database: prints table 1's device code.
SETUP = """
import random
from games import services as deal_services
from games.engine import FIRST_DEALER, next_dealer, random_deal, resolve_rules
from tournaments import draw, services
from tournaments.models import Club, Match

preset, played = {preset!r}, {deals}
club = Club.objects.create(name="KC Herzbube Konstanz", slug="herzbube")
names = ["Anna Baumann", "Bernd Vogt", "Clara Keller", "Dieter Schmid", "Eva Huber",
         "Franz Meier", "Gabi Frei", "Hans Wagner"]
options = {{"match_by": "deals", "deals_per_match": 8}}
tournament = services.create_tournament(club=club, name="Herbstturnier 2026", slug="herbst",
                                        rules_preset=preset, rules_options=options)
for name in names:
    player = services.create_player(club=club, name=name)
    registration = services.register_player(tournament=tournament, player=player)
    services.check_in_registration(registration=registration)
services.start_tournament(tournament=tournament)
round_ = draw.draw_round(tournament=tournament, seed=7)
services.publish_round(round_=round_)
table = round_.tables.order_by("number").first()
match = Match.objects.get(table=table)
rng, rules = random.Random(7), {{"preset": preset, "options": options}}
engine_options, dealer = resolve_rules(rules), FIRST_DEALER
for number in range(1, played + 1):
    record = random_deal(rng, dealer=dealer, rules=rules)
    deal_services.submit_deal(match=match, number=number, record=record)
    thrown_in = record["contract"]["kind"] == "thrown_in"
    dealer = next_dealer(dealer, thrown_in=thrown_in, options=engine_options)
print("CODE=" + services.issue_device_code(table=table)[1])
"""


@dataclass
class Load:
    """One page load as the browser saw it."""

    bytes: int
    responses: int
    ready_ms: float
    worker_bytes: int
    worker_responses: int
    urls: list[str]


# --- the site -------------------------------------------------------------------------


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


def site_env(database: Path) -> dict[str, str]:
    env = {k: v for k, v in os.environ.items() if k not in ("REDIS_URL", "DATABASE_URL")}
    env.update(
        {
            "DATABASE_URL": f"sqlite:///{database}",
            "DJANGO_DEBUG": "0",
            "DJANGO_SECRET_KEY": "bench-only-not-a-secret-" + "x" * 40,
            "DJANGO_ALLOWED_HOSTS": "127.0.0.1,localhost",
            "DJANGO_SECURE_SSL_REDIRECT": "0",
            "DJANGO_LOG_LEVEL": "WARNING",
            "ANALYSE_DEALS_ON_ENTRY": "0",
        }
    )
    return env


def prepare(env: dict[str, str], *, preset: str, deals: int) -> str:
    """Migrates the fresh database, collects the static files; the table's device code."""
    manage = [sys.executable, str(ROOT / "manage.py")]
    for command in (["migrate", "--noinput", "-v0"], ["collectstatic", "--noinput", "-v0"]):
        subprocess.run([*manage, *command], env=env, check=True, cwd=ROOT)
    script = SETUP.format(preset=preset, deals=deals)
    done = subprocess.run(
        [*manage, "shell", "-c", script], env=env, cwd=ROOT, capture_output=True, text=True
    )
    codes = [line[5:] for line in done.stdout.splitlines() if line.startswith("CODE=")]
    if done.returncode or not codes:
        raise SystemExit(f"setting up the table failed:\n{done.stdout}\n{done.stderr}")
    return codes[0]


@contextmanager
def own_site(port: int, preset: str, deals: int) -> Iterator[tuple[str, str]]:
    """The site on the embedded default database; yields its URL and a device code."""
    with tempfile.TemporaryDirectory(prefix="tablet-load-") as directory:
        env = site_env(Path(directory) / "bench.sqlite3")
        code = prepare(env, preset=preset, deals=deals)
        port = port or free_port()
        command = [
            *(str(VENV_BIN / "gunicorn"), "klammern_site.wsgi", "-w", "1"),
            *("-k", "gthread", "--threads", "8", "-b", f"127.0.0.1:{port}"),
            *("--log-level", "warning"),
        ]
        log = open(Path(directory) / "gunicorn.log", "wb")  # noqa: SIM115 - closed below
        server = subprocess.Popen(command, env=env, cwd=ROOT, stdout=log, stderr=log)
        try:
            url = f"http://127.0.0.1:{port}"
            wait_for(url, server)
            yield url, code
        finally:
            server.terminate()
            try:
                server.wait(timeout=10)
            except subprocess.TimeoutExpired:
                server.kill()
            log.close()


def wait_for(url: str, server: subprocess.Popen[bytes]) -> None:
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline:
        if server.poll() is not None:
            raise SystemExit("gunicorn exited before it answered")
        try:
            if requests.get(url + "/api/clubs/", timeout=5).status_code == 200:
                return
        except requests.RequestException:
            pass
        time.sleep(0.2)
    raise SystemExit("the site did not answer within 60 s")


# --- the browser ----------------------------------------------------------------------


class Meter:
    """Counts a page's finished responses through its DevTools session."""

    def __init__(self, cdp: Any) -> None:
        self.urls: dict[str, str] = {}
        self.finished: dict[str, int] = {}
        self.started: dict[str, float] = {}
        self.ended: dict[str, float] = {}
        cdp.on("Network.requestWillBeSent", self.sent)
        cdp.on("Network.responseReceived", self.received)
        cdp.on("Network.loadingFinished", self.done)

    def sent(self, event: dict[str, Any]) -> None:
        self.started.setdefault(event["requestId"], float(event["timestamp"]))

    def received(self, event: dict[str, Any]) -> None:
        self.urls[event["requestId"]] = event["response"]["url"]

    def done(self, event: dict[str, Any]) -> None:
        self.finished[event["requestId"]] = int(event["encodedDataLength"])
        self.ended[event["requestId"]] = float(event["timestamp"])

    def timeline(self, finished: list[str]) -> list[str]:
        """Each response: when it was asked for and when it was in, from the first request."""
        first = min(self.started.values(), default=0.0)
        rows = sorted(
            (self.started.get(rid, first) - first, self.ended[rid] - first, rid) for rid in finished
        )
        return [
            f"{start:5.2f}-{end:5.2f} s {self.finished[rid] / 1000:5.1f} KB "
            f"{self.urls[rid].split('/', 3)[-1]}"
            for start, end, rid in rows
        ]

    def reset(self) -> None:
        for table in (self.urls, self.finished, self.started, self.ended):
            table.clear()


def throttle(cdp: Any, args: argparse.Namespace, *, cold: bool) -> None:
    cdp.send("Network.enable")
    cdp.send(
        "Network.emulateNetworkConditions",
        {
            "offline": False,
            "latency": args.latency,
            "downloadThroughput": args.down_kbit * 1000 / 8,
            "uploadThroughput": args.up_kbit * 1000 / 8,
        },
    )
    cdp.send("Network.setCacheDisabled", {"cacheDisabled": cold})


def one_load(page: Any, meter: Meter, worker: list[int], action: Any) -> Load:
    meter.reset()
    worker.clear()
    action()
    page.wait_for_function("() => window.__sheetReady !== undefined", polling=50)
    page.wait_for_load_state("networkidle")
    ready = float(page.evaluate("window.__sheetReady"))
    finished = [rid for rid in meter.finished if rid in meter.urls]
    return Load(
        bytes=sum(meter.finished[rid] for rid in finished),
        responses=len(finished),
        ready_ms=ready,
        worker_bytes=sum(worker),
        worker_responses=len(worker),
        urls=meter.timeline(finished),
    )


def measure(browser: Any, url: str, args: argparse.Namespace) -> tuple[Load, Load]:
    """A cold first load of the table's page, then a warm reload."""
    context = browser.new_context(viewport=PHONE, locale="de-DE")
    context.set_default_timeout(60_000)
    try:
        worker: list[int] = []

        def from_worker(response: Any) -> None:
            if response.request.service_worker is not None:
                sizes = response.request.sizes()
                worker.append(sizes["responseBodySize"] + sizes["responseHeadersSize"])

        context.on("response", from_worker)
        context.add_init_script(READY_PROBE)
        page = context.new_page()
        cdp = context.new_cdp_session(page)
        meter = Meter(cdp)
        throttle(cdp, args, cold=True)
        cold = one_load(page, meter, worker, lambda: page.goto(url, wait_until="commit"))
        page.wait_for_function(CONTROLLED)
        throttle(cdp, args, cold=False)
        warm = one_load(page, meter, worker, lambda: page.reload(wait_until="commit"))
        return cold, warm
    finally:
        context.close()


def load_average() -> str:
    return " ".join(f"{value:.2f}" for value in os.getloadavg())


def report(label: str, loads: list[Load], verbose: bool) -> None:
    kb = statistics.median(load.bytes for load in loads) / 1000
    responses = statistics.median(load.responses for load in loads)
    ready = statistics.median(load.ready_ms for load in loads) / 1000
    worker_kb = statistics.median(load.worker_bytes for load in loads) / 1000
    worker_n = statistics.median(load.worker_responses for load in loads)
    spread = ", ".join(f"{load.ready_ms / 1000:.2f}" for load in loads)
    print(
        f"{label}: {kb:.1f} KB in {responses:g} responses, sheet takes input after "
        f"{ready:.2f} s (runs: {spread}); service worker: {worker_kb:.1f} KB in "
        f"{worker_n:g} responses"
    )
    if verbose:
        for path in loads[-1].urls:
            print(f"    {path}")


def run(url: str, code: str, args: argparse.Namespace) -> None:
    from playwright.sync_api import sync_playwright

    page_url = f"{url.rstrip('/')}/t/{code}/"
    print(
        f"{page_url}: {args.down_kbit} kbit/s down, {args.up_kbit} kbit/s up, "
        f"{args.latency} ms latency; load average {load_average()}"
    )
    colds, warms = [], []
    with sync_playwright() as playwright:
        browser = playwright.chromium.launch(
            executable_path=args.chromium, headless=True, args=CHROMIUM_ARGS
        )
        try:
            for _ in range(args.runs):
                cold, warm = measure(browser, page_url, args)
                colds.append(cold)
                warms.append(warm)
        finally:
            browser.close()
    report("cold", colds, args.verbose)
    report("warm", warms, args.verbose)
    print(f"load average afterwards {load_average()}")
    if args.json:
        Path(args.json).write_text(
            json.dumps({"cold": [vars(c) for c in colds], "warm": [vars(w) for w in warms]})
        )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--base-url", help="a running site (needs --code); default: own site")
    parser.add_argument("--code", help="with --base-url: a table's device code")
    parser.add_argument("--rules", default="klammern", help="own site: the tournament's preset")
    parser.add_argument("--deals", type=int, default=3, help="own site: deals already played")
    parser.add_argument("--port", type=int, default=0, help="own site: its port (default: free)")
    parser.add_argument("--runs", type=int, default=3)
    parser.add_argument("--down-kbit", type=int, default=400)
    parser.add_argument("--up-kbit", type=int, default=400)
    parser.add_argument("--latency", type=int, default=300, help="ms added to each request")
    parser.add_argument("--chromium", default="/usr/bin/chromium")
    parser.add_argument("--json", help="write every run's figures to this file")
    parser.add_argument("-v", "--verbose", action="store_true", help="list the responses")
    args = parser.parse_args()
    if args.base_url:
        if not args.code:
            parser.error("--base-url needs --code")
        run(args.base_url, args.code, args)
        return
    with own_site(args.port, args.rules, args.deals) as (url, code):
        run(url, code, args)


if __name__ == "__main__":
    main()
