"""The plain services: clubs' players, tournaments, registrations, seating constraints,
round publishing and closing, table devices and match confirmations, and the club
settings and seasons that change what the club's tables count (``update_club``,
``assign_season``; a club's creation and organisers are ``clubs/services.py``).

One ``@transaction.atomic`` function per state change, keyword-only arguments. A request
the tournament's state does not allow raises an ``errors.ApplicationError`` with a stable
code. Changes that alter a standings table call ``results.notify_results_changed`` last.
Drawing rounds is ``draw``'s job, standings and leaderboards are ``snapshots``'s.
"""

from __future__ import annotations

import dataclasses
import secrets
from datetime import timedelta
from typing import Any

from django.conf import settings
from django.db import IntegrityError, transaction
from django.db.models import Count, Q
from django.utils import timezone
from django.utils.translation import gettext_lazy as _

from games import engine, profiles
from tournaments import formats
from tournaments.clubs.models import Club, ClubMembership, Player, Season
from tournaments.common.errors import Conflict, Refused
from tournaments.events.models import (
    DeviceCredential,
    ForbiddenPairing,
    Match,
    MatchConfirmation,
    Registration,
    Round,
    Table,
    Team,
    TeamMember,
    Tournament,
    hash_device_code,
)
from tournaments.events.versions import (
    notify_club_changed,
    notify_results_changed,
    queue_ratings_recompute,
    queue_round_rating,
)

FINISHED = _("The tournament is finished.")

# Letters and digits that cannot be mistaken for each other on a tablet screen.
CODE_ALPHABET = "ABCDEFGHJKLMNPQRSTUVWXYZ23456789"
CODE_LENGTH = 8
#: Fields the stored standings and club tables show or depend on besides the results.
SHOWN_FIELDS = frozenset({"name", "is_public"})


# --- clubs and players ----------------------------------------------------------------


@transaction.atomic
def create_player(
    *, club: Club, name: str, household: str = "", kind: str = ClubMembership.Kind.MEMBER
) -> Player:
    player = Player.objects.create(
        name=name, household=household, name_style=club.default_name_style
    )
    ClubMembership.objects.create(club=club, player=player, kind=kind)
    return player


@transaction.atomic
def update_player(*, player: Player, changes: dict[str, Any]) -> Player:
    """Change a player's details; a new name, or a new way of showing it, shows in every
    table the player is in."""
    renamed = any(
        field in changes and changes[field] != getattr(player, field)
        for field in ("name", "name_style")
    )
    for field, value in changes.items():
        setattr(player, field, value)
    player.save(update_fields=list(changes))
    if renamed:
        _notify_tables_of(player)
    return player


def _notify_tables_of(player: Player) -> None:
    """Bump the results version of every tournament the player is registered in, and of
    every club the player belongs to (its club tables name them, imported history too)."""
    for tournament_id in Tournament.objects.filter(registrations__player=player).values_list(
        "pk", flat=True
    ):
        _entrants_changed(tournament_id)
    clubs = ClubMembership.objects.filter(player=player).values_list("club_id", flat=True)
    for club_id in clubs.distinct().order_by():
        notify_club_changed(club_id=club_id)


def _entrants_changed(tournament_id: int) -> None:
    """An entrant of the tournament's tables came, went or was renamed: bump its results
    version unless nothing has been counted yet (no table can be stale then)."""
    club_id = (
        Tournament.objects.filter(pk=tournament_id, results_version__gt=0)
        .values_list("club_id", flat=True)
        .first()
    )
    if club_id is not None:
        notify_results_changed(tournament_id=tournament_id, club_id=club_id)


# --- tournaments ----------------------------------------------------------------------


#: Options a tournament cannot set: the preset fixes them.
PRESET_ONLY_OPTIONS = ("game", "players")


