"""Every write of the API (each POST, PUT, PATCH and DELETE operation of its OpenAPI
schema) answers a body its parser refuses the same way, whether or not it takes a body:
broken JSON and bytes that are not UTF-8 are 400 ``parse_error``, ``text/plain`` and forms
are 415 ``unsupported_media_type``, and nothing is written to the database. Before, an
action that takes no body (``invitations``, ``check-in``, ``confirm-roster``, ...) was
performed for any body (issue 35: ten invitations made by garbage). An empty body, or
``{}``, still performs it."""

from __future__ import annotations

import re
from typing import Any

import pytest
from django.contrib.auth import get_user_model
from django.db import connection
from django.urls import URLResolver, get_resolver
from rest_framework.views import APIView

from klammern_site.parsers import ParsedBody
from tests.conftest import Event
from tests.leagues.conftest import LeagueWorld, world  # noqa: F401 - the league fixture
from tests.support.clients import APIClient
from tournaments.clubs.models import OrganiserInvitation
from tournaments.events.models import Registration

pytestmark = pytest.mark.django_db

WRITES = ("post", "put", "patch", "delete")
#: (content type, body, status, code): what the parser refuses, and how.
REFUSED_BODIES = [
    ("application/json", b'{"name": "Wintercup', 400, "parse_error"),
    ("application/json", b'{"name": "Winter\xff\xfecup"}', 400, "parse_error"),
    ("text/plain", b"check me in", 415, "unsupported_media_type"),
    ("application/x-www-form-urlencoded", b"name=Wintercup", 415, "unsupported_media_type"),
]


def writes_so_far() -> int:
    """Rows inserted, updated or deleted in this test's transaction so far."""
    with connection.cursor() as cursor:
        cursor.execute(
            "SELECT coalesce(sum(n_tup_ins + n_tup_upd + n_tup_del), 0) "
            "FROM pg_stat_xact_user_tables"
        )
        return int(cursor.fetchone()[0])


def schema_writes(client: APIClient) -> list[tuple[str, str, list[str]]]:
    schema = client.get("/api/schema/", HTTP_ACCEPT="application/vnd.oai.openapi+json").json()
    return [
        (method, path, operation["x-permissions"])
        for path, operations in schema["paths"].items()
        for method, operation in operations.items()
        if method in WRITES
    ]


def path_ids(event: Event, league: LeagueWorld) -> dict[str, int]:
    """An existing row for the first id of each path (the action could be performed)."""
    registration = Registration.objects.filter(tournament=event.tournament).first()
    assert registration is not None
    return {
        "clubs": event.club.pk,
        "tournaments": event.tournament.pk,
        "registrations": registration.pk,
        "rounds": event.round.pk,
        "tables": event.table1.pk,
        "matches": event.match1.pk,
        "players": registration.player_id,
        "leagues": league.league.pk,
        "divisions": league.division.pk,
        "league-teams": league.team_a.pk,
        "match-days": league.first_day.pk,
    }


def concrete(path: str, ids: dict[str, int]) -> str:
    first = path.split("/")[2]
    path = re.sub(r"\{(id|match_id)\}", str(ids.get(first, 1)), path, count=1)
    return re.sub(r"\{\w+\}", "1", path)


def test_every_write_refuses_what_the_parser_refuses(
    event: Event,
    world: LeagueWorld,  # noqa: F811
    anonymous: APIClient,
) -> None:
    boss = APIClient()
    boss.force_authenticate(get_user_model().objects.create_superuser("boss", "b@example.org"))
    ids = path_ids(event, world)
    operations = schema_writes(anonymous)
    assert len(operations) > 60
    bodyless = {"/api/clubs/{id}/invitations/", "/api/registrations/{id}/check-in/"}
    assert bodyless <= {path for _method, path, _who in operations}
    for method, path, callers in operations:
        client = anonymous if callers == ["anonymous"] else boss
        url = concrete(path, ids)
        for content_type, body, status, code in REFUSED_BODIES:
            before = writes_so_far()
            response = getattr(client, method)(url, body, content_type=content_type)
            label = f"{method.upper()} {url} with {content_type} {body!r}"
            assert response.status_code == status, (label, response.content)
            assert response.json()["code"] == code, (label, response.content)
            assert writes_so_far() == before, label


def test_garbage_makes_no_invitation_and_no_body_makes_one(event: Event) -> None:
    boss = APIClient()
    boss.force_authenticate(get_user_model().objects.create_superuser("boss", "b@example.org"))
    url = f"/api/clubs/{event.club.pk}/invitations/"
    for content_type, body, status, _code in REFUSED_BODIES:
        assert boss.post(url, body, content_type=content_type).status_code == status
    assert not OrganiserInvitation.objects.exists()
    assert boss.post(url).status_code == 201  # no body at all
    assert boss.post(url, b"", content_type="text/plain").status_code == 201  # an empty one
    assert boss.post(url, {}, format="json").status_code == 201
    assert OrganiserInvitation.objects.count() == 3


def test_a_check_in_with_a_form_is_refused(event: Event) -> None:
    registration = Registration.objects.filter(tournament=event.tournament).first()
    assert registration is not None
    boss = APIClient()
    boss.force_authenticate(get_user_model().objects.create_superuser("boss", "b@example.org"))
    url = f"/api/registrations/{registration.pk}/check-in/"
    refused = boss.post(url, b"checked_in=1", content_type="application/x-www-form-urlencoded")
    assert refused.status_code == 415
    assert boss.post(url, {}, format="json").status_code == 200


def test_every_view_of_the_api_parses_the_body_of_its_writes() -> None:
    """A new view without ``ParsedBody`` would perform a body-less action for any body."""
    views: set[type[Any]] = set()
    pending = list(get_resolver().url_patterns)
    while pending:
        pattern = pending.pop()
        if isinstance(pattern, URLResolver):
            pending.extend(pattern.url_patterns)
        elif (cls := getattr(pattern.callback, "cls", None)) and issubclass(cls, APIView):
            views.add(cls)
    ours = {cls for cls in views if cls.__module__.startswith(("tournaments.", "games."))}
    assert len(ours) > 30
    assert sorted(cls.__name__ for cls in ours if not issubclass(cls, ParsedBody)) == []
