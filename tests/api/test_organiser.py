"""Organiser and public endpoints: every role against every endpoint, then the
behaviour of each command (status, body, database)."""

from __future__ import annotations

from typing import Any

import pytest

from tests.conftest import ROLES, Event
from tests.factories import PlayerFactory, RegistrationFactory, TournamentFactory
from tests.support.clients import APIClient
from tournaments.clubs.models import ClubMembership, Player
from tournaments.events.models import DeviceCredential, Match, Registration, Round, Tournament

pytestmark = pytest.mark.django_db

OK, CREATED, NO_CONTENT = 200, 201, 204
# role order: organiser, other_organiser, stranger, anonymous, device, other_device
PUBLIC_READ = [OK, OK, OK, OK, 403, 403]
ORGANISER_READ = [OK, 404, 404, 401, 403, 403]


def expect(statuses: list[int]) -> list[tuple[str, int]]:
    return list(zip(ROLES, statuses, strict=True))


def read_cases(event: Event) -> dict[str, tuple[str, list[int]]]:
    return {
        "clubs": ("/api/clubs/", PUBLIC_READ),
        "club": (f"/api/clubs/{event.club.pk}/", PUBLIC_READ),
        "tournaments": ("/api/tournaments/", PUBLIC_READ),
        "tournament": (f"/api/tournaments/{event.tournament.pk}/", PUBLIC_READ),
        "standings": (f"/api/tournaments/{event.tournament.pk}/standings/", PUBLIC_READ),
        "rounds": ("/api/rounds/", PUBLIC_READ),
        "round": (f"/api/rounds/{event.round.pk}/", PUBLIC_READ),
        "matches": ("/api/matches/", PUBLIC_READ),
        "match": (f"/api/matches/{event.match1.pk}/", PUBLIC_READ),
        "players": ("/api/players/", [OK, OK, OK, 401, 403, 403]),
        "registrations": ("/api/registrations/", [OK, OK, OK, 401, 403, 403]),
        "progress": (f"/api/rounds/{event.round.pk}/progress/", [OK, 403, 403, 403, 403, 403]),
        "table": (f"/api/tables/{event.table1.pk}/", ORGANISER_READ),
        "device": ("/api/device/", [403, 403, 403, 401, OK, OK]),
    }


READS = [
    "clubs",
    "club",
    "tournaments",
    "tournament",
    "standings",
    "rounds",
    "round",
    "matches",
    "match",
    "players",
    "registrations",
    "progress",
    "table",
    "device",
]


@pytest.mark.parametrize("name", READS)
def test_read_endpoints_per_role(event: Event, clients: dict[str, APIClient], name: str) -> None:
    path, statuses = read_cases(event)[name]
    for role, status in expect(statuses):
        response = clients[role].get(path)
        assert response.status_code == status, (name, role, response.content[:200])


def test_lists_scope_players_and_registrations_to_own_club(event: Event, clients: dict) -> None:
    own = clients["organiser"].get("/api/players/").json()
    other = clients["other_organiser"].get("/api/players/").json()
    regs = clients["organiser"].get(f"/api/registrations/?tournament={event.tournament.pk}")

    assert own["count"] == 8 and other["count"] == 0
    assert regs.json()["count"] == 8
    assert clients["stranger"].get("/api/registrations/").json()["count"] == 0


# --- writes, per role -----------------------------------------------------------------


def write_cases(event: Event) -> dict[str, tuple[str, dict[str, Any], list[int]]]:
    t, r = event.tournament.pk, event.round.pk
    player = PlayerFactory()
    ClubMembership.objects.create(club=event.club, player=player)
    registration = Registration.objects.filter(tournament=event.tournament).first()
    assert registration is not None
    denied = [403, 403, 401, 403, 403]
    return {
        "create_player": (
            "/api/players/",
            {"club": event.club.pk, "name": "Neu"},
            [CREATED, 403, 403, 401, 403, 403],
        ),
        "create_tournament": (
            "/api/tournaments/",
            {"club": event.club.pk, "name": "X", "slug": "x"},
            [CREATED, *denied],
        ),
        "register": (
            "/api/registrations/",
            {"tournament": t, "player": player.pk},
            [CREATED, *denied],
        ),
        "check_in": (
            f"/api/registrations/{registration.pk}/check-in/",
            {},
            [OK, 404, 404, 401, 403, 403],
        ),
        "withdraw": (
            f"/api/registrations/{registration.pk}/withdraw/",
            {},
            [OK, 404, 404, 401, 403, 403],
        ),
        "close_round": (f"/api/rounds/{r}/close/", {"force": True}, [OK, *denied]),
        "device_code": (
            f"/api/tables/{event.table1.pk}/device-credential/",
            {},
            [CREATED, 404, 404, 401, 403, 403],
        ),
        "revoke": (
            f"/api/tables/{event.table2.pk}/revoke/",
            {},
            [NO_CONTENT, 404, 404, 401, 403, 403],
        ),
        "start": (f"/api/tournaments/{t}/start/", {}, [409, *denied]),
        "draw_round": (f"/api/tournaments/{t}/rounds/", {}, [409, *denied]),
        "finish": (f"/api/tournaments/{t}/finish/", {}, [409, *denied]),
    }


