"""The par analysis of stored deals: the task stores the engine's analysis per deal
version (again after a correction), a summary is stored as not analysable, the sweep and
the command analyse what lacks one, and the API answers with the same visibility as
the hand record pages."""

from __future__ import annotations

import random
from typing import Any

import pytest
from django.core.management import call_command

from games import analysis_services
from games.analysis_services import analyse_missing_deals, versions_lacking_analysis
from games.engine import random_deal
from games.engine.analysis import ANALYSIS_VERSION, NOT_ANALYSABLE
from games.models import DealAnalysis, DealVersion
from tests.conftest import Event, client_for
from tests.factories import PlayerFactory, summary_record
from tests.support.clients import APIClient, committed
from tests.support.hand_records import COSTLY_DEAL, COSTLY_PLAY
from tournaments.deals import services
from tournaments.draw import services as draw
from tournaments.events import services as tournament_services

pytestmark = pytest.mark.django_db


def enter(event: Event, record: dict[str, Any], number: int = 1) -> DealVersion:
    with committed():  # the analysis is queued when the entry commits
        return services.submit_deal(match=event.match1, number=number, record=record)


@pytest.mark.analysis
def test_a_full_deal_is_analysed_after_its_entry(event: Event) -> None:
    version = enter(event, COSTLY_DEAL)
    stored = DealAnalysis.objects.get(version=version)
    assert stored.analysed and stored.analysis_version == ANALYSIS_VERSION
    costly = [p for p in stored.analysis["plays"] if p["cost"] > 0]
    play, seat, card, cost, best = COSTLY_PLAY
    assert [(p["play"], p["seat"], p["card"], p["cost"], p["best"]) for p in costly] == [
        (play, seat, card, cost, best)
    ]
    assert stored.costs == [0, cost, 0, 0]
    assert stored.analysis["par"] != stored.analysis["actual"]["points"]


@pytest.mark.analysis
def test_a_correction_gets_its_own_analysis_and_the_old_one_stays(event: Event) -> None:
    first = enter(event, COSTLY_DEAL)
    with committed():
        second = services.correct_deal(
            match=event.match1, number=1, expected_version=1, record=summary_record(dealer=0)
        )
    assert DealAnalysis.objects.get(version=first).analysed
    corrected = DealAnalysis.objects.get(version=second)
    assert not corrected.analysed and corrected.costs == []
    assert corrected.analysis["errors"][0]["code"] == NOT_ANALYSABLE
    first.refresh_from_db()
    assert not first.is_current and first.record == {
        **COSTLY_DEAL,
        "rules": "klammern",
    }  # history untouched


@pytest.mark.analysis
@pytest.mark.parametrize("preset", ["belote", "belote-contree", "klaverjas-amsterdam"])
def test_a_record_sent_without_its_rules_is_stored_and_analysed_in_its_game(
    club_a: Any, preset: str
) -> None:
    """A tablet sends no ``rules``: the deal is stored with the tournament's, so the
    analysis (and every later reader) reads the game it was played in, not Klammern."""
    tournament = tournament_services.create_tournament(
        club=club_a, name="Abend", slug=f"abend-{preset}", rules_preset=preset
    )
    for _ in range(4):
        registration = tournament_services.register_player(
            tournament=tournament, player=PlayerFactory()
        )
        tournament_services.check_in_registration(registration=registration)
    tournament_services.start_tournament(tournament=tournament)
    round_ = draw.draw_round(tournament=tournament, seed=3)
    tournament_services.publish_round(round_=round_)
    match = round_.tables.get().match
    rng = random.Random(5)
    record = random_deal(rng, dealer=0, rules=preset)
    while record["contract"].get("kind") == "thrown_in":
        record = random_deal(rng, dealer=0, rules=preset)
    sent = {key: value for key, value in record.items() if key != "rules"}
    with committed():
        version = services.submit_deal(match=match, number=1, record=sent)
    assert version.record == {**sent, "rules": preset}
    stored = DealAnalysis.objects.get(version=version)
    assert stored.analysed, stored.analysis
    assert stored.analysis["rules"]["preset"] == preset


@pytest.mark.analysis
def test_a_summary_is_stored_as_not_analysable(event: Event) -> None:
    version = enter(event, summary_record(dealer=0))
    stored = DealAnalysis.objects.get(version=version)
    assert stored.analysed is False
    assert stored.analysis["valid"] and stored.analysis["analysed"] is False


def test_without_analysis_on_entry_the_sweep_and_the_command_catch_up(event: Event) -> None:
    enter(event, summary_record(dealer=0))
    enter(event, summary_record(dealer=1), number=2)
    assert not DealAnalysis.objects.exists()
    assert versions_lacking_analysis().count() == 2
    assert analyse_missing_deals(limit=1) == 1
    call_command("analyse_deals", stdout=None)
    assert DealAnalysis.objects.count() == 2 and not versions_lacking_analysis().exists()
    assert analyse_missing_deals() == 0


