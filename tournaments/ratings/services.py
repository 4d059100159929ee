"""Player ratings of a club: load the games of closed rounds, rate them with the pure
``ratings`` module, store the current ratings and each round's changes.

Which games: every table match with at least one deal in a *closed* round of a tournament
of the club (club evenings, tournaments, Liga-Partien), and of the league match days
its teams play away (a match day is a hidden tournament of the home club: it counts for
both clubs). A game is two teams of two different players (a table of 2 or 3 players is
not rated); its winner is the tournament table's (RULES.md, KlammernBoss "a game"): more
big points, then small points, then match points, a decided Liga-Partie for its winner.

When: ``close_round`` queues ``rate_closed_round`` after the commit: the round is rated
on top of the stored ratings (one step). Rounds count in closing order (``closed_at``,
then id); should a round arrive out of that order (two closes racing), or a deal arrive
in a closed round afterwards (a tablet that was offline), ``recompute_club_ratings``
rates every closed round again from scratch; ``finish_tournament`` queues that, and so
does ``correct_deal`` for a deal of a closed round (a rated result changed). The same
steps in the same order give the same floats: from scratch equals incremental.

A round of a duplicate tournament is rated otherwise (RULES.md, "Duplicate tournaments",
Ratings): as one game per direction, the teams of that direction ranked by their match
points of the round (equal match points tie); a table's own result against its opponents
moves no rating.

Pools: each game's profile names the rating pool its tables count in
(``GameProfile.rating_pool``: Klammern and Hamburg one, Klaverjas another); a round is
rated in its game's pool only, against the ratings of that pool, and the reads take a
pool (the default game's unless asked). One sequence of rated rounds per club orders
every pool's rounds, so from scratch still equals incremental.

Writes lock the club's ``RatingList`` row. Reads for pages and the API are at the end.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Iterable, Mapping, Sequence
from typing import Any

from django.db import transaction
from django.db.models import F, Q, QuerySet

from games import profiles
from tournaments import formats as format_profiles
from tournaments.clubs.models import Club, Player
from tournaments.events import selectors
from tournaments.events.models import Match, Round, Seat, Tournament
from tournaments.events.versions import RATINGS_FLAG, clear_queued_flag, clubs_of
from tournaments.formats import boards as duplicate
from tournaments.ratings import elo as ratings
from tournaments.ratings.models import PlayerRating, RatedRound, RatingChange, RatingList
from tournaments.results import standings

# --- games ----------------------------------------------------------------------------


def closed_rounds(club_id: int) -> QuerySet[Round]:
    """The club's rated rounds in closing order."""
    return (
        Round.objects.filter(status=Round.Status.CLOSED)
        .filter(
            Q(tournament__club_id=club_id) | Q(tournament__league_match_day__away__club_id=club_id)
        )
        .order_by(F("closed_at").asc(nulls_first=True), "pk")
    )


def rated_game(match: selectors.ScoredMatch) -> ratings.Game | None:
    """The match as a rated game, or None unless two teams of two different players."""
    s = match.seats
    if len(s) != 4 or 0 in s or len(set(s)) != 4:
        return None
    teams = ((s[0], s[2]), (s[1], s[3]))
    big = selectors.game_big_points(match)
    winner = standings.game_winner(big, match.small, match.match_points)
    return ratings.Game(teams=teams, winner=winner)


def round_games(round_ids: Sequence[int]) -> dict[int, list[ratings.Rated]]:
    """The rated games of each round, in table order (a duplicate round's: its two
    directions' rankings)."""
    rounds = Round.objects.filter(pk__in=round_ids).select_related("tournament")
    by_directions = [r for r in rounds if _rated_by(r) == format_profiles.RATE_DIRECTIONS]
    key = {
        (r.tournament_id, r.number): r.pk
        for r in rounds
        if _rated_by(r) == format_profiles.RATE_TABLES
    }
    games: dict[int, list[ratings.Rated]] = defaultdict(list)
    for round_ in by_directions:
        games[round_.pk].extend(direction_rankings(round_))
    scored = selectors.scored_matches(Match.objects.filter(round__in=key.values()))
    for match in sorted(scored, key=lambda m: (m.tournament, m.round, m.table)):
        game = rated_game(match)
        if game is not None:
            games[key[(match.tournament, match.round)]].append(game)
    return games