WRITES = [
    "create_player",
    "create_tournament",
    "register",
    "check_in",
    "withdraw",
    "close_round",
    "device_code",
    "revoke",
    "start",
    "draw_round",
    "finish",
]


@pytest.mark.parametrize("name", WRITES)
@pytest.mark.parametrize("role", ROLES)
def test_write_endpoints_per_role(event: Event, clients: dict, name: str, role: str) -> None:
    path, data, statuses = write_cases(event)[name]
    expected = dict(expect(statuses))[role]
    before = (
        Player.objects.count(),
        Tournament.objects.count(),
        Registration.objects.count(),
        DeviceCredential.objects.count(),
    )

    response = clients[role].post(path, data, format="json")

    assert response.status_code == expected, response.content[:300]
    if expected >= 400:
        assert "detail" in response.json()
        after = (
            Player.objects.count(),
            Tournament.objects.count(),
            Registration.objects.count(),
            DeviceCredential.objects.count(),
        )
        assert after == before


@pytest.mark.parametrize(
    ("role", "expected"),
    expect([OK, 403, 403, 401, 403, 403]),
)
def test_update_tournament_per_role(event: Event, clients: dict, role: str, expected: int) -> None:
    response = clients[role].patch(
        f"/api/tournaments/{event.tournament.pk}/", {"name": "Neu"}, format="json"
    )
    assert response.status_code == expected
    event.tournament.refresh_from_db()
    assert (event.tournament.name == "Neu") == (expected == OK)


# --- behaviour ------------------------------------------------------------------------


def test_tournament_lifecycle(organiser_client: APIClient, club_a: Any) -> None:
    created = organiser_client.post(
        "/api/tournaments/",
        {"club": club_a.pk, "name": "Frühling", "slug": "fruehling", "deals_per_match": 2},
        format="json",
    )
    assert created.status_code == 201
    tid = created.json()["id"]
    assert created.json()["status"] == "draft" and not created.json()["rules_locked"]
    players = [PlayerFactory() for _ in range(9)]
    for p in players:
        ClubMembership.objects.create(club=club_a, player=p)
        r = organiser_client.post(
            "/api/registrations/", {"tournament": tid, "player": p.pk}, format="json"
        )
        assert r.status_code == 201 and r.json()["late"] is False
        organiser_client.post(f"/api/registrations/{r.json()['id']}/check-in/")

    started = organiser_client.post(f"/api/tournaments/{tid}/start/")
    assert started.status_code == 200 and started.json()["rules_locked"] is True
    locked = organiser_client.patch(
        f"/api/tournaments/{tid}/", {"deals_per_match": 8}, format="json"
    )
    assert locked.status_code == 409 and "deals_per_match" in locked.json()["detail"]
    assert Tournament.objects.get(pk=tid).deals_per_match == 2

    drawn = organiser_client.post(f"/api/tournaments/{tid}/rounds/", {"seed": 3}, format="json")
    assert drawn.status_code == 202 and drawn.json()["status"] == "drawing"  # queued at commit
    body = organiser_client.get(f"/api/rounds/{drawn.json()['id']}/").json()  # eager: done
    assert body["status"] == "draft" and len(body["tables"]) == 2 and len(body["byes"]) == 1
    assert body["cost"]["repeated_partners"] == 0 and body["cost"]["kind"] == "individual"
    seated = {s["player"] for t in body["tables"] for s in t["seats"]} | {body["byes"][0]["player"]}
    assert seated == {p.pk for p in players}
    rid = body["id"]
    assert organiser_client.post(f"/api/tournaments/{tid}/rounds/").status_code == 409

    redrawn = organiser_client.post(f"/api/rounds/{rid}/redraw/")
    assert redrawn.status_code == 202 and redrawn.json()["attempt"] == 2
    assert redrawn.json()["status"] == "drawing"
    assert organiser_client.get(f"/api/rounds/{rid}/").json()["status"] == "draft"
    assert organiser_client.post(f"/api/rounds/{rid}/publish/").json()["status"] == "published"

    late = PlayerFactory()
    late.clubs.add(club_a)  # an organiser registers players of their own clubs only
    r = organiser_client.post(
        "/api/registrations/", {"tournament": tid, "player": late.pk}, format="json"
    )
    assert r.json()["late"] is True

    blocked = organiser_client.post(f"/api/rounds/{rid}/close/", {}, format="json")
    assert blocked.status_code == 409 and blocked.json()["code"] == "tables_unfinished"
    assert "not finished: 1, 2" in blocked.json()["detail"]
    closed = organiser_client.post(f"/api/rounds/{rid}/close/", {"force": True}, format="json")
    assert closed.status_code == 200 and closed.json()["status"] == "closed"
    assert Round.objects.get(pk=rid).closed_at is not None
    assert organiser_client.post(f"/api/tournaments/{tid}/finish/").json()["status"] == "finished"


