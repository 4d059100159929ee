"""The optional error reporter: without ``SENTRY_DSN`` nothing of sentry-sdk is
initialised; with a DSN pointing at a fake endpoint on this machine an unhandled error of
a request is reported there, without the client's address or cookies. Each case runs
the site in a subprocess, so that the SDK never stays initialised in the test run."""

from __future__ import annotations

import gzip
import json
import os
import subprocess
import sys
import threading
import zlib
from collections.abc import Iterator
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
PORT = 18401

FAIL_A_REQUEST = """
import json, django, sentry_sdk
django.setup()
from django.conf import settings
from django.test import Client
from klammern_site import health

def broken():
    raise RuntimeError("probe failure for the reporter")

health._database_answers = broken
status = Client(raise_request_exception=False).get(
    "/healthz", REMOTE_ADDR="203.0.113.7", HTTP_COOKIE="sessionid=secret-cookie-value"
).status_code
sentry_sdk.flush(timeout=10)
print(json.dumps({"on": settings.ERROR_REPORTER_ON,
                  "active": sentry_sdk.get_client().is_active(), "status": status}))
"""


class FakeSentry(BaseHTTPRequestHandler):
    received: list[bytes] = []

    def do_POST(self) -> None:  # noqa: N802 - http.server's name
        body = self.rfile.read(int(self.headers.get("Content-Length") or 0))
        encoding = self.headers.get("Content-Encoding", "")
        if encoding == "gzip":
            body = gzip.decompress(body)
        elif encoding == "deflate":
            body = zlib.decompress(body)
        self.received.append(body)
        self.send_response(200)
        self.send_header("Content-Type", "application/json")
        self.end_headers()
        self.wfile.write(b"{}")

    def log_message(self, *args: object) -> None:
        return None


@pytest.fixture
def fake_sentry() -> Iterator[list[bytes]]:
    FakeSentry.received = []
    server = ThreadingHTTPServer(("127.0.0.1", PORT), FakeSentry)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    try:
        yield FakeSentry.received
    finally:
        server.shutdown()
        server.server_close()


def run_site(dsn: str | None) -> dict[str, object]:
    # the default SQLite and in-process tasks: the request never reaches a database
    dropped = ("SENTRY_", "DATABASE_URL", "REDIS_URL")
    env = {k: v for k, v in os.environ.items() if not k.startswith(dropped)}
    env["DJANGO_SETTINGS_MODULE"] = "klammern_site.settings"
    if dsn is not None:
        env["SENTRY_DSN"] = dsn
    done = subprocess.run(
        [sys.executable, "-c", FAIL_A_REQUEST],
        cwd=ROOT,
        env=env,
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert done.returncode == 0, done.stderr[-3000:]
    return json.loads(done.stdout.strip().splitlines()[-1])


def test_without_a_dsn_nothing_is_initialised(fake_sentry: list[bytes]) -> None:
    outcome = run_site(None)
    assert outcome == {"on": False, "active": False, "status": 500}
    assert fake_sentry == []


def test_with_a_dsn_an_error_is_reported_without_personal_data(
    fake_sentry: list[bytes],
) -> None:
    outcome = run_site(f"http://publickey@127.0.0.1:{PORT}/1")
    assert outcome == {"on": True, "active": True, "status": 500}
    reports = b"".join(fake_sentry).decode(errors="replace")
    assert "RuntimeError" in reports and "probe failure for the reporter" in reports
    assert "/healthz" in reports  # the request's URL, to find the view
    assert "203.0.113.7" not in reports and "secret-cookie-value" not in reports
