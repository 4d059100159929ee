"""The game-profile registry: every preset the platform offers has a profile, a
tournament's rules find theirs (Klammern scoring the Hamburg way is Hamburg), and the
profiles answer the questions that differ between games in one shape."""

from __future__ import annotations

import pytest
from django.utils import translation

from games import engine, profiles


def test_every_offered_preset_has_its_profile() -> None:
    assert set(engine.PRESETS) <= set(profiles.PROFILES)
    for key, profile in profiles.PROFILES.items():
        assert profiles.profile_for(key) is profile
        assert profile.plays(profiles.tournament_rules(key, {}))


def test_options_can_make_another_game() -> None:
    hamburg = profiles.profile_for("klammern", {"scoring": "hamburg"})
    assert hamburg is profiles.PROFILES["klammern-hamburg"]
    assert profiles.profile_for("klaverjas-amsterdam").key == "klaverjas-amsterdam"


def test_an_unknown_preset_is_refused_with_the_engines_words() -> None:
    with pytest.raises(engine.RulesError):
        profiles.profile_for("poker")


@pytest.mark.parametrize(
    ("preset", "players", "teams", "sides", "pool"),
    [
        ("klammern", 4, True, 2, "klammern"),
        ("klammern-hamburg", 4, True, 2, "klammern"),
        ("klaverjas-rotterdam", 4, True, 2, "klaverjas"),
        ("klammern-3", 3, False, 3, ""),
        ("klammern-2", 2, False, 2, ""),
    ],
)
def test_seats_sides_and_rating_pool(
    preset: str, players: int, teams: bool, sides: int, pool: str
) -> None:
    profile = profiles.PROFILES[preset]
    assert (profile.players, profile.teams, profile.sides(), profile.rating_pool) == (
        players,
        teams,
        sides,
        pool,
    )
    assert len(profile.deal_headings()) == len(profile.deal_cells({}))


def test_a_points_match_state_has_one_shape() -> None:
    options = profiles.tournament_rules("klammern-3", {"target_points": 150})
    results = [
        {"valid": True, "points": points}
        for points in ([30, 100, 32], [30, 32, 100], [20, 120, 22])
    ]
    state = profiles.PROFILES["klammern-3"].match_state(results, options, mode="liga", target=150)
    assert (state.kind, state.points, state.finished, state.winner) == (
        "points",
        (80, 252, 154),
        True,
        1,
    )
    assert state.big == (0, 0) and state.liga_winner is None and state.deals == 3
    # a corrected deal ended the match before a later one: the match ends there
    later = [*results, {"valid": True, "points": [100, 0, 0]}]
    ended = profiles.PROFILES["klammern-3"].match_state(later, options, mode="liga", target=150)
    assert (ended.points, ended.winner, ended.deals) == ((80, 252, 154), 1, 4)


def test_match_descriptions_in_dutch() -> None:
    with translation.override("nl"):
        assert (
            profiles.PROFILES["klammern-3"].match_description(mode="liga", target=500, deals=12)
            == "een partij tot 500 punten"
        )
        assert (
            profiles.PROFILES["klammern"].match_description(mode="liga", target=51, deals=8)
            == "een Liga-Partie tot 51"
        )
        assert (
            profiles.PROFILES["klaverjas-rotterdam"].match_description(
                mode="deals", target=0, deals=16
            )
            == "16 spellen"
        )
