"""``/readyz`` sees a stopped worker (its heartbeat through the standings' queue goes
unanswered) while ``/healthz`` stays 200; it recovers when a worker runs again. The
worker's own metrics port serves the tasks' lag."""

from __future__ import annotations

import time
import urllib.request
from typing import Any

import pytest
from prometheus_client.parser import text_string_to_metric_families

from klammern_site import health, heartbeat
from tests.support.clients import Client
from tests.tasks.conftest import wait_until

WORKER_METRICS_PORT = "18402"


@pytest.fixture
def quick_heartbeat(settings: Any) -> None:
    settings.READY_HEARTBEAT_SECONDS = 0.2
    settings.READY_WORKER_LAG_SECONDS = 2.0


def readiness(client: Client) -> tuple[int, dict[str, Any]]:
    response = client.get("/readyz")
    assert "no-cache" in response["Cache-Control"]
    return response.status_code, response.json()


def worker_metrics() -> dict[tuple[str, tuple[tuple[str, str], ...]], float]:
    url = f"http://127.0.0.1:{WORKER_METRICS_PORT}/metrics"
    with urllib.request.urlopen(url, timeout=5) as response:  # noqa: S310 - local
        text = response.read().decode()
    return {
        (s.name, tuple(sorted(s.labels.items()))): s.value
        for family in text_string_to_metric_families(text)
        for s in family.samples
    }


@pytest.mark.worker
@pytest.mark.slow
def test_readiness_flips_with_the_worker(start_worker: Any, quick_heartbeat: None) -> None:
    client = Client()
    worker = start_worker(METRICS_PORT=WORKER_METRICS_PORT)
    wait_until(
        lambda: (
            readiness(client)[0] == 200
            and heartbeat.unanswered_seconds(time.time()) == 0
            and heartbeat.cache.get(heartbeat.ANSWERED) is not None
        ),
        timeout=30,
        what="the running worker to answer a heartbeat",
    )
    status, body = readiness(client)
    assert status == 200 and body["worker"] == "ok" and "reason" not in body
    lag = (
        "klammern_celery_task_lag_seconds_count",
        (("task", "tournaments.tasks.worker_heartbeat_task"),),
    )
    assert worker_metrics()[lag] >= 1

    worker.stop()
    status, body = wait_until(
        lambda: (answer := readiness(client))[0] == 503 and answer,
        timeout=30,
        what="readiness to see the stopped worker",
    )
    assert body["worker"] == "lagging" and body["database"] == "ok"
    assert "worker has not answered" in body["reason"]
    assert body["worker_lag_seconds"] >= 2
    assert client.get("/healthz").status_code == 200  # the web service itself is fine

    start_worker()
    wait_until(
        lambda: readiness(client)[0] == 200, timeout=30, what="readiness with a worker again"
    )


@pytest.mark.django_db
def test_ready_with_in_process_tasks(client: Client) -> None:
    """``make run`` and the ordinary tests: tasks run at once, the heartbeat is answered."""
    status, body = readiness(client)
    assert status == 200
    assert body == {"database": "ok", "cache": "ok", "worker": "ok", "worker_lag_seconds": 0.0}


@pytest.mark.django_db
def test_an_unreachable_queue_is_not_ready(client: Client, monkeypatch: pytest.MonkeyPatch) -> None:
    def broker_down(sent_at: float) -> None:
        raise ConnectionError("broker down")

    monkeypatch.setattr(health, "_send_heartbeat", broker_down)
    status, body = readiness(client)
    assert status == 503
    assert body["worker"] == "lagging" and body["worker_lag_seconds"] is None
    assert "task queue is unreachable" in body["reason"]
    assert client.get("/healthz").status_code == 200


@pytest.mark.django_db
def test_a_lost_database_is_not_ready(client: Client, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(health, "_database_answers", lambda: False)
    status, body = readiness(client)
    assert status == 503 and body["database"] == "down"
    assert body["reason"].startswith("the database does not answer")


def test_an_unanswered_heartbeat_counts_from_the_first_and_is_sent_again(db: Any) -> None:
    sent: list[float] = []
    assert heartbeat.probe(now=1000.0, every=5, send=sent.append) == 0.0
    assert heartbeat.probe(now=1010.0, every=5, send=sent.append) == 10.0
    assert sent == [1000.0]  # one is waiting: not sent again before RESEND_SECONDS
    later = 1000.0 + heartbeat.RESEND_SECONDS + 1
    assert heartbeat.probe(now=later, every=5, send=sent.append) == later - 1000.0
    assert sent == [1000.0, later]
    heartbeat.record_heartbeat(sent_at=1000.0)  # the first one answered, late
    assert heartbeat.unanswered_seconds(later) == 0.0
    assert heartbeat.probe(now=later + 1, every=5, send=sent.append) == 0.0
    assert sent == [1000.0, later, later + 1]  # due again: a new one sent
