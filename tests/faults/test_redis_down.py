"""Our own Redis (broker and cache) killed during a burst of deal submissions and started
again 3 s later: deals are stored and acknowledged, or retried until they are, and every
deal ends up stored exactly once."""

from __future__ import annotations

import time

import pytest

from .checks import assert_each_deal_stored_once, assert_standings_converge, retried
from .conftest import Tablets
from .harness import CeleryWorker, Gunicorn, RedisServer, burst, submit

pytestmark = [pytest.mark.slow, pytest.mark.worker]


def test_redis_outage_loses_and_doubles_nothing(
    tablets: Tablets,
    redis_server: RedisServer,
    gunicorn: Gunicorn,
    worker: CeleryWorker,
) -> None:
    def outage() -> None:
        redis_server.kill()
        time.sleep(3)
        redis_server.start()

    burst(gunicorn.url, tablets.plan, fault=outage, after=8, pace=0.1)

    assert_each_deal_stored_once(tablets.tournament, tablets.submissions)
    took = assert_standings_converge(gunicorn.url, tablets.organiser_auth, tablets.tournament)
    print(
        f"standings converged after {took:.0f} s; "
        f"{retried(tablets.submissions)} deals retried; statuses seen: "
        f"{sorted({s for i in tablets.submissions for s in i.statuses})}"
    )


def test_deal_is_stored_while_redis_is_down(
    tablets: Tablets, redis_server: RedisServer, gunicorn: Gunicorn
) -> None:
    """The cache answers empty while Redis is down (throttles let requests through), the
    recompute is not queued, and the deal is stored and acknowledged at the first try."""
    auth, items = next(iter(tablets.plan.items()))
    assert submit(gunicorn.url, auth, items[0], deadline=0).final == 201  # warm connections
    redis_server.kill()
    try:
        item = submit(gunicorn.url, auth, items[1], deadline=0)  # one attempt, no retry
    finally:
        redis_server.start()
    assert item.final == 201, (item.statuses, item.body)
