"""The API fuzzed from its own OpenAPI schema with schemathesis, in-process through WSGI,
as an organiser (token), a table device and an anonymous visitor, operation by operation
and statefully (the schema's links: create a tournament, register, check in, draw, ...).

Each response is checked for: no server error, a documented status
(``status_code_conformance``), a documented content type and headers, a body matching
its schema, authentication that is not ignored (``ignored_auth``), and invalid data
rejected (``negative_data_rejection``).

``positive_data_acceptance`` is not run: a body the schema accepts may still name a club,
player or tournament that does not exist or is not the caller's, or break a rule no
schema states (a taken slug, a tournament whose rules are locked once started, a deal
record the rules engine refuses); the API rightly answers those with 400 and its field
errors, which that check reports as "valid data rejected".

Path ids are real objects half the time (a generated even id is swapped for one of the
fixture's), so detail views and commands run on a real tournament, not only as 404s.
Examples are bounded and derandomised so the run is repeatable and fits a CI budget;
``make fuzz`` runs many more, random ones.
"""

from __future__ import annotations

import os
from collections import Counter
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

import pytest
import schemathesis
from django.core.cache import cache
from django.core.signals import request_finished, request_started
from django.db import close_old_connections, transaction
from hypothesis import HealthCheck, Phase, settings
from schemathesis.checks import not_a_server_error
from schemathesis.specs.openapi.checks import (
    content_type_conformance,
    ignored_auth,
    negative_data_rejection,
    response_headers_conformance,
    response_schema_conformance,
    status_code_conformance,
)

from klammern_site.wsgi import application
from tests.conftest import Event, set_throttle_rates
from tests.factories import summary_record
from tournaments.clubs.models import ApiToken, Player, hash_api_token
from tournaments.clubs.services import issue_api_token
from tournaments.events.models import Registration

CHECKS = [
    not_a_server_error,
    status_code_conformance,
    content_type_conformance,
    response_headers_conformance,
    response_schema_conformance,
    ignored_auth,
    negative_data_rejection,
]
# ``make fuzz`` runs more, random examples: FUZZ_EXAMPLES, FUZZ_SEQUENCES, FUZZ_RANDOM=1.
MAX_EXAMPLES = int(os.environ.get("FUZZ_EXAMPLES", "8"))
STATEFUL_EXAMPLES = int(os.environ.get("FUZZ_SEQUENCES", "25"))
STATEFUL_STEPS = 8  # calls per sequence at most
DERANDOMIZE = os.environ.get("FUZZ_RANDOM", "") != "1"


@pytest.fixture
def real_ids(event: Event, device: Any) -> dict[str, list[int]]:
    """Ids of the running event's objects, per first path segment under /api/."""
    for number in (1, 2):
        device.post(
            f"/api/matches/{event.match1.pk}/deals/{number}/",
            summary_record(),
            format="json",
            HTTP_IDEMPOTENCY_KEY=f"fuzz-{number}",
        )
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
    settings.CACHES = {
        "default": {"BACKEND": "django.core.cache.backends.locmem.LocMemCache", "LOCATION": "fuzz"}
    }
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


#: The WSGI transport hands over the body as sent; an HTTP client would undo the gzip the
#: site applies to compressible answers (``GZipMiddleware``), so the calls ask for none.
PLAIN = {"Accept-Encoding": "identity"}


def call(case: Any, ids: dict[str, list[int]], **headers: str) -> None:
    with_real_ids(case, ids)
    with connection_kept():
        case.call_and_validate(headers={**PLAIN, **headers}, checks=CHECKS)


#: The API token each organiser's examples send (an example may have revoked it).
KEYS: dict[int, str] = {}


def organiser_key(user: Any) -> str:
    key = KEYS.get(user.pk)
    if key is None or not ApiToken.objects.filter(key_hash=hash_api_token(key)).exists():
        KEYS[user.pk] = key = issue_api_token(user=user)[1]
    return key


FUZZ = settings(
    max_examples=MAX_EXAMPLES,
    deadline=None,
    derandomize=DERANDOMIZE,
    database=None,
    suppress_health_check=list(HealthCheck),
)