def test_withdrawn_player_is_not_drawn(organiser_client: APIClient, club_a: Any) -> None:
    tournament = TournamentFactory(
        club=club_a, status="running", rules_locked=True, locked_at="2026-01-01T00:00Z"
    )
    regs = [RegistrationFactory(tournament=tournament) for _ in range(5)]
    organiser_client.post(f"/api/registrations/{regs[0].pk}/withdraw/")

    drawn = organiser_client.post(f"/api/tournaments/{tournament.pk}/rounds/").json()
    body = organiser_client.get(f"/api/rounds/{drawn['id']}/").json()

    seated = {s["player"] for s in body["tables"][0]["seats"]}
    assert regs[0].player_id not in seated and body["byes"] == []
    assert Registration.objects.get(pk=regs[0].pk).status == "withdrawn"


def test_device_code_issue_and_revoke(event: Event, organiser_client: APIClient) -> None:
    response = organiser_client.post(f"/api/tables/{event.table1.pk}/device-credential/")

    body = response.json()
    assert len(body["code"]) == 8 and body["url"].endswith(f"/t/{body['code']}/")
    assert body["qr_svg"].startswith("<svg") or "<svg" in body["qr_svg"]
    assert not DeviceCredential.objects.filter(code_hash__contains=body["code"]).exists()
    old = APIClient()
    old.credentials(HTTP_AUTHORIZATION=f"Device {event.code1}")
    assert old.get("/api/device/").status_code == 401
    new = APIClient()
    new.credentials(HTTP_AUTHORIZATION=f"Device {body['code']}")
    assert new.get("/api/device/").json()["table_number"] == 1

    organiser_client.post(f"/api/tables/{event.table1.pk}/revoke/")
    assert new.get("/api/device/").status_code == 401


def test_device_sees_own_table(event: Event, device: APIClient) -> None:
    body = device.get("/api/device/").json()

    assert body["id"] == event.match1.pk and body["table_number"] == 1
    assert [s["position"] for s in body["seats"]] == [0, 1, 2, 3]
    assert body["round_status"] == "published" and body["deals"] == []


def test_round_progress(event: Event, device: APIClient, organiser_client: APIClient) -> None:
    device.post(
        f"/api/matches/{event.match1.pk}/deals/1/",
        {
            "format": "klammern-deal/1",
            "dealer": 0,
            "upcard": "7H",
            "contract": {"kind": "orgi", "declarer": 1, "trump": "H"},
            "card_points": [64, 100],
        },
        format="json",
        HTTP_IDEMPOTENCY_KEY="p1",
    )

    rows = organiser_client.get(f"/api/rounds/{event.round.pk}/progress/").json()

    assert [r["table"] for r in rows] == [1, 2]
    assert rows[0]["deals_entered"] == 1 and rows[0]["deals_expected"] == 4
    assert rows[0]["match_points"] == [6, 10] and rows[0]["device_active"] is True
    assert rows[1]["deals_entered"] == 0 and rows[1]["status"] == "open"


def test_public_filters_hide_private_and_drafts(
    event: Event, anonymous: APIClient, organiser_client: APIClient
) -> None:
    hidden = TournamentFactory(club=event.club, is_public=False, name="Intern")

    public = anonymous.get("/api/tournaments/").json()
    mine = organiser_client.get("/api/tournaments/?status=draft").json()
    by_club = anonymous.get(f"/api/tournaments/?club_slug={event.club.slug}&format=individual")

    assert [t["id"] for t in public["results"]] == [event.tournament.pk]
    assert [t["id"] for t in mine["results"]] == [hidden.pk]
    assert by_club.json()["count"] == 1
    assert anonymous.get(f"/api/tournaments/{hidden.pk}/").status_code == 404
    assert anonymous.get("/api/tournaments/?status=finished").json()["count"] == 0


