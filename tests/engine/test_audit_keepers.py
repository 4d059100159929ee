"""Independent audit of the scorekeepers against RULES.md (small/big, Liga-Partie, Hamburg).

Deal results come from hand-written summary records through ``games.engine.check``;
every expected state is computed by hand in the comments.
"""

from __future__ import annotations

from typing import Any

from games.engine import check, score_hamburg, score_liga, score_small_big

F = "klammern-deal/1"


def deal(
    points: tuple[int, int],
    declarer: int,
    *,
    kind: str = "orgi",
    rules: str = "klammern",
    outcome: str | None = None,
    **extra: Any,
) -> dict[str, Any]:
    """A summary record: dealer 3, upcard 7H; trump H for orgi, S for kleines, C for besser."""
    trump = {"orgi": "H", "kleines": "S", "besser": "C"}[kind]
    rec = {
        "format": F,
        "rules": rules,
        "dealer": 3,
        "upcard": "7H",
        "contract": {"kind": kind, "declarer": declarer, "trump": trump},
        "card_points": list(points),
        **extra,
    }
    res = check(rec)
    assert res["valid"], res
    if outcome:
        assert res["outcome"] == outcome, res
    return res


def made0(**kw: Any) -> dict[str, Any]:  # team 0 plays and makes: +1 small to team 0
    return deal((100, 64), 0, outcome="made", **kw)


def made1(**kw: Any) -> dict[str, Any]:  # team 1 plays and makes: +1 small to team 1
    return deal((64, 100), 1, outcome="made", **kw)


def failed0(**kw: Any) -> dict[str, Any]:  # team 0 plays and fails: +2 small to team 1
    return deal((60, 104), 0, outcome="failed", **kw)


def failed1(**kw: Any) -> dict[str, Any]:  # team 1 plays and fails: +2 small to team 0
    return deal((104, 60), 1, outcome="failed", **kw)


# ---------------- small and big points ----------------


def test_laube_at_four_no_effect() -> None:
    # RULES: 'A team on 4 small points is "in der Laube" (shown, no effect on scoring)'
    st = score_small_big([made0()] * 4)
    assert st.small == (4, 0) and st.laube == (True, False) and st.big == (0, 0)
    assert not st.finished


def test_kalte_five_nil_two_big_points() -> None:
    # 1+1+1+1+1 = 5:0 -> Kalte: 2 big points, restart 0:0
    st = score_small_big([made0()] * 5)
    assert st.big == (2, 0) and st.small == (0, 0) and st.kalte and st.finished and st.winner == 0


def test_kalte_from_failed_deals() -> None:
    # team 1 fails twice: 2+2 = 4:0 (Laube), team 0 makes: 5:0 -> Kalte
    st = score_small_big([failed1(), failed1()])
    assert st.small == (4, 0) and st.laube == (True, False)
    st = score_small_big([failed1(), failed1(), made0()])
    assert st.big == (2, 0) and st.kalte and st.small == (0, 0)


def test_big_point_not_kalte() -> None:
    # 4:0, then team 1 makes 4:1, then team 0 makes 5:1 -> one big point
    st = score_small_big([made0()] * 4 + [made1(), made0()])
    assert st.big == (1, 0) and not st.kalte and st.small == (0, 0) and st.winner == 0


def test_surplus_dropped_6_3() -> None:
    # RULES: '6:3 restarts at 0:0'. team 0 makes 4x (4:0), team 0 fails (4:2), team 1 makes (4:3),
    # team 1 fails (+2 to team 0) -> 6:3 -> 1 big point to team 0, restart 0:0
    seq = [made0()] * 4 + [failed0(), made1(), failed1()]
    st = score_small_big(seq)
    assert st.big == (1, 0) and st.small == (0, 0) and not st.kalte
    # the next deal starts from 0:0
    st = score_small_big([*seq, made1()])
    assert st.small == (0, 1) and st.big == (1, 0)


def test_kontra_re_multiply_small_points() -> None:
    # failed Kontra: 2x2 = 4 to defenders; Re made: 1x4 = 4
    st = score_small_big([failed0(doubling="kontra")])
    assert st.small == (0, 4)
    st = score_small_big([made1(doubling="re")])
    assert st.small == (0, 4)
    # failed Re: 2x4 = 8 -> 8:0 -> Kalte (other team 0), surplus dropped
    st = score_small_big([failed1(doubling="re")])
    assert st.big == (2, 0) and st.kalte and st.small == (0, 0)


def test_second_round_kalte_for_other_team() -> None:
    # round 1: Kalte for team 0 (5 made); round 2: team 1 4 made + 1 made = 5:0 Kalte
    st = score_small_big([made0()] * 5 + [made1()] * 5)
    assert st.big == (2, 2) and st.kalte


# ---------------- Liga-Partie ----------------


def test_liga_first_to_51() -> None:
    # 100:64 made by team 0 -> 10:6 each deal; after 5 deals 50:30, after 6 60:36 -> team 0 wins
    st = score_liga([made0()] * 5)
    assert st.points == (50, 30) and not st.finished
    st = score_liga([made0()] * 6)
    assert st.points == (60, 36) and st.finished and st.winner == 0