def _rated_by(round_: Round) -> str:
    """How a round moves the club rating, as its format says (RULES.md: a duplicate
    round as one game per direction, never its tables' own results)."""
    return format_profiles.format_profile(round_.tournament).rating


def direction_rankings(round_: Round) -> list[ratings.Ranking]:
    """A duplicate round as rated: per direction (North-South, East-West) the teams of
    its tables of four different players, ranked by their match points of the round."""
    matches = Match.objects.filter(round=round_)
    scored = duplicate.score_boards(
        board.play for board in selectors.played_boards(round_.tournament, matches)
    )
    match_points: dict[int, list[int]] = defaultdict(lambda: [0, 0])
    for item in scored:
        for direction in (0, 1):
            match_points[item.play.table][direction] += item.match_points[direction]
    seats: dict[int, list[int]] = defaultdict(lambda: [0, 0, 0, 0])
    for table, position, player in Seat.objects.filter(table__round=round_).values_list(
        "table__number", "position", "player_id"
    ):
        seats[table][position] = player
    rated = sorted(t for t in match_points if 0 not in seats[t] and len(set(seats[t])) == 4)
    rankings = []
    for direction in (0, 1):
        teams = tuple((seats[t][direction], seats[t][direction + 2]) for t in rated)
        points = [match_points[t][direction] for t in rated]
        if len(teams) >= 2:
            rankings.append(ratings.Ranking(teams=teams, places=ratings.places(points)))
    return rankings


# --- writes ---------------------------------------------------------------------------


def _lock(club_id: int) -> RatingList:
    RatingList.objects.get_or_create(club_id=club_id)
    return RatingList.objects.select_for_update().get(club_id=club_id)


def _order(round_: Round | RatedRound) -> tuple[bool, Any, int]:
    closed = round_.closed_at
    return (
        closed is not None,
        closed,
        round_.round_id if isinstance(round_, RatedRound) else round_.pk,
    )


@transaction.atomic
def rate_closed_round(*, round_id: int) -> None:
    """Rate one closed round for each club it counts for, one step on top of the stored
    ratings; from scratch when it is not the latest in closing order. Idempotent; a round
    gone meanwhile is left alone."""
    round_ = (
        Round.objects.select_related("tournament__league_match_day__away")
        .filter(pk=round_id)
        .first()
    )
    if round_ is None or round_.status != Round.Status.CLOSED:
        return
    pool = pool_of(round_.tournament)
    for club_id in clubs_of(round_.tournament):
        ledger = _lock(club_id)
        if RatedRound.objects.filter(club_id=club_id, round=round_).exists():
            continue
        last = RatedRound.objects.filter(club_id=club_id).order_by("-sequence").first()
        if last is not None and _order(last) > _order(round_):
            _recompute(ledger)
            continue
        current = _current(club_id, pool)
        games = round_games([round_.pk]).get(round_.pk, [])
        _store_step(ledger, round_, games, current, pool=pool)


@transaction.atomic
def recompute_queued_club_ratings(*, club_id: int) -> None:
    """The queued recompute of a club's ratings (the task's work): its flag cleared
    first (a correction committed meanwhile queues a follow-up), then recomputed from
    scratch unless the club is gone."""
    clear_queued_flag(RATINGS_FLAG, club_id)
    if Club.objects.filter(pk=club_id).exists():
        recompute_club_ratings(club_id=club_id)


@transaction.atomic
def recompute_club_ratings(*, club_id: int) -> int:
    """Rate every closed round of the club again from scratch; the number of rounds."""
    return _recompute(_lock(club_id))


def _recompute(ledger: RatingList) -> int:
    RatedRound.objects.filter(club_id=ledger.club_id).delete()
    PlayerRating.objects.filter(club_id=ledger.club_id).delete()
    ledger.rounds = 0
    rounds = list(closed_rounds(ledger.club_id).select_related("tournament"))
    games = round_games([r.pk for r in rounds])
    current: dict[str, dict[int, ratings.Skill]] = defaultdict(dict)
    for round_ in rounds:
        pool = pool_of(round_.tournament)
        _store_step(ledger, round_, games.get(round_.pk, []), current[pool], pool=pool)
    return ledger.rounds


