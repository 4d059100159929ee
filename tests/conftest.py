"""Personas for API tests: an organiser of club A, an organiser of club B, a logged-in
stranger, an anonymous visitor, and the devices of tables 1 and 2 of a running round.

Background work in ordinary tests: Celery runs eagerly (even with ``REDIS_URL`` set),
the cache is a fresh local-memory cache, and the test clients (``tests/support/clients.py``)
run a request's ``transaction.on_commit`` callbacks when it returns, as a real commit
would; a test calling services directly wraps them in pytest-django's
``django_capture_on_commit_callbacks(execute=True)``. Tests marked ``worker`` (tests/tasks)
opt out of eager Celery and the private cache and run a real worker. With ``CI=true`` a
missing PostgreSQL or Redis fails the session at start instead of letting tests skip.
"""

from __future__ import annotations

import os
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from typing import Any

import pytest
from django.db.backends.postgresql.operations import DatabaseOperations as PostgresOperations

from games.models import HISTORY_DELETION_SETTING
from tests.factories import ClubFactory, PlayerFactory, UserFactory
from tests.support.clients import APIClient, Client
from tournaments.clubs.models import Club
from tournaments.draw import services as draw
from tournaments.events import services
from tournaments.events.models import Match, Round, Table, Tournament


@dataclass
class Event:
    """A running individual tournament of club A with round 1 published: 2 tables."""

    club: Club
    tournament: Tournament
    round: Round
    table1: Table
    table2: Table
    code1: str
    code2: str

    @property
    def match1(self) -> Match:
        return self.table1.match

    @property
    def match2(self) -> Match:
        return self.table2.match


def pytest_sessionstart(session: pytest.Session) -> None:
    """In CI, PostgreSQL and Redis are required: fail at once rather than skip."""
    if os.environ.get("CI", "").lower() != "true":
        return
    problems = []
    database_url = os.environ.get("DATABASE_URL", "")
    if not database_url.startswith(("postgres://", "postgresql://")):
        problems.append("DATABASE_URL must point to PostgreSQL in CI")
    else:
        try:
            import psycopg

            # The server's own database: the named one is created by the test run.
            psycopg.connect(database_url, dbname="postgres", connect_timeout=5).close()
        except Exception as error:  # noqa: BLE001 - any failure means "not reachable"
            problems.append(f"PostgreSQL is not reachable: {error}")
    redis_url = os.environ.get("REDIS_URL", "")
    if not redis_url:
        problems.append("REDIS_URL must be set in CI")
    else:
        try:
            import redis

            redis.Redis.from_url(redis_url, socket_connect_timeout=5).ping()
        except Exception as error:  # noqa: BLE001
            problems.append(f"Redis is not reachable: {error}")
    if problems:
        pytest.exit("CI needs its services: " + "; ".join(problems), returncode=1)


@pytest.fixture(autouse=True, scope="session")
def flush_lifts_the_history_guard() -> Iterator[None]:
    """Between transactional tests Django empties every table with ``TRUNCATE``, which
    the deal history's triggers refuse (games migration 0006) unless the transaction
    holds its own id in the history setting, as ``deleting_history`` does: the flush
    does the same first."""
    original = PostgresOperations.execute_sql_flush
    unlock = f"SELECT set_config('{HISTORY_DELETION_SETTING}', pg_current_xact_id()::text, true)"

    def flush(self: PostgresOperations, sql_list: list[str]) -> None:
        original(self, [unlock, *sql_list] if sql_list else sql_list)

    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(PostgresOperations, "execute_sql_flush", flush)
        yield


@pytest.fixture(autouse=True)
def fast_password_hashing(settings: Any) -> None:
    settings.PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]


@contextmanager
def eager_celery(settings: Any, *, cache: str) -> Iterator[None]:
    """Celery tasks run in-process and the cache is a private local-memory one named
    ``cache``: nothing reaches a broker or the machine's shared Redis."""
    from klammern_site.celery import app

    saved_caches = settings.CACHES
    settings.CACHES = {
        "default": {"BACKEND": "django.core.cache.backends.locmem.LocMemCache", "LOCATION": cache}
    }
    saved = app.conf.task_always_eager, app.conf.task_eager_propagates
    app.conf.task_always_eager = app.conf.task_eager_propagates = True
    try:
        yield
    finally:
        app.conf.task_always_eager, app.conf.task_eager_propagates = saved
        settings.CACHES = saved_caches


@pytest.fixture(autouse=True)
def eager_background_work(request: pytest.FixtureRequest, settings: Any) -> Iterator[None]:
    """Eager Celery and a private cache for every test not marked ``worker``."""
    if request.node.get_closest_marker("worker"):
        yield
        return
    with eager_celery(settings, cache=f"test-{id(request.node)}"):
        yield