@pytest.mark.slow
@schema.parametrize()
@FUZZ
def test_api_as_organiser(case: Any, real_ids: dict[str, list[int]], organiser: Any) -> None:
    call(case, real_ids, Authorization=f"Token {organiser_key(organiser)}")


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


# --- the stateful phase: sequences along the schema's links ---------------------------

#: Body fields naming an object, and the model that must hold it.
REFERENCES = ("club", "player", "tournament")
STATEFUL = settings(
    max_examples=STATEFUL_EXAMPLES,
    stateful_step_count=STATEFUL_STEPS,
    deadline=None,
    derandomize=DERANDOMIZE,
    database=None,
    phases=[Phase.explicit, Phase.generate],  # a failure as found, unshrunk
    suppress_health_check=list(HealthCheck),
)


def fill_references(case: Any, ids: dict[str, list[int]], created: set[int]) -> None:
    """A generated body's club, player or tournament becomes one of the organiser's
    unless a link took it from an earlier response of the sequence (``created``), so
    that sequences get past creation instead of stopping at a 400. Decided without the
    database, so that a replayed sequence draws the same."""
    if not isinstance(case.body, dict):
        return
    for field in REFERENCES:
        value = case.body.get(field)
        taken = isinstance(value, int) and value in created
        if field in case.body and ids.get(f"{field}s") and not taken:
            case.body[field] = ids[f"{field}s"][0]


class APIWorkflow(schema.as_state_machine()):  # type: ignore[misc]
    """Sequences of linked operations as the organiser (a token)."""

    headers: dict[str, str] = {}
    ids: dict[str, list[int]] = {}
    answers: Counter[tuple[str, int]] = Counter()

    def setup(self) -> None:
        # each sequence from the same state: the fixture's rows, and an empty cache (the
        # test's private one: throttle and lockout counts, idempotency keys, flags), so
        # that a replayed sequence meets the same answers
        self.savepoint = transaction.savepoint_create()
        cache.clear()
        self.created: set[int] = set()

    def teardown(self) -> None:
        transaction.savepoint_rollback(self.savepoint)

    def before_call(self, case: Any) -> None:
        with_real_ids(case, self.ids)
        fill_references(case, self.ids, self.created)

    def get_call_kwargs(self, case: Any) -> dict[str, Any]:
        return {"headers": {**PLAIN, **self.headers}}

    def after_call(self, response: Any, case: Any) -> None:
        self.answers[(case.operation.label, response.status_code)] += 1
        body = response.json() if response.status_code == 201 else None
        if isinstance(body, dict) and isinstance(body.get("id"), int):
            self.created.add(body["id"])

    def call(self, case: Any, **kwargs: Any) -> Any:
        with connection_kept():
            return case.call(**kwargs)

    def validate_response(
        self, response: Any, case: Any, additional_checks: Any = None, **kwargs: Any
    ) -> None:
        with connection_kept():
            case.validate_response(
                response, checks=CHECKS, headers=self.headers, transport_kwargs=kwargs
            )


@pytest.mark.slow
def test_api_stateful_as_organiser(
    real_ids: dict[str, list[int]], organiser: Any, event: Event
) -> None:
    APIWorkflow.headers = {"Authorization": f"Token {organiser_key(organiser)}"}
    APIWorkflow.ids = {**real_ids, "clubs": [event.club.pk]}
    APIWorkflow.answers.clear()
    APIWorkflow.run(settings=STATEFUL)
    succeeded = {label for (label, status), _ in APIWorkflow.answers.items() if status < 300}
    # the sequences get past creation and act on objects (which creations and follow-ups
    # the 25 random sequences reach varies with the schema and the ids of the run)
    assert any(label.startswith("POST") for label in succeeded), succeeded
    assert any("{id}" in label and not label.startswith("GET") for label in succeeded) or any(
        label.startswith("GET /api/tournaments/{id}") for label in succeeded
    ), succeeded
    for (label, status), count in sorted(APIWorkflow.answers.items()):
        print(f"{count:4d} {status} {label}")
