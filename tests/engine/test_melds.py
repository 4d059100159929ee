"""Terz/Fünfzig runs, the meld contest and meld validation (RULES.md "Melds")."""

from __future__ import annotations

import pytest

from games.engine import Options, check
from games.engine.cards import parse_card
from games.engine.melds import Meld, Run, contest, run_of_cards, runs_of
from tests.engine.helpers import MIXED_HANDS, MIXED_PLAYS, SUITED_HANDS, codes, full, summary


def hand(cards: str) -> int:
    return sum(1 << (parse_card(c) or 0) for c in cards.split())


def meld(seat: int, cards: str) -> Meld:
    run = run_of_cards(cards.split())
    assert run is not None
    return Meld(seat, run)


@pytest.mark.parametrize(
    ("cards", "runs"),
    [
        ("7H 8H 9H", [["7H", "8H", "9H"]]),
        ("7H 8H 9H TH JH QH KH", [["7H", "8H", "9H", "TH", "JH", "QH", "KH"]]),
        ("9S TS JS QS KD", [["9S", "TS", "JS", "QS"]]),
        ("7C 8C TC JC", []),
        ("QD KD AD 7D 8D 9D", [["7D", "8D", "9D"], ["QD", "KD", "AD"]]),
        ("7C 8C 9C 7S 8S 9S", [["7C", "8C", "9C"], ["7S", "8S", "9S"]]),
    ],
)
def test_maximal_runs(cards: str, runs: list[list[str]]) -> None:
    assert [r.texts() for r in runs_of(hand(cards))] == runs


@pytest.mark.parametrize(
    ("cards", "ok"),
    [
        (["TH", "9H", "JH"], True),
        (["7C", "8C", "TC"], False),
        (["7C", "7S", "7H"], False),
        (["7C", "8C"], False),
        (["7C", "8C", "8C"], False),
        (["10S", "JS", "QS"], True),
    ],
)
def test_run_of_cards(cards: list[str], ok: bool) -> None:
    assert (run_of_cards(cards) is not None) == ok


def test_points() -> None:
    assert Run(0, 0, 3).points == 20
    assert Run(0, 0, 4).points == 50
    assert Run(0, 0, 8).points == 50


WORKED = [
    meld(0, "9S TS JS"),
    meld(1, "7C 8C 9C"),
    meld(2, "8D 9D TD"),
    meld(2, "8S 9S TS"),
    meld(3, "QD KD AD"),
]


def _contest(
    melds: list[Meld], *, trump: int = 2, forehand: int = 1, options: Options | None = None
) -> tuple[int | None, int]:
    team, scored = contest(melds, trump=trump, forehand=forehand, options=options or Options())
    return team, sum(m.run.points for m in scored)


def test_worked_example_seat_3_wins() -> None:
    assert _contest(WORKED) == (1, 40)


def test_worked_example_without_seat_3() -> None:
    assert _contest(WORKED[:4]) == (0, 60)


CONTEST = [
    ("fuenfzig beats higher terz", [meld(0, "QS KS AS"), meld(1, "7D 8D 9D TD")], {}, 1),
    ("higher top wins", [meld(0, "JS QS KS"), meld(1, "QD KD AD")], {}, 1),
    (
        "long fuenfzig loses on top",
        [meld(0, "7S 8S 9S TS JS QS KS"), meld(1, "JD QD KD AD")],
        {},
        1,
    ),
    ("equal top: trump wins", [meld(1, "JS QS KS"), meld(0, "JH QH KH")], {}, 0),
    (
        "equal top: first announced, forehand 1",
        [meld(0, "JS QS KS"), meld(1, "JD QD KD")],
        {"forehand": 1},
        1,
    ),
    (
        "equal top: first announced, forehand 0",
        [meld(1, "JD QD KD"), meld(0, "JS QS KS")],
        {"forehand": 0},
        0,
    ),
    (
        "equal top: first announced, forehand 3",
        [meld(0, "JS QS KS"), meld(3, "JD QD KD")],
        {"forehand": 3},
        1,
    ),
    (
        "tie by suit: Clubs over Spades",
        [meld(1, "JS QS KS"), meld(0, "JC QC KC")],
        {"forehand": 1, "options": Options(meld_tie_by_suit=True)},
        0,
    ),
    (
        "tie by suit: Hearts over Diamonds",
        [meld(0, "JD QD KD"), meld(1, "JH QH KH")],
        {"forehand": 0, "trump": 1, "options": Options(meld_tie_by_suit=True)},
        1,
    ),
    (
        "tie by suit: trump still first",
        [meld(0, "JC QC KC"), meld(1, "JD QD KD")],
        {"trump": 3, "options": Options(meld_tie_by_suit=True)},
        1,
    ),
]


