"""State changes of clubs, tournaments, rounds, tables and device credentials.

One ``@transaction.atomic`` function per state change, keyword-only arguments. Raises
``ServiceError`` subclasses (with an HTTP status the API maps them to) for requests that
break the rules of the tournament. Seating is a simple seeded random draw here until the
seating module takes over; standings are not computed here.
"""

from __future__ import annotations

import random
import secrets
from collections.abc import Sequence
from datetime import timedelta
from typing import Any

from django.conf import settings
from django.db import IntegrityError, transaction
from django.db.models import F
from django.utils import timezone

from .models import (
    Bye,
    Club,
    ClubMembership,
    DeviceCredential,
    Match,
    MatchConfirmation,
    Player,
    Registration,
    Round,
    Seat,
    Table,
    Team,
    Tournament,
    hash_device_code,
)

# Letters and digits that cannot be mistaken for each other on a tablet screen.
CODE_ALPHABET = "ABCDEFGHJKLMNPQRSTUVWXYZ23456789"
CODE_LENGTH = 8
RULE_FIELDS = frozenset({"rules_preset", "rules_options", "match_mode", "deals_per_match",
                         "liga_target", "bye_score_mode", "bye_fixed_points", "tiebreaks",
                         "format"})  # fmt: skip


class ServiceError(Exception):
    """A request the tournament's state does not allow; ``status_code`` for the API."""

    status_code = 400

    def __init__(self, detail: str) -> None:
        super().__init__(detail)
        self.detail = detail


class Conflict(ServiceError):
    status_code = 409


# --- clubs and players ----------------------------------------------------------------


@transaction.atomic
def create_player(
    *, club: Club, name: str, household: str = "", kind: str = ClubMembership.Kind.MEMBER
) -> Player:
    player = Player.objects.create(name=name, household=household)
    ClubMembership.objects.create(club=club, player=player, kind=kind)
    return player


@transaction.atomic
def update_player(*, player: Player, changes: dict[str, Any]) -> Player:
    for field, value in changes.items():
        setattr(player, field, value)
    player.save(update_fields=list(changes))
    return player


# --- tournaments ----------------------------------------------------------------------


@transaction.atomic
def create_tournament(*, club: Club, name: str, slug: str, **options: Any) -> Tournament:
    if options.get("format") == Tournament.Format.LEAGUE:
        options.setdefault("match_mode", Tournament.MatchMode.LIGA)
    try:
        with transaction.atomic():
            return Tournament.objects.create(club=club, name=name, slug=slug, **options)
    except IntegrityError as exc:
        raise Conflict(f"A tournament with slug '{slug}' already exists in {club}.") from exc


@transaction.atomic
def update_tournament(*, tournament: Tournament, changes: dict[str, Any]) -> Tournament:
    tournament = Tournament.objects.select_for_update().get(pk=tournament.pk)
    locked = sorted(f for f in RULE_FIELDS & changes.keys() if changes[f] != getattr(tournament, f))
    if tournament.rules_locked and locked:
        raise Conflict(f"The rules are fixed since the tournament started: {', '.join(locked)}.")
    for field, value in changes.items():
        setattr(tournament, field, value)
    tournament.save(update_fields=list(changes))
    return tournament


@transaction.atomic
def start_tournament(*, tournament: Tournament) -> Tournament:
    """Fix the rules preset and options and open the tournament for rounds."""
    tournament = Tournament.objects.select_for_update().get(pk=tournament.pk)
    if tournament.status != Tournament.Status.DRAFT:
        raise Conflict("The tournament has already started.")
    tournament.status = Tournament.Status.RUNNING
    tournament.rules_locked = True
    tournament.locked_at = timezone.now()
    tournament.save(update_fields=["status", "rules_locked", "locked_at"])
    return tournament


@transaction.atomic
def finish_tournament(*, tournament: Tournament) -> Tournament:
    tournament = Tournament.objects.select_for_update().get(pk=tournament.pk)
    if tournament.status != Tournament.Status.RUNNING:
        raise Conflict("Only a running tournament can be finished.")
    if tournament.rounds.open().exists():
        raise Conflict("Close the current round first.")
    tournament.status = Tournament.Status.FINISHED
    tournament.save(update_fields=["status"])
    return tournament


def notify_results_changed(*, tournament_id: int) -> None:
    """Record that a tournament's results changed: bump ``results_version``.

    The single place where result changes are announced; the standings recompute is
    enqueued from here (with ``transaction.on_commit``) once the standings task exists.
    """
    Tournament.objects.filter(pk=tournament_id).update(results_version=F("results_version") + 1)


# --- registrations --------------------------------------------------------------------