def pool_of(tournament: Tournament) -> str:
    """The rating pool the tournament's tables count in ("": its game is not rated)."""
    return profiles.profile_for(tournament.rules_preset, tournament.rules_options).rating_pool


def _current(club_id: int, pool: str) -> dict[int, ratings.Skill]:
    rows = PlayerRating.objects.filter(club_id=club_id, pool=pool).values_list(
        "player_id", "mu", "sigma", "games"
    )
    return {player: ratings.Skill(mu, sigma, games) for player, mu, sigma, games in rows}


def _store_step(
    ledger: RatingList,
    round_: Round,
    games: Sequence[ratings.Rated],
    current: dict[int, ratings.Skill],
    *,
    pool: str,
) -> None:
    """Rate the round against ``current`` (its pool's ratings), update ``current`` and
    store the step."""
    changed = ratings.rate_round(current, games)
    ledger.rounds += 1
    ledger.save(update_fields=["rounds", "updated_at"])
    step = RatedRound.objects.create(
        club_id=ledger.club_id,
        round=round_,
        sequence=ledger.rounds,
        closed_at=round_.closed_at,
        pool=pool,
    )
    RatingChange.objects.bulk_create(
        RatingChange(rated_round=step, player_id=p, **_columns(skill))
        for p, skill in changed.items()
    )
    _store_current(ledger.club_id, pool, changed, existing=set(current))
    current.update(changed)


def _columns(skill: ratings.Skill) -> dict[str, Any]:
    return {"mu": skill.mu, "sigma": skill.sigma, "rating": skill.rating, "games": skill.games}


def _store_current(
    club_id: int, pool: str, changed: dict[int, ratings.Skill], *, existing: set[int]
) -> None:
    old = {
        r.player_id: r
        for r in PlayerRating.objects.filter(
            club_id=club_id, pool=pool, player_id__in=existing & set(changed)
        )
    }
    PlayerRating.objects.bulk_create(
        PlayerRating(club_id=club_id, pool=pool, player_id=p, **_columns(s))
        for p, s in changed.items()
        if p not in old
    )
    updates = [old[p] for p in changed if p in old]
    for row in updates:
        for name, value in _columns(changed[row.player_id]).items():
            setattr(row, name, value)
    PlayerRating.objects.bulk_update(updates, ["mu", "sigma", "rating", "games", "updated_at"])


# --- reads ----------------------------------------------------------------------------


def pool_view(club: Club, pool: str) -> dict[str, Any]:
    """A pool of the club's ratings for its page: its name, the games that count in it,
    the rounds rated in it, and the club's other pools that hold ratings."""
    pools = profiles.rating_pools()
    held = set(PlayerRating.objects.filter(club=club).values_list("pool", flat=True))
    return {
        "pool": pool,
        "pool_label": str(pools[pool]),
        "pool_games": ", ".join(str(label) for label in profiles.pool_games(pool)),
        "pool_rounds": RatedRound.objects.filter(club=club, pool=pool).count(),
        "other_pools": [
            {"pool": key, "label": str(label)}
            for key, label in pools.items()
            if key != pool and key in held
        ],
    }


def club_rating_rows(club: Club, pool: str = profiles.DEFAULT_RATING_POOL) -> list[dict[str, Any]]:
    """The club's rating list of a pool, best first: rank (equal shown ratings share
    one), player, name, rating (one decimal), mu, sigma, games."""
    rows = (
        PlayerRating.objects.filter(club=club, pool=pool)
        .select_related("player")
        .order_by("-rating", "player__name", "player_id")
    )
    out: list[dict[str, Any]] = []
    for index, row in enumerate(rows):
        shown = round(row.rating, 1)
        rank = out[-1]["rank"] if out and out[-1]["rating"] == shown else index + 1
        out.append(
            {
                "rank": rank,
                "player": row.player_id,
                "name": row.player.public_name,
                "rating": shown,
                "mu": row.mu,
                "sigma": row.sigma,
                "games": row.games,
            }
        )
    return out


