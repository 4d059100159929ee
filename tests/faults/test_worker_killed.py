"""The Celery worker (with its beat) killed with SIGKILL in the middle of a standings
recompute, twice: once during a burst of deal submissions and once during the recompute
of the last result. Deal entry never depends on the worker; the unacknowledged recompute
is repaired (the beat re-queues lagging snapshots every 30 s) and the standings equal a
fresh recompute within 2 minutes."""

from __future__ import annotations

import time

import pytest

from .checks import assert_each_deal_stored_once, assert_standings_converge, retried
from .conftest import Tablets
from .harness import CeleryWorker, Gunicorn, burst, submit

pytestmark = [pytest.mark.slow, pytest.mark.worker]


@pytest.fixture
def recompute_delay() -> float:
    return 2.0  # long enough to kill the worker while a recompute is surely running


def test_killed_worker_loses_no_deal_and_standings_recover(
    tablets: Tablets, gunicorn: Gunicorn, worker: CeleryWorker
) -> None:
    last_auth, last_items = next(iter(tablets.plan.items()))
    last = last_items.pop()  # entered alone at the end, to kill its recompute

    def kill_and_restart() -> None:
        worker.kill_mid_recompute()
        time.sleep(2)
        worker.start()

    burst(gunicorn.url, tablets.plan, fault=kill_and_restart, after=8, pace=0.1)
    seen, _ = worker.recomputes()  # before the last deal: its recompute may start at once
    submit(gunicorn.url, last_auth, last, deadline=time.monotonic() + 30)
    last_items.append(last)
    assert last.final == 201, last.statuses
    worker.kill_mid_recompute(since=seen, timeout=60)
    worker.start()

    assert_each_deal_stored_once(tablets.tournament, tablets.submissions)
    took = assert_standings_converge(gunicorn.url, tablets.organiser_auth, tablets.tournament)
    print(
        f"standings converged {took:.0f} s after the second kill; "
        f"{retried(tablets.submissions)} deals retried; statuses seen: "
        f"{sorted({s for i in tablets.submissions for s in i.statuses})}"
    )
