"""Cost bounds of the hot paths: SQL queries per accepted deal and per public standings
read, and the deal-entry answer built in memory being the same as the stored deal read
back. Bounds, not timings: they hold on any machine."""

from __future__ import annotations

import uuid
from typing import Any

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext

from games.models import Deal
from tests.conftest import Event, client_for, make_event
from tests.factories import summary_record
from tests.support.clients import APIClient
from tournaments.deals.serializers import DealSerializer
from tournaments.events import versions as results
from tournaments.events.models import Match
from tournaments.results import snapshots

pytestmark = pytest.mark.django_db

#: Statements that do work per accepted deal: device auth; the match locked with its
#: round's and tournament's status; deal and version with the match's played deals; both
#: version bumps; the idempotency record; + the match's status when it finishes.
MAX_STATEMENTS_PER_DEAL = 6
#: All queries: the statements and the request's BEGIN and COMMIT (here a savepoint and
#: its release, inside the test's transaction).
MAX_QUERIES_PER_DEAL = 8


def statements(queries: CaptureQueriesContext) -> list[str]:
    return [
        q["sql"]
        for q in queries.captured_queries
        if not q["sql"].startswith(("SAVEPOINT", "RELEASE SAVEPOINT"))
    ]


@pytest.fixture(autouse=True)
def recomputes_only_queued(monkeypatch: pytest.MonkeyPatch) -> None:
    """In production the recomputes run in the worker; eager Celery would count their
    queries as the request's."""
    monkeypatch.setattr(results, "_send_recompute", lambda task, owner_id: None)


def post(client: APIClient, match: Match, number: int, record: dict[str, Any]) -> Any:
    return client.post(
        f"/api/matches/{match.pk}/deals/{number}/",
        record,
        format="json",
        HTTP_IDEMPOTENCY_KEY=str(uuid.uuid4()),
    )


def test_queries_per_accepted_deal_are_bounded(event: Event, device: APIClient) -> None:
    match = event.match1
    counts = []
    for number in range(1, 5):
        with CaptureQueriesContext(connection) as queries:
            response = post(device, match, number, summary_record(dealer=number - 1))
        assert response.status_code == 201, response.content
        counts.append(len(queries))
        assert len(statements(queries)) <= MAX_STATEMENTS_PER_DEAL, statements(queries)

    assert max(counts) <= MAX_QUERIES_PER_DEAL, counts
    assert counts[0] == counts[1] == counts[2]  # independent of the deals before
    event.match1.refresh_from_db()
    assert event.match1.status == Match.Status.FINISHED


def test_a_deal_entry_is_at_most_eight_statements(
    event: Event, device: APIClient, django_assert_max_num_queries: Any
) -> None:
    """BEGIN and COMMIT included, also for the deal that finishes the match."""
    for number in range(1, 5):
        with django_assert_max_num_queries(MAX_QUERIES_PER_DEAL):
            response = post(device, event.match1, number, summary_record(dealer=number - 1))
        assert response.status_code == 201, response.content
    event.match1.refresh_from_db()
    assert event.match1.status == Match.Status.FINISHED
    assert Deal.objects.filter(match=event.match1).count() == 4


def test_queries_do_not_grow_with_the_match(club_a: Any, organiser: Any) -> None:
    event = make_event(club=club_a, deals=12, seed=3)
    device, match = client_for(device_code=event.code1), event.match1
    counts = []
    for number in range(1, 12):
        with CaptureQueriesContext(connection) as queries:
            assert (
                post(device, match, number, summary_record(dealer=(number - 1) % 4)).status_code
                == 201
            )
        counts.append(len(queries))
    assert len(set(counts)) == 1, counts


