"""Finals of a fixed-pairs tournament: after the preliminary rounds the best 4 (or 8) pairs
play a knockout (RULES.md, "Finals"), and the bracket as pages and the API show it.

Model: a finals round is an ordinary ``Round`` with ``stage`` quarter, semi or final; each
of its matches carries ``bracket_slot`` (QF1-QF4, SF1, SF2, F, P3) and the two pairs'
seeds (``home_seed``/``away_seed``; the better seed is home, seats 0 and 2). The rounds go
through the usual draft → published → closed cycle in the round console; the standings
count the preliminary rounds only, so the seeds stay as they were earned (or, with
``finals_seeding`` rating, the qualified pairs are seeded by their ratings). Each match is
one match in the tournament's match mode; ``formats.finals_winner`` decides who advances.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from django.db import transaction
from django.utils.translation import gettext_lazy as _

from tournaments.common.errors import Conflict, Refused
from tournaments.events import selectors
from tournaments.events.models import Match, Round, Seat, Table, Team, TeamMember, Tournament
from tournaments.formats import PAIRS_AND_FINALS, format_profile
from tournaments.pairs import formats
from tournaments.ratings import services as rating_services
from tournaments.results import snapshots

STAGE_OF_SLOT = {
    "QF": Round.Stage.QUARTER,
    "SF": Round.Stage.SEMI,
    "F": Round.Stage.FINAL,
    "P3": Round.Stage.FINAL,
}
SIZES = (4, 8)


def _stage(slot: str) -> str:
    return STAGE_OF_SLOT[slot.rstrip("1234")] if slot != "P3" else Round.Stage.FINAL


def _check_can_advance(tournament: Tournament) -> None:
    if not format_profile(tournament).allows(PAIRS_AND_FINALS):
        raise Conflict("not_pairs", _("Finals are played in a tournament of fixed pairs."))
    if tournament.status != Tournament.Status.RUNNING:
        raise Conflict("not_running", _("Only a running tournament can play finals."))
    if tournament.rounds.open().exists():
        raise Conflict("round_open", _("Close the current round first."))


def _seeding(tournament: Tournament, size: int) -> list[int]:
    """Pairs of two players, best first, by a fresh computation of the standings."""
    rows = snapshots.compute_tournament_standings(tournament_id=tournament.pk)["rows"]
    complete = {
        team
        for team in Team.objects.filter(tournament=tournament).values_list("pk", flat=True)
        if TeamMember.objects.filter(team_id=team).count() >= 2
    }
    ranking = [row["entrant"] for row in rows if row["entrant"] in complete]
    if len(ranking) < size:
        raise Conflict(
            "too_few_pairs",
            _("Finals of %(size)s need %(size)s pairs in the standings."),
            params={"size": size},
        )
    return ranking


def _create_finals_round(tournament: Tournament, matches: Sequence[formats.BracketMatch]) -> Round:
    round_ = Round.objects.create(
        tournament=tournament,
        number=tournament.rounds.count() + 1,
        status=Round.Status.DRAFT,
        stage=_stage(matches[0].slot),
        cost={"kind": "finals", "slots": [m.slot for m in matches]},
    )
    liga = tournament.match_mode == Tournament.MatchMode.LIGA
    for number, bracket in enumerate(matches, start=1):
        table = Table.objects.create(round=round_, number=number)
        home, away = _players(bracket.home), _players(bracket.away)
        Seat.objects.bulk_create(
            Seat(table=table, round=round_, position=position, player_id=player)
            for position, player in enumerate((home[0], away[0], home[1], away[1]))
        )
        Match.objects.create(
            round=round_,
            table=table,
            mode=Match.Mode.LIGA if liga else Match.Mode.DEALS,
            deals_planned=None if liga else tournament.deals_per_match,
            target=tournament.liga_target if liga else None,
            home_team_id=bracket.home,
            away_team_id=bracket.away,
            bracket_slot=bracket.slot,
            home_seed=bracket.home_seed,
            away_seed=bracket.away_seed,
        )
    return round_


def _players(team_id: int) -> list[int]:
    return list(
        TeamMember.objects.filter(team_id=team_id)
        .order_by("pk")  # the order of the pair's name, as in the preliminary rounds
        .values_list("player_id", flat=True)[:2]
    )


@transaction.atomic
def start_finals(*, tournament: Tournament, size: int) -> Round:
    """Draw the first finals round (a draft): the best ``size`` pairs of the preliminary
    rounds' standings, seeded by those standings or (``finals_seeding`` rating) by the
    pairs' ratings: semi-finals 1-4, 2-3 (size 4) or quarter-finals 1-8, 4-5, 2-7, 3-6."""
    tournament = Tournament.objects.select_for_update().get(pk=tournament.pk)
    _check_can_advance(tournament)
    if size not in SIZES:
        raise Refused("finals_size", _("Finals are played by 4 or 8 pairs."))
    if tournament.rounds.exclude(stage=Round.Stage.PRELIMINARY).exists():
        raise Conflict("finals_started", _("The finals have begun already."))
    if not tournament.rounds.filter(status=Round.Status.CLOSED).exists():
        raise Conflict("no_preliminary", _("Play and close the preliminary rounds first."))
    ranking = _seeding(tournament, size)
    if tournament.finals_seeding == Tournament.FinalsSeeding.RATING:
        ranking = _by_rating(tournament, ranking[:size])
    return _create_finals_round(tournament, formats.first_finals_round(ranking, size=size))


