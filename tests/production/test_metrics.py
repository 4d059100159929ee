"""``/metrics``: deals entered and refused by code, requests by view name (never the
path), the standings recompute time, the analysis backlog and the queues' lengths read
at scrape time, the token, and several processes added up in multiprocess mode."""

from __future__ import annotations

import os
import subprocess
import sys
import uuid
from pathlib import Path
from typing import Any

import pytest
import redis
from prometheus_client import REGISTRY
from prometheus_client.parser import text_string_to_metric_families

from games.analysis_services import analyse_missing_deals
from tests.conftest import Event
from tests.factories import summary_record
from tests.support.clients import APIClient, Client
from tournaments.results.snapshots import recompute_queued_standings

ROOT = Path(__file__).resolve().parents[2]
TOKEN = "scrape-token-for-tests"


def sample(name: str, **labels: str) -> float:
    return REGISTRY.get_sample_value(name, labels) or 0.0


def scrape(client: Client) -> dict[tuple[str, tuple[tuple[str, str], ...]], float]:
    response = client.get("/metrics", HTTP_AUTHORIZATION=f"Bearer {TOKEN}")
    assert response.status_code == 200, response.content[:300]
    assert response["Content-Type"].startswith("text/plain; version=")
    return {
        (s.name, tuple(sorted(s.labels.items()))): s.value
        for family in text_string_to_metric_families(response.content.decode())
        for s in family.samples
    }


@pytest.fixture(autouse=True)
def metrics_token(settings: Any) -> None:
    settings.METRICS_TOKEN = TOKEN


def enter(device: APIClient, event: Event, number: int, **record: Any) -> Any:
    return device.post(
        f"/api/matches/{event.match1.pk}/deals/{number}/",
        summary_record(**record),
        format="json",
        HTTP_IDEMPOTENCY_KEY=str(uuid.uuid4()),
    )


@pytest.mark.django_db
def test_deal_entries_and_refusals_are_counted_by_code(device: APIClient, event: Event) -> None:
    entered = sample("klammern_deals_total", kind="entered")
    exists = sample("klammern_api_refusals_total", view="deal-detail", code="deal_exists")
    wrong_dealer = sample("klammern_api_refusals_total", view="deal-detail", code="wrong_dealer")

    assert enter(device, event, 1).status_code == 201
    assert sample("klammern_deals_total", kind="entered") == entered + 1

    again = enter(device, event, 1)
    assert again.status_code == 409 and again.json()["code"] == "deal_exists"
    out_of_turn = enter(device, event, 2, dealer=3)
    assert out_of_turn.status_code == 400 and out_of_turn.json()["code"] == "wrong_dealer"

    assert sample("klammern_deals_total", kind="entered") == entered + 1  # refusals stored nothing
    assert (
        sample("klammern_api_refusals_total", view="deal-detail", code="deal_exists") == exists + 1
    )
    assert (
        sample("klammern_api_refusals_total", view="deal-detail", code="wrong_dealer")
        == wrong_dealer + 1
    )


@pytest.mark.django_db
def test_a_replayed_entry_is_not_counted_twice(device: APIClient, event: Event) -> None:
    entered = sample("klammern_deals_total", kind="entered")
    url = f"/api/matches/{event.match1.pk}/deals/1/"
    for _ in range(2):
        answer = device.post(url, summary_record(), format="json", HTTP_IDEMPOTENCY_KEY="same")
        assert answer.status_code == 201
    assert sample("klammern_deals_total", kind="entered") == entered + 1


@pytest.mark.django_db
def test_requests_are_counted_by_view_name_never_by_path(client: Client, event: Event) -> None:
    page = f"/tournaments/{event.tournament.pk}/standings/"
    before = sample("klammern_http_requests_total", view="standings", method="GET", status="200")
    timed = sample("klammern_http_request_duration_seconds_count", view="standings")
    assert client.get(page).status_code == 200
    assert client.get("/no/such/page/").status_code == 404

    metrics = scrape(client)
    labels = (("method", "GET"), ("status", "200"), ("view", "standings"))
    assert metrics[("klammern_http_requests_total", labels)] == before + 1
    duration = ("klammern_http_request_duration_seconds_count", (("view", "standings"),))
    assert metrics[duration] == timed + 1
    unmatched = (("method", "GET"), ("status", "404"), ("view", "unmatched"))
    assert metrics[("klammern_http_requests_total", unmatched)] >= 1
    values = {value for _, labels in metrics for _, value in labels}
    assert not any("/" in value for value in values), "a raw path became a label"


