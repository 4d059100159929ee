"""Ratings are updated when a round closes; a recompute from scratch gives exactly the
same values, also after rounds were rated out of their closing order."""

from __future__ import annotations

from typing import Any

import pytest

from games.models import DealVersion
from tests.factories import summary_record
from tests.ratings.conftest import evening
from tests.support.clients import committed
from tournaments.deals.services import correct_deal, submit_deal
from tournaments.draw import services as draw
from tournaments.events import services
from tournaments.events.models import Match, Round
from tournaments.ratings import elo as ratings
from tournaments.ratings import services as rating_services
from tournaments.ratings.models import PlayerRating, RatedRound, RatingChange

pytestmark = pytest.mark.django_db


def stored(club_id: int) -> tuple[list[tuple[Any, ...]], list[tuple[Any, ...]]]:
    current = PlayerRating.objects.filter(club_id=club_id).order_by("player_id")
    history = RatingChange.objects.filter(rated_round__club_id=club_id).order_by(
        "rated_round__sequence", "player_id"
    )
    return (
        list(current.values_list("player_id", "mu", "sigma", "rating", "games")),
        list(
            history.values_list(
                "rated_round__sequence",
                "rated_round__round_id",
                "player_id",
                "mu",
                "sigma",
                "games",
            )
        ),
    )


def test_closing_a_round_rates_it(played: Any, club_a: Any) -> None:
    tournament, rounds = played
    assert list(RatedRound.objects.filter(club=club_a).values_list("round_id", flat=True)) == [
        r.pk for r in rounds
    ]
    first = rounds[0].tables.get(number=1)
    winners = list(first.seats.filter(position__in=(0, 2)).values_list("player_id", flat=True))
    after_first = RatingChange.objects.filter(rated_round__round=rounds[0])
    assert after_first.count() == 8
    assert all(c.mu > ratings.MU for c in after_first.filter(player_id__in=winners))
    assert PlayerRating.objects.filter(club=club_a).count() == 8
    assert set(PlayerRating.objects.filter(club=club_a).values_list("games", flat=True)) == {3}


def test_from_scratch_equals_incremental(played: Any, club_a: Any) -> None:
    incremental = stored(club_a.pk)
    assert rating_services.recompute_club_ratings(club_id=club_a.pk) == 3
    assert stored(club_a.pk) == incremental


def test_incremental_equals_the_pure_rounds_in_closing_order(played: Any, club_a: Any) -> None:
    _, rounds = played
    games = rating_services.round_games([r.pk for r in rounds])
    steps = ratings.rate_rounds(games[r.pk] for r in rounds)
    for rated, step in zip(rounds, steps, strict=True):
        rows = RatingChange.objects.filter(rated_round__round=rated)
        assert {c.player_id: ratings.Skill(c.mu, c.sigma, c.games) for c in rows} == step


def test_a_round_rated_out_of_closing_order_recomputes(played: Any, club_a: Any) -> None:
    _, rounds = played
    expected = stored(club_a.pk)
    RatedRound.objects.filter(club=club_a).delete()
    PlayerRating.objects.filter(club=club_a).delete()
    for round_ in (rounds[0], rounds[2], rounds[1]):
        rating_services.rate_closed_round(round_id=round_.pk)
    assert stored(club_a.pk) == expected
    rating_services.rate_closed_round(round_id=rounds[1].pk)  # again: nothing changes
    assert stored(club_a.pk) == expected


def test_an_open_round_is_not_rated(club_a: Any) -> None:
    tournament = evening(club_a, slug="offen")
    round_ = draw.draw_round(tournament=tournament, seed=1)
    rating_services.rate_closed_round(round_id=round_.pk)
    assert not RatedRound.objects.exists()
    assert Round.objects.get(pk=round_.pk).status != Round.Status.CLOSED


def test_a_correction_after_the_finish_moves_the_ratings(played: Any, club_a: Any) -> None:
    """Issue 20: a deal corrected after the tournament was finished changed the winner
    of a rated game, yet no stored rating moved."""
    tournament, rounds = played
    with committed():
        services.finish_tournament(tournament=tournament)
    before = stored(club_a.pk)
    match = Match.objects.get(round=rounds[0], table__number=1)
    with committed():  # team 0 won both deals; corrected, team 1 wins the game
        for deal in DealVersion.objects.current().filter(deal__match=match):
            correct_deal(
                match=match,
                number=deal.deal.number,
                expected_version=deal.version,
                record={**deal.record, "card_points": [64, 100]},
                reason="falsch eingetragen",
            )
    after = stored(club_a.pk)
    assert after != before
    rating_services.recompute_club_ratings(club_id=club_a.pk)
    assert stored(club_a.pk) == after  # a fresh recompute finds nothing to change
    winners = match.table.seats.filter(position__in=(1, 3)).values_list("player_id", flat=True)
    first = RatingChange.objects.filter(rated_round__round=rounds[0], player_id__in=winners)
    assert all(change.mu > ratings.MU for change in first)


def test_a_correction_in_an_open_round_leaves_the_ratings_to_the_close(club_a: Any) -> None:
    tournament = evening(club_a, slug="offen")
    round_ = draw.draw_round(tournament=tournament, seed=1)
    services.publish_round(round_=round_)
    match = Match.objects.filter(round=round_).first()
    submit_deal(match=match, number=1, record=summary_record(team0_points=100))
    with committed():
        correct_deal(
            match=match, number=1, expected_version=1, record=summary_record(team0_points=64)
        )
    assert not RatedRound.objects.exists() and not PlayerRating.objects.exists()
