"""PostgreSQL connections terminated during a burst of deal submissions: the server's
requests in flight fail, the tablets retry with the same Idempotency-Key, and every deal
ends up stored exactly once."""

from __future__ import annotations

import time

import pytest
from django.db import connection

from .checks import assert_each_deal_stored_once, assert_standings_converge, retried
from .conftest import Tablets
from .harness import CeleryWorker, Gunicorn, burst, terminate_connections

pytestmark = [pytest.mark.slow, pytest.mark.worker]


def test_terminated_connections_lose_and_double_nothing(
    tablets: Tablets,
    gunicorn: Gunicorn,
    worker: CeleryWorker,
) -> None:
    database = connection.settings_dict["NAME"]
    terminated = []

    def terminate_for_two_seconds() -> None:
        until = time.monotonic() + 2.0
        while time.monotonic() < until:
            terminated.append(terminate_connections(database))
            time.sleep(0.05)

    burst(gunicorn.url, tablets.plan, fault=terminate_for_two_seconds, after=8, pace=0.1)

    assert sum(terminated) > 0, "the fault never hit a server connection"
    assert_each_deal_stored_once(tablets.tournament, tablets.submissions)
    took = assert_standings_converge(gunicorn.url, tablets.organiser_auth, tablets.tournament)
    print(
        f"standings converged after {took:.0f} s; "
        f"terminated {sum(terminated)} connections; {retried(tablets.submissions)} deals "
        f"retried; statuses seen: {sorted({s for i in tablets.submissions for s in i.statuses})}"
    )
