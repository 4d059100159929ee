"""Services of fixed pairs: form a pair by hand, rename it, dissolve it, and draw pairs
from the checked-in players (at random or by the card method of seed 002).

A pair is a ``Team`` of a pairs tournament with two ``TeamMember`` rows; both players'
registrations name the team. The draw (``draw._seat_pairs``) seats a pair's two players
opposite each other and the standings rank the pair under its name. The pairing
algorithms are pure (``formats``); this module loads and saves rows.
"""

from __future__ import annotations

import secrets
from collections.abc import Sequence

from django.db import IntegrityError, transaction
from django.db.models import QuerySet
from django.utils.translation import gettext_lazy as _

from tournaments.clubs.models import Player
from tournaments.common.errors import Conflict, Refused
from tournaments.events.models import Match, Registration, Team, TeamMember, Tournament
from tournaments.events.versions import notify_results_changed
from tournaments.formats import PAIRS_AND_FINALS, format_profile
from tournaments.pairs import formats

DRAW_METHODS = ("random", "cards")
NAME_MAX = 200


def _check_pairs_tournament(tournament: Tournament) -> None:
    if not format_profile(tournament).allows(PAIRS_AND_FINALS):
        raise Conflict("not_pairs", _("Pairs are formed in a tournament of fixed pairs only."))
    if tournament.status == Tournament.Status.FINISHED:
        raise Conflict("tournament_finished", _("The tournament is finished."))


def default_pair_name(players: Sequence[Player]) -> str:
    """The one name a pair gets by default: "A / B" in the order the players joined it,
    the order ``Team.pair_players`` lists them on the pairs page and in the API, by
    the names the public sees (``Player.public_name``)."""
    return " / ".join(p.public_name for p in players)[:NAME_MAX]


def pairs_of(tournament: Tournament) -> QuerySet[Team]:
    """The tournament's pairs by name, each with its players in the order of its name."""
    return tournament.teams.prefetch_related("members__player").order_by("name")


def _unpaired_registrations(
    tournament: Tournament, player_ids: Sequence[int]
) -> list[Registration]:
    """The active registrations of these players, refused unless each is registered and
    not in a pair yet."""
    registrations = {
        r.player_id: r
        for r in tournament.registrations.active()
        .select_for_update()
        .filter(player_id__in=player_ids)
        .select_related("player")
    }
    paired = set(
        TeamMember.objects.filter(
            team__tournament=tournament, player_id__in=player_ids
        ).values_list("player_id", flat=True)
    )
    for player_id in player_ids:
        registration = registrations.get(player_id)
        if registration is None:
            raise Refused("not_registered", _("Both players must be registered here."))
        if player_id in paired:
            raise Conflict(
                "already_paired",
                _("%(name)s already plays in a pair."),
                params={"name": registration.player.name},
            )
    return [registrations[p] for p in player_ids]


def _save_pair(tournament: Tournament, registrations: Sequence[Registration], name: str) -> Team:
    name = name.strip() or default_pair_name([r.player for r in registrations])
    try:
        with transaction.atomic():
            team = Team.objects.create(tournament=tournament, name=name)
    except IntegrityError as exc:
        raise Conflict(
            "pair_name_taken",
            _("A pair named '%(name)s' exists already."),
            params={"name": name},
        ) from exc
    TeamMember.objects.bulk_create(TeamMember(team=team, player=r.player) for r in registrations)
    Registration.objects.filter(pk__in=[r.pk for r in registrations]).update(team=team)
    return team


@transaction.atomic
def create_pair(*, tournament: Tournament, players: Sequence[Player], name: str = "") -> Team:
    """Form a pair of two registered players who are not in a pair yet; the name
    defaults to "A / B"."""
    tournament = Tournament.objects.select_for_update().get(pk=tournament.pk)
    _check_pairs_tournament(tournament)
    ids = [p.pk for p in players]
    if len(ids) != 2 or ids[0] == ids[1]:
        raise Refused("two_players", _("A pair is two different players."))
    registrations = _unpaired_registrations(tournament, ids)
    return _save_pair(tournament, registrations, name)


def _names_changed(tournament: Tournament) -> None:
    """The stored standings name pairs: refresh them once anything was counted."""
    if tournament.results_version > 0:
        notify_results_changed(tournament_id=tournament.pk, club_id=tournament.club_id)


@transaction.atomic
def rename_pair(*, team: Team, name: str) -> Team:
    team = Team.objects.select_for_update().select_related("tournament").get(pk=team.pk)
    _check_pairs_tournament(team.tournament)
    name = name.strip()
    if not name:
        raise Refused("name_required", _("Enter the pair's name."))
    if name == team.name:
        return team
    if team.tournament.teams.filter(name=name).exclude(pk=team.pk).exists():
        raise Conflict(
            "pair_name_taken", _("A pair named '%(name)s' exists already."), params={"name": name}
        )
    team.name = name[:NAME_MAX]
    team.save(update_fields=["name"])
    _names_changed(team.tournament)
    return team


@transaction.atomic
def dissolve_pair(*, team: Team) -> None:
    """Part a pair that has not been seated yet; its players can be paired again."""
    team = Team.objects.select_for_update().select_related("tournament").get(pk=team.pk)
    _check_pairs_tournament(team.tournament)
    if (
        Match.objects.filter(home_team=team).exists()
        or Match.objects.filter(away_team=team).exists()
    ):
        raise Conflict(
            "pair_has_played",
            _("%(name)s has been seated already and stays a pair."),
            params={"name": team.name},
        )
    Registration.objects.filter(team=team).update(team=None)
    team.delete()


@transaction.atomic
def draw_pairs(
    *, tournament: Tournament, method: str = "random", seed: int | None = None
) -> tuple[list[Team], formats.PairDraw]:
    """Form pairs of all checked-in players not in a pair yet: ``random`` (seeded
    shuffle) or ``cards`` (each draws a card, highest with lowest). An odd player out
    stays unpaired (``left_over``)."""
    tournament = Tournament.objects.select_for_update().get(pk=tournament.pk)
    _check_pairs_tournament(tournament)
    if method not in DRAW_METHODS:
        raise Refused("unknown_method", _("Draw pairs at random or by cards."))
    paired = TeamMember.objects.filter(team__tournament=tournament).values_list(
        "player_id", flat=True
    )
    present = list(
        tournament.registrations.checked_in()
        .exclude(player_id__in=paired)
        .values_list("player_id", flat=True)
    )
    if len(present) < 2:
        raise Refused("too_few_players", _("At least two checked-in players without a pair."))
    seed = secrets.randbits(31) if seed is None else seed
    pick = formats.card_draw_pairs if method == "cards" else formats.random_pairs
    result = pick(present, seed=seed)
    players = Player.objects.in_bulk(present)
    teams = []
    for first, second in result.pairs:
        registrations = _unpaired_registrations(tournament, [first, second])
        teams.append(
            _save_pair(tournament, registrations, _free_name(tournament, players, first, second))
        )
    return teams, result


def _free_name(tournament: Tournament, players: dict[int, Player], *ids: int) -> str:
    """ "A / B", numbered if a pair of that name exists (two players of the same name)."""
    base = default_pair_name([players[i] for i in ids])
    name, n = base, 2
    while tournament.teams.filter(name=name).exists():
        name, n = f"{base} ({n})"[:NAME_MAX], n + 1
    return name