@pytest.mark.django_db
def test_the_token_is_required(client: Client, settings: Any) -> None:
    assert client.get("/metrics").status_code == 401
    assert client.get("/metrics", HTTP_AUTHORIZATION="Bearer wrong").status_code == 401
    assert client.get("/metrics", HTTP_AUTHORIZATION=f"Token {TOKEN}").status_code == 401
    assert client.get("/metrics", HTTP_AUTHORIZATION=f"Bearer {TOKEN}").status_code == 200

    settings.METRICS_TOKEN = ""
    settings.DEBUG = False
    assert client.get("/metrics").status_code == 404  # production without a token: off
    settings.DEBUG = True
    assert client.get("/metrics").status_code == 200  # make run


@pytest.mark.django_db
def test_standings_recompute_time_and_analysis_backlog(
    client: Client, device: APIClient, event: Event
) -> None:
    recomputes = sample("klammern_standings_recompute_seconds_count")
    assert enter(device, event, 1).status_code == 201  # eager: its recompute ran
    assert sample("klammern_standings_recompute_seconds_count") == recomputes + 1
    recompute_queued_standings(tournament_id=event.tournament.pk)
    assert sample("klammern_standings_recompute_seconds_count") == recomputes + 2

    assert scrape(client)[("klammern_analysis_backlog", ())] == 1  # analysis on entry is off
    analyse_missing_deals()
    assert scrape(client)[("klammern_analysis_backlog", ())] == 0


def test_queue_lengths_are_read_from_the_broker(client: Client, settings: Any, db: Any) -> None:
    url = os.environ.get("REDIS_URL", "")
    if not url:
        if os.environ.get("CI", "").lower() == "true":
            pytest.fail("REDIS_URL is required in CI")
        pytest.skip("needs REDIS_URL")
    broker = redis.Redis.from_url(url)
    settings.CELERY_BROKER_URL = url
    broker.delete("celery", "analysis", "analysis\x06\x163")
    try:
        broker.rpush("celery", "a", "b", "c")
        broker.rpush("analysis\x06\x163", "d")  # a priority list of kombu's
        metrics = scrape(client)
    finally:
        broker.delete("celery", "analysis", "analysis\x06\x163")
    assert metrics[("klammern_celery_queue_length", (("queue", "celery"),))] == 3
    assert metrics[("klammern_celery_queue_length", (("queue", "analysis"),))] == 1
    assert metrics[("klammern_broker_up", ())] == 1


def test_an_unreachable_broker_is_reported(client: Client, settings: Any, db: Any) -> None:
    settings.CELERY_BROKER_URL = "redis://127.0.0.1:1/0"
    metrics = scrape(client)
    assert metrics[("klammern_broker_up", ())] == 0
    assert not any(name == "klammern_celery_queue_length" for name, _ in metrics)


COUNT_DEALS = """
import sys
from klammern_site import metrics
for _ in range(int(sys.argv[1])):
    metrics.count_deal("entered")
"""
COLLECT = """
from prometheus_client import generate_latest
from klammern_site import metrics
print(generate_latest(metrics.process_registry()).decode())
"""


def test_processes_add_up_in_multiprocess_mode(tmp_path: Path) -> None:
    """Two processes (two gunicorn workers) count; a third one's scrape adds them up."""
    env = {**os.environ, "PROMETHEUS_MULTIPROC_DIR": str(tmp_path / "metrics")}
    for count in ("2", "3"):
        subprocess.run([sys.executable, "-c", COUNT_DEALS, count], cwd=ROOT, env=env, check=True)
    out = subprocess.run(
        [sys.executable, "-c", COLLECT], cwd=ROOT, env=env, check=True, capture_output=True
    ).stdout.decode()
    values = {
        (s.name, tuple(s.labels.items())): s.value
        for family in text_string_to_metric_families(out)
        for s in family.samples
    }
    assert values[("klammern_deals_total", (("kind", "entered"),))] == 5
