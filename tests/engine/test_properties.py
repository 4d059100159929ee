"""Property tests over random legal deals from ``random_deal``."""

from __future__ import annotations

import copy
import random

from hypothesis import given, settings
from hypothesis import strategies as st

from games.engine import CARD_BY_TEXT, CARD_TEXT, Options, check, legal_cards, random_deal
from games.engine.cards import TABLES
from games.engine.play import trick_winner

SEEDS = st.integers(min_value=0, max_value=2**32 - 1)
DEALERS = st.integers(min_value=0, max_value=3)
RULES = st.sampled_from(
    [
        None,
        "klammern-hamburg",
        {"preset": "klammern", "options": {"overtrump_on_trump_lead": True}},
        {"preset": "klammern", "options": {"partner_exempt": True}},
        {"preset": "klammern", "options": {"revoke_clean_team_takes_all": True}},
    ]
)


def deal(seed: int, dealer: int, rules: object = None) -> dict[str, object]:
    return random_deal(random.Random(seed), dealer=dealer, rules=rules)


def replay(record: dict[str, object], options: Options) -> list[tuple[int, int, int]]:
    """(index, seat, legal mask) for every recorded play."""
    hands = [sum(1 << CARD_BY_TEXT[c] for c in h) for h in record["hands"]]  # type: ignore[attr-defined]
    trump = "CSHD".index(record["contract"]["trump"])  # type: ignore[index]
    seat = (int(record["dealer"]) + 1) % 4  # type: ignore[call-overload]
    trick: list[int] = []
    out = []
    for index, text in enumerate(record["plays"]):  # type: ignore[arg-type]
        card = CARD_BY_TEXT[text]
        out.append((index, seat, legal_cards(hands[seat], trick, trump, options)))
        hands[seat] ^= 1 << card
        trick.append(card)
        if len(trick) == 4:
            seat = (seat + 1 + trick_winner(trick, TABLES[trump])) % 4
            trick = []
        else:
            seat = (seat + 1) % 4
    return out


@settings(max_examples=300, deadline=None)
@given(SEEDS, DEALERS, RULES)
def test_random_deals_are_valid_and_sum_to_total(seed: int, dealer: int, rules: object) -> None:
    record = deal(seed, dealer, rules)
    result = check(record)
    assert result["valid"], result["errors"]
    if result["outcome"] == "thrown_in":
        return
    if result["outcome"] != "revoke":
        assert sum(result["points"]) == result["total"]
        assert sum(t["points"] for t in result["tricks"]) == 164
        assert result["beet"] * 2 == result["total"]
    else:
        assert sum(result["points"]) <= result["total"]
    assert result["total"] >= 164


@settings(max_examples=200, deadline=None)
@given(SEEDS, DEALERS)
def test_every_recorded_play_is_legal(seed: int, dealer: int) -> None:
    record = deal(seed, dealer)
    if record["contract"]["kind"] == "thrown_in":  # type: ignore[index]
        return
    for index, _seat, legal in replay(record, Options()):
        assert legal >> CARD_BY_TEXT[record["plays"][index]] & 1  # type: ignore[index]


@settings(max_examples=150, deadline=None)
@given(SEEDS, DEALERS, st.data())
def test_single_illegal_change_is_rejected_at_that_play(
    seed: int, dealer: int, data: st.DataObject
) -> None:
    record = deal(seed, dealer)
    if record["contract"]["kind"] == "thrown_in":  # type: ignore[index]
        return
    record.pop("revoke", None)
    hands = [sum(1 << CARD_BY_TEXT[c] for c in h) for h in record["hands"]]  # type: ignore[attr-defined]
    plays = record["plays"]
    played_before = {i: set(plays[:i]) for i in range(len(plays))}  # type: ignore[index, arg-type]
    chances = []
    for index, seat, legal in replay(record, Options()):
        held = [
            c
            for c in range(32)
            if hands[seat] >> c & 1 and CARD_TEXT[c] not in played_before[index]
        ]
        illegal = [c for c in held if not legal >> c & 1]
        if illegal:
            chances.append((index, illegal))
    if not chances:
        return
    index, illegal = data.draw(st.sampled_from(chances))
    bad = copy.deepcopy(record)
    bad["plays"][index] = CARD_TEXT[data.draw(st.sampled_from(illegal))]  # type: ignore[index]
    result = check(bad)
    assert not result["valid"]
    assert result["errors"][0]["code"] == "illegal_play"
    assert result["errors"][0]["play"] == index


@settings(max_examples=150, deadline=None)
@given(SEEDS, DEALERS, st.randoms(use_true_random=False))
def test_result_independent_of_meld_order(seed: int, dealer: int, rnd: random.Random) -> None:
    record = deal(seed, dealer)
    melds = record.get("melds")
    if not melds:
        return
    shuffled = copy.deepcopy(record)
    rnd.shuffle(shuffled["melds"])  # type: ignore[arg-type]
    for meld in shuffled["melds"]:  # type: ignore[attr-defined]
        rnd.shuffle(meld["cards"])
    assert check(shuffled) == check(record)


@settings(max_examples=100, deadline=None)
@given(SEEDS, DEALERS)
def test_summary_of_a_full_deal_agrees(seed: int, dealer: int) -> None:
    """The numbers of a full deal, written as a score sheet, give the same result."""
    record = deal(seed, dealer)
    result = check(record)
    if result["outcome"] == "thrown_in":
        return
    sheet = {k: v for k, v in record.items() if k not in ("hands", "plays")}
    card_points = [0, 0]
    for trick in result["tricks"]:
        card_points[trick["winner"] % 2] += trick["points"]
    sheet["card_points"] = card_points
    sheet["tricks_won"] = result["tricks_won"]
    if "revoke" in record:
        return  # a summary counts every listed meld; a full record only timely ones
    summary = check(sheet)
    assert summary["valid"], summary["errors"]
    for key in (
        "points",
        "total",
        "outcome",
        "winner_team",
        "small_points",
        "match_points",
        "melds",
        "bella",
    ):
        assert summary[key] == result[key], key


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
    """Every place inside a record, as a path of keys and indices."""
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


@settings(max_examples=300, deadline=None)
@given(SEEDS, DEALERS, st.data())
def test_any_value_anywhere_is_refused_in_words_never_with_a_crash(
    seed: int, dealer: int, data: st.DataObject
) -> None:
    """Whatever JSON value stands in whatever place of a record (a list as a call's seat,
    a dict as a card...), check() says what is wrong and never falls back to its
    ``internal_error`` answer."""
    record = deal(seed, dealer)
    if data.draw(st.booleans()):  # some as summary records
        record = {k: v for k, v in record.items() if k not in ("hands", "plays")}
        record["card_points"] = [82, 82]
    places = _places(record) + [(name,) for name in ("bidding", "melds", "bella", "revoke")]
    path = data.draw(st.sampled_from(places))
    target: object = record
    for key in path[:-1]:
        target = target[key]  # type: ignore[index]
    target[path[-1]] = data.draw(JSON_VALUES)  # type: ignore[index]
    result = check(record)
    assert "internal_error" not in [e["code"] for e in result["errors"]], (path, result)
