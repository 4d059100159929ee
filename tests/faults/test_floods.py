"""Hostile input against a live gunicorn: request floods get 429 with Retry-After (per IP
for anonymous visitors, per credential for table devices), oversized and chunked bodies
get 413 without the server reading them, and all of it answers fast."""

from __future__ import annotations

import http.client as httpclient
import time
import uuid
from collections.abc import Iterator
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any

import pytest

from .conftest import Tablets
from .harness import Gunicorn, http

pytestmark = pytest.mark.slow

RATE = 20  # per minute, for every scope
LIMIT = 256 * 1024


@pytest.fixture
def strict_gunicorn(env: dict[str, str], workdir: Path, tablets: Tablets) -> Iterator[Gunicorn]:
    # Every scope strict: devices are counted by credential, never by their shared IP.
    rates = {f"THROTTLE_{s}": f"{RATE}/min" for s in ("ANON", "USER", "DEVICE", "DEALS")}
    server = Gunicorn(
        env={**env, **rates, "DATA_UPLOAD_MAX_MEMORY_SIZE": str(LIMIT)}, workdir=workdir
    )
    server.start()
    yield server
    server.stop()


Outcome = tuple[int, dict[str, str], float]


def flood(
    url: str,
    *,
    n: int,
    headers: dict[str, str] | None = None,
    method: str = "GET",
    body: Any = None,
) -> list[Outcome]:
    def one(i: int) -> Outcome:
        started = time.monotonic()
        extra = {"Idempotency-Key": str(uuid.uuid4())} if method == "POST" else {}
        status, response_headers, _ = http(
            method, url, body=body, headers={**(headers or {}), **extra}
        )
        return status, response_headers, time.monotonic() - started

    with ThreadPoolExecutor(max_workers=8) as pool:
        return list(pool.map(one, range(n)))


def assert_throttled(outcomes: list[Outcome]) -> None:
    statuses = [status for status, _, _ in outcomes]
    # Counted in fixed windows: a flood that straddles the end of one window may pass the
    # rate in each of the two, never more.
    assert statuses.count(429) >= len(outcomes) - 2 * RATE, statuses
    assert set(statuses) <= {200, 201, 400, 409, 429}, statuses
    for status, headers, _ in outcomes:
        if status == 429:
            assert 0 < int(headers["Retry-After"]) <= 60
    slowest = sorted(seconds for status, _, seconds in outcomes if status == 429)[-1]
    assert slowest < 5, f"a refusal took {slowest:.1f} s"


def test_anonymous_flood_is_429(tablets: Tablets, strict_gunicorn: Gunicorn) -> None:
    assert_throttled(flood(f"{strict_gunicorn.url}/api/tournaments/", n=3 * RATE))


def test_device_flood_is_429_for_that_device_only(
    tablets: Tablets, strict_gunicorn: Gunicorn
) -> None:
    (flooder, items), (other, _) = list(tablets.plan.items())[:2]
    base = strict_gunicorn.url

    assert_throttled(flood(f"{base}/api/device/", n=3 * RATE, headers={"Authorization": flooder}))
    deals = f"{base}/api/matches/{items[0].match_id}/deals/1/"
    assert_throttled(
        flood(
            deals,
            n=3 * RATE,
            method="POST",
            body=items[0].record,
            headers={"Authorization": flooder},
        )
    )

    status, _, _ = http("GET", f"{base}/api/device/", headers={"Authorization": other})
    assert status == 200  # tablets of one venue share an IP but not a budget


def test_oversized_body_is_413_without_being_read(
    tablets: Tablets, strict_gunicorn: Gunicorn
) -> None:
    connection = httpclient.HTTPConnection("127.0.0.1", strict_gunicorn.port, timeout=10)
    started = time.monotonic()
    connection.putrequest("POST", "/api/auth/token/")
    connection.putheader("Content-Type", "application/json")
    connection.putheader("Content-Length", str(50 * 1024 * 1024))  # announced, never sent
    connection.endheaders(b"{")
    response = connection.getresponse()

    assert response.status == 413
    assert response.getheader("Connection") == "close"  # gunicorn closes it: it says so
    assert b"too large" in response.read()
    assert time.monotonic() - started < 5


@pytest.mark.parametrize(("size", "expected"), [(LIMIT + 1, 413), (100, 400)])
def test_chunked_body_is_limited_too(
    tablets: Tablets, strict_gunicorn: Gunicorn, size: int, expected: int
) -> None:
    connection = httpclient.HTTPConnection("127.0.0.1", strict_gunicorn.port, timeout=10)
    body = b'{"username": "' + b"x" * size + b'"}'
    chunks = (body[i : i + 8192] for i in range(0, len(body), 8192))
    connection.request(
        "POST",
        "/api/auth/token/",
        body=chunks,
        encode_chunked=True,
        headers={"Content-Type": "application/json", "Transfer-Encoding": "chunked"},
    )
    response = connection.getresponse()
    payload = response.read()

    assert response.status == expected, payload[:200]
    if expected == 400:  # the body was read: the serializer saw the username, not nothing
        assert b"password" in payload and b"username" not in payload