@pytest.mark.parametrize(("name", "melds", "kwargs", "team"), CONTEST, ids=[c[0] for c in CONTEST])
def test_contest(name: str, melds: list[Meld], kwargs: dict[str, object], team: int) -> None:
    assert _contest(melds, **kwargs)[0] == team  # type: ignore[arg-type]


def test_worked_example_as_summary_record() -> None:
    melds = [
        {"seat": 0, "cards": ["9S", "TS", "JS"]},
        {"seat": 1, "cards": ["7C", "8C", "9C"]},
        {"seat": 2, "cards": ["8H", "9H", "TH"]},
        {"seat": 2, "cards": ["8D", "9D", "TD"]},
        {"seat": 3, "cards": ["QS", "KS", "AS"]},
    ]
    rec = summary([82, 82], upcard="7D", trump="D", declarer=0, melds=melds)
    res = check(rec)
    assert res["valid"], res["errors"]
    assert res["melds"]["winning_team"] == 1
    assert res["points"] == [82, 122] and res["total"] == 204
    res = check({**rec, "melds": melds[:4]})
    assert res["melds"]["winning_team"] == 0 and res["points"] == [142, 82]


MIXED_MELDS = [
    {"seat": 2, "cards": ["7C", "8C", "9C"]},
    {"seat": 1, "cards": ["QC", "KC", "AC"]},
    {"seat": 3, "cards": ["JH", "9H", "TH"]},
]


def test_full_record_melds_only_winning_team_scores() -> None:
    res = check(full(MIXED_HANDS, upcard="8H", melds=MIXED_MELDS))
    assert res["valid"], res["errors"]
    assert res["melds"] == {
        "winning_team": 1,
        "scored": [
            {"seat": 1, "cards": ["QC", "KC", "AC"], "points": 20},
            {"seat": 3, "cards": ["9H", "TH", "JH"], "points": 20},
        ],
    }
    assert res["total"] == 204 and res["beet"] == 102
    assert sum(res["points"]) == 204


def test_meld_order_does_not_matter() -> None:
    a = check(full(MIXED_HANDS, upcard="8H", melds=MIXED_MELDS))
    b = check(full(MIXED_HANDS, upcard="8H", melds=MIXED_MELDS[::-1]))
    assert a == b


@pytest.mark.parametrize(
    ("melds", "code"),
    [
        ([{"seat": 0, "cards": ["QC", "KC", "AC"]}], "meld_not_held"),
        ([{"seat": 1, "cards": ["TS", "JS", "QS"]}], "meld_not_held"),
        ([{"seat": 1, "cards": ["7C", "8C", "9C"]}], "meld_not_maximal"),
        ([{"seat": 1, "cards": ["7C", "8C", "9C", "TC", "JC", "QC", "KC"]}], "meld_not_maximal"),
        ([{"seat": 1, "cards": ["7C", "8C", "TC"]}], "not_a_meld"),
        ([{"seat": 1, "cards": ["7C", "7S", "7H"]}], "not_a_meld"),
        ([{"seat": 1, "cards": ["7C", "8C"]}], "not_a_meld"),
        ([{"seat": 1, "cards": ["7C", "8C", "XC"]}], "bad_format"),
        (
            [{"seat": 2, "cards": ["7S", "8S", "9S", "TS", "JS", "QS", "KS", "AS"]}] * 2,
            "duplicate_meld",
        ),
    ],
)
def test_meld_errors(melds: list[dict[str, object]], code: str) -> None:
    res = check(full(SUITED_HANDS, upcard="8H", declarer=0, melds=melds))
    assert not res["valid"]
    assert code in codes(res)
    assert any(e.get("field", "").startswith("melds[") for e in res["errors"])


def test_meld_not_held_message() -> None:
    res = check(full(MIXED_HANDS, upcard="8H", melds=[{"seat": 0, "cards": ["QC", "KC", "AC"]}]))
    (error,) = res["errors"]
    assert error["message"] == "seat 0 announces QC-KC-AC but did not hold QC, KC, AC"
    assert error["params"]["seat"] == 0


def test_revoke_in_first_trick_forfeits_later_melds() -> None:
    # Revoke at play 1 (seat 2): seat 3 and seat 0 had not announced yet.
    rec = full(
        MIXED_HANDS, upcard="8H", plays=["AC"], melds=MIXED_MELDS, revoke={"seat": 2, "card": "KS"}
    )
    res = check(rec)
    assert res["valid"], res["errors"]
    # seat 1 (Terz top A) and seat 2 announced; seat 3's trump Terz came too late
    assert [m["seat"] for m in res["melds"]["scored"]] == [1]
    assert res["total"] == 184
    assert MIXED_PLAYS[0] == "AC"
