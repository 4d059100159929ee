"""Fixtures for fault tests: a running tournament in the (committed) test database, and a
gunicorn server, a private Redis and a Celery worker pointed at it."""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest
from django.db import connection

from tests.conftest import eager_celery, make_event
from tests.factories import ClubFactory, summary_record
from tournaments.clubs.services import issue_api_token
from tournaments.events import services
from tournaments.events.models import Tournament

from .harness import CeleryWorker, Gunicorn, RedisServer, Submission, service_env

TABLES, DEALS = 6, 8


@dataclass
class Tablets:
    """A running tournament: one device code per table, and the deals each will enter."""

    tournament: Tournament
    organiser_auth: str
    plan: dict[str, list[Submission]]  # device Authorization header -> its deals

    @property
    def submissions(self) -> list[Submission]:
        return [item for items in self.plan.values() for item in items]


def database_url_for_tests() -> str:
    db = connection.settings_dict
    auth = db["USER"] + (f":{db['PASSWORD']}" if db["PASSWORD"] else "")
    return f"postgres://{auth}@{db['HOST'] or '127.0.0.1'}:{db['PORT'] or 5432}/{db['NAME']}"


@pytest.fixture
def tablets(transactional_db: Any, django_user_model: Any, settings: Any) -> Tablets:
    # Set-up data is created in-process: its tasks (the draw) run eagerly.
    with eager_celery(settings, cache="faults-setup"):
        return create_tablets(django_user_model)


def create_tablets(django_user_model: Any) -> Tablets:
    club = ClubFactory()
    organiser = django_user_model.objects.create_user("fault-organiser", password="x")
    club.organisers.add(organiser)
    event = make_event(club=club, players=TABLES * 4, deals=DEALS)
    plan = {}
    for table in event.round.tables.order_by("number"):
        _, code = services.issue_device_code(table=table)
        plan[f"Device {code}"] = [
            Submission(table.match.pk, n, summary_record(dealer=(n - 1) % 4, team0_points=50 + n))
            for n in range(1, DEALS + 1)
        ]
    _token, key = issue_api_token(user=organiser)
    return Tablets(event.tournament, f"Token {key}", plan)


@pytest.fixture
def workdir(tmp_path: Path) -> Path:
    return tmp_path


@pytest.fixture
def redis_server(workdir: Path) -> Iterator[RedisServer]:
    server = RedisServer(workdir)
    server.start()
    yield server
    server.kill()


@pytest.fixture
def recompute_delay() -> float:
    """Seconds each standings recompute sleeps before storing (a test hook of the task)."""
    return 0.0


@pytest.fixture
def env(transactional_db: Any, redis_server: RedisServer, recompute_delay: float) -> dict[str, str]:
    env = service_env(database_url=database_url_for_tests(), redis_url=redis_server.url)
    env["KLAMMERN_TEST_RECOMPUTE_DELAY"] = str(recompute_delay)
    return env


@pytest.fixture
def gunicorn(env: dict[str, str], workdir: Path, tablets: Tablets) -> Iterator[Gunicorn]:
    server = Gunicorn(env=env, workdir=workdir)
    server.start()
    yield server
    server.stop()


@pytest.fixture
def worker(env: dict[str, str], workdir: Path, tablets: Tablets) -> Iterator[CeleryWorker]:
    process = CeleryWorker(env={**env, "DJANGO_LOG_LEVEL": "INFO"}, workdir=workdir)
    process.start()
    yield process
    process.kill()
