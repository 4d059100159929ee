"""``simulate_tournament --rules PRESET``: a small Klaverjas tournament and a small one of
Klammern for three players, played through the API with random legal deals of the preset,
end with every deal stored once and the standings equal to a fresh recompute."""

from __future__ import annotations

from io import StringIO
from typing import Any

import pytest
from django.core.management import call_command

from games.models import Deal
from tests.factories import ClubFactory
from tournaments.events.models import Match, Seat, Tournament

pytestmark = [pytest.mark.slow, pytest.mark.django_db(transaction=True)]


@pytest.fixture
def eager_celery(settings: Any) -> None:
    from klammern_site.celery import app

    settings.CELERY_TASK_ALWAYS_EAGER = True
    app.conf.task_always_eager = True


def simulate(live_server: Any, django_user_model: Any, *, rules: str, players: int) -> str:
    club = ClubFactory(slug="sim-club")
    organiser = django_user_model.objects.create_user("sim-organiser", password="pw-sim-1")
    club.organisers.add(organiser)
    out = StringIO()
    call_command(
        "simulate_tournament",
        "--rules",
        rules,
        "--players",
        str(players),
        "--rounds",
        "2",
        "--deals",
        "3",
        "--seed",
        "3",
        "--chaos",
        "0.5",
        "--concurrency",
        "3",
        "--base-url",
        live_server.url,
        "--organiser-user",
        "sim-organiser",
        "--organiser-password",
        "pw-sim-1",
        "--club",
        "sim-club",
        stdout=out,
        stderr=StringIO(),
    )
    return out.getvalue()


def test_klaverjas_tournament(live_server: Any, django_user_model: Any, eager_celery: None) -> None:
    out = simulate(live_server, django_user_model, rules="klaverjas-rotterdam", players=8)
    assert "all checks passed" in out
    tournament = Tournament.objects.get()
    assert tournament.rules_preset == "klaverjas-rotterdam"
    assert Deal.objects.count() == 4 * 3
    assert Match.objects.filter(status=Match.Status.CONFIRMED).count() == 4
    data = tournament.standings_snapshot.data
    assert data["tiebreaks"][:2] == ["tournament_points", "augen"]
    # a match gives 2 to each winner (or 1 to all four on a draw): 4 a match, 4 matches
    assert sum(row["tournament_points"] for row in data["rows"]) == 4 * 4


def test_three_player_tournament(
    live_server: Any, django_user_model: Any, eager_celery: None
) -> None:
    out = simulate(live_server, django_user_model, rules="klammern-3", players=9)
    assert "all checks passed" in out
    assert Deal.objects.count() == 6 * 3
    assert set(Seat.objects.values_list("position", flat=True)) == {0, 1, 2}
    data = Tournament.objects.get().standings_snapshot.data
    assert data["tiebreaks"] == ["tournament_points", "augen", "buchholz", "head_to_head"]
    assert sum(row["played"] for row in data["rows"]) == 2 * 9


def test_belote_tournament(live_server: Any, django_user_model: Any, eager_celery: None) -> None:
    """Issue 21: ``simulate_tournament --rules belote`` plays an evening of Belote."""
    out = simulate(live_server, django_user_model, rules="belote", players=8)
    assert "all checks passed" in out
    tournament = Tournament.objects.get()
    assert tournament.rules_preset == "belote"
    deals = Deal.objects.filter(match__round__tournament=tournament)
    thrown_in = sum(d.versions.get(is_current=True).result["kind"] == "thrown_in" for d in deals)
    assert deals.count() - thrown_in == 4 * 3  # 2 rounds of 2 tables, 3 played deals each
    assert Match.objects.filter(status=Match.Status.CONFIRMED).count() == 4
    data = tournament.standings_snapshot.data
    assert data["tiebreaks"][:2] == ["tournament_points", "augen"]
    assert sum(row["tournament_points"] for row in data["rows"]) == 4 * 4


def test_schieber_tournament(live_server: Any, django_user_model: Any, eager_celery: None) -> None:
    """Issue 26: ``simulate_tournament --rules schieber`` plays an evening of Schieberjass,
    ranked by total points before match points (RULES.md)."""
    out = simulate(live_server, django_user_model, rules="schieber", players=8)
    assert "all checks passed" in out
    tournament = Tournament.objects.get()
    assert tournament.rules_preset == "schieber"
    deals = Deal.objects.filter(match__round__tournament=tournament)
    assert deals.count() == 4 * 3  # a Schieber deal is never thrown in
    kinds = {d.versions.get(is_current=True).result["kind"] for d in deals}
    assert kinds == {"schieber"}
    assert Match.objects.filter(status=Match.Status.CONFIRMED).count() == 4
    data = tournament.standings_snapshot.data
    assert data["tiebreaks"][:2] == ["augen", "tournament_points"]
    assert sum(row["tournament_points"] for row in data["rows"]) == 4 * 4


def test_contree_tournament(live_server: Any, django_user_model: Any, eager_celery: None) -> None:
    """Issue 38: ``simulate_tournament --rules belote-contree`` plays an evening of Belote
    Contrée (full records with their auction, thrown-in deals after four passes among
    them), ranked as Belote: match points, then total points."""
    out = simulate(live_server, django_user_model, rules="belote-contree", players=8)
    assert "all checks passed" in out
    tournament = Tournament.objects.get()
    assert tournament.rules_preset == "belote-contree"
    deals = Deal.objects.filter(match__round__tournament=tournament)
    results = [d.versions.get(is_current=True).result for d in deals]
    played = [r for r in results if r["kind"] != "thrown_in"]
    assert len(played) == 4 * 3  # 2 rounds of 2 tables, 3 played deals each
    assert {r["kind"] for r in played} == {"contree"}
    assert all(r["value"] in (*range(80, 161, 10), "capot") for r in played)
    assert Match.objects.filter(status=Match.Status.CONFIRMED).count() == 4
    data = tournament.standings_snapshot.data
    assert data["tiebreaks"][:2] == ["tournament_points", "augen"]
    assert sum(row["tournament_points"] for row in data["rows"]) == 4 * 4
