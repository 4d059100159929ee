"""Each partnership game of four deals its duplicate boards in its own way (RULES.md,
"Duplicate tournaments", "Games"), from the same seed on every machine: Klaverjas 8 cards
each with the dealer's last card turned up, Belote 5 cards each, the upcard and the other
11 cards dealt after the take (the taker's hand completed with the upcard and two, the
others' with three, from forehand), the Schieber 9 of its 36 cards each with nothing
turned up. A record of a Belote board is held to the hands completed for its taker."""

from __future__ import annotations

from collections import Counter

import pytest
from hypothesis import given
from hypothesis import strategies as st

from games import engine
from games.engine.jass import JASS_CARD_TEXT
from games.profiles import AMSTERDAM, BELOTE, HAMBURG, KLAMMERN, ROTTERDAM, SCHIEBER
from tournaments.formats.boards import board_mismatch, deal_board

seeds = st.integers(min_value=0, max_value=2**63 - 1)
numbers = st.integers(min_value=1, max_value=32)


@given(seed=seeds, number=numbers)
def test_klaverjas_deals_all_32_cards_and_turns_up_the_dealers_last(seed: int, number: int) -> None:
    for game in (ROTTERDAM, AMSTERDAM):
        board = deal_board(game, seed=seed, round_number=1, number=number)
        assert Counter(c for hand in board.hands for c in hand) == Counter(engine.CARD_TEXT)
        assert board.dealer == (number - 1) % 4
        assert board.upcard == board.hands[board.dealer][-1] and board.stock == ()


@given(seed=seeds, number=numbers)
def test_hamburg_deals_as_klammern(seed: int, number: int) -> None:
    assert deal_board(HAMBURG, seed=seed, round_number=2, number=number) == deal_board(
        KLAMMERN, seed=seed, round_number=2, number=number
    )


@given(seed=seeds, number=numbers)
def test_the_schieber_deals_9_of_36_and_turns_nothing_up(seed: int, number: int) -> None:
    board = deal_board(SCHIEBER, seed=seed, round_number=1, number=number)
    assert [len(hand) for hand in board.hands] == [9, 9, 9, 9]
    assert Counter(c for hand in board.hands for c in hand) == Counter(JASS_CARD_TEXT)
    assert board.upcard == "" and board.stock == ()


@given(seed=seeds, number=numbers, taker_offset=st.integers(min_value=0, max_value=3))
def test_belote_completes_the_hands_for_the_taker(
    seed: int, number: int, taker_offset: int
) -> None:
    board = deal_board(BELOTE, seed=seed, round_number=1, number=number)
    assert [len(hand) for hand in board.hands] == [5, 5, 5, 5] and len(board.stock) == 11
    dealt = [c for hand in board.hands for c in hand] + [board.upcard, *board.stock]
    assert Counter(dealt) == Counter(engine.CARD_TEXT)
    forehand = (board.dealer + 1) % 4
    taker = (forehand + taker_offset) % 4
    hands = BELOTE.board_hands(board, {"kind": "belote", "declarer": taker})
    assert [len(hand) for hand in hands] == [8, 8, 8, 8]
    assert board.upcard in hands[taker]
    # the stock in turn from forehand: the taker two after the upcard, the others three
    position = 0
    for k in range(4):
        seat = (forehand + k) % 4
        count = 2 if seat == taker else 3
        assert hands[seat][5:] == (
            ((board.upcard,) if seat == taker else ()) + board.stock[position : position + count]
        )
        position += count
    # a thrown-in board keeps its 5-card hands
    assert BELOTE.board_hands(board, {"kind": "thrown_in"}) == board.hands


def test_a_belote_record_is_held_to_the_hands_of_its_taker() -> None:
    board = deal_board(BELOTE, seed=7, round_number=1, number=1)
    taker = (board.dealer + 1) % 4
    contract = {"kind": "belote", "declarer": taker, "trump": board.upcard[1], "round": 1}
    hands = [list(h) for h in BELOTE.board_hands(board, contract)]
    record = {"dealer": board.dealer, "upcard": board.upcard, "contract": contract, "hands": hands}
    assert board_mismatch(board, record, game=BELOTE) == []
    # the same hands under another taker: the upcard went to the wrong seat
    other = {**contract, "declarer": (taker + 1) % 4}
    problems = board_mismatch(board, {**record, "contract": other}, game=BELOTE)
    assert {p["params"]["seat"] for p in problems} >= {taker, (taker + 1) % 4}


@pytest.mark.parametrize("game", [ROTTERDAM, BELOTE, SCHIEBER])
def test_a_points_games_board_result_is_its_score(game: object) -> None:
    """Klaverjas nat, Belote dedans: the engine's points already give the defenders all;
    the Schieber has no made or failed."""
    result = {"outcome": "failed", "points": [0, 162], "winner_team": 1, "playing_team": 0}
    assert game.board_result(result) == (0, 162)  # type: ignore[attr-defined]
    assert game.par_board_result([40, 122], outcome="failed", playing_team=0) == (40, 122)  # type: ignore[attr-defined]
