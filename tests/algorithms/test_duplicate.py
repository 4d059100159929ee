"""Duplicate tournaments, the pure part (RULES.md, "Duplicate tournaments"): boards dealt
from a seed (reproducible, a whole deck split 3-2-3, the dealer of deal k), the check of
a record against its board, match points per board and direction (worked by hand, ties
included) and the evening as a percentage, for pairs and for changing partners."""

from __future__ import annotations

from collections import Counter
from fractions import Fraction

import pytest
from hypothesis import given
from hypothesis import strategies as st

from games import engine
from games.profiles import KLAMMERN
from tournaments.formats import boards as duplicate
from tournaments.formats.boards import BoardPlay, board_mismatch, deal_board

# --- boards -------------------------------------------------------------------------------


@given(
    seed=st.integers(min_value=0, max_value=2**63 - 1),
    round_number=st.integers(min_value=1, max_value=30),
    number=st.integers(min_value=1, max_value=64),
)
def test_a_board_is_a_whole_deck_dealt_3_2_3_by_the_dealer_of_its_deal(
    seed: int, round_number: int, number: int
) -> None:
    board = deal_board(KLAMMERN, seed=seed, round_number=round_number, number=number)
    assert [len(hand) for hand in board.hands] == [8, 8, 8, 8]
    assert Counter(card for hand in board.hands for card in hand) == Counter(engine.CARD_TEXT)
    # deal k is dealt by the usual rotation: seat 0 deals deal 1, seat 1 deal 2, ...
    assert board.dealer == (number - 1) % 4
    # the upcard: the middle card of the dealer's last packet of 3, kept in the hand
    assert board.upcard == board.hands[board.dealer][6]
    again = deal_board(KLAMMERN, seed=seed, round_number=round_number, number=number)
    assert again == board


def test_the_same_seed_round_and_board_always_give_the_same_cards() -> None:
    """Reproducible across runs and machines: a string seed, not the process's hash."""
    board = deal_board(KLAMMERN, seed=12345, round_number=2, number=3)
    assert board.dealer == 2
    assert board.hands == (
        ("TH", "9H", "QD", "AH", "8H", "7C", "9C", "7D"),
        ("JH", "8S", "AS", "AC", "KH", "JD", "8C", "AD"),
        ("7H", "QH", "TC", "KS", "JS", "QS", "TD", "JC"),
        ("9S", "KD", "KC", "QC", "7S", "8D", "9D", "TS"),
    )
    assert board.upcard == "TD"


def test_boards_differ_by_seed_round_and_number() -> None:
    base = deal_board(KLAMMERN, seed=1, round_number=1, number=1).hands
    assert deal_board(KLAMMERN, seed=2, round_number=1, number=1).hands != base
    assert deal_board(KLAMMERN, seed=1, round_number=2, number=1).hands != base
    assert deal_board(KLAMMERN, seed=1, round_number=1, number=5).hands != base


def test_a_round_has_one_board_per_deal() -> None:
    boards = duplicate.round_boards(KLAMMERN, seed=9, round_number=1, count=4)
    assert [b.number for b in boards] == [1, 2, 3, 4]
    assert [b.dealer for b in boards] == [0, 1, 2, 3]


@pytest.mark.parametrize("number", [0, -1])
def test_boards_are_numbered_from_1(number: int) -> None:
    with pytest.raises(ValueError, match="numbered from 1"):
        deal_board(KLAMMERN, seed=1, round_number=1, number=number)


def test_a_record_that_fits_its_board_has_no_mismatch() -> None:
    board = deal_board(KLAMMERN, seed=3, round_number=1, number=2)
    summary = {"dealer": board.dealer, "upcard": board.upcard}
    assert board_mismatch(board, summary, game=KLAMMERN) == []
    shuffled = [list(reversed(hand)) for hand in board.hands]  # the order does not matter
    assert board_mismatch(board, {**summary, "hands": shuffled}, game=KLAMMERN) == []


def test_a_record_names_each_field_that_differs_from_its_board() -> None:
    board = deal_board(KLAMMERN, seed=3, round_number=1, number=2)
    other_up = next(card for card in board.hands[0] if card != board.upcard)
    hands = [list(hand) for hand in board.hands]
    hands[0][0], hands[3][0] = hands[3][0], hands[0][0]  # two seats swapped a card
    problems = board_mismatch(
        board, {"dealer": 0, "upcard": other_up, "hands": hands}, game=KLAMMERN
    )
    assert [(p["code"], p["field"]) for p in problems] == [
        ("board_mismatch", "dealer"),
        ("board_mismatch", "upcard"),
        ("board_mismatch", "hands"),
        ("board_mismatch", "hands"),
    ]
    assert problems[0]["params"] == {"expected": 1}
    assert problems[1]["params"] == {"card": board.upcard}
    assert [p["params"]["seat"] for p in problems[2:]] == [0, 3]


