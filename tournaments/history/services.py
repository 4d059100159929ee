"""The history import's writes: preview a file, confirm it, remove an import.

``preview_import`` reads and plans a file (``parsing``) and writes nothing to the
database: it keeps the file in the cache for ``PENDING_SECONDS`` under a random token,
bound to the club and the organiser. ``confirm_import`` plans the kept file again and, in
one transaction, creates exactly what the preview showed (players, seasons, evenings,
their lines);
if the plan has changed since (an evening imported meanwhile), or anything fails, nothing
is written. ``remove_import`` deletes an import's evenings and the players and seasons it
created that hold nothing else since. Every change of the club tables bumps the club's results
version, which queues the recompute of its all-time table and KlammernBoss.
"""

from __future__ import annotations

import hashlib
import json
import secrets
from dataclasses import dataclass
from datetime import date
from typing import Any

from django.core.cache import cache
from django.core.exceptions import ValidationError
from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext_lazy as _

from tournaments.clubs.models import Club, ClubMembership, Player, Season
from tournaments.common.errors import Conflict, NotFound, Refused
from tournaments.common.validators import validate_name
from tournaments.events import versions
from tournaments.history import parsing, selectors
from tournaments.history.models import HistoryImport, ImportedEvening, ImportedResult
from tournaments.history.refusals import FILE_MESSAGES

PENDING_SECONDS = 3600


@dataclass(frozen=True)
class Preview:
    """A previewed file: its token (to confirm it), name, checksum and plan."""

    token: str
    file_name: str
    sha256: str
    create_players: bool
    plan: parsing.ImportPlan

    def to_dict(self) -> dict[str, Any]:
        return {
            "token": self.token,
            "file_name": self.file_name,
            "sha256": self.sha256,
            "create_players": self.create_players,
            **self.plan.to_dict(),
        }


def plan_file(
    *, club: Club, data: bytes, create_players: bool, today: date | None = None
) -> parsing.ImportPlan:
    """The plan of importing ``data`` into the club now; a file refused as a whole is a
    ``Refused`` with the parser's code."""
    try:
        parsed = parsing.parse_rows(parsing.read_cells(data), today=today or timezone.localdate())
    except parsing.FileRefused as refused:
        raise Refused(refused.code, FILE_MESSAGES[refused.code], params=refused.params) from None
    parsed = _check_names(parsed)
    return parsing.plan_import(
        parsed,
        known_players=selectors.known_players(club),
        existing_dates=selectors.evening_dates(club),
        create_players=create_players,
        known_seasons=selectors.known_seasons(club),
    )


def _check_names(parsed: parsing.ParsedFile) -> parsing.ParsedFile:
    """Names and households as the club's own are checked (no control characters)."""
    rows, refusals = [], list(parsed.refusals)
    for row in parsed.rows:
        bad = next((c for c in ("player", "household", "season") if _bad_name(row, c)), None)
        if bad is None:
            rows.append(row)
        else:
            refusals.append(parsing.Refusal("bad_name", row.line, bad, ""))
    return parsing.ParsedFile(tuple(rows), tuple(refusals))


def _bad_name(row: parsing.HistoryRow, column: str) -> bool:
    try:
        validate_name(getattr(row, column))
    except ValidationError:
        return True
    return False


def _pending_key(token: str) -> str:
    return f"history:pending:{token}"


def _digest(plan: parsing.ImportPlan) -> str:
    return hashlib.sha256(json.dumps(plan.to_dict(), sort_keys=True).encode()).hexdigest()


def preview_import(
    *, club: Club, user: Any, data: bytes, file_name: str, create_players: bool = True
) -> Preview:
    """Read and plan the file; keep it for the confirmation. Writes no row."""
    plan = plan_file(club=club, data=data, create_players=create_players)
    token = secrets.token_urlsafe(24)
    sha256 = hashlib.sha256(data).hexdigest()
    pending = {
        "club": club.pk,
        "user": user.pk,
        "data": data,
        "file_name": file_name[:200],
        "create_players": create_players,
        "digest": _digest(plan),
    }
    cache.set(_pending_key(token), pending, PENDING_SECONDS)
    return Preview(token, file_name[:200], sha256, create_players, plan)


def pending_preview(*, club: Club, user: Any, token: str) -> Preview:
    """The kept preview of ``token`` planned again (for the confirmation page)."""
    pending = _pending(club=club, user=user, token=token)
    plan = plan_file(club=club, data=pending["data"], create_players=pending["create_players"])
    sha256 = hashlib.sha256(pending["data"]).hexdigest()
    return Preview(token, pending["file_name"], sha256, pending["create_players"], plan)