def player_rating_history(
    player: Player, *, visible_tournaments: Iterable[int] | None = None
) -> list[dict[str, Any]]:
    """Per club and rating pool where the player is rated: the current rating and the
    rating after each round played, in closing order. A round of a tournament not in
    ``visible_tournaments`` (when given) carries no tournament id or name."""
    visible = None if visible_tournaments is None else set(visible_tournaments)
    changes = (
        RatingChange.objects.filter(player=player)
        .select_related("rated_round__round__tournament")
        .order_by("rated_round__club_id", "rated_round__sequence")
    )
    by_club: dict[tuple[int, str], list[dict[str, Any]]] = defaultdict(list)
    for change in changes:
        key = (change.rated_round.club_id, change.rated_round.pool)
        by_club[key].append(_history_entry(change, visible))
    current = (
        PlayerRating.objects.filter(player=player)
        .select_related("club")
        .order_by("club__name", "pool")
    )
    pools = profiles.rating_pools()
    return [
        {
            "club": row.club_id,
            "club_name": row.club.name,
            "club_slug": row.club.slug,
            "pool": row.pool,
            "pool_label": str(pools.get(row.pool, row.pool)),
            "rating": round(row.rating, 1),
            "mu": row.mu,
            "sigma": row.sigma,
            "games": row.games,
            "history": by_club.get((row.club_id, row.pool), []),
        }
        for row in current
    ]


def _history_entry(change: RatingChange, visible: set[int] | None) -> dict[str, Any]:
    round_ = change.rated_round.round
    shown = visible is None or round_.tournament_id in visible
    return {
        "sequence": change.rated_round.sequence,
        "closed_at": change.rated_round.closed_at,
        "tournament": round_.tournament_id if shown else None,
        "tournament_name": round_.tournament.name if shown else "",
        "round": round_.number if shown else None,
        "rating": round(change.rating, 1),
        "mu": change.mu,
        "sigma": change.sigma,
        "games": change.games,
    }


def ratings_of(
    *, club_id: int, player_ids: Iterable[int], pool: str = profiles.DEFAULT_RATING_POOL
) -> dict[int, float]:
    """The shown ratings of these players at the club in a pool (new players: 0)."""
    player_ids = list(player_ids)
    stored = dict(
        PlayerRating.objects.filter(
            club_id=club_id, pool=pool, player_id__in=player_ids
        ).values_list("player_id", "rating")
    )
    return {p: stored.get(p, ratings.NEW.rating) for p in player_ids}


def mus_of(
    *, club_id: int, player_ids: Iterable[int], pool: str = profiles.DEFAULT_RATING_POOL
) -> dict[int, float]:
    """The players' mu at the club in a pool, the model's estimate of their strength
    (new players: the library's default, 25): what the draw seeds and balances by."""
    player_ids = list(player_ids)
    stored = dict(
        PlayerRating.objects.filter(
            club_id=club_id, pool=pool, player_id__in=player_ids
        ).values_list("player_id", "mu")
    )
    return {p: stored.get(p, ratings.NEW.mu) for p in player_ids}


def pair_ratings(
    *, club_id: int, pairs: Mapping[int, Sequence[int]], pool: str = profiles.DEFAULT_RATING_POOL
) -> dict[int, float]:
    """Each pair's rating at the club in a pool: the sum of its players' mu
    (``elo.pair_rating``)."""
    everyone = {p for members in pairs.values() for p in members}
    mus = mus_of(club_id=club_id, player_ids=everyone, pool=pool)
    return {pair: ratings.pair_rating(mus[p] for p in players) for pair, players in pairs.items()}


def player_is_public(player: Player) -> bool:
    """Whether anyone may see the player's page: registered in or seated at a public
    tournament (as the public player page decides)."""
    return (
        player.registrations.filter(tournament__is_public=True).exists()
        or player.seats.filter(round__tournament__is_public=True).exists()
    )
