"""Each format profile's answers (``tournaments/formats/``): who the entrants are, how a
round is seated, how a table's result becomes standings, what the tablet, the player
page and the exports show, how the rating moves and when a deal may be seen; and the
registry's choice of a tournament's profile."""

from __future__ import annotations

from types import SimpleNamespace
from typing import Any

import pytest
from django.utils import translation

from games import profiles
from tournaments import formats
from tournaments.events.models import Round, Tournament
from tournaments.formats import (
    DUPLICATE,
    DUPLICATE_PAIRS,
    FINALS,
    INDIVIDUAL,
    LEAGUE,
    PAIRS,
)


def tournament(game_format: str, *, duplicate: bool = False) -> Any:
    return SimpleNamespace(format=game_format, duplicate=duplicate)


@pytest.mark.parametrize(
    ("game_format", "duplicate", "profile"),
    [
        ("individual", False, INDIVIDUAL),
        ("pairs", False, PAIRS),
        ("league", False, LEAGUE),
        ("individual", True, DUPLICATE),
        ("pairs", True, DUPLICATE_PAIRS),
        ("league", True, LEAGUE),  # a league is never played in duplicate
    ],
)
def test_a_tournament_finds_its_profile(game_format: str, duplicate: bool, profile: Any) -> None:
    assert formats.format_profile(tournament(game_format, duplicate=duplicate)) is profile


def test_every_stored_format_has_a_profile_and_no_other() -> None:
    assert {p.format for p in formats.FORMATS} == set(Tournament.Format.values)
    with pytest.raises(LookupError):
        formats.format_named("knockout")


def test_a_finals_round_answers_as_finals() -> None:
    event = tournament("pairs")
    finals = SimpleNamespace(tournament=event, stage=Round.Stage.SEMI, status="published")
    preliminary = SimpleNamespace(tournament=event, stage=Round.Stage.PRELIMINARY)
    assert formats.round_profile(finals) is FINALS
    assert formats.round_profile(preliminary) is PAIRS
    assert FINALS.standings == formats.KNOCKOUT and FINALS.rating == formats.RATE_TABLES


@pytest.mark.parametrize(
    ("profile", "teams", "seating", "standings", "rating"),
    [
        (INDIVIDUAL, False, formats.CHANGING_PARTNERS, formats.TABLE_RESULT, formats.RATE_TABLES),
        (PAIRS, True, formats.FIXED_PAIRS, formats.TABLE_RESULT, formats.RATE_TABLES),
        (LEAGUE, True, formats.MATCH_DAY, formats.LEAGUE_POINTS, formats.RATE_TABLES),
        (
            DUPLICATE,
            False,
            formats.CHANGING_PARTNERS,
            formats.MATCH_POINTS,
            formats.RATE_DIRECTIONS,
        ),
        (
            DUPLICATE_PAIRS,
            True,
            formats.FIXED_PAIRS,
            formats.MATCH_POINTS,
            formats.RATE_DIRECTIONS,
        ),
    ],
)
def test_entrants_seating_standings_and_rating(
    profile: Any, teams: bool, seating: str, standings: str, rating: str
) -> None:
    assert (profile.teams, profile.seating, profile.standings, profile.rating) == (
        teams,
        seating,
        standings,
        rating,
    )
    assert profile.entrant_kind() == ("team" if teams else "player")


def test_duplicate_shows_boards_and_match_points_not_the_tables_result() -> None:
    for profile in (DUPLICATE, DUPLICATE_PAIRS):
        assert profile.boards and profile.thrown_in_played
        assert profile.score_template == "tablet/_score_boards.html"
        assert profile.points_score_template == "tablet/_score_boards.html"
        assert profile.terms_template == "duplicate/_score_terms.html"
        assert profile.player_template == "public/_player_board_result.html"
        assert profile.outcome == formats.PERCENTAGE
        assert [name for name, _ in profile.exports] == ["duplicate-traveller-csv"]
    for profile in (INDIVIDUAL, PAIRS, LEAGUE):
        assert not profile.boards and not profile.thrown_in_played and not profile.exports
        assert profile.score_template == "tablet/_score_table.html"
        assert profile.terms_template == "console/_score_terms.html"
        assert profile.outcome == "table"


def test_who_sees_a_deal_when() -> None:
    for status in ("draft", "published"):
        assert DUPLICATE.sealed(status) and DUPLICATE_PAIRS.sealed(status)
        assert not any(p.sealed(status) for p in (INDIVIDUAL, PAIRS, LEAGUE, FINALS))
    assert not DUPLICATE.sealed("closed")
    round_ = SimpleNamespace(
        tournament=tournament("individual", duplicate=True), status="published"
    )
    assert formats.sealed(round_)
    round_.status = "closed"
    assert not formats.sealed(round_)


def test_the_unsealed_filter_hides_open_duplicate_rounds_only() -> None:
    query = str(formats.unsealed("round__"))
    assert "round__tournament__duplicate" in query and "round__status" in query
    assert INDIVIDUAL.sealed_rows() is None


def test_the_settings_each_format_uses() -> None:
    assert INDIVIDUAL.allows(formats.BALANCE_BY_RATING)
    assert INDIVIDUAL.allows(formats.FORBIDDEN_PAIRINGS)
    assert not INDIVIDUAL.allows(formats.ROUND_ROBIN)
    assert PAIRS.allows(formats.ROUND_ROBIN) and PAIRS.allows(formats.SEED_BY_RATING)
    assert PAIRS.allows(formats.PAIRS_AND_FINALS) and not PAIRS.allows(formats.BALANCE_BY_RATING)
    assert not LEAGUE.allows(formats.PAIRS_AND_FINALS) and not LEAGUE.deletable
    assert LEAGUE.default_match_mode == Tournament.MatchMode.LIGA
    assert (PAIRS.team_size, LEAGUE.team_size, INDIVIDUAL.team_size) == (2, None, None)


def test_which_games_a_format_plays() -> None:
    three = profiles.PROFILES["klammern-3"]
    klammern = profiles.PROFILES["klammern"]
    belote = profiles.PROFILES["belote"]
    assert INDIVIDUAL.plays_game(three) and not PAIRS.plays_game(three)
    assert LEAGUE.plays_game(klammern) and not LEAGUE.plays_game(belote)


def test_clubs_evenings_and_league_tables() -> None:
    assert formats.evening_formats() == ["individual", "pairs"]
    assert formats.league_formats() == ["league"]
    assert not LEAGUE.evening


def test_duplicate_names_the_game_without_its_matchs_terms() -> None:
    klammern = profiles.PROFILES["klammern"]
    with translation.override("de"):
        assert DUPLICATE.game_label(klammern) == "Klammern"
        assert INDIVIDUAL.game_label(klammern) == str(klammern.label)
        assert "große Punkte" in str(klammern.label)