def analysis_url(event: Event, number: int = 1) -> str:
    return f"/api/matches/{event.match1.pk}/deals/{number}/analysis/"


@pytest.fixture
def analysed(event: Event) -> Event:
    enter(event, COSTLY_DEAL)
    analyse_missing_deals()
    return event


def test_api_the_tables_device_and_the_organiser_see_it_at_once(
    analysed: Event, organiser_client: APIClient
) -> None:
    for client in (client_for(device_code=analysed.code1), organiser_client):
        response = client.get(analysis_url(analysed))
        assert response.status_code == 200, response.content
        body = response.json()
        assert body["status"] == "done" and body["analysed"] and body["version"] == 1
        assert [p["card"] for p in body["analysis"]["plays"] if p["cost"]] == ["AC"]


def test_api_others_only_after_the_close_and_where_allowed(
    analysed: Event, anonymous: APIClient, other_organiser_client: APIClient
) -> None:
    other_table = client_for(device_code=analysed.code2)
    for client in (anonymous, other_organiser_client, other_table):
        assert client.get(analysis_url(analysed)).status_code in (403, 404)
    tournament_services.close_round(round_=analysed.round, force=True)
    assert anonymous.get(analysis_url(analysed)).status_code == 200
    assert other_organiser_client.get(analysis_url(analysed)).status_code == 200
    analysed.tournament.hand_records_public = False
    analysed.tournament.save(update_fields=["hand_records_public"])
    assert anonymous.get(analysis_url(analysed)).status_code == 404


def test_api_pending_before_the_worker_ran(event: Event, organiser_client: APIClient) -> None:
    enter(event, summary_record(dealer=0))
    body = organiser_client.get(analysis_url(event)).json()
    assert body["status"] == "pending" and body["analysis"] is None


def test_api_schema_documents_the_endpoint(anonymous: APIClient) -> None:
    schema = anonymous.get("/api/schema/", HTTP_ACCEPT="application/json")
    assert schema.status_code == 200
    assert "/api/matches/{match_id}/deals/{number}/analysis/" in schema.json()["paths"]


@pytest.mark.analysis
def test_without_a_worker_the_entry_never_waits_for_the_analysis(
    event: Event, settings: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The embedded default runs tasks in-process: an analysis queued on entry would run
    inside the tablet's request (and the interpreted solver holds the interpreter lock),
    so nothing is queued; ``analyse_deals`` catches up later."""
    settings.CELERY_TASK_ALWAYS_EAGER = True  # as settings.py sets it without REDIS_URL
    assert not services.analysis_queued_on_entry()

    def no_analysis_here(record: Any) -> Any:
        raise AssertionError("the deal entry ran the par analysis")

    monkeypatch.setattr(analysis_services.engine, "analyse", no_analysis_here)
    version = enter(event, COSTLY_DEAL)
    reply = client_for(device_code=event.code1).get(analysis_url(event))
    assert reply.json()["status"] == "pending"
    monkeypatch.undo()
    call_command("analyse_deals", stdout=None)
    assert DealAnalysis.objects.get(version=version).analysed


@pytest.mark.analysis
def test_with_a_worker_the_entry_queues_the_analysis(event: Event) -> None:
    assert services.analysis_queued_on_entry()
    version = enter(event, COSTLY_DEAL)
    assert DealAnalysis.objects.filter(version=version, analysed=True).exists()


@pytest.mark.analysis
def test_entries_queue_one_sweep_at_a_time(event: Event, monkeypatch: pytest.MonkeyPatch) -> None:
    """An entry publishes no task of its own while a sweep is queued: a busy evening
    sends one message per sweep, not per deal; the sweep clears the flag when it starts,
    so the next entry queues the next sweep."""
    sent: list[str] = []
    task = analysis_services.analyse_queued_deals_task
    monkeypatch.setattr(task, "delay", lambda: sent.append("sweep"))
    for number in (1, 2, 3):
        enter(event, summary_record(dealer=number - 1), number=number)
    assert sent == ["sweep"] and versions_lacking_analysis().count() == 3

    assert analysis_services.analyse_queued_deals() == 3
    assert not versions_lacking_analysis().exists() and sent == ["sweep"]
    enter(event, summary_record(dealer=3), number=4)
    assert sent == ["sweep", "sweep"]


@pytest.mark.analysis
def test_a_full_sweep_queues_the_next(event: Event, monkeypatch: pytest.MonkeyPatch) -> None:
    sent: list[str] = []
    monkeypatch.setattr(
        analysis_services.analyse_queued_deals_task, "delay", lambda: sent.append("sweep")
    )
    for number in (1, 2, 3):
        enter(event, summary_record(dealer=number - 1), number=number)
    sent.clear()
    assert analysis_services.analyse_queued_deals(limit=2) == 2
    assert sent == ["sweep"] and versions_lacking_analysis().count() == 1
    assert analysis_services.analyse_queued_deals(limit=2) == 1
    assert sent == ["sweep"] and not versions_lacking_analysis().exists()