def rules_refusal(error: engine.RulesError) -> Refused:
    """The engine's refusal of a preset or option, said wholly in the caller's language
    (the engine's own words are English): by what it names in ``params``."""
    option = str(error.params.get("option", ""))
    if "preset" in error.params:
        return Refused(
            "unknown_rules",
            _("There is no rules preset %(preset)s. Known are: %(known)s."),
            params={"preset": error.params["preset"], "known": ", ".join(profiles.PRESET_NAMES)},
        )
    if option in PRESET_ONLY_OPTIONS:
        return Refused(
            "unknown_rules",
            _("The rules option %(option)s is fixed by the preset; choose another preset."),
            params={"option": option},
        )
    if option and option in {field.name for field in dataclasses.fields(engine.Options)}:
        return Refused(
            "unknown_rules",
            _("The rules option %(option)s has a value that is not allowed."),
            params={"option": option},
        )
    if option or "field" in error.params:
        return Refused(
            "unknown_rules",
            _("There is no rules option %(option)s."),
            params={"option": option or error.params["field"]},
        )
    return Refused("unknown_rules", _("These rules are unknown."))


def checked_rules(
    *, preset: str, options: Any, game_format: str = formats.INDIVIDUAL.format
) -> dict[str, Any]:
    """The match fields a tournament of these rules plays with; refuses an unknown preset
    or option (the engine's words) and a game of single players outside individual
    tournaments. Which match fields the rules fix is the game profile's
    (``GameProfile.match_fields``: a points match's length is its rules')."""
    try:
        rules = profiles.tournament_rules(preset, options)
    except engine.RulesError as exc:
        raise rules_refusal(exc) from exc
    profile = profiles.profile_for(preset, options)
    if profile.individual_only and formats.format_named(game_format).teams:
        raise Refused(
            "rules_format_mismatch",
            _("Klammern for two or three players is played as an individual tournament."),
        )
    return profile.match_fields(rules)


def _check_duplicate(*, preset: str, options: Any, duplicate: bool, match_mode: str) -> None:
    """A duplicate tournament plays a game whose profile offers duplicate, in matches of
    a fixed number of deals (each deal is a board every table plays)."""
    if not duplicate:
        return
    if not profiles.profile_for(preset, options or {}).duplicate:
        raise Refused(
            "duplicate_not_offered",
            _("This game cannot be played as a duplicate tournament."),
        )
    if match_mode != Tournament.MatchMode.DEALS:
        raise Refused(
            "duplicate_needs_deals",
            _("A duplicate tournament plays a fixed number of deals (boards) per table."),
        )


def _check_tiebreaks(chain: Any) -> None:
    """A tie-break chain names at least one criterion: an empty one ranks by nothing."""
    if chain is not None and not chain:
        raise Refused(
            "empty_tiebreaks",
            _("Name at least one tie-break criterion: the standings rank by them."),
        )


@transaction.atomic
def create_tournament(*, club: Club, name: str, slug: str, **options: Any) -> Tournament:
    _check_tiebreaks(options.get("tiebreaks"))
    game_format = formats.format_named(options.get("format", formats.INDIVIDUAL.format))
    if game_format.default_match_mode:
        options.setdefault("match_mode", game_format.default_match_mode)
    options.update(
        checked_rules(
            preset=options.get("rules_preset", profiles.DEFAULT_PRESET),
            options=options.get("rules_options") or {},
            game_format=game_format.format,
        )
    )
    _check_duplicate(
        preset=options.get("rules_preset", profiles.DEFAULT_PRESET),
        options=options.get("rules_options"),
        duplicate=bool(options.get("duplicate")),
        match_mode=options.get("match_mode", Tournament.MatchMode.DEALS),
    )
    try:
        with transaction.atomic():
            return Tournament.objects.create(club=club, name=name, slug=slug, **options)
    except IntegrityError as exc:
        raise Conflict(
            "slug_taken",
            _("A tournament with slug '%(slug)s' already exists in %(club)s."),
            params={"slug": slug, "club": club.name},
        ) from exc