def _by_rating(tournament: Tournament, qualified: list[int]) -> list[int]:
    """The qualified pairs (the best of the standings) seeded by the pairs' ratings."""
    ratings = rating_services.pair_ratings(
        club_id=tournament.club_id,
        pairs={team: _players(team) for team in qualified},
        pool=rating_services.pool_of(tournament),
    )
    return formats.seeded_by_rating(qualified, ratings)


def played_finals(tournament: Tournament) -> list[formats.FinishedMatch]:
    """Every finals match of a closed round, with its winner."""
    matches = Match.objects.filter(
        round__tournament=tournament, round__status=Round.Status.CLOSED
    ).exclude(bracket_slot="")
    scores = {s.match: s for s in selectors.scored_matches(matches)}
    out = []
    for match in matches:
        side = _winner_side(match, scores.get(match.pk))
        out.append(
            formats.FinishedMatch(
                match.bracket_slot,
                match.home_team_id or 0,
                match.away_team_id or 0,
                match.home_seed or 0,
                match.away_seed or 0,
                match.home_team_id if side == 0 else match.away_team_id,  # type: ignore[arg-type]
            )
        )
    return out


def _winner_side(match: Match, score: selectors.ScoredMatch | None) -> int:
    seeds = (match.home_seed or 0, match.away_seed or 0)
    if score is None:  # closed without a deal: level, the better seed goes through
        return formats.finals_winner(big=(0, 0), small=(0, 0), match_points=(0, 0), seeds=seeds)
    return formats.finals_winner(
        big=score.big,
        small=score.small,
        match_points=score.match_points,
        liga_winner=score.liga_winner,
        seeds=seeds,
    )


@transaction.atomic
def advance_finals(*, tournament: Tournament) -> Round:
    """After a closed finals round, draw the next: the semi-finals, or the final and the
    match for third place."""
    tournament = Tournament.objects.select_for_update().get(pk=tournament.pk)
    _check_can_advance(tournament)
    if not tournament.rounds.exclude(stage=Round.Stage.PRELIMINARY).exists():
        raise Conflict("finals_not_started", _("The finals have not begun yet."))
    try:
        upcoming = formats.next_finals_round(played_finals(tournament))
    except ValueError as exc:
        raise Conflict("finals_round_open", _("Close the current finals round first.")) from exc
    if not upcoming:
        raise Conflict("finals_complete", _("The final has been played."))
    return _create_finals_round(tournament, upcoming)


