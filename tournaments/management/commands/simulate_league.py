"""``manage.py simulate_league``: a league season of clubs played through the real HTTP
API (``tournaments.simulation.league``), then checked against the deals sent.

It migrates the configured database, creates the clubs, their organisers and captains
and a league organiser directly (a management command on the site's own machine), signs
them in through ``/api/auth/token/`` and starts the site on a free loopback port, unless
``--base-url`` names a running site on the same database. It exits non-zero on any
inconsistency.
"""

from __future__ import annotations

import secrets
from typing import Any

from django.conf import settings
from django.contrib.auth import get_user_model
from django.core.management import call_command
from django.core.management.base import BaseCommand, CommandError, CommandParser

from tournaments.clubs.models import Club
from tournaments.simulation.client import Api, ApiError, expect
from tournaments.simulation.league import ClubSide, LeagueSeason
from tournaments.simulation.server import local_site


class Command(BaseCommand):
    help = "Play a league season of clubs through the HTTP API and check the table."

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("--clubs", type=int, default=4, help="clubs, one team each")
        parser.add_argument("--seed", type=int, default=1)
        parser.add_argument("--base-url", help="a running site on this database")

    def handle(self, *args: Any, **options: Any) -> None:
        if options["clubs"] < 2:
            raise CommandError("A league needs at least 2 clubs.")
        call_command("migrate", interactive=False, verbosity=0)
        run = secrets.token_hex(3)
        accounts = self.accounts(options["clubs"], run)
        if options["base_url"]:
            self.play(options["base_url"].rstrip("/"), accounts, options["seed"], run)
            return
        self.stdout.write("starting the site locally (runserver) ...")
        with local_site(settings.BASE_DIR) as base_url:
            self.play(base_url, accounts, options["seed"], run)

    def accounts(self, clubs: int, run: str) -> dict[str, Any]:
        """A league organiser and, per club, an organiser and a captain (new passwords)."""
        users = get_user_model().objects
        passwords: dict[str, str] = {}

        def user(name: str) -> Any:
            account, _ = users.get_or_create(username=f"{name}-{run}")
            passwords[account.username] = secrets.token_urlsafe(12)
            account.set_password(passwords[account.username])
            account.save(update_fields=["password"])
            return account

        boss = user("liga-leiter")
        own, _ = Club.objects.get_or_create(slug=f"liga-{run}", defaults={"name": "Ligaleitung"})
        own.organisers.add(boss)
        sides = []
        for n in range(1, clubs + 1):
            club = Club.objects.create(name=f"Klammerclub {n} ({run})", slug=f"kc-{n}-{run}")
            organiser, captain = user(f"org{n}"), user(f"kap{n}")
            club.organisers.add(organiser)
            sides.append((club.pk, organiser.username, captain.username))
        return {"boss": boss.username, "sides": sides, "passwords": passwords}

    def play(self, base_url: str, accounts: dict[str, Any], seed: int, run: str) -> None:
        api = Api(base_url)

        def token(username: str) -> str:
            body = {"username": username, "password": accounts["passwords"][username]}
            reply = expect(api.post("/api/auth/token/", body), 200, f"login {username}")
            return f"Token {reply.body['token']}"

        try:
            sides = [
                ClubSide(club, token(org), token(cap), cap) for club, org, cap in accounts["sides"]
            ]
            season = LeagueSeason(
                api,
                league_organiser=token(accounts["boss"]),
                clubs=sides,
                seed=seed,
                slug=f"simulationsliga-{run}",
                log=self.stdout.write,
            )
            report = season.run()
        except ApiError as error:
            raise CommandError(str(error)) from error
        self.stdout.write(f"match days         {report.match_days}")
        self.stdout.write(f"Liga-Partien       {report.partien}")
        self.stdout.write(f"deals stored       {report.deals}")
        for row in report.table:
            self.stdout.write(
                f"{row['rank']:>2}. {row['name']:<10} {row['points']:>3} Pkt. "
                f"{row['partien_won']}:{row['partien_lost']} Partien "
                f"{row['augen_for']}:{row['augen_against']} Augen"
            )
        if report.problems:
            for problem in report.problems:
                self.stderr.write(f"INCONSISTENT: {problem}")
            raise CommandError(f"{len(report.problems)} inconsistencies found")
        self.stdout.write(self.style.SUCCESS("every match day final; the table matches the deals"))
