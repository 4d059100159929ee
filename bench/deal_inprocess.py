"""In-process CPU and SQL statements per device deal entry (no HTTP server, no load).

Runs itself under pytest (a throw-away test database, as the tests do): 10 tables of a
40-player tournament submit random full deals through the Django test client, DEBUG off,
the Redis cache on ``REDIS_URL`` (flushed; database 7 when unset), recomputes queued on
the flag but never sent. Prints CPU and wall time per deal (timed without capturing the
SQL: the debug cursor formats every statement), statements per deal (10 more deals,
captured) and the last deal's SQL; ``--profile FILE`` also writes a cProfile (process
time) of the timed deals.

    DATABASE_URL=postgres://postgres@127.0.0.1:5432/klammern_writes \\
        .venv/bin/python bench/deal_inprocess.py [--deals 300] [--profile /tmp/deal.prof]
"""

from __future__ import annotations

import argparse
import cProfile
import json
import os
import random
import sys
import time
import uuid
from pathlib import Path
from typing import Any

import pytest

ROOT = Path(__file__).resolve().parent.parent

if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--deals", type=int, default=300)
    parser.add_argument("--profile", default="")
    args = parser.parse_args()
    os.environ["DEAL_BENCH_N"], os.environ["DEAL_BENCH_PROFILE"] = str(args.deals), args.profile
    os.chdir(ROOT)
    sys.exit(pytest.main([__file__, "-q", "-s", "-p", "no:cacheprovider", "--rootdir", str(ROOT)]))

from django.db import connection  # noqa: E402
from django.test import Client  # noqa: E402
from django.test.utils import CaptureQueriesContext  # noqa: E402

from games.engine import FIRST_DEALER, PRESETS, next_dealer, random_deal  # noqa: E402
from tests.conftest import *  # noqa: E402,F403 (the clubs, organiser and event fixtures)
from tests.conftest import make_event  # noqa: E402
from tournaments.events import services  # noqa: E402
from tournaments.events import versions as results  # noqa: E402
from tournaments.events.models import Table  # noqa: E402

pytestmark = pytest.mark.django_db(transaction=True)


@pytest.fixture
def tables(settings: Any, club_a: Any, organiser: Any, monkeypatch: Any) -> list[tuple[int, str]]:
    settings.DEBUG = False
    redis = os.environ.get("REDIS_URL", "redis://127.0.0.1:6379/7")
    settings.CACHES = {"default": {"BACKEND": "django_redis.cache.RedisCache", "LOCATION": redis}}
    from django.core.cache import cache

    cache.clear()
    monkeypatch.setattr(results, "_send_recompute", lambda task, owner: None)
    event = make_event(club=club_a, players=40, deals=60)
    codes = []
    for table in Table.objects.filter(round=event.round).order_by("number"):
        _, code = services.issue_device_code(table=table)
        codes.append((table.match.pk, code))
    return codes


def _backend_pid() -> int:
    with connection.cursor() as cursor:
        cursor.execute("SELECT pg_backend_pid()")
        return int(cursor.fetchone()[0])


def _process_cpu(pid: int) -> float:
    """User + system CPU seconds of a local process; -inf when it cannot be read (a
    database on another host)."""
    try:
        fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    except OSError:
        return float("-inf")
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def test_deal_entry_cost(tables: list[tuple[int, str]]) -> None:
    n, profile = int(os.environ.get("DEAL_BENCH_N", "300")), os.environ.get("DEAL_BENCH_PROFILE")
    rng = random.Random(1)
    records, dealer = [], FIRST_DEALER
    for _ in range(60):  # the deal passes as the server checks it (engine.next_dealer)
        record = random_deal(rng, dealer=dealer)
        records.append(json.dumps(record))
        thrown_in = record["contract"]["kind"] == "thrown_in"
        dealer = next_dealer(dealer, thrown_in=thrown_in, options=PRESETS["klammern"])
    clients = [(match, Client(HTTP_AUTHORIZATION=f"Device {code}")) for match, code in tables]
    jobs = [(c, m, number) for number in range(1, 61) for m, c in clients][: n + 20]
    assert len(jobs) == n + 20, f"at most {len(clients) * 60 - 20} deals"

    def send(client: Client, match: int, number: int) -> None:
        response = client.post(
            f"/api/matches/{match}/deals/{number}/",
            records[number - 1],
            content_type="application/json",
            HTTP_IDEMPOTENCY_KEY=str(uuid.uuid4()),
        )
        assert response.status_code == 201, response.content

    for job in jobs[:10]:  # warm-up: caches, first connections
        send(*job)
    profiler = cProfile.Profile(time.process_time) if profile else None
    backend = _backend_pid()
    # timed without capturing the SQL: Django's debug cursor (which captures it) formats
    # every statement with its values, work a deal does not do in production
    pg_cpu = _process_cpu(backend)
    cpu, wall = time.process_time(), time.perf_counter()
    if profiler:
        profiler.enable()
    for job in jobs[10 : n + 10]:
        send(*job)
    if profiler:
        profiler.disable()
    cpu, wall = time.process_time() - cpu, time.perf_counter() - wall
    pg_cpu = _process_cpu(backend) - pg_cpu
    with CaptureQueriesContext(connection) as queries:  # the statements of 10 more deals
        for job in jobs[n + 10 :]:
            send(*job)
    counted = len(jobs) - n - 10
    print(
        f"\n{n} deals: CPU {cpu / n * 1000:.2f} ms/deal, wall {wall / n * 1000:.2f} ms/deal, "
        f"{len(queries) / counted:.2f} statements/deal incl. BEGIN/COMMIT"
    )
    if pg_cpu >= 0:
        print(f"PostgreSQL backend CPU {pg_cpu / n * 1000:.2f} ms/deal (its /proc stat)")
    per_deal = len(queries) // counted
    for query in queries.captured_queries[-per_deal:]:
        print("  ", query["sql"][:160])
    if profiler:
        profiler.dump_stats(profile)