def test_liga_failed_gives_all() -> None:
    # team 0 fails 60:104 -> team 1 gets 164 -> 16, team 0 0
    st = score_liga([failed0()] * 3)
    assert st.points == (0, 48) and not st.finished
    st = score_liga([failed0()] * 4)  # 0:64 -> team 1 wins
    assert st.points == (0, 64) and st.finished and st.winner == 1


def test_liga_both_reach_equal_non_playing_team_wins() -> None:
    # deal A: team 0 makes 85:79 -> 9:8; deal B: team 1 makes 79:85 -> 8:9; totals 17:17.
    a = deal((85, 79), 0, outcome="made")
    b = deal((79, 85), 1, outcome="made")
    st = score_liga([a, b], target=17)
    # both reach 17 with equal scores in deal B, played by team 1 -> team 0 wins
    assert st.points == (17, 17) and st.finished and st.winner == 0
    st = score_liga([b, a], target=17)  # now deal A (team 0 played) closes it -> team 1
    assert st.points == (17, 17) and st.finished and st.winner == 1


def test_liga_both_reach_higher_wins() -> None:
    # A: team 0 makes 85:79 -> 9:8; B: team 1 makes 79:85 -> 8:9 -> 17:17 ...
    # C: team 1 makes 70:94 -> 7:9 (70 -> 7, 94 -> 9) -> 24:26;
    # target 24 reached by both: higher (team 1) wins
    a = deal((85, 79), 0, outcome="made")
    b = deal((79, 85), 1, outcome="made")
    c = deal((70, 94), 1, outcome="made")
    st = score_liga([a, b, c], target=24)
    assert st.points == (24, 26) and st.finished and st.winner == 1
    # C': team 0 makes 94:70 -> 26:24, team 0 played and is higher -> team 0
    c2 = deal((94, 70), 0, outcome="made")
    st = score_liga([a, b, c2], target=24)
    assert st.points == (26, 24) and st.winner == 0


def test_liga_march_won_ends_partie() -> None:
    # team 1 behind 0:30... a March won by team 1 wins the match at once
    march = deal((0, 164), 1, tricks_won=[0, 8], march=True, outcome="march_won")
    st = score_liga([made0()] * 3 + [march])
    assert st.finished and st.winner == 1


def test_liga_march_lost_defenders_win() -> None:
    # team 0 leads 50:30, then team 1's March fails (team 0 takes a trick): defenders (team 0) win
    lost = deal((14, 150), 1, tricks_won=[1, 7], march=True, outcome="march_lost")
    st = score_liga([made0()] * 2 + [lost])
    assert st.finished and st.winner == 0
    # RULES: 'losing any trick ends the match at once, and the defenders win it' -- even when behind
    lost0 = deal((150, 14), 0, tricks_won=[7, 1], march=True, outcome="march_lost")
    st = score_liga([made0()] * 4 + [lost0])  # team 0 was 40:24 ahead, its March fails
    assert st.finished and st.winner == 1


def test_liga_rounding_in_partie() -> None:
    # 55:109 made by team 1 -> 6:11; 115:49 made by team 0 -> 12:5; totals 18:16
    st = score_liga([deal((55, 109), 1, outcome="made"), deal((115, 49), 0, outcome="made")])
    assert st.points == (18, 16) and not st.finished


def test_liga_gives_all_off() -> None:
    opts = {"preset": "klammern", "options": {"failed_game_gives_all": False}}
    r = deal((70, 94), 0, rules=opts, outcome="failed")  # type: ignore[arg-type]
    st = score_liga([r])
    assert st.points == (7, 9)


# ---------------- Hamburg ----------------

H = "klammern-hamburg"


def test_hamburg_three_orgis_win() -> None:
    # Orgi made +2 each: 2, 4, 6 -> round over at 6
    res = deal((100, 64), 0, rules=H, outcome="made")
    st = score_hamburg([res, res])
    assert st.points == (4, 0) and not st.finished
    st = score_hamburg([res] * 3)
    assert st.points == (6, 0) and st.finished and st.winner == 0


def test_hamburg_mixed() -> None:
    # team 1 Orgi fails: +4 team 0; team 0 Kleines made: +1 -> 5:0;
    # team 1 Besser fails: +2 -> 7:0 >= 6
    a = deal((104, 60), 1, rules=H, outcome="failed")
    b = deal((100, 64), 0, kind="kleines", rules=H, outcome="made")
    c = deal((104, 60), 1, kind="besser", rules=H, outcome="failed")
    st = score_hamburg([a, b])
    assert st.points == (5, 0) and not st.finished
    st = score_hamburg([a, b, c])
    assert st.points[0] >= 6 and st.finished and st.winner == 0


def test_hamburg_kontra() -> None:
    # Kleines made by team 1 with Kontra: 1x2 = 2; Orgi failed by team 1 with Re: 4x4 = 16 to team 0
    a = deal((64, 100), 1, kind="kleines", rules=H, doubling="kontra", outcome="made")
    st = score_hamburg([a])
    assert st.points == (0, 2)
    b = deal((104, 60), 1, rules=H, doubling="re", outcome="failed")
    st = score_hamburg([b])
    assert st.points[0] == 16 and st.finished and st.winner == 0
