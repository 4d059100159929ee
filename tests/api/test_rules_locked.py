"""The fields fixed with the rules are one list (``Tournament.RULE_FIELDS``): once a
tournament has started, the API refuses a change of each of them with ``rules_locked``
and the admin shows each of them read-only."""

from __future__ import annotations

from typing import Any

import pytest
from django.contrib import admin
from django.test import RequestFactory

from tests.conftest import Event
from tournaments.events.models import Tournament

pytestmark = pytest.mark.django_db

#: A value other than the running tournament's for each field fixed with the rules.
CHANGED = {
    "format": "pairs",
    "rules_preset": "klammern-hamburg",
    "rules_options": {"meld_tie_by_suit": True},
    "match_mode": "liga",
    "deals_per_match": 8,
    "liga_target": 41,
    "bye_score_mode": "fixed",
    "bye_fixed_points": 3,
    "tiebreaks": ["games_won", "tournament_points"],
    "duplicate": True,
}


@pytest.fixture
def started(event: Event) -> Tournament:
    event.tournament.mark_started()
    event.tournament.save(update_fields=list(Tournament.START_FIELDS))
    return event.tournament


def test_every_locked_field_has_a_changed_value_here() -> None:
    assert set(CHANGED) == set(Tournament.RULE_FIELDS)


@pytest.mark.parametrize("field", sorted(CHANGED))
def test_the_api_refuses_a_change_of_each_locked_field(
    started: Tournament, organiser_client: Any, field: str
) -> None:
    before = getattr(started, field)
    reply = organiser_client.patch(
        f"/api/tournaments/{started.pk}/", {field: CHANGED[field]}, format="json"
    )
    assert reply.status_code == 409, reply.json()
    assert reply.json()["code"] == "rules_locked" and field in reply.json()["detail"]
    started.refresh_from_db()
    assert getattr(started, field) == before


def test_the_admin_shows_every_locked_field_read_only(started: Tournament, organiser: Any) -> None:
    model_admin = admin.site.get_model_admin(Tournament)
    request = RequestFactory().get("/admin/")
    request.user = organiser
    fields = model_admin.get_readonly_fields(request, started)
    assert set(Tournament.RULE_FIELDS) <= set(fields)
