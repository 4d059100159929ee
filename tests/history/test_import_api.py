"""The history import through the API and its services: preview writes nothing, confirm
writes exactly the preview in one transaction, the club tables count the imported
evenings as played ones (hand-computed), removal restores them, only the club's
organisers may do any of it, and hostile files are refused with nothing written."""

from __future__ import annotations

from collections import defaultdict
from pathlib import Path
from typing import Any

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile
from django.utils import timezone

from tests.conftest import Event
from tests.factories import MembershipFactory, PlayerFactory, TournamentFactory
from tests.history.files import HEADER, csv_bytes, xlsx_bomb, xlsx_bytes, xlsx_huge_dimension
from tests.history.played import finish_with_one_game
from tests.support.clients import APIClient
from tournaments.clubs.models import Club, ClubMembership, Player
from tournaments.history import services
from tournaments.history.models import HistoryImport, ImportedEvening, ImportedResult
from tournaments.results import snapshots

pytestmark = pytest.mark.django_db

DOCS = Path(__file__).resolve().parents[2] / "docs"
SMALL = [
    HEADER,
    ["2025-01-10", "Anna", "Maier", "member", 2, 2, 80, 1],
    ["2025-01-10", "Bernd", "Maier", "member", 2, 1, 10, 2],
    ["2025-01-10", "Carla", "", "guest", 2, 1, -10, 3],
    ["2025-01-10", "Dora", "", "member", 2, 0, -80, 4],
    ["2025-01-17", "Anna", "", "", 1, 0, -30, 2],
    ["2025-01-17", "Carla", "", "", 1, 1, 30, 1],
    ["2025-01-24", "Bernd", "", "", 3, 3, 150, 1],
    ["2025-01-24", "Carla", "", "", 3, 0, -150, 2],
]


def preview_url(club: Club) -> str:
    return f"/api/clubs/{club.pk}/history-imports/preview/"


def imports_url(club: Club) -> str:
    return f"/api/clubs/{club.pk}/history-imports/"


def upload(
    client: APIClient, club: Club, data: bytes, name: str = "history.csv", **extra: Any
) -> Any:
    body = {"file": SimpleUploadedFile(name, data), **extra}
    return client.post(preview_url(club), body, format="multipart")


def nothing_written(club: Club, players: int) -> None:
    assert not ImportedEvening.objects.filter(club=club).exists()
    assert not HistoryImport.objects.filter(club=club).exists()
    assert Player.objects.filter(clubs=club).count() == players


def tables(club: Club) -> dict[str, Any]:
    data = snapshots.compute_club_leaderboards(club_id=club.pk)
    return {"all_time": data["all_time"], "boss": data["boss"]}


def test_preview_shows_the_plan_and_writes_nothing(
    organiser_client: APIClient, club_a: Club
) -> None:
    response = upload(organiser_client, club_a, (DOCS / "history-sample.csv").read_bytes())
    assert response.status_code == 200, response.content
    body = response.json()
    assert len(body["players"]) == 8
    assert {"name": "Gitte Wolf", "household": "", "status": "guest"} in body["players"]
    assert [e["date"] for e in body["evenings"]] == ["2025-09-05", "2025-09-12", "2025-09-19"]
    assert body["seasons"] == ["2025/26"]
    assert [(r["code"], r["line"], r["value"]) for r in body["refusals"]] == [
        ("bad_date", 10, "31.02.2025")
    ]
    assert "31.02.2025" in body["refusals"][0]["detail"]
    nothing_written(club_a, 0)


def test_confirm_imports_what_the_preview_showed(organiser_client: APIClient, club_a: Club) -> None:
    token = upload(organiser_client, club_a, xlsx_bytes(SMALL), "h.xlsx").json()["token"]
    response = organiser_client.post(imports_url(club_a), {"token": token}, format="json")
    assert response.status_code == 201, response.content
    assert response.json()["evenings"] == ["2025-01-10", "2025-01-17", "2025-01-24"]
    kinds = dict(ClubMembership.objects.filter(club=club_a).values_list("player__name", "kind"))
    assert kinds == {"Anna": "member", "Bernd": "member", "Carla": "guest", "Dora": "member"}
    assert Player.objects.get(name="Anna").household == "Maier"
    assert ImportedResult.objects.filter(evening__club=club_a).count() == 8
    # by hand: Anna 3 played 2 won +50; Bernd 5/4/+160; Carla 6/2/-130; Dora 2/0/-80
    ids = dict(Player.objects.values_list("name", "pk"))
    data = tables(club_a)
    assert [
        (r["name"], r["rank"], r["played"], r["won"], r["point_difference"])
        for r in data["all_time"]
    ] == [
        ("Bernd", 1, 5, 4, 160),
        ("Anna", 2, 3, 2, 50),
        ("Carla", 3, 6, 2, -130),
        ("Dora", 4, 2, 0, -80),
    ]
    # window 3 (all three): the same order as the all-time table; titles per evening:
    # after 10 Jan Anna (2 won); 17 Jan Anna and Carla 2 won, Anna +50 vs Carla +20 ->
    # Anna; 24 Jan Bernd 4 won.
    boss = data["boss"]
    assert boss["current"] == ids["Bernd"]
    assert [(e["boss"], e["tournament_name"]) for e in boss["history"]] == [
        (ids["Anna"], "2025-01-10"),
        (ids["Anna"], "2025-01-17"),
        (ids["Bernd"], "2025-01-24"),
    ]
    assert boss["history"][1]["decided_by"] == "point_difference"


