"""Cards, notation, points and rank orders (RULES.md "Cards")."""

from __future__ import annotations

import pytest

from games.engine import CARD_TEXT, TABLES
from games.engine.cards import DEAL_POINTS, RANK_POINTS, parse_card, parse_suit


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("JH", "JH"),
        ("9C", "9C"),
        ("TS", "TS"),
        ("10S", "TS"),
        ("10D", "TD"),
        ("AD", "AD"),
        ("7C", "7C"),
    ],
)
def test_notation_accepted(text: str, expected: str) -> None:
    card = parse_card(text)
    assert card is not None and CARD_TEXT[card] == expected


@pytest.mark.parametrize("text", ["jh", "1S", "11S", "T", "XH", "", "JHH", 5, None, ["JH"]])
def test_notation_rejected(text: object) -> None:
    assert parse_card(text) is None


def test_suits() -> None:
    assert [parse_suit(s) for s in "CSHD"] == [0, 1, 2, 3]
    assert parse_suit("h") is None


def test_card_points_total_120_and_deal_164() -> None:
    assert sum(RANK_POINTS) * 4 == 120
    for table in TABLES:
        assert sum(table.points) == 120 + 20 + 14
    assert DEAL_POINTS == 164


@pytest.mark.parametrize(
    ("rank", "points"),
    [("A", 11), ("T", 10), ("K", 4), ("Q", 3), ("J", 2), ("9", 0), ("8", 0), ("7", 0)],
)
def test_side_card_points(rank: str, points: int) -> None:
    spades = TABLES[2]  # hearts trump
    card = parse_card(rank + "S")
    assert card is not None and spades.points[card] == points


def test_jappa_and_mie_bonuses() -> None:
    table = TABLES[2]
    assert table.points[parse_card("JH") or 0] == 22
    assert table.points[parse_card("9H") or 0] == 14


def _order(table_index: int, suit: str) -> list[str]:
    table = TABLES[table_index]
    cards = [parse_card(r + suit) for r in "789TJQKA"]
    return [
        CARD_TEXT[c]
        for c in sorted((c for c in cards if c is not None), key=lambda c: -table.power[c])
    ]


def test_trump_order() -> None:
    assert _order(2, "H") == ["JH", "9H", "AH", "TH", "KH", "QH", "8H", "7H"]


def test_side_order() -> None:
    assert _order(2, "S") == ["AS", "TS", "KS", "QS", "JS", "9S", "8S", "7S"]


def test_any_trump_beats_any_side_card() -> None:
    table = TABLES[0]
    assert table.power[parse_card("7C") or 0] > table.power[parse_card("AS") or 0]
