"""Revoke endings (RULES.md "Revoke"), full and summary records."""

from __future__ import annotations

import pytest

from games.engine import check
from tests.engine.helpers import MIXED_HANDS, MIXED_PLAYS, codes, full, summary

MELDS = [{"seat": 1, "cards": ["QC", "KC", "AC"]}, {"seat": 3, "cards": ["9H", "TH", "JH"]}]
TAKES_ALL = {"preset": "klammern", "options": {"revoke_clean_team_takes_all": True}}


def mixed(plays: list[str], revoke: dict[str, object] | None, **extra: object) -> dict[str, object]:
    rec = full(MIXED_HANDS, upcard="8H", plays=plays, melds=MELDS, bella=0, **extra)
    if revoke is not None:
        rec["revoke"] = revoke
    return rec


def test_revoke_in_first_trick_defenders_lose() -> None:
    # seat 0 must undertrump after 9H but discards 8S
    res = check(mixed(MIXED_PLAYS[:3], {"seat": 0, "card": "8S"}))
    assert res["valid"], res["errors"]
    assert res["outcome"] == "revoke" and res["tricks"] == []
    assert res["bella"] is None  # Bella not yet announced: KH/QH not played
    assert res["points"] == [0, 40] and res["total"] == 204 and res["beet"] == 102
    assert res["winner_team"] == 1 and res["small_points"] == [0, 1]
    assert res["match_points"] == [0, 4]


def test_revoke_takes_all_option() -> None:
    res = check(mixed(MIXED_PLAYS[:3], {"seat": 0, "card": "8S"}, rules=TAKES_ALL))
    assert res["points"] == [0, 204] and res["total"] == 204
    assert res["winner_team"] == 1 and res["match_points"] == [0, 20]


def test_playing_team_revokes_without_enough_points() -> None:
    # After 4 tricks team 1 has 25 + 22 (+40 melds) = 87, team 0 has 23 + 10 = 33.
    res = check(mixed(MIXED_PLAYS + ["8S"], {"seat": 1, "card": "KC"}))
    assert res["valid"], res["errors"]
    assert [t["points"] for t in res["tricks"]] == [25, 22, 23, 10]
    assert res["points"] == [33, 87] and res["total"] == 204
    assert res["winner_team"] == 0 and res["small_points"] == [2, 0]
    assert res["match_points"] == [12, 0]


def test_revoke_no_last_trick_and_jappa_mie_only_in_tricks() -> None:
    res = check(mixed(MIXED_PLAYS + ["8S"], {"seat": 1, "card": "KC"}))
    assert sum(t["points"] for t in res["tricks"]) == 80  # 25+22+23+10, JH and 9H taken
    res = check(mixed(MIXED_PLAYS[:4] + ["9S"], {"seat": 0, "card": "KD"}))
    # only trick 1 taken (AC 7C 9H 7H = 11 + Mie 14); JH still in hand: no Jappa bonus
    assert res["valid"], res["errors"]
    assert res["points"] == [0, 25 + 40]


def test_bella_counts_when_announced_before_revoke() -> None:
    plays = ["AC", "7C", "9H", "7H", "JH", "QH", "7D", "8C"] + MIXED_PLAYS[8:] + ["8S"]
    res = check(mixed(plays, {"seat": 1, "card": "KC"}))
    assert res["valid"], res["errors"]
    assert res["bella"] == {"seat": 0, "points": 20}
    assert res["points"] == [33 + 20, 50 + 40] and res["total"] == 224
    assert res["winner_team"] == 0 and res["match_points"] == [14, 0]


def test_revoke_takes_all_counts_bella_and_every_meld() -> None:
    plays = ["AC", "7C", "9H", "7H", "JH", "QH", "7D", "8C"] + MIXED_PLAYS[8:] + ["8S"]
    rec = mixed(plays, {"seat": 1, "card": "KC"}, rules=TAKES_ALL)
    rec["melds"] = [*MELDS, {"seat": 2, "cards": ["7C", "8C", "9C"]}]
    res = check(rec)
    assert res["points"] == [164 + 60 + 20, 0] and res["total"] == 244
    assert res["winner_team"] == 0


