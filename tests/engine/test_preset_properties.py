"""Property tests for the new presets: random legal deals of every preset are valid,
their numbers add up, and no JSON value anywhere gives an ``internal_error``."""

from __future__ import annotations

import random
from typing import Any

from hypothesis import given, settings
from hypothesis import strategies as st

from games.engine import check, random_deal

SEEDS = st.integers(min_value=0, max_value=2**32 - 1)
DEALERS = st.integers(min_value=0, max_value=3)
KLAVERJAS = st.sampled_from(["klaverjas-rotterdam", "klaverjas-amsterdam"])
SOLO = st.sampled_from(["klammern-2", "klammern-3"])
ANY = st.sampled_from(
    [
        "klaverjas-rotterdam",
        "klaverjas-amsterdam",
        "klammern-2",
        "klammern-3",
        "belote",
        "belote-contree",
    ]
)


def deal(seed: int, dealer: int, rules: str) -> dict[str, Any]:
    return random_deal(random.Random(seed), dealer=dealer, rules=rules)


@settings(max_examples=200, deadline=None)
@given(SEEDS, DEALERS, KLAVERJAS)
def test_klaverjas_deals_valid_and_add_up(seed: int, dealer: int, rules: str) -> None:
    result = check(deal(seed, dealer, rules))
    assert result["valid"], result["errors"]
    assert result["declarer"] == (dealer + 1) % 4
    roem, points, makers = result["roem"], result["points"], result["playing_team"]
    assert all(r % 10 == 0 for r in roem)
    assert result["total"] == sum(points)
    if result["outcome"] == "made":
        assert sum(result["card_points"]) == 162
        assert points == [c + r for c, r in zip(result["card_points"], roem, strict=True)]
    elif result["outcome"] == "failed":
        assert points[makers] == 0 and points[1 - makers] == 162 + sum(roem)
    else:
        assert points[result["revoke"]["seat"] & 1] == 0
        assert sum(points) == 162 + sum(roem)
    assert (result["pit"] is not None) == (8 in result["tricks_won"])


@settings(max_examples=200, deadline=None)
@given(SEEDS, DEALERS)
def test_contree_deals_valid_and_add_up(seed: int, dealer: int) -> None:
    result = check(deal(seed, dealer, "belote-contree"))
    assert result["valid"], result["errors"]
    points, takers, outcome = result["points"], result["playing_team"], result["outcome"]
    assert result["total"] == sum(points) and all(p % 10 == 0 for p in points)
    if outcome == "thrown_in":
        assert points == [0, 0] and result["winner_team"] is None
        return
    game = 250 if result["value"] == "capot" else 160
    times = (1, 2, 4)[result["doubling"]]
    if outcome == "revoke":
        assert points[result["revoke"]["seat"] & 1] == 0 and sum(points) == game * times
        return
    assert sum(result["card_points"]) == 162
    assert (result["capot"] is not None) == (8 in result["tricks_won"])
    assert result["winner_team"] == (takers if outcome == "made" else 1 - takers)
    if result["doubling"] or outcome == "failed":
        assert points[result["winner_team"]] == game * times and sum(points) == game * times
    else:
        assert sum(points) in (160, 250) and points[takers] >= 80


@settings(max_examples=200, deadline=None)
@given(SEEDS, DEALERS, SOLO)
def test_solo_deals_valid_and_add_up(seed: int, dealer: int, rules: str) -> None:
    record = deal(seed, dealer, rules)
    n = len(record["hands"])
    result = check(record)
    assert result["valid"], result["errors"]
    assert len(result["points"]) == n
    assert "winner_team" not in result and "match_points" not in result
    if result["outcome"] == "thrown_in":
        return
    if result["outcome"] != "revoke":
        assert len(result["tricks"]) * n == len(record["plays"]) == 9 * n
    own = list(result["card_points"])
    for meld in result["melds"]["scored"]:
        own[meld["seat"]] += meld["points"]
    if result["bella"]:
        own[result["bella"]["seat"]] += 20
    if result["outcome"] == "made":
        assert result["points"] == own
        assert result["card_points"][result["declarer"]] <= 164
    elif result["outcome"] == "failed":
        assert sum(result["points"]) == sum(own)
        assert result["points"][result["declarer"]] == 0
    else:
        assert result["points"][result["revoke"]["seat"]] == 0
    top = max(result["points"])
    if result["points"].count(top) == 1:
        assert result["winner"] == result["points"].index(top)


@settings(max_examples=100, deadline=None)
@given(SEEDS, DEALERS, KLAVERJAS)
def test_klaverjas_summary_of_a_full_deal_agrees(seed: int, dealer: int, rules: str) -> None:
    record = deal(seed, dealer, rules)
    full = check(record)
    roem_taken = list(full["roem"])
    if full["pit"] is not None:
        roem_taken[full["pit"]] -= 100
    sheet = {k: v for k, v in record.items() if k not in ("hands", "plays")}
    sheet.update(card_points=full["card_points"], roem=roem_taken, tricks_won=full["tricks_won"])
    result = check(sheet)
    assert result["valid"], result["errors"]
    for key in ("points", "roem", "pit", "outcome", "winner_team"):
        assert result[key] == full[key], key


@settings(max_examples=100, deadline=None)
@given(SEEDS, DEALERS, SOLO)
def test_solo_summary_of_a_full_deal_agrees(seed: int, dealer: int, rules: str) -> None:
    record = deal(seed, dealer, rules)
    full = check(record)
    sheet = {k: v for k, v in record.items() if k not in ("hands", "plays")}
    if full["outcome"] != "thrown_in":
        sheet.update(card_points=full["card_points"], tricks_won=full["tricks_won"])
    result = check(sheet)
    assert result["valid"], result["errors"]
    for key in ("points", "outcome", "winner"):
        assert result[key] == full[key], key


JSON_VALUES = st.recursive(
    st.none()
    | st.booleans()
    | st.integers(-5, 40)
    | st.floats(allow_nan=False)
    | st.text(max_size=4),
    lambda inner: (
        st.lists(inner, max_size=3) | st.dictionaries(st.text(max_size=6), inner, max_size=3)
    ),
    max_leaves=6,
)


def _places(value: object, path: tuple[object, ...] = ()) -> list[tuple[object, ...]]:
    found = [path] if path else []
    items = (
        value.items()
        if isinstance(value, dict)
        else enumerate(value)
        if isinstance(value, list)
        else ()
    )
    for key, inner in items:
        found += _places(inner, (*path, key))
    return found


@settings(max_examples=400, deadline=None)
@given(SEEDS, DEALERS, ANY, st.data())
def test_any_value_anywhere_never_crashes(
    seed: int, dealer: int, rules: str, data: st.DataObject
) -> None:
    record = deal(seed, dealer, rules)
    if data.draw(st.booleans()):
        record = {k: v for k, v in record.items() if k not in ("hands", "plays")}
        teams = rules.startswith("klaverjas") or rules.startswith("belote")
        n = 2 if teams else int(rules[-1])
        record["card_points"] = [60] * n
        record["roem"] = [0, 0]
    extra = ("bidding", "melds", "bella", "revoke", "exchange", "turned", "upcard", "roem", "bids")
    places = _places(record) + [(name,) for name in extra]
    path = data.draw(st.sampled_from(places))
    target: Any = record
    for key in path[:-1]:
        target = target[key]
    target[path[-1]] = data.draw(JSON_VALUES)
    result = check(record)
    assert "internal_error" not in [e["code"] for e in result["errors"]], (path, result)