@transaction.atomic
def update_tournament(*, tournament: Tournament, changes: dict[str, Any]) -> Tournament:
    tournament = Tournament.objects.select_for_update().get(pk=tournament.pk)
    if "tiebreaks" in changes:
        _check_tiebreaks(changes["tiebreaks"])
    rule_changes = set(Tournament.RULE_FIELDS) & changes.keys()
    locked = sorted(f for f in rule_changes if changes[f] != getattr(tournament, f))
    if tournament.rules_locked and locked:
        raise Conflict(
            "rules_locked",
            _("The rules are fixed since the tournament started: %(fields)s."),
            params={"fields": ", ".join(locked)},
        )
    if rule_changes:
        changes = {
            **changes,
            **checked_rules(
                preset=changes.get("rules_preset", tournament.rules_preset),
                options=changes.get("rules_options", tournament.rules_options),
                game_format=changes.get("format", tournament.format),
            ),
        }
        _check_duplicate(
            preset=changes.get("rules_preset", tournament.rules_preset),
            options=changes.get("rules_options", tournament.rules_options),
            duplicate=bool(changes.get("duplicate", formats.format_profile(tournament).boards)),
            match_mode=changes.get("match_mode", tournament.match_mode),
        )
    shown = [f for f in SHOWN_FIELDS & changes.keys() if changes[f] != getattr(tournament, f)]
    for field, value in changes.items():
        setattr(tournament, field, value)
    tournament.save(update_fields=list(changes))
    if shown:  # the stored tables name the tournament or count only public ones
        notify_results_changed(tournament_id=tournament.pk, club_id=tournament.club_id)
    return tournament


@transaction.atomic
def delete_tournament(*, tournament: Tournament) -> None:
    """Delete a tournament that has not started (made by mistake or as a try), with its
    registrations; a started one keeps its results, and a league's match day stays with
    its fixture list."""
    tournament = Tournament.objects.select_for_update().get(pk=tournament.pk)
    if tournament.status != Tournament.Status.DRAFT or tournament.rounds.exists():
        raise Conflict(
            "tournament_started", _("Only a tournament that has not started can be deleted.")
        )
    if not formats.format_profile(tournament).deletable:
        raise Conflict(
            "league_tournament",
            _("A league's match day belongs to its fixture list and is not deleted here."),
        )
    tournament.delete()


@transaction.atomic
def start_tournament(*, tournament: Tournament) -> Tournament:
    """Fix the rules preset and options and open the tournament for rounds."""
    tournament = Tournament.objects.select_for_update().get(pk=tournament.pk)
    if tournament.status != Tournament.Status.DRAFT:
        raise Conflict("already_started", _("The tournament has already started."))
    _check_tiebreaks(tournament.tiebreaks)
    tournament.mark_started()
    tournament.save(update_fields=list(Tournament.START_FIELDS))
    return tournament


@transaction.atomic
def finish_tournament(*, tournament: Tournament) -> Tournament:
    tournament = Tournament.objects.select_for_update().get(pk=tournament.pk)
    if tournament.status != Tournament.Status.RUNNING:
        raise Conflict("not_running", _("Only a running tournament can be finished."))
    if tournament.rounds.open().exists():
        raise Conflict("round_open", _("Close the current round first."))
    tournament.status = Tournament.Status.FINISHED
    tournament.save(update_fields=["status"])
    DeviceCredential.objects.filter(
        table__round__tournament=tournament, revoked_at__isnull=True
    ).update(revoked_at=timezone.now())
    # the club tables count finished evenings only: this one enters them now, at once
    notify_results_changed(tournament_id=tournament.pk, club_id=tournament.club_id)
    queue_ratings_recompute(tournament_id=tournament.pk)  # deals entered after a close
    return tournament


# --- registrations --------------------------------------------------------------------


