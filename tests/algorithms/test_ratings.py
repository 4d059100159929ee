"""The pure ratings: values worked out by hand from the Plackett-Luce update equations of
Weng and Lin (2011, Algorithm 4), as openskill documents them, not through openskill; a
player's rating does not depend on the order of the games inside a round."""

from __future__ import annotations

import itertools
import math

import pytest

from tournaments.ratings import elo as ratings
from tournaments.ratings.elo import BETA, KAPPA, MU, SIGMA, TAU, Game, Skill


def plackett_luce_two_teams(
    winner: list[tuple[float, float]], loser: list[tuple[float, float]]
) -> tuple[list[tuple[float, float]], list[tuple[float, float]]]:
    """(mu, sigma) after a game of two teams, one winning, by the paper's equations:
    sigma^2 += tau^2 first; c^2 = sum over teams of (team sigma^2 + beta^2);
    p = e^(mu_w/c) / (e^(mu_w/c) + e^(mu_l/c)), the winner's chance;
    Omega_w = (1 - p) s_w / c, Omega_l = -(1 - p) s_l / c (s = team sigma^2);
    Delta_t = gamma_t p (1 - p) s_t / c^2 with gamma_t = sqrt(s_t) / c;
    a player: mu += (sigma^2 / s_t) Omega_t,
    sigma *= sqrt(max(1 - (sigma^2 / s_t) Delta_t, kappa))."""
    teams = [[(mu, math.sqrt(sigma**2 + TAU**2)) for mu, sigma in t] for t in (winner, loser)]
    mus = [sum(mu for mu, _ in t) for t in teams]
    s = [sum(sigma**2 for _, sigma in t) for t in teams]
    c = math.sqrt(s[0] + s[1] + 2 * BETA**2)
    p = math.exp(mus[0] / c) / (math.exp(mus[0] / c) + math.exp(mus[1] / c))
    omega = [(1 - p) * s[0] / c, -(1 - p) * s[1] / c]
    delta = [math.sqrt(s[t]) / c * p * (1 - p) * s[t] / c**2 for t in (0, 1)]
    out = []
    for t in (0, 1):
        out.append(
            [
                (
                    mu + sigma**2 / s[t] * omega[t],
                    sigma * math.sqrt(max(1 - sigma**2 / s[t] * delta[t], KAPPA)),
                )
                for mu, sigma in teams[t]
            ]
        )
    return out[0], out[1]


def test_new_players_worked_out_by_hand() -> None:
    """Four new players: mu 25, sigma 25/3, tau 1/12, beta 25/6. Every player's sigma^2
    is 625/9 + 1/144 = 69.4514; s = 138.9028 per team; c = sqrt(2 s + 2 beta^2) =
    sqrt(312.5278) = 17.6785; p = 1/2; so mu moves by s / (4 c) = 1.96429 up for the
    winners and down for the losers, and sigma^2 shrinks by the factor
    1 - (1/2)(1/4)(s/c^2)(sqrt(s)/c) = 0.96296."""
    changed = ratings.rate_round({}, [Game(teams=((1, 3), (2, 4)), winner=0)])
    sigma2 = SIGMA**2 + TAU**2
    s = 2 * sigma2
    c = math.sqrt(2 * s + 2 * BETA**2)
    assert c == pytest.approx(17.6785, abs=1e-4)
    step = s / (4 * c)
    assert step == pytest.approx(1.96429, abs=1e-5)
    shrink = 1 - 0.5 * 0.25 * (s / c**2) * (math.sqrt(s) / c)
    assert shrink == pytest.approx(0.96296, abs=1e-5)
    sigma = math.sqrt(sigma2 * shrink)
    for player in (1, 3):
        assert changed[player].mu == pytest.approx(MU + step, abs=1e-9)
        assert changed[player].sigma == pytest.approx(sigma, abs=1e-9)
        assert changed[player].games == 1
    for player in (2, 4):
        assert changed[player].mu == pytest.approx(MU - step, abs=1e-9)
        assert changed[player].sigma == pytest.approx(sigma, abs=1e-9)
    assert changed[1].rating == pytest.approx(changed[1].mu - 3 * changed[1].sigma)


