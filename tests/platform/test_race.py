"""Many devices submitting at once against a live server, through real sockets and
threads: every deal ends up stored exactly once, none is lost or doubled."""

from __future__ import annotations

import json
import random
import urllib.error
import urllib.request
import uuid
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from typing import Any

import pytest

from games.models import Deal, DealVersion
from tests.conftest import make_event
from tests.factories import summary_record
from tournaments.clubs.services import issue_api_token
from tournaments.events import services
from tournaments.events.models import Match

TABLES, DEALS = 8, 8


@dataclass(frozen=True)
class Attempt:
    match_id: int
    number: int
    auth: str
    key: str
    record: dict[str, Any]


def send(base: str, attempt: Attempt) -> tuple[Attempt, int, dict[str, Any], bool]:
    request = urllib.request.Request(
        f"{base}/api/matches/{attempt.match_id}/deals/{attempt.number}/",
        data=json.dumps(attempt.record).encode(),
        method="POST",
        headers={
            "Content-Type": "application/json",
            "Authorization": attempt.auth,
            "Idempotency-Key": attempt.key,
        },
    )
    try:
        with urllib.request.urlopen(request, timeout=60) as response:
            replayed = response.headers.get("Idempotent-Replayed") == "true"
            return attempt, response.status, json.loads(response.read()), replayed
    except urllib.error.HTTPError as error:
        return attempt, error.code, json.loads(error.read()), False


def attempts_for(match: Match, device_auth: str, organiser_auth: str) -> list[Attempt]:
    """Per deal: the tablet sends twice with one key (a retry), and the organiser enters
    the same deal with another key and other numbers."""
    attempts = []
    for number in range(1, DEALS + 1):
        key = str(uuid.uuid4())
        mine = summary_record(dealer=(number - 1) % 4, team0_points=60 + number)
        theirs = summary_record(dealer=(number - 1) % 4, team0_points=100 + number)
        attempts += [
            Attempt(match.pk, number, device_auth, key, mine),
            Attempt(match.pk, number, device_auth, key, mine),
            Attempt(match.pk, number, organiser_auth, str(uuid.uuid4()), theirs),
        ]
    return attempts


@pytest.mark.slow
def test_concurrent_submissions_store_each_deal_once(
    live_server: Any, transactional_db: Any, django_user_model: Any
) -> None:
    from tests.factories import ClubFactory

    club = ClubFactory()
    organiser = django_user_model.objects.create_user("race-organiser", password="x")
    club.organisers.add(organiser)
    event = make_event(club=club, players=TABLES * 4, deals=DEALS)
    organiser_auth = f"Token {issue_api_token(user=organiser)[1]}"
    attempts: list[Attempt] = []
    for table in event.round.tables.order_by("number"):
        _, code = services.issue_device_code(table=table)
        attempts += attempts_for(table.match, f"Device {code}", organiser_auth)
    # deals are entered in order (one beyond the next is refused): every table's tries of
    # one deal race each other, in a random order, before the next deal's
    rng, outcomes = random.Random(1), []
    # ten at once: the listen queue of Django's live server (a burst beyond it is reset)
    with ThreadPoolExecutor(max_workers=10) as pool:
        for number in range(1, DEALS + 1):
            wave = [a for a in attempts if a.number == number]
            rng.shuffle(wave)
            outcomes += list(pool.map(lambda a: send(live_server.url, a), wave))

    assert {status for _, status, _, _ in outcomes} <= {201, 409}, outcomes[:3]
    fresh = [(a, body) for a, status, body, replayed in outcomes if status == 201 and not replayed]
    winners = {(a.match_id, a.number): (a, body) for a, body in fresh}
    assert len(fresh) == len(winners) == TABLES * DEALS  # one fresh 201 per deal
    assert Deal.objects.count() == TABLES * DEALS
    assert DealVersion.objects.count() == TABLES * DEALS
    for (match_id, number), (attempt, body) in winners.items():
        stored = DealVersion.objects.get(deal__match_id=match_id, deal__number=number)
        assert stored.is_current and stored.record == {**attempt.record, "rules": "klammern"}
        assert body["result"]["points"] == [stored.points_0, stored.points_1]
    for attempt, status, body, replayed in outcomes:
        if replayed:  # a retry got the very response of its first try
            assert body == winners[(attempt.match_id, attempt.number)][1]
        if status == 409:
            assert body["detail"] == f"Deal {attempt.number} of this table was already entered."
    assert Match.objects.filter(status=Match.Status.FINISHED).count() == TABLES
    event.tournament.refresh_from_db()
    assert event.tournament.results_version == TABLES * DEALS