def test_ten_written_as_10_is_the_same_card() -> None:
    board = deal_board(KLAMMERN, seed=3, round_number=1, number=2)
    hands = [[("10" + c[1]) if c[0] == "T" else c for c in hand] for hand in board.hands]
    assert board_mismatch(board, {"dealer": board.dealer, "hands": hands}, game=KLAMMERN) == []


# --- a board's result, as the game reads it --------------------------------------------


def test_a_made_game_keeps_each_teams_points() -> None:
    result = {"outcome": "made", "points": [100, 84], "winner_team": 0, "playing_team": 0}
    assert KLAMMERN.board_result(result) == (100, 84)


def test_a_failed_game_gives_the_defenders_all_and_the_players_nothing() -> None:
    result = {"outcome": "failed", "points": [70, 114], "winner_team": 1, "playing_team": 0}
    assert KLAMMERN.board_result(result) == (0, 184)


def test_a_thrown_in_board_is_nothing_for_both() -> None:
    assert KLAMMERN.board_result({"outcome": "thrown_in", "winner_team": None}) == (0, 0)


# --- match points -----------------------------------------------------------------------


def play(table: int, ns: int, ew: int, *, board: int = 1, sides: tuple = ()) -> BoardPlay:
    return BoardPlay(
        round=1,
        board=board,
        table=table,
        sides=sides or ((100 + table,), (200 + table,)),
        points=(ns, ew),
    )


def test_match_points_worked_by_hand_with_a_tie() -> None:
    """Board 1 at three tables. North-South scored 100, 80, 100: table 1 beat table 2
    (2) and tied table 3 (1) = 3; table 2 beat nobody = 0; table 3 = 3 as table 1.
    East-West scored 64, 84, 64: table 2 beat both = 4, tables 1 and 3 tied each
    other = 1 each. The top is 2 x 2 other tables = 4."""
    scored = duplicate.score_boards([play(1, 100, 64), play(2, 80, 84), play(3, 100, 64)])
    assert [s.match_points for s in scored] == [(3, 1), (0, 4), (3, 1)]
    assert {s.top for s in scored} == {(4, 4)}


def test_boards_and_rounds_are_scored_apart() -> None:
    """A table is compared only with the tables of its round that played its board."""
    scored = duplicate.score_boards(
        [play(1, 90, 74, board=1), play(2, 60, 104, board=1), play(1, 10, 154, board=2)]
    )
    assert [s.match_points for s in scored] == [(2, 0), (0, 2), (0, 0)]
    assert [s.top for s in scored] == [(2, 2), (2, 2), (0, 0)]


@given(st.lists(st.tuples(st.integers(0, 200), st.integers(0, 200)), min_size=1, max_size=8))
def test_each_direction_shares_out_two_points_per_pair_of_tables(
    points: list[tuple[int, int]],
) -> None:
    """Each pair of tables on a board shares 2 match points per direction (2:0 or 1:1),
    so a direction's match points sum to n(n-1), and a team never exceeds the top."""
    plays = [play(t, ns, ew) for t, (ns, ew) in enumerate(points, start=1)]
    scored = duplicate.score_boards(plays)
    n = len(plays)
    for direction in (0, 1):
        assert sum(s.match_points[direction] for s in scored) == n * (n - 1)
        assert all(0 <= s.match_points[direction] <= s.top[direction] for s in scored)


# --- the evening ----------------------------------------------------------------------


