"""The tie-break chain is checked by the API as by the console's form: an unknown name is
a 400 on create, partial update and full update, and nothing is stored."""

from __future__ import annotations

from typing import Any

import pytest

from tests.support.clients import APIClient
from tournaments.clubs.models import Club
from tournaments.events.models import Tournament

pytestmark = pytest.mark.django_db


def created(client: APIClient, club: Club, **fields: Any) -> Any:
    return client.post(
        "/api/tournaments/",
        {"club": club.pk, "name": "Abend", "slug": "abend", **fields},
        format="json",
    )


@pytest.mark.parametrize("chain", [["bogus"], ["games_won", "bogus"], "games_won", [1]])
def test_an_unknown_tiebreak_is_refused_on_create(
    organiser_client: APIClient, club_a: Club, chain: Any
) -> None:
    response = created(organiser_client, club_a, tiebreaks=chain)
    assert response.status_code == 400, response.content
    assert "tiebreaks" in response.json()
    assert not Tournament.objects.filter(slug="abend").exists()


def test_an_unknown_tiebreak_is_refused_on_patch_and_put(
    organiser_client: APIClient, club_a: Club
) -> None:
    response = created(organiser_client, club_a, tiebreaks=["games_won", "augen"])
    assert response.status_code == 201, response.content
    body = response.json()
    url = f"/api/tournaments/{body['id']}/"
    patched = organiser_client.patch(url, {"tiebreaks": ["bogus"]}, format="json")
    assert patched.status_code == 400 and "tiebreaks" in patched.json()
    put = {k: v for k, v in body.items() if v is not None}
    put["tiebreaks"] = ["augen", "bogus"]
    replaced = organiser_client.put(url, put, format="json")
    assert replaced.status_code == 400 and "tiebreaks" in replaced.json(), replaced.content
    assert Tournament.objects.get(pk=body["id"]).tiebreaks == ["games_won", "augen"]
    # the known names, the aliases included, still pass
    put["tiebreaks"] = ["match_points", "buchholz", "head_to_head"]
    assert organiser_client.put(url, put, format="json").status_code == 200
    assert Tournament.objects.get(pk=body["id"]).tiebreaks == put["tiebreaks"]
