"""State changes of clubs, tournaments, rounds, tables and device credentials.

One ``@transaction.atomic`` function per state change, keyword-only arguments. Raises
``ServiceError`` subclasses (with an HTTP status the API maps them to) for requests that
break the rules of the tournament. Seating is a simple seeded random draw here until the
seating module takes over; standings are not computed here.
"""

from __future__ import annotations

import secrets
import threading
import time
from collections import Counter, defaultdict
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from datetime import timedelta
from typing import Any

from django.conf import settings
from django.core.cache import cache
from django.db import IntegrityError, connection, transaction
from django.db.models import F, Q
from django.utils import timezone

from klammern_site.db import prepared_cursor

from . import seating, selectors, standings
from .models import (
    Bye,
    Club,
    ClubMembership,
    DeviceCredential,
    ForbiddenPairing,
    Match,
    MatchConfirmation,
    Player,
    Registration,
    Round,
    RoundQuerySet,
    Seat,
    StandingsSnapshot,
    Table,
    Team,
    TeamMember,
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


STANDINGS_FLAG = "standings-queued:{}"
LEADERBOARDS_FLAG = "leaderboards-queued:{}"
#: A queued flag older than this is presumed lost (killed worker, flushed queue).
FLAG_STALE_SECONDS = 120


_held_back = threading.local()


@contextmanager
def results_changes_last() -> Iterator[None]:
    """Inside an atomic block: ``notify_results_changed`` calls are held back and made, in
    order, when the block ends without an error, so that their version bumps are the
    transaction's last statements. Callers that write more after the service (the
    idempotency record) keep the hot tournament and club rows locked only for the bump
    and the commit that follows; every submission of the tournament waits for them."""
    if getattr(_held_back, "calls", None) is not None:  # nested: the outer one makes them
        yield
        return
    _held_back.calls = calls = []
    try:
        yield
    finally:
        _held_back.calls = None
    for kwargs in calls:  # not reached on an error: the transaction is rolled back
        notify_results_changed(**kwargs)


def notify_results_changed(*, tournament_id: int, club_id: int | None = None) -> None:
    """Record that a tournament's results changed: bump its ``results_version`` and its
    club's, and after commit queue one standings and one leaderboards recompute unless
    one is queued already (bursts of submissions coalesce; both flags are looked at in
    one Redis round trip).

    The two UPDATEs lock hot rows (every submission of the tournament, and of the club,
    takes them in turn) until the commit: callers make this their last write, or run in
    ``results_changes_last``. On PostgreSQL both are one statement that also returns the
    club; elsewhere pass ``club_id`` when it is known, to spare a query."""
    held_back = getattr(_held_back, "calls", None)
    if held_back is not None:
        held_back.append({"tournament_id": tournament_id, "club_id": club_id})
        return
    if connection.vendor == "postgresql":
        club_id = _bump_results_versions(tournament_id)
    else:
        Tournament.objects.filter(pk=tournament_id).update(results_version=F("results_version") + 1)
        if club_id is None:
            club_id = Tournament.objects.values_list("club_id", flat=True).get(pk=tournament_id)
        Club.objects.filter(pk=club_id).update(results_version=F("results_version") + 1)
    transaction.on_commit(
        lambda: enqueue_result_recomputes(tournament_id=tournament_id, club_id=club_id),
        robust=True,
    )


def _bump_results_versions(tournament_id: int) -> int:
    """Both version bumps in one statement (one round trip, no ORM compiling on every
    deal); the tournament row is locked first, as everywhere, because the club's UPDATE
    reads the tournament's. The club's id; an unknown tournament raises DoesNotExist."""
    with prepared_cursor() as cursor:
        cursor.execute(
            f"WITH t AS (UPDATE {Tournament._meta.db_table} "
            "SET results_version = results_version + 1 WHERE id = %s RETURNING club_id) "
            f"UPDATE {Club._meta.db_table} SET results_version = results_version + 1 "
            "WHERE id IN (SELECT club_id FROM t) RETURNING id",
            [tournament_id],
        )
        row = cursor.fetchone()
    if row is None:
        return Tournament.objects.values_list("club_id", flat=True).get(pk=tournament_id)
    return int(row[0])


def _enqueue_once(flag: str, send: Any, *, force: bool = False) -> bool:
    """Send unless ``flag`` marks a queued task; ``force`` replaces a stale flag. If the
    broker refuses, the flag is dropped again so the beat task can retry later."""
    now = time.time()
    if not cache.add(flag, now, timeout=FLAG_STALE_SECONDS * 10):
        if not force:  # queued already: one round trip, the flag's age is not needed
            return False
        queued_at = cache.get(flag)
        if queued_at is not None and now - float(queued_at) < FLAG_STALE_SECONDS:
            return False
        cache.set(flag, now, timeout=FLAG_STALE_SECONDS * 10)
    _send_or_drop(flag, send)
    return True


def _send_or_drop(flag: str, send: Any) -> None:
    """``send()``; if the broker refuses, the flag is dropped again so the beat task can
    retry later."""
    try:
        send()
    except Exception:
        cache.delete(flag)
        raise


def _send_recompute(task: Any, owner_id: int) -> None:
    """Queue a recompute; with ``RECOMPUTE_DEBOUNCE_SECONDS`` it starts that much later,
    so that the results of a burst (the flag stays set until the task starts) are
    counted by one recompute instead of one per deal."""
    delay = getattr(settings, "RECOMPUTE_DEBOUNCE_SECONDS", 0)
    if delay > 0:
        task.apply_async((owner_id,), countdown=delay)
    else:
        task.delay(owner_id)


def enqueue_result_recomputes(*, tournament_id: int, club_id: int) -> None:
    """What a new result queues: ``enqueue_standings_recompute`` and
    ``enqueue_leaderboards_recompute`` (not forced), with both flags added in one Redis
    round trip. A broker error is raised after both were tried."""
    from . import tasks

    queued = [
        (STANDINGS_FLAG.format(tournament_id), tasks.recompute_standings_task, tournament_id),
        (LEADERBOARDS_FLAG.format(club_id), tasks.recompute_club_leaderboards_task, club_id),
    ]
    added = _add_flags([flag for flag, _, _ in queued])
    failure: Exception | None = None
    for (flag, task, owner_id), was_added in zip(queued, added, strict=True):
        try:
            if was_added:
                _send_or_drop(flag, lambda t=task, o=owner_id: _send_recompute(t, o))
        except Exception as exc:
            failure = failure or exc
    if failure is not None:
        raise failure


def _add_flags(flags: list[str]) -> list[bool]:
    """``cache.add(flag, now, ...)`` for each flag: in one round trip where the cache
    offers it (``ResilientRedisCache.add_each``), one by one elsewhere."""
    now, timeout = time.time(), FLAG_STALE_SECONDS * 10
    add_each = getattr(cache, "add_each", None)
    if add_each is not None:
        return list(add_each(flags, now, timeout))
    return [cache.add(flag, now, timeout=timeout) for flag in flags]


def enqueue_standings_recompute(*, tournament_id: int, force: bool = False) -> bool:
    from . import tasks

    return _enqueue_once(
        STANDINGS_FLAG.format(tournament_id),
        lambda: _send_recompute(tasks.recompute_standings_task, tournament_id),
        force=force,
    )


def enqueue_leaderboards_recompute(*, club_id: int, force: bool = False) -> bool:
    from . import tasks

    return _enqueue_once(
        LEADERBOARDS_FLAG.format(club_id),
        lambda: _send_recompute(tasks.recompute_club_leaderboards_task, club_id),
        force=force,
    )


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
            registration = Registration.objects.create(
                tournament=tournament, player=player, team=team, late=late
            )
    except IntegrityError as exc:
        raise Conflict(f"{player} is already registered.") from exc
    return registration


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


# --- seating constraints: fixed tables and forbidden pairings ---------------------------
#
# Both are read when a round is drawn (``_entrants`` and ``_seating_options``), so a change
# takes effect from the NEXT draw, a redraw of a draft round included; rounds already
# drawn keep their seating. Only individual tournaments use them (pairs and league draws
# seat whole teams).

#: The highest table number a player can be fixed to.
MAX_FIXED_TABLE = 999


def _check_constraints_editable(tournament: Tournament, what: str) -> None:
    if tournament.status == Tournament.Status.FINISHED:
        raise Conflict("The tournament is finished.")
    if tournament.format != Tournament.Format.INDIVIDUAL:
        raise Conflict(f"{what} apply only to individual tournaments.")


@transaction.atomic
def fix_player_table(*, registration: Registration, table_number: int | None) -> Registration:
    """Always seat this player at table ``table_number`` (1-based) from the next draw on;
    ``None`` clears it. A table the field does not fill in a round is ignored then (the
    draw reports it in the round's ``cost.ignored_pins``). At most four players can be
    fixed to one table."""
    registration = (
        Registration.objects.select_for_update()
        .select_related("tournament", "player")
        .get(pk=registration.pk)
    )
    tournament = registration.tournament
    if tournament.status == Tournament.Status.FINISHED:
        raise Conflict("The tournament is finished.")
    if table_number is not None:
        _check_constraints_editable(tournament, "Fixed tables")
        if isinstance(table_number, bool) or not 1 <= table_number <= MAX_FIXED_TABLE:
            raise ServiceError(f"The table number must be between 1 and {MAX_FIXED_TABLE}.")
        others = (
            tournament.registrations.active()
            .filter(fixed_table=table_number)
            .exclude(pk=registration.pk)
        )
        if others.count() >= 4:
            raise Conflict(f"Four players are already fixed to table {table_number}.")
    if registration.fixed_table != table_number:
        registration.fixed_table = table_number
        registration.save(update_fields=["fixed_table"])
    return registration


@transaction.atomic
def forbid_pairing(
    *, tournament: Tournament, player_a: Player, player_b: Player
) -> ForbiddenPairing:
    """Never seat these two players at one table (neither as partners nor as opponents)
    from the next draw on. Stored with the lower player id first, so that a pair is one
    row whichever way round it was entered (``unique_forbidden_pairing``)."""
    tournament = Tournament.objects.select_for_update().get(pk=tournament.pk)
    _check_constraints_editable(tournament, "Forbidden pairings")
    if player_a.pk == player_b.pk:
        raise ServiceError("Choose two different players.")
    registered = set(
        tournament.registrations.filter(player__in=[player_a.pk, player_b.pk]).values_list(
            "player_id", flat=True
        )
    )
    for player in (player_a, player_b):
        if player.pk not in registered:
            raise ServiceError(f"{player.name} is not registered in this tournament.")
    first, second = sorted((player_a, player_b), key=lambda p: p.pk)
    duplicate = Conflict(f"{first.name} and {second.name} are already kept apart.")
    existing = tournament.forbidden_pairings.filter(
        Q(player_a=first, player_b=second) | Q(player_a=second, player_b=first)
    )
    if existing.exists():
        raise duplicate
    try:
        with transaction.atomic():
            return ForbiddenPairing.objects.create(
                tournament=tournament, player_a=first, player_b=second
            )
    except IntegrityError as exc:
        raise duplicate from exc


@transaction.atomic
def allow_pairing(*, pairing: ForbiddenPairing) -> None:
    """Remove a forbidden pairing: from the next draw on the two may meet again."""
    pairing.delete()


# --- rounds ---------------------------------------------------------------------------


class DrawInputs:
    """What one round's draw needs, loaded from the rows (see ``_draw_inputs``)."""

    def __init__(self, tournament: Tournament, number: int, registered_before: Any) -> None:
        self.tournament = tournament
        self.number = number
        self.registrations = list(
            tournament.registrations.checked_in()
            .filter(created__lte=registered_before)
            .select_related("player")
            .order_by("player_id")
        )


def _home_clubs(tournament: Tournament, player_ids: Sequence[int]) -> dict[int, int]:
    """A player's club for 'same club': this tournament's club if they are a member of it,
    else the lowest-numbered club they are a member of (guests elsewhere count as none)."""
    clubs: dict[int, int] = {}
    rows = ClubMembership.objects.filter(
        player_id__in=player_ids, kind=ClubMembership.Kind.MEMBER
    ).values_list("player_id", "club_id")
    for player, club in sorted(rows, key=lambda r: (r[1] != tournament.club_id, r[1])):
        clubs.setdefault(player, club)
    return clubs


def _entrants(inputs: DrawInputs) -> list[seating.Entrant]:
    regs = inputs.registrations
    clubs = _home_clubs(inputs.tournament, [r.player_id for r in regs])
    table_count = len(regs) // 4
    return [
        seating.Entrant(
            id=r.player_id,
            club=clubs.get(r.player_id),
            household=r.player.household.strip() or None,
            # Registration.fixed_table is the table number (1-based); a pin to a table the
            # field does not fill this round is ignored rather than failing the draw.
            fixed_table=r.fixed_table - 1
            if r.fixed_table and r.fixed_table <= table_count
            else None,
        )
        for r in regs
    ]


def _earlier_rounds(tournament: Tournament, number: int) -> RoundQuerySet:
    return tournament.rounds.filter(number__lt=number).exclude(status=Round.Status.DRAWING)


def _individual_history(tournament: Tournament, number: int) -> seating.SeatingHistory:
    tables: dict[int, dict[int, list[int]]] = defaultdict(lambda: defaultdict(lambda: [0] * 4))
    rounds = _earlier_rounds(tournament, number)
    for round_id, table_id, position, player in Seat.objects.filter(round__in=rounds).values_list(
        "round_id", "table_id", "position", "player_id"
    ):
        tables[round_id][table_id][position] = player
    byes = Bye.objects.filter(round__in=rounds).values_list("player_id", flat=True)
    return seating.history_from_tables(
        [[tuple(seats) for seats in by_table.values()] for by_table in tables.values()],
        byes=list(byes),
    )


def _seating_options(tournament: Tournament) -> seating.SeatingOptions:
    forbidden = frozenset(
        frozenset(pair)
        for pair in tournament.forbidden_pairings.values_list("player_a_id", "player_b_id")
    )
    return seating.SeatingOptions(
        avoid_same_club=tournament.avoid_same_club,
        avoid_same_household=tournament.avoid_same_household,
        forbidden=forbidden,
        planned_rounds=tournament.planned_rounds,
    )


def _seat_individual(round_: Round, inputs: DrawInputs) -> dict[str, Any]:
    tournament = round_.tournament
    entrants = _entrants(inputs)
    draw = seating.draw_individual(
        entrants, _individual_history(tournament, round_.number), round_number=round_.number,
        seed=round_.seed, attempt=round_.attempt, options=_seating_options(tournament),
    )  # fmt: skip
    _create_tables(round_=round_, tables=[(seats, None) for seats in draw.tables])
    _create_byes(round_=round_, players=draw.byes)
    pinned = {r.player_id for r in inputs.registrations if r.fixed_table}
    ignored = sorted(pinned - {e.id for e in entrants if e.fixed_table is not None})
    return {**draw.cost.to_dict(), "kind": "individual", "ignored_pins": ignored}


def _team_players(tournament: Tournament, present: set[int]) -> dict[int, list[int]]:
    """Each team's checked-in players, lowest player id first."""
    players: dict[int, list[int]] = defaultdict(list)
    rows = TeamMember.objects.filter(team__tournament=tournament).order_by("player_id")
    for team, player in rows.values_list("team_id", "player_id"):
        if player in present:
            players[team].append(player)
    return players


def _pair_history(tournament: Tournament, number: int) -> seating.PairHistory:
    rounds = _earlier_rounds(tournament, number)
    by_round: dict[int, list[tuple[int, int]]] = defaultdict(list)
    for round_id, home, away in Match.objects.filter(
        round__in=rounds, home_team__isnull=False, away_team__isnull=False
    ).values_list("round_id", "home_team_id", "away_team_id"):
        by_round[round_id].append((home, away))
    team_of = dict(
        TeamMember.objects.filter(team__tournament=tournament).values_list("player_id", "team_id")
    )
    bye_teams = {
        (round_id, team_of[player])
        for round_id, player in Bye.objects.filter(round__in=rounds).values_list(
            "round_id", "player_id"
        )
        if player in team_of
    }
    return seating.pair_history_from_tables(
        list(by_round.values()), byes=[team for _, team in bye_teams]
    )


def _swiss_order(tournament: Tournament, pairs: Sequence[int]) -> list[int]:
    """Active pairs best first by the stored standings; pairs without a row last."""
    snapshot = StandingsSnapshot.objects.filter(tournament=tournament).first()
    rows = (snapshot.data.get("rows") if snapshot else None) or []
    active = set(pairs)
    order = [r["entrant"] for r in rows if r.get("entrant") in active]
    return order + sorted(active - set(order))


def _seat_pairs(round_: Round, inputs: DrawInputs) -> dict[str, Any]:
    tournament = round_.tournament
    players = _team_players(tournament, {r.player_id for r in inputs.registrations})
    pairs = sorted(team for team, members in players.items() if len(members) >= 2)
    draw = seating.draw_pairs(
        pairs, _pair_history(tournament, round_.number), round_number=round_.number,
        seed=round_.seed, attempt=round_.attempt,
        swiss_order=_swiss_order(tournament, pairs) if tournament.swiss else None,
    )  # fmt: skip
    _create_tables(
        round_=round_,
        tables=[(_pair_seats(players[a], players[b]), (a, b)) for a, b in draw.tables],
    )
    _create_byes(round_=round_, players=[p for team in draw.byes for p in players[team][:2]])
    return {**draw.cost.to_dict(), "kind": "pairs", "swiss": tournament.swiss}


def _pair_seats(first: Sequence[int], second: Sequence[int]) -> tuple[int, int, int, int]:
    """Partners sit opposite: the first pair in seats 0 & 2."""
    return (first[0], second[0], first[1], second[1])


def league_schedule(tournament: Tournament) -> list[seating.LeagueRound]:
    """The season's fixture list: teams in id order (the seeding), round robin."""
    team_ids = list(tournament.teams.order_by("id").values_list("id", flat=True))
    if len(team_ids) < 2:
        return []
    return seating.league_fixtures(team_ids, home_and_away=tournament.home_and_away)


def _seat_league(round_: Round, inputs: DrawInputs) -> dict[str, Any]:
    """Fixture round n of the season. Each team sends its first two checked-in players
    (lowest player id first); a fixture where a team has fewer is not seated and listed
    in ``skipped``. The resting team gets no bye: a league rest scores nothing."""
    tournament = round_.tournament
    fixtures = league_schedule(tournament)[round_.number - 1]
    players = _team_players(tournament, {r.player_id for r in inputs.registrations})
    tables, skipped = [], []
    for home, away in fixtures.matches:
        if len(players[home]) >= 2 and len(players[away]) >= 2:
            tables.append((_pair_seats(players[home], players[away]), (home, away)))
        else:
            skipped.append([home, away])
    _create_tables(round_=round_, tables=tables)
    return {"kind": "league", "fixture_round": fixtures.number, "rest": fixtures.bye,
            "skipped": skipped}  # fmt: skip


def _create_tables(
    *, round_: Round, tables: Sequence[tuple[Sequence[int], tuple[int, int] | None]]
) -> None:
    tournament = round_.tournament
    liga = tournament.match_mode == Tournament.MatchMode.LIGA
    created = Table.objects.bulk_create(
        [Table(round=round_, number=n) for n in range(1, len(tables) + 1)]
    )
    Seat.objects.bulk_create(
        Seat(table=table, round=round_, position=position, player_id=player)
        for table, (seats, _) in zip(created, tables, strict=True)
        for position, player in enumerate(seats)
    )
    Match.objects.bulk_create(
        Match(
            round=round_,
            table=table,
            mode=Match.Mode.LIGA if liga else Match.Mode.DEALS,
            deals_planned=None if liga else tournament.deals_per_match,
            target=tournament.liga_target if liga else None,
            home_team_id=teams[0] if teams else None,
            away_team_id=teams[1] if teams else None,
        )  # fmt: skip
        for table, (_, teams) in zip(created, tables, strict=True)
    )


def _create_byes(*, round_: Round, players: Sequence[int]) -> None:
    # Average byes are filled in by the standings computation; only fixed ones are known.
    tournament = round_.tournament
    fixed = tournament.bye_score_mode == Tournament.ByeScoreMode.FIXED
    points = tournament.bye_fixed_points if fixed else 0
    Bye.objects.bulk_create(Bye(round=round_, player_id=p, points=points) for p in players)


def _check_drawable(inputs: DrawInputs) -> None:
    """The synchronous checks of a draw request (the task itself cannot refuse)."""
    tournament = inputs.tournament
    if tournament.format == Tournament.Format.INDIVIDUAL:
        if len(inputs.registrations) < 4:
            raise ServiceError("Not enough checked-in players for a single table.")
        pins = Counter(
            e.fixed_table for e in _entrants(inputs) if e.fixed_table is not None
        )  # fmt: skip
        if pins and max(pins.values()) > 4:
            raise Conflict("More than four players are fixed to one table.")
        return
    if tournament.format == Tournament.Format.LEAGUE:
        if inputs.number > len(league_schedule(tournament)):
            raise Conflict("All rounds of the season's fixture list have been drawn.")
        return
    present = {r.player_id for r in inputs.registrations}
    players = _team_players(tournament, present)
    if sum(1 for members in players.values() if len(members) >= 2) < 2:
        raise ServiceError("Not enough checked-in players for a single table.")


SEATERS = {
    Tournament.Format.INDIVIDUAL: _seat_individual,
    Tournament.Format.PAIRS: _seat_pairs,
    Tournament.Format.LEAGUE: _seat_league,
}


@transaction.atomic
def seat_round(*, round_id: int) -> Round:
    """Seat a round that is being drawn and make it a draft (the draw task's work).

    Idempotent: a round no longer in ``drawing`` (seated already, published, closed) is
    left alone, so a redelivered or duplicated task changes nothing. The seed, attempt
    and cost breakdown are stored on the round for the organiser."""
    round_ = Round.objects.select_for_update().select_related("tournament").get(pk=round_id)
    if round_.status != Round.Status.DRAWING:
        return round_
    round_.tables.all().delete()  # a half-written earlier try cannot survive; be explicit
    round_.byes.all().delete()
    inputs = DrawInputs(round_.tournament, round_.number, round_.created)
    try:
        cost = SEATERS[round_.tournament.format](round_, inputs)
    except ValueError as error:  # e.g. the field shrank below four since the request
        cost = {"error": str(error)}
    round_.cost = cost
    round_.status = Round.Status.DRAFT
    round_.save(update_fields=["cost", "status"])
    return round_


def _enqueue_draw(round_id: int) -> None:
    from . import tasks

    transaction.on_commit(lambda: tasks.draw_round_task.delay(round_id), robust=True)


@transaction.atomic
def request_round_draw(*, tournament: Tournament, seed: int | None = None) -> Round:
    """Create the next round in ``drawing`` and queue its draw (after commit). Checks
    everything that could refuse the draw now, so the task always succeeds."""
    tournament = Tournament.objects.select_for_update().get(pk=tournament.pk)
    if tournament.status != Tournament.Status.RUNNING:
        raise Conflict("Start the tournament before drawing a round.")
    if tournament.rounds.open().exists():
        raise Conflict("Close the current round before drawing the next one.")
    if (planned := tournament.planned_rounds) and tournament.rounds.count() >= planned:
        raise Conflict(f"All {planned} planned rounds have been played.")
    number = tournament.rounds.count() + 1
    _check_drawable(DrawInputs(tournament, number, timezone.now()))
    round_ = Round.objects.create(
        tournament=tournament,
        number=number,
        status=Round.Status.DRAWING,
        seed=seed if seed is not None else secrets.randbits(31),
    )
    _enqueue_draw(round_.pk)
    return round_


@transaction.atomic
def request_redraw(*, round_: Round) -> Round:
    """Throw away a draft's seating and queue a new draw with the next attempt number."""
    round_ = Round.objects.select_for_update().select_related("tournament").get(pk=round_.pk)
    if round_.status != Round.Status.DRAFT:
        raise Conflict("Only a draft round can be drawn again.")
    round_.tables.all().delete()
    round_.byes.all().delete()
    round_.attempt += 1
    round_.status = Round.Status.DRAWING
    round_.cost = {}
    round_.save(update_fields=["attempt", "status", "cost"])
    _enqueue_draw(round_.pk)
    return round_


def draw_round(*, tournament: Tournament, seed: int | None = None) -> Round:
    """Draw the next round now, in this process (scripts, the console, inside an outer
    transaction): ``request_round_draw`` then ``seat_round``. The queued task finds the
    round seated and does nothing."""
    round_ = request_round_draw(tournament=tournament, seed=seed)
    return seat_round(round_id=round_.pk)


def redraw_round(*, round_: Round) -> Round:
    """Draw a draft again now, in this process (see ``draw_round``)."""
    round_ = request_redraw(round_=round_)
    return seat_round(round_id=round_.pk)


@transaction.atomic
def publish_round(*, round_: Round) -> Round:
    round_ = Round.objects.select_for_update().get(pk=round_.pk)
    if round_.status == Round.Status.DRAWING:
        raise Conflict("The round is still being drawn; try again in a moment.")
    if round_.status != Round.Status.DRAFT:
        raise Conflict("The round is already published.")
    if not round_.tables.exists():
        raise Conflict(f"The draw seated nobody: {round_.cost.get('error', 'no tables')}.")
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


# --- standings ------------------------------------------------------------------------

TIEBREAK_NAMES = {
    "match_points": standings.TieBreak.TOURNAMENT_POINTS,
    "tournament_points": standings.TieBreak.TOURNAMENT_POINTS,
    "games_won": standings.TieBreak.GAMES_WON,
    "point_difference": standings.TieBreak.POINT_DIFFERENCE,
    "points": standings.TieBreak.AUGEN,
    "augen": standings.TieBreak.AUGEN,
    "opponents_strength": standings.TieBreak.BUCHHOLZ,
    "buchholz": standings.TieBreak.BUCHHOLZ,
    "head_to_head": standings.TieBreak.HEAD_TO_HEAD,
}


def tiebreak_chain(tournament: Tournament) -> tuple[standings.TieBreak, ...]:
    """The tournament's chain of tie-breaks (organiser names mapped to criteria; unknown
    names and repeats dropped; the default chain if the first is not a score)."""
    chain: list[standings.TieBreak] = []
    for name in tournament.tiebreaks or []:
        criterion = TIEBREAK_NAMES.get(name)
        if criterion is not None and criterion not in chain:
            chain.append(criterion)
    if not chain or chain[0] in (standings.TieBreak.BUCHHOLZ, standings.TieBreak.HEAD_TO_HEAD):
        return standings.DEFAULT_TIEBREAKS
    return tuple(chain)


def bye_score(tournament: Tournament) -> standings.ByeScore:
    """A fixed bye scores ``bye_fixed_points`` tournament points; otherwise the round's
    average of every criterion."""
    if tournament.bye_score_mode == Tournament.ByeScoreMode.FIXED:
        return standings.ByeScore.fixed(tournament.bye_fixed_points)
    return standings.ByeScore()


def _game(match: selectors.ScoredMatch, team_of: dict[int, int] | None) -> standings.GameResult:
    s = match.seats
    if team_of is None:
        teams: tuple[tuple[int, ...], tuple[int, ...]] = ((s[0], s[2]), (s[1], s[3]))
    else:
        home = match.home_team or team_of.get(s[0], -s[0])
        away = match.away_team or team_of.get(s[1], -s[1])
        teams = ((home,), (away,))
    big = match.big
    if match.mode == Match.Mode.LIGA:  # a Liga-Partie is one game: its winner takes it
        winner = match.liga_winner
        big = (0, 0) if winner is None else ((1, 0) if winner == 0 else (0, 1))
    return standings.GameResult(
        round=match.round, table=match.table, teams=teams, big=big, small=match.small,
        match_points=match.match_points,
    )  # fmt: skip


def tournament_results(
    tournament: Tournament,
) -> tuple[list[standings.GameResult], list[standings.Bye], list[int]]:
    """Games, byes and entrants of a tournament's published and closed rounds. Matches
    count live, as they stand (a table with one deal entered is a game).

    Only results bump ``results_version``: a registration, or a round's byes, show in the
    snapshot with the next result entered (or the round's close)."""
    rounds = tournament.rounds.counted()
    matches = Match.objects.filter(round__in=rounds)
    team_of = None
    if tournament.uses_teams:
        team_of = dict(
            TeamMember.objects.filter(team__tournament=tournament).values_list(
                "player_id", "team_id"
            )
        )
    games = [_game(m, team_of) for m in selectors.scored_matches(matches)]
    bye_rows = set(Bye.objects.filter(round__in=rounds).values_list("round__number", "player_id"))
    if team_of is not None:  # a pair's bye, once per pair
        bye_rows = {(n, team_of[p]) for n, p in bye_rows if p in team_of}
        entrants = list(tournament.teams.values_list("id", flat=True))
    else:
        entrants = list(tournament.registrations.active().values_list("player_id", flat=True))
    byes = [standings.Bye(n, p) for n, p in sorted(bye_rows)]
    return games, byes, entrants


def compute_tournament_standings(*, tournament_id: int) -> dict[str, Any]:
    """A full recompute of a tournament's standings from the stored deals (reads only).

    ``results_version`` is read first: the rows reflect at least that version (a change
    committed meanwhile may be in them too, and queues its own recompute)."""
    tournament = Tournament.objects.get(pk=tournament_id)
    chain = tiebreak_chain(tournament)
    games, byes, entrants = tournament_results(tournament)
    rows = [
        row.to_dict()
        for row in standings.tournament_standings(
            games, byes=byes, tiebreaks=chain, bye_score=bye_score(tournament), entrants=entrants
        )
    ]
    model = Team if tournament.uses_teams else Player
    ids = [r["entrant"] for r in rows]
    names = dict(model.objects.filter(pk__in=ids).values_list("pk", "name"))
    for row in rows:
        row["name"] = names.get(row["entrant"], "")
    return {
        "results_version": tournament.results_version,
        "entrant_kind": "team" if tournament.uses_teams else "player",
        "tiebreaks": [criterion.value for criterion in chain],
        "bye_score": {"mode": tournament.bye_score_mode, "fixed": tournament.bye_fixed_points},
        "games": len(games),
        "rows": rows,
    }


def recompute_standings(*, tournament_id: int) -> bool:
    """Recompute the standings and store them unless the snapshot already holds this or a
    newer version (a conditional UPDATE: the snapshot never goes backwards). True if
    stored."""
    data = compute_tournament_standings(tournament_id=tournament_id)
    return store_snapshot(
        StandingsSnapshot, owner={"tournament_id": tournament_id}, data=data,
        version=data["results_version"],
    )  # fmt: skip


def store_snapshot(
    model: Any, *, owner: dict[str, int], data: dict[str, Any], version: int
) -> bool:
    """Write a snapshot row of ``version`` unless it holds this or a newer one already."""
    stored = model.objects.filter(**owner, computed_version__lt=version).update(
        computed_version=version, data=data, computed_at=timezone.now()
    )
    if stored:
        return True
    try:
        with transaction.atomic():
            model.objects.create(**owner, computed_version=version, data=data)
    except IntegrityError:
        return False  # a snapshot of this or a newer version exists
    return True
