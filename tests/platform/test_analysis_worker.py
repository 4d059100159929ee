"""The par analyses queued on every full deal run where they cannot slow the tablets: on
a queue of their own, which the deployment hands to a worker of its own at the lowest
CPU priority, while the main worker consumes only the default queue (standings,
leaderboards, draws)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import yaml

from games.tasks import analyse_deal_task, analyse_missing_deals_task
from klammern_site.celery import app
from tournaments.tasks import recompute_standings_task

ROOT = Path(__file__).resolve().parents[2]


def queue_of(task: Any) -> str:
    route = app.amqp.router.route({}, task.name)
    return str(route["queue"].name)


def compose_command(service: str) -> list[str]:
    compose = yaml.safe_load((ROOT / "docker-compose.yml").read_text())
    return [str(part) for part in compose["services"][service]["command"]]


def queues_option(command: list[str]) -> str:
    return command[command.index("--queues") + 1]


def test_analyses_wait_in_a_queue_of_their_own() -> None:
    assert queue_of(analyse_deal_task) == queue_of(analyse_missing_deals_task) == "analysis"
    assert queue_of(recompute_standings_task) == "celery"


def test_the_deployment_runs_analyses_in_a_worker_at_the_lowest_priority() -> None:
    analysis = compose_command("analysis")
    assert analysis[:3] == ["nice", "-n", "19"] and "worker" in analysis
    assert queues_option(analysis) == "analysis"


def test_the_main_worker_leaves_the_analyses_to_it() -> None:
    worker = compose_command("worker")
    assert worker[0] == "celery" and queues_option(worker) == "celery"
