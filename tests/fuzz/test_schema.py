"""The API fuzzed from its own OpenAPI schema with schemathesis, in-process through WSGI,
as an organiser (token), a table device and an anonymous visitor: no response is a server
error, and every documented response matches its schema.

Path ids are real objects half the time (a generated even id is swapped for one of the
fixture's), so detail views and commands run on a real tournament, not only as 404s.
Examples are bounded and derandomised so the run is repeatable and fits a CI budget.
"""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

import pytest
import schemathesis
from django.core.signals import request_finished, request_started
from django.db import close_old_connections
from hypothesis import HealthCheck, settings
from rest_framework.authtoken.models import Token
from schemathesis.checks import not_a_server_error
from schemathesis.specs.openapi.checks import response_schema_conformance

from klammern_site.wsgi import application
from tests.conftest import Event, set_throttle_rates
from tests.factories import summary_record
from tournaments.models import Player, Registration

CHECKS = [not_a_server_error, response_schema_conformance]
MAX_EXAMPLES = 8


@pytest.fixture
def real_ids(event: Event, device: Any) -> dict[str, list[int]]:
    """Ids of the running event's objects, per first path segment under /api/."""
    for number in (1, 2):
        device.post(f"/api/matches/{event.match1.pk}/deals/{number}/", summary_record(),
                    format="json", HTTP_IDEMPOTENCY_KEY=f"fuzz-{number}")  # fmt: skip
    return {
        "clubs": [event.club.pk],
        "players": list(Player.objects.values_list("pk", flat=True)[:3]),
        "tournaments": [event.tournament.pk],
        "registrations": list(Registration.objects.values_list("pk", flat=True)[:3]),
        "rounds": [event.round.pk],
        "tables": [event.table1.pk, event.table2.pk],
        "matches": [event.match1.pk, event.match2.pk],
    }


@pytest.fixture(autouse=True)
def private_throttling(settings: Any, monkeypatch: Any) -> None:
    """A private cache, so throttling neither refuses the fuzzer nor shares the machine's
    Redis with other test runs."""
    settings.CACHES = {"default": {"BACKEND": "django.core.cache.backends.locmem.LocMemCache",
                                   "LOCATION": "fuzz"}}  # fmt: skip
    set_throttle_rates(monkeypatch, default="100000/min")


# Loaded at collection (schemathesis's lazy fixture loader does not run on this pytest).
schema = schemathesis.openapi.from_wsgi("/api/schema/", application)
# The coverage phase sends every boundary case the schema defines (minutes per persona);
# the fuzzing and examples phases with bounded examples keep the run within CI's budget.
schema.config.phases.coverage.enabled = False


def with_real_ids(case: Any, ids: dict[str, list[int]]) -> None:
    resource = case.operation.path.split("/")[2]
    for name, value in (case.path_parameters or {}).items():
        if not isinstance(value, int) or value % 2:
            continue
        if name == "number":
            case.path_parameters[name] = 1 + value % 4
        elif name == "match_id":
            case.path_parameters[name] = ids["matches"][value % 4 // 2]
        elif name == "id" and ids.get(resource):
            case.path_parameters[name] = ids[resource][value % len(ids[resource])]


@contextmanager
def connection_kept() -> Iterator[None]:
    """Requests go straight to the WSGI app, not through Django's test client: like the
    test client, keep Django from closing the test's connection after the request."""
    request_started.disconnect(close_old_connections)
    request_finished.disconnect(close_old_connections)
    try:
        yield
    finally:
        request_started.connect(close_old_connections)
        request_finished.connect(close_old_connections)


def call(case: Any, ids: dict[str, list[int]], **headers: str) -> None:
    with_real_ids(case, ids)
    with connection_kept():
        case.call_and_validate(headers=headers, checks=CHECKS)


FUZZ = settings(max_examples=MAX_EXAMPLES, deadline=None, derandomize=True, database=None,
                suppress_health_check=list(HealthCheck))  # fmt: skip


@pytest.mark.slow
@schema.parametrize()
@FUZZ
def test_api_as_organiser(case: Any, real_ids: dict[str, list[int]], organiser: Any) -> None:
    token, _ = Token.objects.get_or_create(user=organiser)
    call(case, real_ids, Authorization=f"Token {token.key}")


@pytest.mark.slow
@schema.include(path_regex=r"^/api/(device|matches)/").parametrize()  # a device's own API
@FUZZ
def test_api_as_device(case: Any, real_ids: dict[str, list[int]], event: Event) -> None:
    call(case, real_ids, Authorization=f"Device {event.code1}")


@pytest.mark.slow
@schema.parametrize()
@FUZZ
def test_api_anonymous(case: Any, real_ids: dict[str, list[int]]) -> None:
    call(case, real_ids)
