"""``simulate_league`` against a live server: a small season of two clubs (two match
days, eight Liga-Partien) ends with every match day final and the table as the deals
sent make it."""

from __future__ import annotations

from io import StringIO
from typing import Any

import pytest
from django.core.management import call_command

from tournaments.leagues.models import MatchDay

pytestmark = [pytest.mark.slow, pytest.mark.django_db(transaction=True)]


def test_a_small_season_is_simulated(live_server: Any) -> None:
    out = StringIO()
    call_command(
        "simulate_league",
        "--clubs",
        "2",
        "--seed",
        "4",
        "--base-url",
        live_server.url,
        stdout=out,
        stderr=StringIO(),
    )
    text = out.getvalue()
    assert "match days         2" in text
    assert "Liga-Partien       8" in text
    assert "the table matches the deals" in text
    assert set(MatchDay.objects.values_list("status", flat=True)) == {MatchDay.Status.FINAL}
