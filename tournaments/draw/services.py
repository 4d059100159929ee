"""The draw adapter: read a round's options and rows, run the pure seating, save tables.

In the role of Tabbycat's ``draw/manager.py``: ``request_round_draw`` checks that a draw
can succeed and creates the round in ``drawing``; the draw task (``tasks``) then runs
``seat_round``, which loads the entrants and the history of earlier rounds, calls
``seating``'s entry (the draw method: individual tables, fixed pairs with or without Swiss
order, or the league's fixture list) and writes tables, seats, matches and byes.
``draw_round`` does both at once. Publishing and closing rounds are plain services (``services``).
"""

from __future__ import annotations

import secrets
from collections import Counter, defaultdict
from collections.abc import Sequence
from typing import Any

from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext_lazy as _

from tournaments.clubs.models import ClubMembership
from tournaments.common.errors import Conflict, draw_refusal
from tournaments.draw import seating
from tournaments.events.models import (
    Bye,
    Match,
    Round,
    RoundQuerySet,
    Seat,
    Table,
    TeamMember,
    Tournament,
)
from tournaments.events.selectors import tournament_profile
from tournaments.formats import CHANGING_PARTNERS, FIXED_PAIRS, MATCH_DAY, format_profile
from tournaments.ratings import services as rating_services
from tournaments.results.models import StandingsSnapshot
from tournaments.tasks import draw_round_task


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


def _entrants(inputs: DrawInputs, ratings: dict[int, float] | None = None) -> list[seating.Entrant]:
    """The round's players; ``ratings`` (balance by rating) gives each player's mu."""
    regs = inputs.registrations
    clubs = _home_clubs(inputs.tournament, [r.player_id for r in regs])
    table_count = len(regs) // _table_size(inputs.tournament)
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
            rating=ratings[r.player_id] if ratings else 0.0,
        )
        for r in regs
    ]


def _player_ratings(inputs: DrawInputs) -> dict[int, float] | None:
    """Each player's mu at the club when the draw balances tables by rating, else None."""
    if not inputs.tournament.balance_by_rating:
        return None
    return rating_services.mus_of(
        club_id=inputs.tournament.club_id,
        player_ids=[r.player_id for r in inputs.registrations],
        pool=rating_services.pool_of(inputs.tournament),
    )


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


def _seating_options(
    tournament: Tournament, *, balance_by_rating: bool = False
) -> seating.SeatingOptions:
    forbidden = frozenset(
        frozenset(pair)
        for pair in tournament.forbidden_pairings.values_list("player_a_id", "player_b_id")
    )
    return seating.SeatingOptions(
        avoid_same_club=tournament.avoid_same_club,
        avoid_same_household=tournament.avoid_same_household,
        forbidden=forbidden,
        planned_rounds=tournament.planned_rounds,
        balance_by_rating=balance_by_rating,
    )


def _table_size(tournament: Tournament) -> int:
    """Players at a table of the tournament's game (its profile's seats)."""
    return tournament_profile(tournament).players


def _small_table_history(tournament: Tournament, number: int) -> seating.SeatingHistory:
    tables: dict[int, dict[int, dict[int, int]]] = defaultdict(lambda: defaultdict(dict))
    rounds = _earlier_rounds(tournament, number)
    for round_id, table_id, position, player in Seat.objects.filter(round__in=rounds).values_list(
        "round_id", "table_id", "position", "player_id"
    ):
        tables[round_id][table_id][position] = player
    byes = Bye.objects.filter(round__in=rounds).values_list("player_id", flat=True)
    return seating.small_table_history(
        [[[s[p] for p in sorted(s)] for s in by_table.values()] for by_table in tables.values()],
        byes=list(byes),
    )


def _seat_small_tables(round_: Round, inputs: DrawInputs, size: int) -> dict[str, Any]:
    """Klammern for two or three players: tables of ``size``, byes for the rest."""
    tournament = round_.tournament
    draw = seating.draw(
        "small_tables",
        _entrants(inputs),
        _small_table_history(tournament, round_.number),
        table_size=size,
        round_number=round_.number,
        seed=round_.seed,
        attempt=round_.attempt,
        options=_seating_options(tournament),
    )
    _create_tables(round_=round_, tables=[(seats, None) for seats in draw.tables])
    _create_byes(round_=round_, players=draw.byes)
    return {**draw.cost.to_dict(), "kind": "individual", "table_size": size}


def _seat_individual(round_: Round, inputs: DrawInputs) -> dict[str, Any]:
    tournament = round_.tournament
    if (size := _table_size(tournament)) != 4:
        return _seat_small_tables(round_, inputs, size)
    entrants = _entrants(inputs, _player_ratings(inputs))
    draw = seating.draw(
        "individual",
        entrants,
        _individual_history(tournament, round_.number),
        round_number=round_.number,
        seed=round_.seed,
        attempt=round_.attempt,
        options=_seating_options(tournament, balance_by_rating=tournament.balance_by_rating),
    )
    _create_tables(round_=round_, tables=[(seats, None) for seats in draw.tables])
    _create_byes(round_=round_, players=draw.byes)
    pinned = {r.player_id for r in inputs.registrations if r.fixed_table}
    ignored = sorted(pinned - {e.id for e in entrants if e.fixed_table is not None})
    return {**draw.cost.to_dict(), "kind": "individual", "ignored_pins": ignored}


