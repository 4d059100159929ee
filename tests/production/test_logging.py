"""Logs as JSON lines with ``LOG_FORMAT=json``: one line per request with the proxy's
request id, the view, the status and the duration, no client address unless the
settings ask for it; every record of a request carries its id; text by default."""

from __future__ import annotations

import io
import json
import logging
import os
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from klammern_site.observability import JsonFormatter, RequestIdFilter
from tests.conftest import Event
from tests.support.clients import Client

ROOT = Path(__file__).resolve().parents[2]


@pytest.fixture
def json_lines() -> Iterator[io.StringIO]:
    """The root logger and the request logger write JSON lines into a buffer."""
    out = io.StringIO()
    handler = logging.StreamHandler(out)
    handler.setFormatter(JsonFormatter())
    handler.addFilter(RequestIdFilter())
    root, requests = logging.getLogger(), logging.getLogger("klammern.requests")
    saved = requests.level
    root.addHandler(handler)
    requests.setLevel(logging.INFO)
    try:
        yield out
    finally:
        root.removeHandler(handler)
        requests.setLevel(saved)


def lines(out: io.StringIO) -> list[dict[str, Any]]:
    return [json.loads(line) for line in out.getvalue().splitlines()]


@pytest.mark.django_db
def test_one_json_line_per_request(client: Client, event: Event, json_lines: io.StringIO) -> None:
    response = client.get(
        f"/tournaments/{event.tournament.pk}/standings/?lang=x",
        HTTP_X_REQUEST_ID="req-42.a",
        REMOTE_ADDR="203.0.113.9",
    )
    assert response.status_code == 200
    assert response["X-Request-ID"] == "req-42.a"
    [line] = [entry for entry in lines(json_lines) if entry["logger"] == "klammern.requests"]
    assert line["request_id"] == "req-42.a"
    assert line["view"] == "standings" and line["status"] == 200 and line["method"] == "GET"
    assert line["path"] == f"/tournaments/{event.tournament.pk}/standings/"  # no query string
    assert line["level"] == "INFO" and line["time"].endswith("+00:00")
    assert isinstance(line["duration_ms"], float) and line["duration_ms"] > 0
    assert "client" not in line and "203.0.113.9" not in json_lines.getvalue()


@pytest.mark.django_db
def test_the_client_address_only_when_the_settings_say_so(
    client: Client, settings: Any, json_lines: io.StringIO
) -> None:
    settings.LOG_CLIENT_ADDRESS = True
    client.get("/healthz", REMOTE_ADDR="203.0.113.9")
    [line] = [entry for entry in lines(json_lines) if entry["logger"] == "klammern.requests"]
    assert line["client"] == "203.0.113.9"


@pytest.mark.django_db
def test_records_logged_during_a_request_carry_its_id(
    client: Client, json_lines: io.StringIO
) -> None:
    client.get("/no/such/page/", HTTP_X_REQUEST_ID="lost-1")
    by_logger = {entry["logger"]: entry for entry in lines(json_lines)}
    assert by_logger["django.request"]["request_id"] == "lost-1"  # Django's "Not Found"
    assert by_logger["klammern.requests"]["view"] == "unmatched"
    logging.getLogger("after").warning("outside a request")
    assert "request_id" not in lines(json_lines)[-1]


@pytest.mark.django_db
def test_a_strange_request_id_is_replaced(client: Client) -> None:
    response = client.get("/healthz", HTTP_X_REQUEST_ID='bad id"\n{}')
    assert len(response["X-Request-ID"]) == 32 and response["X-Request-ID"].isalnum()


def test_an_exception_is_one_line() -> None:
    try:
        raise ValueError("boom")
    except ValueError:
        record = logging.LogRecord("x", logging.ERROR, __file__, 1, "failed %s", ("here",), None)
        record.exc_info = sys.exc_info()
    text = JsonFormatter().format(record)
    assert "\n" not in text
    line = json.loads(text)
    assert line["message"] == "failed here" and "ValueError: boom" in line["exception"]


LOG_ONE = (
    "import django, logging; django.setup(); logging.getLogger('probe').warning('hello %s', 1)"
)


def run_with(log_format: str | None) -> subprocess.CompletedProcess[str]:
    env = {k: v for k, v in os.environ.items() if k != "LOG_FORMAT"}
    env["DJANGO_SETTINGS_MODULE"] = "klammern_site.settings"
    if log_format is not None:
        env["LOG_FORMAT"] = log_format
    return subprocess.run(
        [sys.executable, "-c", LOG_ONE], cwd=ROOT, env=env, capture_output=True, text=True
    )


def test_the_setting_selects_json_and_text_is_the_default() -> None:
    as_json = run_with("json")
    assert as_json.returncode == 0, as_json.stderr
    line = json.loads(as_json.stderr.strip().splitlines()[-1])
    assert line["logger"] == "probe" and line["message"] == "hello 1"
    assert line["level"] == "WARNING"

    as_text = run_with(None)
    assert as_text.returncode == 0, as_text.stderr
    last = as_text.stderr.strip().splitlines()[-1]
    assert last.endswith("WARNING probe hello 1") and not last.startswith("{")

    wrong = run_with("xml")
    assert wrong.returncode != 0 and "LOG_FORMAT must be text or json" in wrong.stderr
