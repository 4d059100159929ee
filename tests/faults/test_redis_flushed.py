"""Redis holds nothing that a restart loses: everything in it is a cache, a counter or a
queued task that the site rebuilds or re-queues (docs/operations.md, "What Redis holds").

An evening with deals entered and the standings computed (stored bodies, rendered pages,
throttle counters and queued-recompute flags in our own Redis), then, while the tablets
go on entering deals, ``FLUSHALL``: as a Redis restarted without its append-only file
would come back. Every deal is stored once, a tablet's retry of a deal acknowledged
before the flush replays the stored answer (idempotency lives in PostgreSQL), the
standings converge to a fresh recompute and the public pages answer with them.
"""

from __future__ import annotations

import pytest
import redis

from .checks import assert_each_deal_stored_once, assert_standings_converge
from .conftest import Tablets
from .harness import CeleryWorker, Gunicorn, RedisServer, Submission, burst, http, submit

pytestmark = [pytest.mark.slow, pytest.mark.worker]

FIRST = 2  # deals per table entered before the flush


def test_a_flushed_redis_loses_no_deal_and_the_pages_recover(
    tablets: Tablets, redis_server: RedisServer, gunicorn: Gunicorn, worker: CeleryWorker
) -> None:
    base, tournament = gunicorn.url, tablets.tournament
    for auth, items in tablets.plan.items():
        for item in items[:FIRST]:
            assert submit(base, auth, item, deadline=0).final == 201, item.body
    assert_standings_converge(base, tablets.organiser_auth, tournament)
    public = [
        f"/api/tournaments/{tournament.pk}/standings/",
        f"/tournaments/{tournament.pk}/standings/",
        f"/tournaments/{tournament.pk}/standings/table/",
    ]
    for path in public:
        assert http("GET", base + path)[0] == 200
    store = redis.Redis.from_url(redis_server.url)
    assert store.dbsize() > 0, "the evening left nothing in Redis to lose"

    rest = {auth: items[FIRST:] for auth, items in tablets.plan.items()}
    burst(base, rest, fault=store.flushall, after=8, pace=0.1)

    auth, items = next(iter(tablets.plan.items()))
    first = items[0]
    retry = Submission(first.match_id, first.number, first.record, key=first.key)
    assert submit(base, auth, retry, deadline=0).final == 201
    assert retry.body == first.body  # the stored answer, not a second deal

    assert_each_deal_stored_once(tournament, tablets.submissions)
    took = assert_standings_converge(base, tablets.organiser_auth, tournament)
    tournament.refresh_from_db()
    status, _, body = http("GET", base + public[0])
    assert status == 200 and body["results_version"] == tournament.results_version
    for path in public[1:]:
        assert http("GET", base + path)[0] == 200
    print(f"standings converged {took:.0f} s after the last deal; Redis flushed mid-burst")