def _pending(*, club: Club, user: Any, token: str) -> dict[str, Any]:
    pending = cache.get(_pending_key(token)) if token else None
    if not pending or pending["club"] != club.pk or pending["user"] != user.pk:
        raise NotFound(
            "preview_not_found",
            _("This preview is unknown or has expired: upload the file again."),
        )
    return dict(pending)


@transaction.atomic
def confirm_import(*, club: Club, user: Any, token: str) -> HistoryImport:
    """Create what the preview of ``token`` showed, in one transaction."""
    pending = _pending(club=club, user=user, token=token)
    Club.objects.select_for_update().filter(pk=club.pk).first()  # one import at a time
    plan = plan_file(club=club, data=pending["data"], create_players=pending["create_players"])
    if _digest(plan) != pending["digest"]:
        raise Conflict(
            "preview_outdated",
            _("The club's history changed since the preview: look at the new preview."),
        )
    if not plan.evenings:
        raise Refused("nothing_to_import", _("The file holds no evening that can be imported."))
    batch = HistoryImport.objects.create(
        club=club,
        created_by=user,
        file_name=pending["file_name"],
        file_sha256=hashlib.sha256(pending["data"]).hexdigest(),
    )
    players = _create_players(club=club, batch=batch, plan=plan)
    club_seasons = _create_seasons(club=club, batch=batch, plan=plan)
    for evening in plan.evenings:
        season = club_seasons.get(parsing.name_key(evening.season))
        _create_evening(club=club, batch=batch, evening=evening, players=players, season=season)
    versions.notify_club_changed(club_id=club.pk)
    transaction.on_commit(lambda: cache.delete(_pending_key(token)), robust=True)
    return batch


def _create_players(
    *, club: Club, batch: HistoryImport, plan: parsing.ImportPlan
) -> dict[str, int]:
    """``name_key`` -> player id for every player the plan names (new ones created)."""
    players = {key: pk for key, (pk, _name) in selectors.known_players(club).items()}
    for new in plan.players:
        player = Player.objects.create(name=new.name, household=new.household)
        kind = new.status or ClubMembership.Kind.MEMBER
        ClubMembership.objects.create(club=club, player=player, kind=kind)
        batch.created_players.add(player)
        players[parsing.name_key(new.name)] = player.pk
    return players


def _create_seasons(
    *, club: Club, batch: HistoryImport, plan: parsing.ImportPlan
) -> dict[str, int]:
    """``name_key`` -> season id for every season the plan names: the club's own of that
    name, or one created (with the days of its evenings, all evenings counting)."""
    seasons = {key: pk for key, (pk, _name) in selectors.known_seasons(club).items()}
    for new in plan.new_seasons:
        season = Season.objects.create(
            club=club, name=new.name, starts_on=new.starts_on, ends_on=new.ends_on
        )
        batch.created_seasons.add(season)
        seasons[parsing.name_key(new.name)] = season.pk
    return seasons


def _create_evening(
    *,
    club: Club,
    batch: HistoryImport,
    evening: parsing.PlannedEvening,
    players: dict[str, int],
    season: int | None,
) -> None:
    row = ImportedEvening.objects.create(
        batch=batch, club=club, date=evening.date, season=evening.season, club_season_id=season
    )
    ImportedResult.objects.bulk_create(
        ImportedResult(
            evening=row,
            player_id=players[parsing.name_key(line.player)],
            played=line.played,
            won=line.won,
            point_difference=line.point_difference,
            rank=line.rank,
        )
        for line in evening.lines
    )


def find_import(*, club: Club, import_id: int) -> HistoryImport:
    batch = HistoryImport.objects.filter(club=club, pk=import_id).first()
    if batch is None:
        raise NotFound("import_not_found", _("This import does not exist."))
    return batch


@transaction.atomic
def remove_import(*, club: Club, import_id: int) -> None:
    """Delete the import's evenings, the players it created that have nothing else
    (no tournament, rating or other import) and the seasons it created that hold nothing
    else (no tournament, no other import's evening): the club tables are as before it."""
    batch = find_import(club=club, import_id=import_id)
    created = list(batch.created_players.all())
    seasons = list(batch.created_seasons.all())
    batch.evenings.all().delete()
    batch.delete()
    for player in created:
        if not _has_other_records(player):
            player.delete()
    for season in seasons:
        if not (season.tournaments.exists() or season.imported_evenings.exists()):
            season.delete()
    versions.notify_club_changed(club_id=club.pk)


def _has_other_records(player: Player) -> bool:
    """Whether anything but its memberships still refers to the player."""
    for relation in Player._meta.related_objects:
        if relation.related_model in (ClubMembership, HistoryImport):
            continue
        if relation.related_model.objects.filter(**{relation.field.name: player}).exists():
            return True
    return False