@transaction.atomic
def register_player(
    *, tournament: Tournament, player: Player, team: Team | None = None
) -> Registration:
    """Register a player (a non-member becomes a guest of the club); after round 1 was
    drawn the registration is a late arrival, who joins from the next round drawn."""
    if tournament.status == Tournament.Status.FINISHED:
        raise Conflict("tournament_finished", FINISHED)
    if team is not None and team.tournament_id != tournament.pk:
        raise Refused("team_elsewhere", _("The team belongs to another tournament."))
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
        raise Conflict(
            "already_registered",
            _("%(name)s is already registered."),
            params={"name": player.name},
        ) from exc
    if team is not None:
        _join_team(tournament=tournament, team=team, player=player)
    _entrants_changed(tournament.pk)
    return registration


def _join_team(*, tournament: Tournament, team: Team, player: Player) -> None:
    """A registration with a team makes the player a member of it (the draw seats team
    members); a fixed pair holds two players."""
    team = Team.objects.select_for_update().get(pk=team.pk)
    members = team.members.count()
    size = formats.format_profile(tournament).team_size
    if size is not None and members >= size:
        raise Conflict(
            "pair_full",
            _("%(team)s already has two players."),
            params={"team": team.name},
        )
    TeamMember.objects.get_or_create(team=team, player=player)


@transaction.atomic
def check_in_registration(*, registration: Registration) -> Registration:
    """Mark a player present; a withdrawn player who comes back is checked in again."""
    registration = Registration.objects.select_for_update().get(pk=registration.pk)
    returning = registration.status == Registration.Status.WITHDRAWN
    if registration.status != Registration.Status.CHECKED_IN:
        registration.status = Registration.Status.CHECKED_IN
        registration.checked_in_at = timezone.now()
        registration.withdrawn_at = None
        registration.save(update_fields=["status", "checked_in_at", "withdrawn_at"])
    if returning:  # back among the entrants of the standings
        _entrants_changed(registration.tournament_id)
    return registration


@transaction.atomic
def withdraw_registration(*, registration: Registration) -> Registration:
    """Withdraw a player: not drawn in later rounds; seats already drawn stay."""
    registration = Registration.objects.select_for_update().get(pk=registration.pk)
    if registration.status != Registration.Status.WITHDRAWN:
        registration.status = Registration.Status.WITHDRAWN
        registration.withdrawn_at = timezone.now()
        registration.save(update_fields=["status", "withdrawn_at"])
        _entrants_changed(registration.tournament_id)
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
        raise Conflict("tournament_finished", FINISHED)
    if not formats.format_profile(tournament).allows(formats.FORBIDDEN_PAIRINGS):
        raise Conflict(
            "individual_only",
            _("%(what)s apply only to individual tournaments."),
            params={"what": what},
        )


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
        raise Conflict("tournament_finished", FINISHED)
    if table_number is not None:
        _check_constraints_editable(tournament, "Fixed tables")
        if isinstance(table_number, bool) or not 1 <= table_number <= MAX_FIXED_TABLE:
            raise Refused(
                "bad_table_number",
                _("The table number must be between 1 and %(max)s."),
                params={"max": MAX_FIXED_TABLE},
            )
        others = (
            tournament.registrations.active()
            .filter(fixed_table=table_number)
            .exclude(pk=registration.pk)
        )
        if others.count() >= 4:
            raise Conflict(
                "table_full",
                _("Four players are already fixed to table %(table)s."),
                params={"table": table_number},
            )
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
        raise Refused("same_player", _("Choose two different players."))
    registered = set(
        tournament.registrations.filter(player__in=[player_a.pk, player_b.pk]).values_list(
            "player_id", flat=True
        )
    )
    for player in (player_a, player_b):
        if player.pk not in registered:
            raise Refused(
                "not_registered",
                _("%(name)s is not registered in this tournament."),
                params={"name": player.name},
            )
    first, second = sorted((player_a, player_b), key=lambda p: p.pk)
    duplicate = Conflict(
        "already_apart",
        _("%(first)s and %(second)s are already kept apart."),
        params={"first": first.name, "second": second.name},
    )
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