@transaction.atomic
def register_player(
    *, tournament: Tournament, player: Player, team: Team | None = None
) -> Registration:
    """Register a player (a non-member becomes a guest of the club); after round 1 was
    drawn the registration is a late arrival, who joins from the next round drawn."""
    if tournament.status == Tournament.Status.FINISHED:
        raise Conflict("The tournament is finished.")
    if team is not None and team.tournament_id != tournament.pk:
        raise ServiceError("The team belongs to another tournament.")
    late = tournament.rounds.exists()
    ClubMembership.objects.get_or_create(
        club_id=tournament.club_id, player=player, defaults={"kind": ClubMembership.Kind.GUEST}
    )
    try:
        with transaction.atomic():
            return Registration.objects.create(
                tournament=tournament, player=player, team=team, late=late
            )
    except IntegrityError as exc:
        raise Conflict(f"{player} is already registered.") from exc


@transaction.atomic
def check_in_registration(*, registration: Registration) -> Registration:
    """Mark a player present; a withdrawn player who comes back is checked in again."""
    registration = Registration.objects.select_for_update().get(pk=registration.pk)
    if registration.status != Registration.Status.CHECKED_IN:
        registration.status = Registration.Status.CHECKED_IN
        registration.checked_in_at = timezone.now()
        registration.withdrawn_at = None
        registration.save(update_fields=["status", "checked_in_at", "withdrawn_at"])
    return registration


@transaction.atomic
def withdraw_registration(*, registration: Registration) -> Registration:
    """Withdraw a player: not drawn in later rounds; seats already drawn stay."""
    registration = Registration.objects.select_for_update().get(pk=registration.pk)
    if registration.status != Registration.Status.WITHDRAWN:
        registration.status = Registration.Status.WITHDRAWN
        registration.withdrawn_at = timezone.now()
        registration.save(update_fields=["status", "withdrawn_at"])
    return registration


# --- rounds ---------------------------------------------------------------------------


def _draw_individual(players: Sequence[Player], rng: random.Random) -> tuple[list, list]:
    """Placeholder draw until tournaments.seating lands: shuffle, groups of four."""
    shuffled = list(players)
    rng.shuffle(shuffled)
    full = len(shuffled) - len(shuffled) % 4
    tables = [shuffled[i : i + 4] for i in range(0, full, 4)]
    return tables, shuffled[full:]


def _draw_teams(teams: Sequence[Team], rng: random.Random) -> tuple[list, list]:
    """Placeholder team draw: shuffle the teams and pair them; partners sit opposite."""
    shuffled = list(teams)
    rng.shuffle(shuffled)
    pairs = [shuffled[i : i + 2] for i in range(0, len(shuffled) - 1, 2)]
    return pairs, shuffled[len(pairs) * 2 :]


def _present_players(tournament: Tournament) -> list[Player]:
    registrations = tournament.registrations.checked_in().select_related("player")
    return [r.player for r in registrations.order_by("player_id")]


def _present_teams(tournament: Tournament) -> list[Team]:
    present = set(tournament.registrations.checked_in().values_list("player_id", flat=True))
    teams = tournament.teams.prefetch_related("players").order_by("id")
    return [
        t for t in teams if len(t.players.all()) == 2 and {p.pk for p in t.players.all()} <= present
    ]


def _create_table(
    *, round_: Round, number: int, seats: Sequence[Player], teams: Sequence[Team] = ()
) -> Table:
    tournament = round_.tournament
    table = Table.objects.create(round=round_, number=number)
    for position, player in enumerate(seats):
        Seat.objects.create(table=table, round=round_, position=position, player=player)
    liga = tournament.match_mode == Tournament.MatchMode.LIGA
    Match.objects.create(
        round=round_,
        table=table,
        mode=Match.Mode.LIGA if liga else Match.Mode.DEALS,
        deals_planned=None if liga else tournament.deals_per_match,
        target=tournament.liga_target if liga else None,
        home_team=teams[0] if teams else None,
        away_team=teams[1] if teams else None,
    )
    return table


def _bye_points(tournament: Tournament) -> int:
    # Average byes are filled in by the standings computation; only fixed ones are known.
    if tournament.bye_score_mode == Tournament.ByeScoreMode.FIXED:
        return tournament.bye_fixed_points
    return 0


def _seat_round(round_: Round) -> None:
    tournament = round_.tournament
    rng = random.Random(round_.seed * 1000 + round_.attempt)
    if tournament.uses_teams:
        pairs, idle = _draw_teams(_present_teams(tournament), rng)
        for number, (a, b) in enumerate(pairs, start=1):
            pa, pb = list(a.players.all()), list(b.players.all())
            _create_table(round_=round_, number=number, seats=[pa[0], pb[0], pa[1], pb[1]],
                          teams=(a, b))  # fmt: skip
        byes = [p for team in idle for p in team.players.all()]
    else:
        tables, byes = _draw_individual(_present_players(tournament), rng)
        for number, seats in enumerate(tables, start=1):
            _create_table(round_=round_, number=number, seats=seats)
    for player in byes:
        Bye.objects.create(round=round_, player=player, points=_bye_points(tournament))


