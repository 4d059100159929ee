"""``manage.py simulate_tournament``: a complete individual tournament played through the
real HTTP API by an organiser and one tablet per table, then checked end to end.

Without ``--base-url`` it migrates the configured database, creates a club and an
organiser account directly (it is a management command on the site's own machine) and
starts the site itself on a free loopback port. With ``--base-url`` it only talks HTTP and
needs an existing organiser (``--organiser-user``, ``--organiser-password``) of ``--club``.
It exits non-zero on any inconsistency: a lost or doubled deal, an unexpected answer, or
standings that differ from a fresh recompute.
"""

from __future__ import annotations

import secrets
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from typing import Any

from django.conf import settings
from django.contrib.auth import get_user_model
from django.core.management import call_command
from django.core.management.base import BaseCommand, CommandError, CommandParser

from games.profiles import DEFAULT_PRESET, PRESET_NAMES, PROFILES
from tournaments.clubs.models import Club
from tournaments.simulation.client import Api, ApiError, expect
from tournaments.simulation.scenario import Options, Simulation
from tournaments.simulation.server import local_site
from tournaments.simulation.summary import summary_lines

LOCAL_CLUB = ("Simulationsclub", "simulation")
LOCAL_ORGANISER = "simulation-organiser"


class Command(BaseCommand):
    help = "Play a whole tournament through the HTTP API and check every deal and standing."

    # A test seam: called after the last round, before the checks (e.g. to lose a deal).
    before_verify: Callable[[Simulation], None] | None = None

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("--players", type=int, default=24)
        parser.add_argument("--rounds", type=int, default=3)
        parser.add_argument("--deals", type=int, default=8, help="deals per table and round")
        parser.add_argument("--seed", type=int, default=1)
        parser.add_argument(
            "--chaos",
            type=float,
            default=0.2,
            help="share of deals retried, duplicated or first sent invalid",
        )
        parser.add_argument("--concurrency", type=int, default=16, help="tablets at once")
        parser.add_argument("--base-url", help="a running site; default: start one locally")
        parser.add_argument("--organiser-user", help="with --base-url: an organiser of --club")
        parser.add_argument("--organiser-password")
        parser.add_argument("--club", help="with --base-url: the club's slug")
        parser.add_argument(
            "--rules",
            default=DEFAULT_PRESET,
            choices=PRESET_NAMES,
            help="the engine preset played (at tables of as many players as its game seats)",
        )

    def handle(self, *args: Any, **options: Any) -> None:
        seats = PROFILES[options["rules"]].players
        if options["players"] < seats or options["rounds"] < 1 or options["deals"] < 1:
            raise CommandError(f"Need at least {seats} players, 1 round and 1 deal.")
        with self.site(options) as (base_url, username, password, club_slug):
            api = Api(base_url)
            try:
                token = self.token(api, username, password)
                club = self.club_id(api, club_slug)
                simulation = Simulation(
                    api,
                    options=self.scenario_options(options),
                    organiser_token=token,
                    club=club,
                    log=lambda line: self.stdout.write(line),
                )
                report = simulation.run(before_verify=type(self).before_verify)
            except ApiError as error:
                raise CommandError(str(error)) from error
        for line in summary_lines(report):
            self.stdout.write(line)
        if report.problems:
            for problem in report.problems[:50]:
                self.stderr.write(f"INCONSISTENT: {problem}")
            raise CommandError(f"{len(report.problems)} inconsistencies found")
        self.stdout.write(self.style.SUCCESS("every deal stored exactly once; all checks passed"))

    def scenario_options(self, options: dict[str, Any]) -> Options:
        return Options(
            players=options["players"],
            rounds=options["rounds"],
            deals=options["deals"],
            seed=options["seed"],
            chaos=options["chaos"],
            concurrency=max(1, options["concurrency"]),
            rules=options.get("rules") or DEFAULT_PRESET,
        )

    @contextmanager
    def site(self, options: dict[str, Any]) -> Iterator[tuple[str, str, str, str]]:
        if options["base_url"]:
            needed = [options["organiser_user"], options["organiser_password"], options["club"]]
            if not all(needed):
                raise CommandError(
                    "--base-url needs --organiser-user, --organiser-password and --club."
                )
            yield (options["base_url"].rstrip("/"), *needed)
            return
        call_command("migrate", interactive=False, verbosity=0)
        username, password = self.local_organiser()
        self.stdout.write("starting the site locally (runserver) ...")
        with local_site(settings.BASE_DIR) as base_url:
            self.stdout.write(f"site at {base_url}")
            yield base_url, username, password, LOCAL_CLUB[1]

    def local_organiser(self) -> tuple[str, str]:
        """The local club and its organiser, with a new random password for this run."""
        club, _ = Club.objects.get_or_create(slug=LOCAL_CLUB[1], defaults={"name": LOCAL_CLUB[0]})
        user, _ = get_user_model().objects.get_or_create(username=LOCAL_ORGANISER)
        password = secrets.token_urlsafe(16)
        user.set_password(password)
        user.save(update_fields=["password"])
        club.organisers.add(user)
        return LOCAL_ORGANISER, password

    def token(self, api: Api, username: str, password: str) -> str:
        reply = api.post("/api/auth/token/", {"username": username, "password": password})
        return str(expect(reply, 200, "organiser login").body["token"])

    def club_id(self, api: Api, slug: str) -> int:
        clubs = expect(api.get(f"/api/clubs/?slug={slug}"), 200, "find the club").body
        if not clubs["results"]:
            raise CommandError(f"No club with slug {slug!r}.")
        return int(clubs["results"][0]["id"])