@transaction.atomic
def publish_round(*, round_: Round) -> Round:
    round_ = Round.objects.select_for_update().get(pk=round_.pk)
    if round_.status == Round.Status.DRAWING:
        raise Conflict("still_drawing", _("The round is still being drawn; try again in a moment."))
    if round_.status != Round.Status.DRAFT:
        raise Conflict("already_published", _("The round is already published."))
    if not round_.tables.exists():
        refusal = round_.draw_refusal()
        raise Conflict(
            "nobody_seated",
            _("The draw seated nobody: %(reason)s"),
            params={"reason": refusal.message if refusal else _("no table could be filled.")},
        )
    round_.status = Round.Status.PUBLISHED
    round_.published_at = timezone.now()
    round_.save(update_fields=["status", "published_at"])
    return round_


@transaction.atomic
def close_round(*, round_: Round, force: bool = False) -> Round:
    """Close a published round. Tables that have not finished, that have not confirmed
    their results, or whose tablet still holds entries block it unless ``force``. Every
    match of the round is locked first, so an entry being written commits before the
    close; a tablet that was offline may still send the entries it holds afterwards
    (its code stays usable until it expires)."""
    round_ = Round.objects.select_for_update().get(pk=round_.pk)
    if round_.status != Round.Status.PUBLISHED:
        raise Conflict("not_published", _("Only a published round can be closed."))
    list(Match.objects.select_for_update().filter(round=round_).values_list("pk", flat=True))
    blocking = round_blockers(round_)
    if any(blocking.values()) and not force:
        raise Conflict(
            "tables_unfinished",
            _(
                "Not every table is done (not finished: %(unfinished)s; not confirmed: "
                "%(unconfirmed)s; entries waiting on the tablet: %(waiting)s). "
                "Close with the override to close anyway."
            ),
            params={key: _numbers(tables) for key, tables in blocking.items()},
        )
    round_.status = Round.Status.CLOSED
    round_.closed_at = timezone.now()
    round_.save(update_fields=["status", "closed_at"])
    notify_results_changed(tournament_id=round_.tournament_id)
    queue_round_rating(round_id=round_.pk)
    return round_


def round_blockers(round_: Round) -> dict[str, list[int]]:
    """The table numbers that keep a round from closing cleanly: not finished, finished
    but not confirmed by both teams, and with entries waiting on their tablet."""
    matches = round_.matches.order_by("table__number")
    waiting = DeviceCredential.objects.usable().filter(table__round=round_, queued_entries__gt=0)
    return {
        "unfinished": list(matches.unfinished().values_list("table__number", flat=True)),
        "unconfirmed": list(  # tables of 2 or 3 single players have no teams to confirm
            matches.filter(status=Match.Status.FINISHED)
            .annotate(seats=Count("table__seats"))
            .filter(seats=4)
            .values_list("table__number", flat=True)
        ),
        "waiting": sorted(set(waiting.values_list("table__number", flat=True))),
    }


def _numbers(tables: list[int]) -> str:
    return ", ".join(str(n) for n in tables) or "–"


# --- devices --------------------------------------------------------------------------


def generate_device_code() -> str:
    return "".join(secrets.choice(CODE_ALPHABET) for _ in range(CODE_LENGTH))


@transaction.atomic
def issue_device_code(*, table: Table) -> tuple[DeviceCredential, str]:
    """A new code for a table, revoking the table's earlier ones. The plain code is
    returned once and never stored."""
    if table.round.status == Round.Status.CLOSED:
        raise Conflict("round_closed", _("The round is closed."))
    revoke_device_credentials(table=table)
    hours = getattr(settings, "DEVICE_CODE_TTL_HOURS", 12)
    code = generate_device_code()
    credential = DeviceCredential.objects.create(
        table=table,
        code_hash=hash_device_code(code),
        expires_at=timezone.now() + timedelta(hours=hours),
    )
    return credential, code