def test_illegal_play_without_revoke_is_invalid() -> None:
    res = check(mixed(MIXED_PLAYS[:3] + ["8S"], None))
    assert codes(res) == ["illegal_play"]
    error = res["errors"][0]
    assert error["play"] == 3
    assert error["message"] == (
        "seat 0 cannot follow Clubs and must play a trump (KH, QH, 8H, 7H) but played 8S"
    )
    assert error["params"]["seat"] == 0 and error["params"]["trick"] == 1


@pytest.mark.parametrize(
    ("plays", "revoke", "code"),
    [
        (MIXED_PLAYS[:3], {"seat": 0, "card": "7H"}, "revoke_not_illegal"),
        (MIXED_PLAYS[:3], {"seat": 1, "card": "TC"}, "revoke_wrong_seat"),
        (MIXED_PLAYS[:3], {"seat": 0, "card": "AS"}, "card_not_in_hand"),
        (MIXED_PLAYS[:3], {"seat": 0, "card": "8X"}, "bad_format"),
    ],
)
def test_revoke_errors(plays: list[str], revoke: dict[str, object], code: str) -> None:
    assert code in codes(check(mixed(plays, revoke)))


@pytest.mark.parametrize(
    ("points", "revoker", "declarer", "winner", "small"),
    [
        ([82, 40], 0, 1, 0, [2, 0]),  # defenders revoke with exactly the Beet: they win
        ([81, 40], 0, 1, 1, [0, 1]),  # one short: the playing team wins
        ([83, 40], 0, 0, 0, [1, 0]),  # playing team revokes with more than the Beet: wins
        ([82, 40], 0, 0, 1, [0, 2]),  # playing team revokes with exactly the Beet: loses
        ([40, 82], 2, 0, 1, [0, 2]),  # the other team's points do not matter
    ],
)
def test_revoke_winner_against_full_beet(
    points: list[int], revoker: int, declarer: int, winner: int, small: list[int]
) -> None:
    res = check(summary(points, declarer=declarer, revoke={"seat": revoker, "card": "7S"}))
    assert res["valid"], res["errors"]
    assert res["outcome"] == "revoke" and res["winner_team"] == winner
    assert res["small_points"] == small and res["beet"] == 82


def test_summary_revoke_failed_game_gives_all() -> None:
    res = check(summary([40, 60], declarer=0, revoke={"seat": 0, "card": "7S"}))
    assert res["winner_team"] == 1 and res["match_points"] == [0, 10]


def test_summary_revoke_takes_all() -> None:
    res = check(
        summary(
            [40, 60],
            declarer=1,
            revoke={"seat": 3, "card": "7S"},
            bella=1,
            melds=[{"seat": 0, "cards": ["7C", "8C", "9C"]}],
            rules=TAKES_ALL,
        )
    )
    assert res["points"] == [204, 0] and res["winner_team"] == 0
    assert res["small_points"] == [2, 0]


@pytest.mark.parametrize(
    ("revoker", "tricks", "winner"),
    [
        (1, [5, 0], 0),  # defenders revoke while the March is intact: March won
        (1, [4, 1], 1),  # defenders already had a trick: March lost
        (0, [5, 0], 1),  # the playing team revokes: March lost
    ],
)
def test_revoke_during_march(revoker: int, tricks: list[int], winner: int) -> None:
    res = check(
        summary(
            [60, 0] if tricks[1] == 0 else [60, 10],
            declarer=0,
            march=True,
            tricks_won=tricks,
            revoke={"seat": revoker, "card": "7S"},
        )
    )
    assert res["valid"], res["errors"]
    assert res["outcome"] == "revoke" and res["winner_team"] == winner and res["march"]