def test_entry_statements_are_prepared_on_postgresql(event: Event, device: APIClient) -> None:
    """With server-side binding psycopg prepares a statement once it ran
    ``prepare_threshold`` times on a connection, so PostgreSQL does not plan the deal
    entry's statements for every deal."""
    second = client_for(device_code=event.code2)
    for number in range(1, 5):
        assert (
            post(device, event.match1, number, summary_record(dealer=(number - 1) % 4)).status_code
            == 201
        )
        assert (
            post(second, event.match2, number, summary_record(dealer=(number - 1) % 4)).status_code
            == 201
        )
    if connection.vendor != "postgresql":  # SQLite: the ordinary cursor
        return
    with connection.cursor() as cursor:
        cursor.execute("SELECT statement FROM pg_prepared_statements")
        prepared = " ".join(row[0] for row in cursor.fetchall())
    for table in (
        "tournaments_devicecredential",
        "tournaments_match",
        "games_deal",
        "games_idempotencyrecord",
    ):
        assert table in prepared, table


def test_entry_answer_equals_the_stored_deal(event: Event, device: APIClient) -> None:
    for number in range(1, 5):
        response = post(device, event.match1, number, summary_record(dealer=number - 1))
        deal = Deal.objects.prefetch_related("versions").select_related("match")
        stored = DealSerializer(deal.get(match=event.match1, number=number)).data

        assert response.json() == stored


def test_correction_answer_equals_the_stored_deal(event: Event, device: APIClient) -> None:
    post(device, event.match1, 1, summary_record())
    response = device.put(
        f"/api/matches/{event.match1.pk}/deals/1/",
        summary_record(team0_points=100),
        format="json",
        HTTP_IDEMPOTENCY_KEY="c1",
        HTTP_IF_MATCH='"1"',
    )

    assert response.status_code == 200
    deal = Deal.objects.prefetch_related("versions").select_related("match")
    assert response.json() == DealSerializer(deal.get(match=event.match1, number=1)).data
    assert [v["version"] for v in response.json()["history"]] == [1, 2]


def test_the_results_versions_are_bumped_last(event: Event, device: APIClient) -> None:
    """An entry and a correction bump the results versions as their last statement, after
    the idempotency record: the tournament's row is locked only until the commit."""
    with CaptureQueriesContext(connection) as entry:
        assert post(device, event.match1, 1, summary_record()).status_code == 201
    with CaptureQueriesContext(connection) as correction:
        response = device.put(
            f"/api/matches/{event.match1.pk}/deals/1/",
            summary_record(team0_points=100),
            format="json",
            HTTP_IDEMPOTENCY_KEY=str(uuid.uuid4()),
            HTTP_IF_MATCH='"1"',
        )
    assert response.status_code == 200
    for queries in (entry, correction):
        written = statements(queries)
        assert "SET results_version = results_version + 1" in written[-1], written
        assert "idempotencyrecord" in written[-2].lower(), written


def test_liga_finishes_when_the_keeper_says_so(club_a: Any, organiser: Any) -> None:
    event = make_event(club=club_a, liga=True, seed=5)
    device = client_for(device_code=event.code1)
    number = 0
    while event.match1.status == Match.Status.OPEN:
        number += 1
        assert (
            post(device, event.match1, number, summary_record(dealer=(number - 1) % 4)).status_code
            == 201
        )
        event.match1.refresh_from_db()
    from games import engine
    from tournaments.deals.selectors import current_results

    state = engine.score_liga(current_results(event.match1), target=51)
    assert state.finished and number > 1
    assert (
        post(device, event.match1, number + 1, summary_record(dealer=number % 4)).status_code == 409
    )


def test_standings_reads_are_cheap(event: Event, anonymous: APIClient) -> None:
    snapshots.recompute_standings(tournament_id=event.tournament.pk)
    url = f"/api/tournaments/{event.tournament.pk}/standings/"
    first = anonymous.get(url)  # fills the cache
    with CaptureQueriesContext(connection) as queries:
        response = anonymous.get(url)

    assert response.status_code == 200 and response.json() == first.json()
    assert response.json()["up_to_date"] and response.json()["data"]["rows"]
    assert len(queries) == 1, [q["sql"] for q in queries.captured_queries]
    assert response["Cache-Control"] == "max-age=5, public, s-maxage=5"  # public_cache.py
    again = anonymous.get(url, HTTP_IF_NONE_MATCH=response["ETag"])
    assert again.status_code == 304