def record_device_contact(*, credential: DeviceCredential, queued: int | None = None) -> None:
    """A tablet has its table open (``queued``: the entries it still holds, if it said)."""
    changes: dict[str, Any] = {"last_seen_at": timezone.now()}
    if queued is not None:
        changes["queued_entries"] = max(0, min(queued, 999))
    DeviceCredential.objects.filter(pk=credential.pk).update(**changes)


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
        raise Conflict(
            "match_unfinished", _("The match is not finished yet: enter all deals first.")
        )
    if not match.confirmations.filter(team=team).exists():
        MatchConfirmation.objects.create(
            match=match, team=team, confirmed_by_user=user, confirmed_by_device=device
        )
    if match.confirmations.count() == 2 and match.status != Match.Status.CONFIRMED:
        match.status = Match.Status.CONFIRMED
        match.save(update_fields=["status"])
    return match


# --- players' personal links ------------------------------------------------------------


@transaction.atomic
def set_self_check_in(*, tournament: Tournament, allowed: bool) -> Tournament:
    """Let players check themselves in on their personal page, or stop it."""
    tournament = Tournament.objects.select_for_update().get(pk=tournament.pk)
    if tournament.status == Tournament.Status.FINISHED:
        raise Conflict("tournament_finished", FINISHED)
    tournament.self_check_in = allowed
    tournament.save(update_fields=["self_check_in"])
    return tournament


@transaction.atomic
def self_check_in(*, registration: Registration) -> Registration:
    """A player checks in on their personal page (``/p/<token>/``), where the organiser
    allows it; a withdrawn player asks the organiser instead."""
    registration = (
        Registration.objects.select_for_update()
        .select_related("tournament")
        .get(pk=registration.pk)
    )
    tournament = registration.tournament
    if tournament.status == Tournament.Status.FINISHED:
        raise Conflict("tournament_finished", FINISHED)
    if not tournament.self_check_in:
        raise Conflict(
            "self_check_in_off", _("At this tournament the organiser checks players in.")
        )
    if registration.status == Registration.Status.WITHDRAWN:
        raise Conflict(
            "withdrawn", _("You are withdrawn from this tournament: please ask the organiser.")
        )
    return check_in_registration(registration=registration)


# --- club settings and seasons (they change what the club's tables count) ---------------

CLUB_SETTINGS = frozenset(
    {
        "name",
        "city",
        "suits",
        "boss_window",
        "venue_tables",
        "venue_street",
        "venue_town",
        "embed_origins",
        "default_name_style",
        "imprint_responsible",
        "imprint_address",
        "imprint_contact",
        "privacy_text",
    }
)


@transaction.atomic
def update_club(*, club: Club, changes: dict[str, Any]) -> Club:
    """Change a club's name, city, suits, KlammernBoss window or how many league match days its
    venue hosts at once (validated by the caller's form or serializer); a new window
    recomputes the club's tables."""
    unknown = set(changes) - CLUB_SETTINGS
    if unknown:
        raise Refused(
            "not_changeable",
            _("These club settings cannot be changed: %(fields)s."),
            params={"fields": ", ".join(sorted(unknown))},
        )
    club = Club.objects.select_for_update().get(pk=club.pk)
    window_changed = "boss_window" in changes and changes["boss_window"] != club.boss_window
    for field, value in changes.items():
        setattr(club, field, value.strip() if isinstance(value, str) else value)
    club.save(update_fields=list(changes))
    if window_changed:
        notify_club_changed(club_id=club.pk)
    return club


@transaction.atomic
def assign_season(*, tournament: Tournament, season: Season | None) -> Tournament:
    """Count the tournament as an evening of ``season`` (None: of no season)."""
    if season is not None and season.club_id != tournament.club_id:
        raise Refused("season_elsewhere", _("The season belongs to another club."))
    tournament.season = season
    tournament.save(update_fields=["season"])
    return tournament
