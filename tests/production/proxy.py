"""A small HTTP client for the proxy (nginx in front of two app servers): one request per
connection, from a chosen loopback source address, with an optional cookie jar; and the
proxy's access log read back, to tell which app server answered a request."""

from __future__ import annotations

import http.client
import json
import re
import time
from dataclasses import dataclass, field
from http.cookies import SimpleCookie
from pathlib import Path
from typing import Any

from tests.faults.harness import wait_until

ACCESS_LINE = re.compile(r"upstream=(?P<upstream>\S+) cache=(?P<cache>\S+) id=(?P<id>\w+)")


@dataclass
class Reply:
    status: int
    headers: dict[str, str]  # names in lower case
    body: bytes

    @property
    def json(self) -> Any:
        return json.loads(self.body)

    @property
    def text(self) -> str:
        return self.body.decode("utf-8", errors="replace")

    @property
    def cache(self) -> str:
        return self.headers.get("x-cache-status", "")

    @property
    def request_id(self) -> str:
        return self.headers.get("x-request-id", "")


@dataclass
class Browser:
    """Cookies kept between requests, as a browser would (Secure ones too: the proxy
    here speaks plain HTTP)."""

    cookies: dict[str, str] = field(default_factory=dict)

    def header(self) -> str:
        return "; ".join(f"{name}={value}" for name, value in self.cookies.items())

    def take(self, set_cookies: list[str]) -> None:
        for line in set_cookies:
            for name, morsel in SimpleCookie(line).items():
                if morsel["max-age"] == "0" or not morsel.value:
                    self.cookies.pop(name, None)
                else:
                    self.cookies[name] = morsel.value


class Proxy:
    def __init__(self, port: int, access_log: Path) -> None:
        self.port, self.access_log = port, access_log

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    def request(
        self,
        method: str,
        path: str,
        *,
        headers: dict[str, str] | None = None,
        body: bytes | Any = None,
        source: str = "127.0.0.1",
        browser: Browser | None = None,
        timeout: float = 30,
    ) -> Reply:
        sent = dict(headers or {})
        if body is not None and not isinstance(body, bytes):
            body = json.dumps(body).encode()
            sent.setdefault("Content-Type", "application/json")
        if browser is not None and browser.cookies:
            sent["Cookie"] = browser.header()
        connection = http.client.HTTPConnection(
            "127.0.0.1", self.port, timeout=timeout, source_address=(source, 0)
        )
        try:
            connection.request(method, path, body=body, headers=sent)
            response = connection.getresponse()
            reply = Reply(
                response.status,
                {name.lower(): value for name, value in response.getheaders()},
                response.read(),
            )
            if browser is not None:
                browser.take(response.headers.get_all("Set-Cookie") or [])
            return reply
        finally:
            connection.close()

    def get(self, path: str, **options: Any) -> Reply:
        return self.request("GET", path, **options)

    def upstream_of(self, reply: Reply) -> str:
        """The app server (host:port) that answered, from the proxy's access log (written
        as the request ends: waited for)."""
        found: dict[str, str] = {}

        def logged() -> bool:
            text = self.access_log.read_text() if self.access_log.exists() else ""
            for match in ACCESS_LINE.finditer(text):
                if match["id"] == reply.request_id:
                    found["upstream"] = match["upstream"]
                    return True
            return False

        wait_until(logged, timeout=5, what=f"request {reply.request_id} in the access log")
        return found["upstream"]


def poll(check: Any, *, timeout: float, every: float = 0.1) -> float:
    """Seconds until ``check()`` is true (polled); a TimeoutError past ``timeout``."""
    start = time.monotonic()
    wait_until(check, timeout=timeout, what="the proxy's answer", every=every)
    return time.monotonic() - start