def test_imported_evenings_count_beside_a_played_one(
    organiser_client: APIClient, club_a: Club, event: Event
) -> None:
    """A played, finished evening after the imported ones: the all-time table adds both."""
    played = finish_with_one_game(event)
    before = {r["player"]: r for r in tables(club_a)["all_time"]}
    anna = event.round.tables.get(number=1).seats.get(position=0).player
    rows = [HEADER, ["2025-01-10", anna.name, "", "", 4, 3, 77, None]]
    token = upload(organiser_client, club_a, csv_bytes(rows)).json()["token"]
    assert organiser_client.post(imports_url(club_a), {"token": token}).status_code == 201
    after = {r["player"]: r for r in tables(club_a)["all_time"]}
    old = before[anna.pk]
    assert (
        after[anna.pk]["played"],
        after[anna.pk]["won"],
        after[anna.pk]["point_difference"],
    ) == (
        old["played"] + 4,
        old["won"] + 3,
        old["point_difference"] + 77,
    )
    history = tables(club_a)["boss"]["history"]
    assert [h["evening"] for h in history][-1] == played.pk  # played after 2025-01-10
    assert history[0]["tournament_name"] == "2025-01-10"


def test_a_confirm_after_the_club_changed_writes_nothing(
    organiser_client: APIClient, club_a: Club
) -> None:
    first = upload(organiser_client, club_a, csv_bytes(SMALL)).json()["token"]
    second = upload(organiser_client, club_a, csv_bytes(SMALL)).json()["token"]
    assert organiser_client.post(imports_url(club_a), {"token": first}).status_code == 201
    counts = (ImportedEvening.objects.count(), Player.objects.count())
    response = organiser_client.post(imports_url(club_a), {"token": second}, format="json")
    assert response.status_code == 409 and response.json()["code"] == "preview_outdated"
    assert (ImportedEvening.objects.count(), Player.objects.count()) == counts
    again = organiser_client.post(imports_url(club_a), {"token": first}, format="json")
    assert again.status_code == 404 and again.json()["code"] == "preview_not_found"


def test_a_failure_in_the_middle_writes_nothing(
    organiser: Any, club_a: Club, monkeypatch: pytest.MonkeyPatch
) -> None:
    preview = services.preview_import(
        club=club_a, user=organiser, data=csv_bytes(SMALL), file_name="h.csv"
    )
    real = services._create_evening
    calls = []

    def fail_on_the_third(**kwargs: Any) -> None:
        calls.append(kwargs["evening"].date)
        if len(calls) == 3:
            raise RuntimeError("disk full")
        real(**kwargs)

    monkeypatch.setattr(services, "_create_evening", fail_on_the_third)
    with pytest.raises(RuntimeError):
        services.confirm_import(club=club_a, user=organiser, token=preview.token)
    assert len(calls) == 3
    nothing_written(club_a, 0)


def test_nothing_to_import_is_refused(organiser_client: APIClient, club_a: Club) -> None:
    rows = [HEADER, ["31.02.2025", "Anna", "", "", 1, 1, 1, None]]
    token = upload(organiser_client, club_a, csv_bytes(rows)).json()["token"]
    response = organiser_client.post(imports_url(club_a), {"token": token}, format="json")
    assert response.status_code == 400 and response.json()["code"] == "nothing_to_import"
    nothing_written(club_a, 0)


