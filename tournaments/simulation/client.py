"""A thread-safe JSON-over-HTTP client for the simulation and the load benchmark.

Each thread keeps its own ``requests.Session`` (keep-alive); every call returns a
``Reply`` with its status, body, headers and wall time. A 429 is waited out (Retry-After)
and sent again, as a tablet would; connection errors are retried with the same request,
which is safe for deal submissions because they carry an Idempotency-Key.
"""

from __future__ import annotations

import threading
import time
from dataclasses import dataclass, field
from typing import Any

import requests

RETRY_ON_429 = 5
RETRY_ON_CONNECTION_ERROR = 3


@dataclass
class Reply:
    status: int
    body: Any
    headers: dict[str, str]
    seconds: float
    throttled: int = 0

    @property
    def replayed(self) -> bool:
        return self.headers.get("Idempotent-Replayed") == "true"


@dataclass
class Api:
    """``base_url`` without a trailing slash; ``timeout`` per request in seconds."""

    base_url: str
    timeout: float = 30.0
    _local: threading.local = field(default_factory=threading.local, repr=False)

    def session(self) -> requests.Session:
        session = getattr(self._local, "session", None)
        if session is None:
            session = requests.Session()
            self._local.session = session
        return session

    def call(
        self,
        method: str,
        path: str,
        *,
        auth: str | None = None,
        json: Any = None,
        headers: dict[str, str] | None = None,
    ) -> Reply:
        all_headers = {"Accept": "application/json", **(headers or {})}
        if auth:
            all_headers["Authorization"] = auth
        throttled = 0
        for attempt in range(RETRY_ON_429 + RETRY_ON_CONNECTION_ERROR + 1):
            started = time.perf_counter()
            try:
                response = self.session().request(
                    method,
                    self.base_url + path,
                    json=json,
                    headers=all_headers,
                    timeout=self.timeout,
                )
            except requests.ConnectionError:
                if attempt >= RETRY_ON_CONNECTION_ERROR:
                    raise
                self._local.session = None
                time.sleep(0.2 * (attempt + 1))
                continue
            seconds = time.perf_counter() - started
            if response.status_code == 429 and throttled < RETRY_ON_429:
                throttled += 1
                time.sleep(min(float(response.headers.get("Retry-After", "1") or 1), 10.0))
                continue
            return Reply(
                response.status_code, _body(response), dict(response.headers), seconds, throttled
            )
        raise RuntimeError("unreachable")

    def get(self, path: str, **kwargs: Any) -> Reply:
        return self.call("GET", path, **kwargs)

    def post(self, path: str, json: Any = None, **kwargs: Any) -> Reply:
        return self.call("POST", path, json=json if json is not None else {}, **kwargs)

    def get_all(self, path: str, *, auth: str | None = None) -> list[Any]:
        """Every item of a paginated list endpoint."""
        items: list[Any] = []
        url: str | None = path
        while url:
            reply = self.get(url, auth=auth)
            expect(reply, 200, f"GET {url}")
            items += reply.body["results"]
            url = reply.body.get("next")
            if url and url.startswith("http"):
                url = url[url.index("/api/") :]
        return items


def _body(response: requests.Response) -> Any:
    try:
        return response.json()
    except ValueError:
        return response.text[:500]


class ApiError(Exception):
    """An organiser step got an answer it did not expect; the run cannot go on."""


def expect(reply: Reply, status: int | tuple[int, ...], what: str) -> Reply:
    wanted = (status,) if isinstance(status, int) else status
    if reply.status not in wanted:
        raise ApiError(f"{what}: expected {wanted}, got {reply.status}: {str(reply.body)[:300]}")
    return reply