def test_standings_change_with_the_results(event: Event, anonymous: APIClient) -> None:
    snapshots.recompute_standings(tournament_id=event.tournament.pk)
    url = f"/api/tournaments/{event.tournament.pk}/standings/"
    before = anonymous.get(url)
    results.notify_results_changed(tournament_id=event.tournament.pk)

    after = anonymous.get(url, HTTP_IF_NONE_MATCH=before["ETag"])
    assert after.status_code == 200 and after["ETag"] != before["ETag"]
    assert after.json()["results_version"] == before.json()["results_version"] + 1
    assert not after.json()["up_to_date"]


def test_standings_table_partial_is_cached_per_version(event: Event, client: Any) -> None:
    snapshots.recompute_standings(tournament_id=event.tournament.pk)
    url = f"/tournaments/{event.tournament.pk}/standings/table/"
    first = client.get(url)
    with CaptureQueriesContext(connection) as queries:
        second = client.get(url)

    assert second.content == first.content and len(queries) == 1
    assert client.get(url, HTTP_IF_NONE_MATCH=second["ETag"]).status_code == 304


def test_standings_page_is_served_as_stored_until_a_new_snapshot(event: Event) -> None:
    """The page shows the stored snapshot (its results version in ``data-version``),
    rendered once per snapshot and language: a result entered changes it only once its
    recompute stored the new snapshot."""
    from django.test import Client

    snapshots.recompute_standings(tournament_id=event.tournament.pk)
    url = f"/tournaments/{event.tournament.pk}/standings/"
    before = Client().get(url).content.decode()
    with CaptureQueriesContext(connection) as queries:
        again = Client().get(url).content.decode()
    read = [q["sql"] for q in queries.captured_queries]  # before the next request clears them
    results.notify_results_changed(tournament_id=event.tournament.pk)  # not yet counted
    behind = Client().get(url).content.decode()
    snapshots.recompute_standings(tournament_id=event.tournament.pk)
    after = Client().get(url).content.decode()

    version = event.tournament.results_version
    assert again == before and len(read) == 1, read
    assert behind == before and f'data-version="{version}"' in behind
    assert f'data-version="{version + 1}"' in after


def test_the_credential_statement_loads_what_the_orm_loads(event: Event) -> None:
    """``find_usable_credential`` builds the credential, its table, round, tournament and
    match from one plain statement: each loaded field holds what the ORM reads."""
    from tournaments.access.authentication import LOADED_FIELDS, find_usable_credential
    from tournaments.events.models import DeviceCredential

    credential = find_usable_credential(event.code1)
    assert credential is not None
    table = credential.table
    loaded = {
        DeviceCredential: credential,
        type(table): table,
        type(table.round): table.round,
        type(table.round.tournament): table.round.tournament,
        Match: table.match,
    }
    with CaptureQueriesContext(connection) as queries:
        for model, instance in loaded.items():
            for name in LOADED_FIELDS[model]:
                attname = model._meta.get_field(name).attname  # type: ignore[union-attr]
                getattr(instance, attname)
    assert not queries.captured_queries  # nothing deferred was read
    for model, instance in loaded.items():
        fresh = model.objects.get(pk=instance.pk)
        for name in LOADED_FIELDS[model]:
            attname = model._meta.get_field(name).attname  # type: ignore[union-attr]
            assert getattr(instance, attname) == getattr(fresh, attname), (model, name)
    assert table.match.pk == event.match1.pk and table.pk == event.table1.pk
    assert find_usable_credential("ZZZZ-ZZZZ") is None
