"""``manage.py analyse_deals``: analyse every stored deal version that lacks a par
analysis (or has one by an older ``ANALYSIS_VERSION``), in this process or, with
``--queue``, by sending one task per version to the workers."""

from __future__ import annotations

from typing import Any

from django.core.management.base import BaseCommand, CommandParser

from games.analysis_services import analyse_missing_deals, versions_lacking_analysis
from games.tasks import analyse_deal_task


class Command(BaseCommand):
    help = "Analyse the stored deals that lack a par analysis."

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("--limit", type=int, default=None, help="at most this many")
        parser.add_argument("--queue", action="store_true", help="send tasks to the workers")

    def handle(self, *args: Any, limit: int | None, queue: bool, **options: Any) -> None:
        if queue:
            ids = list(
                versions_lacking_analysis()[:limit] if limit else versions_lacking_analysis()
            )
            for pk in ids:
                analyse_deal_task.delay(pk)
            self.stdout.write(f"queued {len(ids)} deal versions")
            return
        done = analyse_missing_deals(limit=limit)
        self.stdout.write(f"analysed {done} deal versions")