def test_unknown_players_without_creating_them(organiser_client: APIClient, club_a: Club) -> None:
    MembershipFactory(club=club_a, player=PlayerFactory(name="Anna"))
    body = upload(organiser_client, club_a, csv_bytes(SMALL), create_players="false").json()
    assert {r["code"] for r in body["refusals"]} == {"unknown_player"}
    assert body["players"] == [] and body["matched_players"] == ["Anna"]
    assert [e["date"] for e in body["evenings"]] == ["2025-01-10", "2025-01-17"]


def test_an_evening_on_a_day_the_club_played_is_a_duplicate(
    organiser_client: APIClient, club_a: Club
) -> None:
    TournamentFactory(club=club_a)
    today = timezone.localdate().isoformat()
    rows = [
        HEADER,
        [today, "Anna", "", "", 1, 1, 5, None],
        ["2025-01-03", "Anna", "", "", 1, 0, -5, None],
    ]
    body = upload(organiser_client, club_a, csv_bytes(rows)).json()
    assert [(r["code"], r["line"]) for r in body["refusals"]] == [("duplicate_evening", 2)]


def test_removal_restores_the_previous_tables(
    organiser_client: APIClient, club_a: Club, event: Event
) -> None:
    finish_with_one_game(event)
    before = tables(club_a)
    players = set(Player.objects.values_list("pk", flat=True))
    token = upload(organiser_client, club_a, csv_bytes(SMALL)).json()["token"]
    created = organiser_client.post(imports_url(club_a), {"token": token}).json()
    assert tables(club_a) != before
    listed = organiser_client.get(imports_url(club_a)).json()
    assert [i["id"] for i in listed] == [created["id"]]
    response = organiser_client.delete(f"{imports_url(club_a)}{created['id']}/")
    assert response.status_code == 204
    assert tables(club_a) == before
    assert set(Player.objects.values_list("pk", flat=True)) == players
    assert organiser_client.get(imports_url(club_a)).json() == []


def test_removal_keeps_a_created_player_who_played_since(organiser: Any, club_a: Club) -> None:
    preview = services.preview_import(
        club=club_a, user=organiser, data=csv_bytes(SMALL), file_name="h.csv"
    )
    batch = services.confirm_import(club=club_a, user=organiser, token=preview.token)
    dora = Player.objects.get(name="Dora")
    TournamentFactory(club=club_a).registrations.create(player=dora)
    services.remove_import(club=club_a, import_id=batch.pk)
    assert list(Player.objects.filter(clubs=club_a).values_list("name", flat=True)) == ["Dora"]


@pytest.mark.parametrize("role", ["other_organiser", "stranger", "anonymous"])
def test_only_the_clubs_organisers(
    role: str, request: pytest.FixtureRequest, organiser_client: APIClient, club_a: Club
) -> None:
    token = upload(organiser_client, club_a, csv_bytes(SMALL)).json()["token"]
    client: APIClient = request.getfixturevalue(f"{role}_client" if role != "anonymous" else role)
    expected = 401 if role == "anonymous" else 403
    assert upload(client, club_a, csv_bytes(SMALL)).status_code == expected
    assert client.post(imports_url(club_a), {"token": token}, format="json").status_code == expected
    assert client.get(imports_url(club_a)).status_code == expected
    nothing_written(club_a, 0)
    batch = services.confirm_import(club=club_a, user=club_a.organisers.get(), token=token)
    assert client.delete(f"{imports_url(club_a)}{batch.pk}/").status_code == expected
    assert HistoryImport.objects.filter(pk=batch.pk).exists()


def test_a_device_and_foreign_ids(
    organiser_client: APIClient,
    other_organiser_client: APIClient,
    device: APIClient,
    club_a: Club,
    club_b: Club,
) -> None:
    assert upload(device, club_a, csv_bytes(SMALL)).status_code == 403
    token = upload(organiser_client, club_a, csv_bytes(SMALL)).json()["token"]
    # another club's organiser cannot confirm club A's preview through their own club
    stolen = other_organiser_client.post(imports_url(club_b), {"token": token}, format="json")
    assert stolen.status_code == 404 and stolen.json()["code"] == "preview_not_found"
    batch = organiser_client.post(imports_url(club_a), {"token": token}).json()
    assert other_organiser_client.delete(f"{imports_url(club_b)}{batch['id']}/").status_code == 404
    assert organiser_client.get("/api/clubs/987654/history-imports/").status_code == 404
    assert HistoryImport.objects.filter(pk=batch["id"]).exists()