def test_pairs_are_ranked_by_their_percentage() -> None:
    """Pairs 101-103 sit North-South, 201-203 East-West (board 1 as above, board 2:
    North-South 50, 50, 120; East-West 114, 114, 44). Pair 101: 3 + 1 = 4 of 8 = 50 %;
    102: 0 + 1 = 1 = 12.5 %; 103: 3 + 4 = 7 = 87.5 %; 201: 1 + 3 = 4 = 50 %;
    202: 4 + 3 = 7 = 87.5 %; 203: 1 + 0 = 1 = 12.5 %."""
    plays = [play(1, 100, 64), play(2, 80, 84), play(3, 100, 64)]
    plays += [play(1, 50, 114, board=2), play(2, 50, 114, board=2), play(3, 120, 44, board=2)]
    rows = duplicate.duplicate_standings(duplicate.score_boards(plays))
    shown = [(r.rank, r.entrant, r.match_points, r.maximum, r.percentage) for r in rows]
    assert shown == [
        (1, 103, 7, 8, Fraction(175, 2)),
        (1, 202, 7, 8, Fraction(175, 2)),
        (3, 101, 4, 8, Fraction(50)),
        (3, 201, 4, 8, Fraction(50)),
        (5, 102, 1, 8, Fraction(25, 2)),
        (5, 203, 1, 8, Fraction(25, 2)),
    ]
    assert rows[0].to_dict()["percentage"] == 87.5 and rows[0].to_dict()["played"] == 2


def test_a_player_with_changing_partners_sums_the_teams_they_sat_in() -> None:
    """Player 1 sits North-South with 2 on board 1 (table 1: 3 of 4) and East-West with 3
    on board 2 (table 2: 4 of 4): 7 of 8 = 87.5 %. Player 2 only on board 1: 3 of 4."""
    board1 = [
        play(1, 100, 64, sides=((1, 2), (5, 6))),
        play(2, 80, 84, sides=((7, 8), (9, 10))),
        play(3, 100, 64, sides=((11, 12), (13, 14))),
    ]
    board2 = [
        play(1, 50, 114, board=2, sides=((5, 9), (11, 13))),
        play(2, 50, 124, board=2, sides=((6, 10), (1, 3))),
        play(3, 120, 44, board=2, sides=((7, 12), (8, 14))),
    ]
    rows = {
        r.entrant: r for r in duplicate.duplicate_standings(duplicate.score_boards(board1 + board2))
    }
    assert (rows[1].match_points, rows[1].maximum, rows[1].percentage) == (7, 8, Fraction(175, 2))
    assert (rows[2].boards, rows[2].match_points, rows[2].maximum) == (1, 3, 4)
    assert rows[2].percentage == 75


def test_an_entrant_without_a_compared_board_comes_last_without_a_percentage() -> None:
    """Two tables played board 1 (90:74 and 60:104); player 7 registered but played
    nothing: no percentage, last."""
    scored = duplicate.score_boards([play(1, 90, 74), play(2, 60, 104)])
    rows = duplicate.duplicate_standings(scored, entrants=[7])
    shown = [(r.rank, r.entrant, r.percentage) for r in rows]
    assert shown == [(1, 101, 100), (1, 202, 100), (3, 102, 0), (3, 201, 0), (5, 7, None)]
    assert rows[-1].to_dict()["percentage"] is None


# --- par --------------------------------------------------------------------------------


def test_a_failed_par_gives_the_defenders_all() -> None:
    par = duplicate.Par((70, 114), "failed")
    assert duplicate.par_result(par, playing_team=0, game=KLAMMERN) == (0, 184)
    assert duplicate.par_result(
        duplicate.Par((100, 64), "made"), playing_team=0, game=KLAMMERN
    ) == (100, 64)


def test_the_par_of_a_summary_is_the_boards_perfect_play_in_its_contract() -> None:
    """The card points come from the solver on the board's hands; the melds and Bella the
    record scored are added as they were."""
    board = deal_board(KLAMMERN, seed=5, round_number=1, number=1)
    trump = board.upcard[1]
    forehand = (board.dealer + 1) % 4
    masks = [sum(1 << engine.CARD_BY_TEXT[c] for c in hand) for hand in board.hands]
    options = engine.resolve_rules("klammern")
    own = engine.deal_par(masks, trump="CSHD".index(trump), forehand=forehand, options=options)
    record = {"card_points": [80, 84]}
    result = {"outcome": "made", "trump": trump, "points": [100, 84], "playing_team": 0}
    par = duplicate.summary_par(board, result, record, options=options, game=KLAMMERN)
    assert par is not None
    assert par.points == (own + 20, 164 - own)
    assert par.outcome == ("made" if own + 20 > 164 - own else "failed")


def test_a_thrown_in_or_revoked_summary_has_no_par() -> None:
    board = deal_board(KLAMMERN, seed=5, round_number=1, number=1)
    options = engine.resolve_rules("klammern")
    for outcome in ("thrown_in", "revoke"):
        result = {"outcome": outcome, "trump": "H", "points": [0, 0], "playing_team": 0}
        assert (
            duplicate.summary_par(
                board, result, {"card_points": [0, 0]}, options=options, game=KLAMMERN
            )
            is None
        )