def finals_played(tournament: Tournament) -> bool:
    """Whether the final and the match for third place are played (their round closed):
    nothing is left to draw, the tournament is finished next."""
    return tournament.rounds.filter(stage=Round.Stage.FINAL, status=Round.Status.CLOSED).exists()


# --- the bracket as pages and the API show it --------------------------------------------

SLOT_LABELS = {
    "QF1": _("Quarter-final 1"),
    "QF2": _("Quarter-final 2"),
    "QF3": _("Quarter-final 3"),
    "QF4": _("Quarter-final 4"),
    "SF1": _("Semi-final 1"),
    "SF2": _("Semi-final 2"),
    "F": _("Final"),
    "P3": _("Match for third place"),
}
STAGE_LABELS = {
    Round.Stage.QUARTER: _("Quarter-finals"),
    Round.Stage.SEMI: _("Semi-finals"),
    Round.Stage.FINAL: _("Final"),
}


def bracket(tournament: Tournament, *, include_drafts: bool = False) -> dict[str, Any]:
    """The finals as stages of matches: pairs with seeds, the score so far and, once the
    round is closed, the winner; the placings once the final is closed."""
    statuses = [Round.Status.PUBLISHED, Round.Status.CLOSED]
    if include_drafts:
        statuses.append(Round.Status.DRAFT)
    matches = list(
        Match.objects.filter(round__tournament=tournament, round__status__in=statuses)
        .exclude(bracket_slot="")
        .select_related("round", "home_team", "away_team", "table")
    )
    scores = {
        s.match: s
        for s in selectors.scored_matches(Match.objects.filter(pk__in=[m.pk for m in matches]))
    }
    stages: dict[str, list[dict[str, Any]]] = {}
    for match in sorted(matches, key=lambda m: formats.SLOT_ORDER.index(m.bracket_slot)):
        stages.setdefault(match.round.stage, []).append(_bracket_match(match, scores.get(match.pk)))
    names = dict(Team.objects.filter(tournament=tournament).values_list("pk", "name"))
    placings = formats.final_placings(played_finals(tournament))
    return {
        "stages": [
            {"stage": stage, "label": str(STAGE_LABELS[stage]), "matches": rows}
            for stage, rows in stages.items()
        ],
        "placings": [
            {"place": place, "team": team, "name": names.get(team, "")}
            for team, place in sorted(placings.items(), key=lambda p: p[1])
        ],
    }


def _side(team: Team | None, seed: int | None) -> dict[str, Any]:
    return {"team": team.pk if team else None, "name": team.name if team else "", "seed": seed}


def _score(match: Match, score: selectors.ScoredMatch | None) -> list[str]:
    """Each side's score as shown: a Liga-Partie's match points, else big points with the
    small points in brackets."""
    if score is None:
        return ["–", "–"]
    if match.mode == Match.Mode.LIGA:
        return [str(points) for points in score.match_points]
    return [f"{score.big[side]} ({score.small[side]})" for side in (0, 1)]


def _bracket_match(match: Match, score: selectors.ScoredMatch | None) -> dict[str, Any]:
    closed = match.round.status == Round.Status.CLOSED
    return {
        "match": match.pk,
        "slot": match.bracket_slot,
        "label": str(SLOT_LABELS[match.bracket_slot]),
        "round": match.round.number,
        "round_status": match.round.status,
        "table": match.table.number,
        "home": _side(match.home_team, match.home_seed),
        "away": _side(match.away_team, match.away_seed),
        "big": list(score.big) if score else [0, 0],
        "match_points": list(score.match_points) if score else [0, 0],
        "score": _score(match, score),
        "deals": score.deals if score else 0,
        "winner": _winner_side(match, score) if closed else None,
    }