@transaction.atomic
def draw_round(*, tournament: Tournament, seed: int | None = None) -> Round:
    """Draw the next round as a draft from the checked-in players."""
    tournament = Tournament.objects.select_for_update().get(pk=tournament.pk)
    if tournament.status != Tournament.Status.RUNNING:
        raise Conflict("Start the tournament before drawing a round.")
    if tournament.rounds.open().exists():
        raise Conflict("Close the current round before drawing the next one.")
    if (planned := tournament.planned_rounds) and tournament.rounds.count() >= planned:
        raise Conflict(f"All {planned} planned rounds have been played.")
    number = tournament.rounds.count() + 1
    round_ = Round.objects.create(
        tournament=tournament,
        number=number,
        seed=seed if seed is not None else secrets.randbits(31),
    )
    _seat_round(round_)
    if not round_.tables.exists():
        raise ServiceError("Not enough checked-in players for a single table.")
    return round_


@transaction.atomic
def redraw_round(*, round_: Round) -> Round:
    round_ = Round.objects.select_for_update().select_related("tournament").get(pk=round_.pk)
    if round_.status != Round.Status.DRAFT:
        raise Conflict("Only a draft round can be drawn again.")
    round_.tables.all().delete()
    round_.byes.all().delete()
    round_.attempt = F("attempt") + 1
    round_.save(update_fields=["attempt"])
    round_.refresh_from_db()
    _seat_round(round_)
    return round_


@transaction.atomic
def publish_round(*, round_: Round) -> Round:
    round_ = Round.objects.select_for_update().get(pk=round_.pk)
    if round_.status != Round.Status.DRAFT:
        raise Conflict("The round is already published.")
    round_.status = Round.Status.PUBLISHED
    round_.published_at = timezone.now()
    round_.save(update_fields=["status", "published_at"])
    return round_


@transaction.atomic
def close_round(*, round_: Round, force: bool = False) -> Round:
    """Close a published round. Open matches block it unless ``force``; closing ends
    every device code of the round."""
    round_ = Round.objects.select_for_update().get(pk=round_.pk)
    if round_.status != Round.Status.PUBLISHED:
        raise Conflict("Only a published round can be closed.")
    open_tables = list(
        round_.matches.unfinished()
        .order_by("table__number")
        .values_list("table__number", flat=True)
    )
    if open_tables and not force:
        tables = ", ".join(str(n) for n in open_tables)
        raise Conflict(f"Tables {tables} have not finished; close with force to override.")
    now = timezone.now()
    round_.status = Round.Status.CLOSED
    round_.closed_at = now
    round_.save(update_fields=["status", "closed_at"])
    DeviceCredential.objects.filter(table__round=round_, revoked_at__isnull=True).update(
        revoked_at=now
    )
    notify_results_changed(tournament_id=round_.tournament_id)
    return round_


# --- devices --------------------------------------------------------------------------


def generate_device_code() -> str:
    return "".join(secrets.choice(CODE_ALPHABET) for _ in range(CODE_LENGTH))


@transaction.atomic
def issue_device_code(*, table: Table) -> tuple[DeviceCredential, str]:
    """A new code for a table, revoking the table's earlier ones. The plain code is
    returned once and never stored."""
    if table.round.status == Round.Status.CLOSED:
        raise Conflict("The round is closed.")
    revoke_device_credentials(table=table)
    hours = getattr(settings, "DEVICE_CODE_TTL_HOURS", 12)
    code = generate_device_code()
    credential = DeviceCredential.objects.create(
        table=table,
        code_hash=hash_device_code(code),
        expires_at=timezone.now() + timedelta(hours=hours),
    )
    return credential, code


@transaction.atomic
def revoke_device_credentials(*, table: Table) -> int:
    return DeviceCredential.objects.filter(table=table, revoked_at__isnull=True).update(
        revoked_at=timezone.now()
    )


# --- matches --------------------------------------------------------------------------


@transaction.atomic
def confirm_match(
    *,
    match: Match,
    team: int,
    user: Any = None,
    device: DeviceCredential | None = None,
) -> Match:
    """One team confirms a finished match's results; both teams → confirmed."""
    match = Match.objects.select_for_update().get(pk=match.pk)
    if match.status == Match.Status.OPEN:
        raise Conflict("The match is not finished yet: enter all deals first.")
    if not match.confirmations.filter(team=team).exists():
        MatchConfirmation.objects.create(
            match=match, team=team, confirmed_by_user=user, confirmed_by_device=device
        )
    if match.confirmations.count() == 2 and match.status != Match.Status.CONFIRMED:
        match.status = Match.Status.CONFIRMED
        match.save(update_fields=["status"])
    return match
