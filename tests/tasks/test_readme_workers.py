"""The README's two Celery worker commands ("Running without Docker"), run exactly as the
README shows them: the main worker consumes only the default queue (standings,
leaderboards, draws), the analysis worker only the par analyses, at the lowest CPU
priority; a sweep of deals lacking an analysis reaches the analysis worker and no other."""

from __future__ import annotations

import os
import re
import shlex
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from games.tasks import analyse_missing_deals_task
from tests.tasks.conftest import ROOT, Worker, database_url, wait_until

pytestmark = [pytest.mark.worker, pytest.mark.slow]

README = ROOT / "README.md"


def readme_worker_commands() -> list[list[str]]:
    """Each ``celery … worker`` command of the README's block "Running without Docker",
    continuation lines joined, split as a shell splits them."""
    section = README.read_text().split("## Running without Docker", 1)[1]
    block = section.split("```sh", 1)[1].split("```", 1)[0]
    lines = re.sub(r"\\\n\s*", " ", block).splitlines()
    return [shlex.split(line) for line in lines if re.search(r"celery -A \S+ worker", line)]


def option(command: list[str], name: str) -> str:
    return command[command.index(name) + 1]


@pytest.fixture
def readme_workers(real_celery: str, transactional_db: Any, tmp_path: Path) -> Iterator[Any]:
    """The README's worker commands, started with the variables the README asks for."""
    env = {
        **os.environ,
        "DATABASE_URL": database_url(),
        "REDIS_URL": real_celery,
        "DJANGO_DEBUG": "0",
        "DJANGO_SECRET_KEY": "readme-workers-test-only-0123456789abcdefghijklmnopqrstuvwxyz",
        "DJANGO_ALLOWED_HOSTS": "klammern.example",
        "CONN_MAX_AGE": "0",
        "PYTHONUNBUFFERED": "1",
    }
    workers: list[Worker] = []
    try:
        for number, command in enumerate(readme_worker_commands()):
            workers.append(Worker(tmp_path / f"worker-{number}.log", env, command))
        yield workers
    finally:
        for worker in workers:
            worker.kill()


def test_the_readme_shows_a_main_and_an_analysis_worker() -> None:
    commands = readme_worker_commands()
    assert [option(command, "--queues") for command in commands] == ["celery", "analysis"]
    assert commands[1][:3] == ["nice", "-n", "19"]


def test_the_readmes_workers_split_the_queues_as_they_say(readme_workers: Any) -> None:
    main, analysis = readme_workers
    assert os.getpriority(os.PRIO_PROCESS, main.process.pid) == 0
    assert os.getpriority(os.PRIO_PROCESS, analysis.process.pid) == 19

    result = analyse_missing_deals_task.delay()  # results are not kept: read the logs
    done = f"analyse_missing_deals_task[{result.id}] succeeded"
    wait_until(lambda: done in analysis.output(), timeout=30, what="the analysis worker")
    assert f"analyse_missing_deals_task[{result.id}] received" in analysis.output()
    assert result.id not in main.output()