@pytest.fixture(autouse=True)
def analysis_on_entry(request: pytest.FixtureRequest, settings: Any) -> None:
    """Entered deals are analysed at once only in tests marked ``analysis``: an eager
    par analysis costs about 0.25 s per full deal, and most tests enter deals for other
    reasons (``ANALYSE_DEALS_ON_ENTRY`` in settings.py)."""
    settings.ANALYSE_DEALS_ON_ENTRY = bool(request.node.get_closest_marker("analysis"))


@pytest.fixture
def client() -> Client:
    """pytest-django's ``client``, committing each request (``tests/support/clients.py``)."""
    return Client()


@pytest.fixture
def admin_client(admin_user: Any) -> Client:
    client = Client()
    client.force_login(admin_user)
    return client


@pytest.fixture
def club_a(db: Any) -> Club:
    return ClubFactory(name="KC Herzbube", slug="herzbube")


@pytest.fixture
def club_b(db: Any) -> Club:
    return ClubFactory(name="KC Schellen", slug="schellen")


@pytest.fixture
def organiser(club_a: Club) -> Any:
    user = UserFactory(username="organiser", is_staff=True)
    club_a.organisers.add(user)
    return user


@pytest.fixture
def other_organiser(club_b: Club) -> Any:
    user = UserFactory(username="other_organiser", is_staff=True)
    club_b.organisers.add(user)
    return user


@pytest.fixture
def stranger(db: Any) -> Any:
    return UserFactory(username="stranger")


def make_event(
    *, club: Club, players: int = 8, deals: int = 4, seed: int = 7, liga: bool = False
) -> Event:
    mode = Tournament.MatchMode.LIGA if liga else Tournament.MatchMode.DEALS
    tournament = services.create_tournament(
        club=club,
        name="Herbstturnier",
        slug=f"herbst-{seed}",
        deals_per_match=deals,
        match_mode=mode,
    )
    for _ in range(players):
        registration = services.register_player(tournament=tournament, player=PlayerFactory())
        services.check_in_registration(registration=registration)
    services.start_tournament(tournament=tournament)
    round_ = draw.draw_round(tournament=tournament, seed=seed)
    services.publish_round(round_=round_)
    tables = list(round_.tables.order_by("number"))
    _, code1 = services.issue_device_code(table=tables[0])
    _, code2 = services.issue_device_code(table=tables[1])
    return Event(club, tournament, round_, tables[0], tables[1], code1, code2)


@pytest.fixture
def event(club_a: Club, organiser: Any) -> Event:
    return make_event(club=club_a)


def client_for(user: Any = None, *, device_code: str | None = None) -> APIClient:
    client = APIClient()
    if user is not None:
        client.force_authenticate(user)
    if device_code is not None:
        client.credentials(HTTP_AUTHORIZATION=f"Device {device_code}")
    return client


@pytest.fixture
def anonymous() -> APIClient:
    return APIClient()


@pytest.fixture
def organiser_client(organiser: Any) -> APIClient:
    return client_for(organiser)


@pytest.fixture
def other_organiser_client(other_organiser: Any) -> APIClient:
    return client_for(other_organiser)


@pytest.fixture
def stranger_client(stranger: Any) -> APIClient:
    return client_for(stranger)


@pytest.fixture
def device(event: Event) -> APIClient:
    return client_for(device_code=event.code1)


@pytest.fixture
def other_device(event: Event) -> APIClient:
    return client_for(device_code=event.code2)


ROLES = ["organiser", "other_organiser", "stranger", "anonymous", "device", "other_device"]


@pytest.fixture
def clients(
    event: Event,
    organiser_client: APIClient,
    other_organiser_client: APIClient,
    stranger_client: APIClient,
    anonymous: APIClient,
    device: APIClient,
    other_device: APIClient,
) -> dict[str, APIClient]:
    """Every persona's client, keyed by role name, around the running ``event``."""
    return {
        "organiser": organiser_client,
        "other_organiser": other_organiser_client,
        "stranger": stranger_client,
        "anonymous": anonymous,
        "device": device,
        "other_device": other_device,
    }


def set_throttle_rates(
    monkeypatch: pytest.MonkeyPatch, *, default: str = "100/min", **rates: str
) -> None:
    """Every DRF throttle scope (anon, user, device, deals, signup) at ``default``, but
    those named (``anon="3/min"``): a test's own rates instead of the settings'."""
    from rest_framework.throttling import SimpleRateThrottle

    scopes = dict.fromkeys(("anon", "user", "device", "deals", "signup"), default)
    monkeypatch.setattr(SimpleRateThrottle, "THROTTLE_RATES", {**scopes, **rates})