def _team_players(tournament: Tournament, present: set[int]) -> dict[int, list[int]]:
    """Each team's checked-in players in the order of the pair's name ("A / B": A sits on
    the pair's first seat), as the pairs page and the API list them."""
    players: dict[int, list[int]] = defaultdict(list)
    rows = TeamMember.objects.filter(team__tournament=tournament).order_by("pk")
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


def _swiss_order(tournament: Tournament, players: dict[int, list[int]]) -> list[int]:
    """Active pairs best first by the stored standings; pairs without a row last. Seeded
    by rating: by score, equal scores (and round 1) by the pairs' ratings."""
    snapshot = StandingsSnapshot.objects.filter(tournament=tournament).first()
    data = snapshot.data if snapshot else {}
    rows = data.get("rows") or []
    active = {pair for pair, members in players.items() if len(members) >= 2}
    order = [r["entrant"] for r in rows if r.get("entrant") in active]
    if not tournament.seed_by_rating:
        return order + sorted(active - set(order))
    criterion = (data.get("tiebreaks") or ["tournament_points"])[0]
    scores = {r["entrant"]: r.get(criterion) or 0 for r in rows if r.get("entrant") in active}
    ratings = rating_services.pair_ratings(
        club_id=tournament.club_id,
        pairs={pair: players[pair][:2] for pair in active},
        pool=rating_services.pool_of(tournament),
    )
    return seating.swiss_seeding(active, scores=scores, standing=order, ratings=ratings)


def _seat_pairs(round_: Round, inputs: DrawInputs) -> dict[str, Any]:
    tournament = round_.tournament
    if tournament.round_robin:
        return _seat_pairs_round_robin(round_, inputs)
    players = _team_players(tournament, {r.player_id for r in inputs.registrations})
    pairs = sorted(team for team, members in players.items() if len(members) >= 2)
    draw = seating.draw(
        "pairs",
        pairs,
        _pair_history(tournament, round_.number),
        round_number=round_.number,
        seed=round_.seed,
        attempt=round_.attempt,
        swiss_order=_swiss_order(tournament, players) if tournament.swiss else None,
    )
    _create_tables(
        round_=round_,
        tables=[(_pair_seats(players[a], players[b]), (a, b)) for a, b in draw.tables],
    )
    _create_byes(round_=round_, players=[p for team in draw.byes for p in players[team][:2]])
    cost = {**draw.cost.to_dict(), "kind": "pairs", "swiss": tournament.swiss}
    if tournament.swiss and tournament.seed_by_rating:
        cost["seeded_by_rating"] = True
    return cost


def pairs_schedule(tournament: Tournament) -> list[seating.LeagueRound]:
    """A round-robin pairs tournament's fixture list: the pairs of two players in id
    order (the seeding), each meeting each other once (twice, home and away)."""
    sizes = Counter(
        TeamMember.objects.filter(team__tournament=tournament).values_list("team_id", flat=True)
    )
    pairs = sorted(team for team, size in sizes.items() if size >= 2)
    if len(pairs) < 2:
        return []
    return seating.round_robin(pairs, home_and_away=tournament.home_and_away)


def _seat_pairs_round_robin(round_: Round, inputs: DrawInputs) -> dict[str, Any]:
    """Fixture round n of the round robin; a fixture with a pair not fully present is
    not seated (``skipped``), the resting pair gets a bye."""
    tournament = round_.tournament
    fixtures = pairs_schedule(tournament)[round_.number - 1]
    players = _team_players(tournament, {r.player_id for r in inputs.registrations})
    tables, skipped = [], []
    for home, away in fixtures.matches:
        if len(players[home]) >= 2 and len(players[away]) >= 2:
            tables.append((_pair_seats(players[home], players[away]), (home, away)))
        else:
            skipped.append([home, away])
    _create_tables(round_=round_, tables=tables)
    rest = players[fixtures.bye][:2] if fixtures.bye is not None else []
    _create_byes(round_=round_, players=rest)
    return {
        "kind": "round_robin",
        "fixture_round": fixtures.number,
        "rest": fixtures.bye,
        "skipped": skipped,
    }


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
    return {
        "kind": "league",
        "fixture_round": fixtures.number,
        "rest": fixtures.bye,
        "skipped": skipped,
    }


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
        )
        for table, (_, teams) in zip(created, tables, strict=True)
    )


def _create_byes(*, round_: Round, players: Sequence[int]) -> None:
    # Average byes are filled in by the standings computation; only fixed ones are known.
    tournament = round_.tournament
    fixed = tournament.bye_score_mode == Tournament.ByeScoreMode.FIXED
    points = tournament.bye_fixed_points if fixed else 0
    Bye.objects.bulk_create(Bye(round=round_, player_id=p, points=points) for p in players)


