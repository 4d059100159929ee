"""Each game's record has its own top-level fields (spec/deal-record.md); the engine
refuses any other with ``unknown_field`` naming it, for every preset, and keeps checking
the known fields so that every problem is listed at once."""

from __future__ import annotations

import copy
import random
from typing import Any

import pytest

from games.engine import (
    ALL_PRESETS,
    belote,
    check,
    contree,
    klaverjas,
    random_deal,
    record,
    schieber,
    solo,
)
from tests.engine.helpers import TIE_RECORD, codes

COMMON = {
    "format",
    "rules",
    "dealer",
    "hands",
    "contract",
    "plays",
    "revoke",
    "card_points",
    "tricks_won",
}
#: The fields of each game's record, as spec/deal-record.md lists them.
SPEC_FIELDS = {
    "klammern": COMMON | {"upcard", "bidding", "doubling", "march", "melds", "bella"},
    "klaverjas": COMMON | {"upcard", "roem"},
    "solo": COMMON | {"turned", "exchange", "bidding", "melds", "bella"},
    "belote": COMMON | {"upcard", "melds", "bella"},
    "contree": COMMON | {"bids"},
    "schieber": COMMON | {"weis", "stoeck"},
}
MODULES = {
    "klammern": record,
    "klaverjas": klaverjas,
    "solo": solo,
    "belote": belote,
    "contree": contree,
    "schieber": schieber,
}


def _game(preset: str) -> str:
    options = ALL_PRESETS[preset]
    return options.game if options.players == 4 else "solo"


def _deal(preset: str, seed: int = 7) -> dict[str, Any]:
    return random_deal(random.Random(seed), dealer=seed % 4, rules=preset)


@pytest.mark.parametrize("game", sorted(SPEC_FIELDS))
def test_each_game_declares_the_spec_fields_in_its_own_module(game: str) -> None:
    assert SPEC_FIELDS[game] == MODULES[game].RECORD_FIELDS


@pytest.mark.parametrize(
    ("preset", "name", "value"),
    [
        ("klammern", "foo", 1),
        ("klammern", "roem", [0, 0]),
        ("klammern", "weis", []),
        ("klammern", "stoeck", 0),
        ("klammern", "turned", "7H"),
        ("klammern-hamburg", "comment", "table 4"),
        ("klaverjas-rotterdam", "foo", 1),
        ("klaverjas-rotterdam", "weis", []),
        ("klaverjas-amsterdam", "melds", []),
        ("klaverjas-amsterdam", "bella", 0),
        ("klaverjas-rotterdam", "doubling", "kontra"),
        ("klammern-2", "upcard", "7H"),
        ("klammern-3", "march", False),
        ("klammern-3", "weis", []),
        ("belote", "foo", 1),
        ("belote", "weis", []),
        ("belote", "stoeck", 0),
        ("belote", "bidding", []),
        ("belote", "exchange", 0),
        ("belote-contree", "foo", 1),
        ("belote-contree", "upcard", "7H"),
        ("belote-contree", "bidding", []),
        ("belote-contree", "melds", []),
        ("belote-contree", "bella", 0),
        ("belote-contree", "doubling", "kontra"),
        ("schieber", "foo", 1),
        ("schieber", "melds", []),
        ("schieber", "bella", 0),
        ("schieber", "upcard", "7H"),
        ("schieber", "roem", [0, 0]),
    ],
)
def test_a_field_the_game_has_not_is_refused_by_name(preset: str, name: str, value: Any) -> None:
    deal = _deal(preset)
    assert check(deal)["valid"], check(deal)["errors"]
    result = check({**deal, name: value})
    assert not result["valid"]
    assert result["errors"] == [
        {
            "code": "unknown_field",
            "message": result["errors"][0]["message"],
            "field": name,
            "params": {"field": name},
        }
    ]
    message = result["errors"][0]["message"]
    assert repr(name) in message and "remove it" in message


@pytest.mark.parametrize("preset", sorted(ALL_PRESETS))
def test_every_field_of_the_game_is_accepted(preset: str) -> None:
    # random deals use the game's optional fields too (melds, bella, weis, stoeck, ...)
    seen: set[str] = set()
    for seed in range(40):
        deal = _deal(preset, seed)
        result = check(deal)
        assert result["valid"], (seed, result["errors"])
        seen |= set(deal)
    assert seen <= SPEC_FIELDS[_game(preset)]


def test_a_summary_with_an_unknown_field_is_refused() -> None:
    assert check(copy.deepcopy(TIE_RECORD))["valid"]
    result = check({**copy.deepcopy(TIE_RECORD), "comment": "table 4", "Dealer": 1})
    assert codes(result) == ["unknown_field", "unknown_field"]
    assert [e["field"] for e in result["errors"]] == ["Dealer", "comment"]


@pytest.mark.parametrize("preset", sorted(ALL_PRESETS))
def test_an_unknown_field_does_not_hide_the_other_problems(preset: str) -> None:
    deal = _deal(preset)
    deal["plays"] = deal["plays"][:-1]  # one card short, no revoke
    assert codes(check(deal)) == ["incomplete_play"]
    result = check({**deal, "note": "x"})
    assert codes(result) == ["unknown_field", "incomplete_play"]
    assert result["mode"] == "full"


def test_a_key_that_is_no_text_is_named_as_text() -> None:
    result = check({**copy.deepcopy(TIE_RECORD), 3: "x"})
    assert codes(result) == ["unknown_field"] and result["errors"][0]["field"] == "3"