def test_unequal_ratings_follow_the_equations() -> None:
    skills = {
        1: Skill(30.0, 5.0, 4),
        3: Skill(22.0, 7.0, 2),
        2: Skill(27.0, 4.0, 9),
        4: Skill(25.0, 8.0, 1),
    }
    changed = ratings.rate_round(skills, [Game(teams=((1, 3), (2, 4)), winner=1)])
    won, lost = plackett_luce_two_teams([(27.0, 4.0), (25.0, 8.0)], [(30.0, 5.0), (22.0, 7.0)])
    for player, (mu, sigma) in zip((2, 4, 1, 3), won + lost, strict=True):
        assert changed[player].mu == pytest.approx(mu, abs=1e-9)
        assert changed[player].sigma == pytest.approx(sigma, abs=1e-9)
        assert changed[player].games == skills[player].games + 1


def test_a_draw_between_equal_teams_moves_no_mu_and_shrinks_sigma() -> None:
    """A draw: both teams share rank 1 (A_q = 2): Omega = (1 - 2p)/2 = 0 for p = 1/2;
    Delta = p (1 - p) s / c^2 gamma, as for a decided game."""
    changed = ratings.rate_round({}, [Game(teams=((1, 3), (2, 4)), winner=None)])
    s = 2 * (SIGMA**2 + TAU**2)
    c = math.sqrt(2 * s + 2 * BETA**2)
    sigma = math.sqrt((SIGMA**2 + TAU**2) * (1 - 0.5 * 0.25 * s / c**2 * math.sqrt(s) / c))
    for player in (1, 2, 3, 4):
        assert changed[player].mu == pytest.approx(MU, abs=1e-9)
        assert changed[player].sigma == pytest.approx(sigma, abs=1e-9)


ROUND = [
    Game(teams=((1, 2), (3, 4)), winner=0),
    Game(teams=((5, 6), (7, 8)), winner=1),
    Game(teams=((9, 10), (11, 12)), winner=None),
]
BEFORE = {p: Skill(20.0 + p, 8.0 - p / 4, p) for p in range(1, 13)}


def test_a_rating_does_not_depend_on_the_order_of_the_games_of_a_round() -> None:
    results = [ratings.rate_round(BEFORE, list(order)) for order in itertools.permutations(ROUND)]
    assert all(result == results[0] for result in results)
    # each game is rated against the ratings from before the round, not after another game
    alone = ratings.rate_round(BEFORE, [ROUND[1]])
    assert results[0][5] == alone[5]


def test_a_player_in_two_games_of_a_round_gets_both_updates_in_any_order() -> None:
    games = [Game(teams=((1, 2), (3, 4)), winner=0), Game(teams=((1, 5), (6, 7)), winner=0)]
    forward = ratings.rate_round(BEFORE, games)
    assert forward == ratings.rate_round(BEFORE, games[::-1])
    one = ratings.rate_round(BEFORE, games[:1])[1]
    two = ratings.rate_round(BEFORE, games[1:])[1]
    start = BEFORE[1]
    assert forward[1].mu == pytest.approx(one.mu + two.mu - start.mu)
    assert forward[1].sigma ** 2 == pytest.approx(one.sigma**2 * two.sigma**2 / start.sigma**2)
    assert forward[1].games == start.games + 2


def test_rate_rounds_is_round_after_round() -> None:
    second = [Game(teams=((1, 3), (2, 4)), winner=1)]
    steps = ratings.rate_rounds([ROUND, second])
    after_first = ratings.rate_round({}, ROUND)
    assert steps[0] == after_first
    assert steps[1] == ratings.rate_round(after_first, second)


@pytest.mark.parametrize(
    ("scores", "expected"),
    [((5, 3, 3), (1, 2, 2)), ((1, 4, 1), (2, 1, 2)), ((2, 2), (1, 1)), ((0, 1, 2), (3, 2, 1))],
)
def test_places_share_the_better_place_on_equal_scores(
    scores: tuple[int, ...], expected: tuple[int, ...]
) -> None:
    assert ratings.places(scores) == expected


def test_a_ranking_of_two_teams_is_a_game() -> None:
    """Two teams ranked 1 and 2 are the game won by the first: the same new skills."""
    teams = ((1, 3), (2, 4))
    game = ratings.rate_round({}, [ratings.Game(teams=teams, winner=0)])
    ranking = ratings.rate_round({}, [ratings.Ranking(teams=teams, places=(1, 2))])
    assert ranking == game


def test_a_ranking_rewards_the_first_most() -> None:
    teams = ((1, 2), (3, 4), (5, 6))
    after = ratings.rate_round({}, [ratings.Ranking(teams=teams, places=(2, 1, 3))])
    assert after[3].mu > after[1].mu > after[5].mu
    assert after[1].mu == after[2].mu