def test_public_seating_and_results(event: Event, anonymous: APIClient) -> None:
    rounds = anonymous.get(f"/api/rounds/?tournament={event.tournament.pk}").json()
    matches = anonymous.get(f"/api/matches/?tournament={event.tournament.pk}&table=2").json()

    assert rounds["count"] == 1 and len(rounds["results"][0]["tables"]) == 2
    assert matches["count"] == 1 and matches["results"][0]["id"] == event.match2.pk
    assert matches["results"][0]["totals"]["points"] == [0, 0]


def test_draft_round_hidden_from_public(
    event: Event, anonymous: APIClient, organiser_client: APIClient
) -> None:
    Round.objects.filter(pk=event.round.pk).update(status=Round.Status.DRAFT)

    assert anonymous.get("/api/rounds/").json()["count"] == 0
    assert anonymous.get("/api/matches/").json()["count"] == 0
    assert organiser_client.get("/api/rounds/").json()["count"] == 1


def test_pagination(event: Event, anonymous: APIClient) -> None:
    for i in range(3):
        TournamentFactory(club=event.club, name=f"T{i}")
    page = anonymous.get("/api/tournaments/?page_size=2").json()
    assert page["count"] == 4 and len(page["results"]) == 2 and page["next"]


def test_standings_before_computation(event: Event, anonymous: APIClient) -> None:
    url = f"/api/tournaments/{event.tournament.pk}/standings/"
    body = anonymous.get(url, HTTP_ACCEPT_LANGUAGE="en").json()
    assert body["computed_version"] is None and body["up_to_date"] is False
    assert body["detail"] == "Standings have not been computed yet."
    german = anonymous.get(url, HTTP_ACCEPT_LANGUAGE="de")
    assert german.json()["detail"] == "Die Rangliste ist noch nicht berechnet."
    assert german["ETag"] != anonymous.get(url, HTTP_ACCEPT_LANGUAGE="en")["ETag"]


def test_token_auth(organiser: Any, club_a: Any) -> None:
    organiser.set_password("secret-pw")
    organiser.save()
    client = APIClient()
    token = client.post(
        "/api/auth/token/", {"username": "organiser", "password": "secret-pw"}, format="json"
    ).json()["token"]
    client.credentials(HTTP_AUTHORIZATION=f"Token {token}")
    response = client.post(
        "/api/tournaments/", {"club": club_a.pk, "name": "T", "slug": "t"}, format="json"
    )
    assert response.status_code == 201


def test_schema_and_docs(anonymous: APIClient) -> None:
    schema = anonymous.get("/api/schema/")
    assert schema.status_code == 200
    assert b"/api/matches/{match_id}/deals/{number}/" in schema.content
    assert anonymous.get("/api/docs/").status_code == 200


def test_match_status_is_exposed(event: Event, anonymous: APIClient) -> None:
    Match.objects.filter(pk=event.match1.pk).update(status="finished")
    body = anonymous.get("/api/matches/?status=finished").json()
    assert [m["id"] for m in body["results"]] == [event.match1.pk]


@pytest.mark.parametrize(
    ("role", "expected"),
    expect([OK, 404, 404, 401, 403, 403]),
)
def test_update_player_per_role(event: Event, clients: dict, role: str, expected: int) -> None:
    player = event.table1.seats.first().player
    response = clients[role].patch(
        f"/api/players/{player.pk}/", {"household": "Hof"}, format="json"
    )
    assert response.status_code == expected
    player.refresh_from_db()
    assert (player.household == "Hof") == (expected == OK)


@pytest.mark.parametrize("command", ["redraw", "publish"])
@pytest.mark.parametrize(
    ("role", "expected"),
    # a draft round is invisible to other users (404); the devices of the closed round 1
    # may still send its late deals, nothing else (403)
    expect([OK, 404, 404, 401, 403, 403]),
)
def test_draft_round_commands_per_role(
    event: Event, clients: dict, organiser_client: APIClient, command: str, role: str, expected: int
) -> None:
    organiser_client.post(f"/api/rounds/{event.round.pk}/close/", {"force": True}, format="json")
    draft = organiser_client.post(f"/api/tournaments/{event.tournament.pk}/rounds/").json()

    response = clients[role].post(f"/api/rounds/{draft['id']}/{command}/")

    accepted = 202 if command == "redraw" and expected == OK else expected  # async draw
    assert response.status_code == accepted
    round_ = Round.objects.get(pk=draft["id"])
    changed = round_.attempt == 2 if command == "redraw" else round_.status == "published"
    assert changed == (expected == OK)
