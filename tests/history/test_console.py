"""The console's history page: upload, preview, confirm, remove (organisers only)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile

from tests.support.clients import Client
from tournaments.clubs.models import Club
from tournaments.history.models import HistoryImport, ImportedEvening

pytestmark = pytest.mark.django_db
SAMPLE = Path(__file__).resolve().parents[2] / "docs" / "history-sample.xlsx"


def test_upload_preview_confirm_and_remove(client: Client, organiser: Any, club_a: Club) -> None:
    client.force_login(organiser)
    url = f"/console/clubs/{club_a.pk}/history/"
    page = client.post(
        url, {"file": SimpleUploadedFile("s.xlsx", SAMPLE.read_bytes()), "create_players": "on"}
    )
    assert page.status_code == 200
    html = page.content.decode()
    assert "31.02.2025" in html and "bad_date" in html and "Gitte Wolf" in html
    assert not ImportedEvening.objects.exists()
    token = page.context["preview"].token
    done = client.post(f"{url}confirm/", {"token": token})
    assert done.status_code == 302 and ImportedEvening.objects.filter(club=club_a).count() == 3
    batch = HistoryImport.objects.get()
    kept = client.post(f"{url}{batch.pk}/remove/", {})
    assert kept.status_code == 302 and HistoryImport.objects.exists()
    client.post(f"{url}{batch.pk}/remove/", {"confirm": "yes"})
    assert not HistoryImport.objects.exists() and not ImportedEvening.objects.exists()


def test_a_refused_file_shows_its_reason(client: Client, organiser: Any, club_a: Club) -> None:
    client.force_login(organiser)
    page = client.post(
        f"/console/clubs/{club_a.pk}/history/",
        {"file": SimpleUploadedFile("f.csv", "Datum;Spieler\n1.1.2024;Jürgen".encode("cp1252"))},
    )
    assert "UTF-8" in page.content.decode()
    assert not ImportedEvening.objects.exists()


def test_other_organisers_get_nothing(client: Client, other_organiser: Any, club_a: Club) -> None:
    client.force_login(other_organiser)
    assert client.get(f"/console/clubs/{club_a.pk}/history/").status_code == 404
    assert (
        client.post(f"/console/clubs/{club_a.pk}/history/confirm/", {"token": "x"}).status_code
        == 404
    )


def test_the_sample_downloads(client: Client) -> None:
    response = client.get("/history-sample.xlsx")
    assert response.status_code == 200 and response.content == SAMPLE.read_bytes()