def _draw_problem(inputs: DrawInputs) -> tuple[str, dict[str, Any]] | None:
    """The condition of the field that refuses this draw (a key of
    ``errors.DRAW_REFUSALS`` and its parameters), or None."""
    tournament = inputs.tournament
    seating_ = format_profile(tournament).seating
    if seating_ == CHANGING_PARTNERS:
        size = _table_size(tournament)
        if len(inputs.registrations) < size:
            return "too_few_players", {}
        pins = Counter(e.fixed_table for e in _entrants(inputs) if e.fixed_table is not None)
        if pins and max(pins.values()) > size:
            return "table_overfull", {"size": size}
        return None
    if seating_ == MATCH_DAY:
        if inputs.number > len(league_schedule(tournament)):
            return "fixtures_exhausted", {}
        return None
    present = {r.player_id for r in inputs.registrations}
    players = _team_players(tournament, present)
    if sum(1 for members in players.values() if len(members) >= 2) < 2:
        return "too_few_players", {}
    if tournament.round_robin and inputs.number > len(pairs_schedule(tournament)):
        return "round_robin_complete", {}
    return None


#: The seater of each way a format seats a round (``FormatProfile.seating``).
SEATERS = {
    CHANGING_PARTNERS: _seat_individual,
    FIXED_PAIRS: _seat_pairs,
    MATCH_DAY: _seat_league,
}


@transaction.atomic
def seat_round(*, round_id: int) -> Round:
    """Seat a round that is being drawn and make it a draft (the draw task's work).

    Idempotent: a round no longer in ``drawing`` (seated already, published, closed) is
    left alone, so a redelivered or duplicated task changes nothing. The seed, attempt
    and cost breakdown are stored on the round for the organiser; a draw that
    the field no longer allows (players withdrew since the request) is a draft without
    tables that says why (``Round.draw_refusal``)."""
    round_ = Round.objects.select_for_update().select_related("tournament").get(pk=round_id)
    if round_.status != Round.Status.DRAWING:
        return round_
    round_.tables.all().delete()  # a half-written earlier try cannot survive; be explicit
    round_.byes.all().delete()
    inputs = DrawInputs(round_.tournament, round_.number, round_.created)
    if problem := _draw_problem(inputs):  # the field changed since the request
        key, params = problem
        round_.cost = {"refused": {"key": key, "params": params}}
    else:  # the seating cannot refuse now: what it raises is a bug, and the task fails
        round_.cost = SEATERS[format_profile(round_.tournament).seating](round_, inputs)
    round_.status = Round.Status.DRAFT
    round_.save(update_fields=["cost", "status"])
    return round_


def seat_queued_round(*, round_id: int) -> None:
    """The draw task's work: ``seat_round`` unless the round is gone meanwhile."""
    if Round.objects.filter(pk=round_id).exists():
        seat_round(round_id=round_id)


def _enqueue_draw(round_id: int) -> None:
    transaction.on_commit(lambda: draw_round_task.delay(round_id), robust=True)


@transaction.atomic
def request_round_draw(*, tournament: Tournament, seed: int | None = None) -> Round:
    """Create the next round in ``drawing`` and queue its draw (after commit). Checks
    everything that could refuse the draw now, so the task always succeeds."""
    tournament = Tournament.objects.select_for_update().get(pk=tournament.pk)
    if tournament.status != Tournament.Status.RUNNING:
        raise Conflict("not_running", _("Start the tournament before drawing a round."))
    if tournament.rounds.open().exists():
        raise Conflict("round_open", _("Close the current round before drawing the next one."))
    if (planned := tournament.planned_rounds) and tournament.rounds.count() >= planned:
        raise Conflict(
            "rounds_complete",
            _("All %(planned)s planned rounds have been played."),
            params={"planned": planned},
        )
    if tournament.rounds.exclude(stage=Round.Stage.PRELIMINARY).exists():
        raise Conflict("finals_started", _("The finals have begun: no further round is drawn."))
    number = tournament.rounds.count() + 1
    if problem := _draw_problem(DrawInputs(tournament, number, timezone.now())):
        raise draw_refusal(*problem)
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
        raise Conflict("not_a_draft", _("Only a draft round can be drawn again."))
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


@transaction.atomic
def start_and_draw_round(*, tournament: Tournament, seed: int | None = None) -> Round:
    """The console's "draw": a draft tournament is started and its first round drawn in
    one transaction, so a refused draw (too few players) leaves it a draft."""
    tournament = Tournament.objects.select_for_update().get(pk=tournament.pk)
    if tournament.status == Tournament.Status.DRAFT:
        tournament.mark_started()
        tournament.save(update_fields=list(Tournament.START_FIELDS))
    return draw_round(tournament=tournament, seed=seed)


def redraw_round(*, round_: Round) -> Round:
    """Draw a draft again now, in this process (see ``draw_round``)."""
    round_ = request_redraw(round_=round_)
    return seat_round(round_id=round_.pk)