HOSTILE = [
    (
        "rows.csv",
        csv_bytes([HEADER] + [["2025-01-10", "A", "", "", 1, 0, 0, None]] * 50_000),
        "too_many_rows",
    ),
    (
        "f.xlsx",
        xlsx_bytes([HEADER, ["2025-01-10", "A", "", "", 1, "=SUM(1,2)", 0, 1]]),
        "formula_cell",
    ),
    ("w.csv", "Datum,Spieler\n2025-01-10,Jürgen\n".encode("cp1252"), "wrong_encoding"),
    ("b.csv", bytes(range(256)) * 40, "binary_file"),
    ("e.csv", b"", "empty_file"),
    ("d.xlsx", xlsx_huge_dimension(SMALL), "too_many_rows"),
    ("z.xlsx", xlsx_bomb(SMALL), "file_too_large"),
    ("big.csv", b"date,player\n" + b"x" * 2_010_000, "file_too_large"),
    ("c.csv", csv_bytes([["when", "who"]]), "wrong_columns"),
]


@pytest.mark.parametrize(
    ("name", "data", "code"), HOSTILE, ids=[h[2] + "-" + h[0] for h in HOSTILE]
)
def test_hostile_files_are_refused_and_write_nothing(
    organiser_client: APIClient, club_a: Club, name: str, data: bytes, code: str
) -> None:
    response = upload(organiser_client, club_a, data, name)
    assert response.status_code == 400, response.content
    assert response.json()["code"] == code and response.json()["detail"]
    nothing_written(club_a, 0)


def test_a_body_over_the_uploads_limit_is_not_read(
    organiser_client: APIClient, club_a: Club
) -> None:
    response = upload(organiser_client, club_a, b"date,player\n" + b"x" * 3_000_000)
    assert response.status_code == 413 and response.json()["code"] == "body_too_large"
    nothing_written(club_a, 0)


def test_the_formula_refusal_names_its_cell(organiser_client: APIClient, club_a: Club) -> None:
    data = xlsx_bytes([HEADER, ["2025-01-10", "A", "", "", 1, "=SUM(1,2)", 0, 1]])
    assert "F2" in upload(organiser_client, club_a, data, "f.xlsx").json()["detail"]


def test_a_body_without_a_file(organiser_client: APIClient, club_a: Club) -> None:
    response = organiser_client.post(preview_url(club_a), {"nofile": "x"}, format="multipart")
    assert response.status_code == 400
    json_body = organiser_client.post(preview_url(club_a), {"file": "x"}, format="json")
    assert json_body.status_code == 400  # a JSON body holds no file
    nothing_written(club_a, 0)


def test_the_sums_of_the_sample_are_the_all_time_table(
    organiser_client: APIClient, club_a: Club
) -> None:
    data = (DOCS / "history-sample.xlsx").read_bytes()
    token = upload(organiser_client, club_a, data, "history-sample.xlsx").json()["token"]
    assert organiser_client.post(imports_url(club_a), {"token": token}).status_code == 201
    sums: defaultdict[str, list[int]] = defaultdict(lambda: [0, 0, 0])
    for line in (DOCS / "history-sample.csv").read_text().splitlines()[1:]:
        day, name, _h, _s, played, won, difference, _r, _season = line.split(";")
        if day.startswith("2025-"):
            for i, value in enumerate((played, won, difference)):
                sums[name][i] += int(value)
    expected = sorted(sums.items(), key=lambda item: (-item[1][1], -item[1][2]))
    rows = tables(club_a)["all_time"]
    assert [(r["name"], r["played"], r["won"], r["point_difference"]) for r in rows] == [
        (name, *figures) for name, figures in expected
    ]


@pytest.mark.parametrize(
    ("language", "words"),
    [
        ("de", "ist kein Datum eines vergangenen Abends"),
        ("fr", "n'est pas la date d'une soirée passée"),
        ("nl", "is geen datum van een voorbije avond"),
        ("en", "is no date of a past evening"),
    ],
)
def test_refusals_in_the_readers_language(
    organiser_client: APIClient, club_a: Club, language: str, words: str
) -> None:
    data = (DOCS / "history-sample.csv").read_bytes()
    body = {"file": SimpleUploadedFile("s.csv", data)}
    response = organiser_client.post(
        preview_url(club_a), body, format="multipart", HTTP_ACCEPT_LANGUAGE=language
    )
    assert words in response.json()["refusals"][0]["detail"]
    refused = organiser_client.post(
        preview_url(club_a),
        {"file": SimpleUploadedFile("b.csv", b"\x00\x01binary")},
        format="multipart",
        HTTP_ACCEPT_LANGUAGE=language,
    )
    assert refused.json()["code"] == "binary_file"
