"""The contract against the upcard, and the bidding sequence (RULES.md "Trump")."""

from __future__ import annotations

from typing import Any

import pytest

from games.engine import check
from tests.engine.helpers import codes, summary


@pytest.mark.parametrize(
    ("upcard", "kind", "trump", "ok"),
    [
        ("8H", "orgi", "H", True),
        ("8H", "orgi", "S", False),
        ("8H", "besser", "C", True),
        ("8H", "besser", "H", False),
        ("8C", "besser", "C", False),
        ("8H", "kleines", "S", True),
        ("8H", "kleines", "C", True),
        ("8H", "kleines", "H", False),
        ("8C", "kleines", "C", False),
        ("8C", "orgi", "C", True),
    ],
)
def test_contract_against_upcard(upcard: str, kind: str, trump: str, ok: bool) -> None:
    res = check(summary([100, 64], upcard=upcard, kind=kind, trump=trump))
    assert res["valid"] == ok
    if not ok:
        assert codes(res) == ["contract_mismatch"]
        assert res["errors"][0]["field"] == "contract.trump"


def calls(*items: str) -> list[dict[str, Any]]:
    """'1p' = seat 1 pass, '2a' accept, '3k:S' kleines in Spades, '0b' besser."""
    names = {"p": "pass", "a": "accept", "k": "kleines", "b": "besser"}
    out = []
    for item in items:
        call: dict[str, Any] = {"seat": int(item[0]), "call": names[item[1]]}
        if ":" in item:
            call["trump"] = item.split(":")[1]
        out.append(call)
    return out


ROUND = ("1p", "2p", "3p", "0p")  # dealer 0: forehand 1

BIDDING = [
    ("orgi by forehand", calls("1a"), "orgi", 1, "H", True),
    ("orgi by dealer", calls(*ROUND[:3], "0a"), "orgi", 0, "H", True),
    ("orgi wrong declarer", calls("1p", "2a"), "orgi", 1, "H", False),
    ("accept after accept", calls("1a", "2a"), "orgi", 1, "H", False),
    ("out of turn", calls("2a"), "orgi", 2, "H", False),
    ("kleines named", calls(*ROUND, "1p", "2k:S", "3p", "0p"), "kleines", 2, "S", True),
    ("kleines trailing passes left out", calls(*ROUND, "1p", "2k:S"), "kleines", 2, "S", True),
    ("kleines suit differs", calls(*ROUND, "2k:S"), "kleines", 2, "D", False),
    ("kleines without suit", calls(*ROUND, "1k", "2p"), "kleines", 1, "D", True),
    ("besser after kleines", calls(*ROUND, "1k", "2p", "3b"), "besser", 3, "C", True),
    ("besser by dealer", calls(*ROUND, "1p", "2k", "3p", "0b"), "besser", 0, "C", True),
    ("besser before kleines", calls(*ROUND, "1b"), "besser", 1, "C", False),
    ("kleines after kleines", calls(*ROUND, "1k", "2k"), "kleines", 2, "S", False),
    ("besser wraps around", calls(*ROUND, "1p", "2p", "3k", "0p", "1b"), "besser", 1, "C", False),
    ("accept in second round", calls(*ROUND, "1a"), "orgi", 1, "H", False),
    ("stops too early", calls("1p", "2p"), "orgi", 3, "H", False),
    ("kleines in first round", calls("1k:S"), "kleines", 1, "S", False),
    ("calls after besser", calls(*ROUND, "1k", "2b", "3p"), "besser", 2, "C", False),
]


@pytest.mark.parametrize(
    ("name", "bidding", "kind", "declarer", "trump", "ok"), BIDDING, ids=[b[0] for b in BIDDING]
)
def test_bidding(
    name: str, bidding: list[dict[str, Any]], kind: str, declarer: int, trump: str, ok: bool
) -> None:
    res = check(summary([100, 64], kind=kind, declarer=declarer, trump=trump, bidding=bidding))
    assert res["valid"] == ok, res["errors"]
    if not ok:
        assert "bidding_mismatch" in codes(res)


def test_besser_not_available_on_club_upcard() -> None:
    res = check(
        summary(
            [100, 64],
            upcard="8C",
            kind="besser",
            declarer=2,
            trump="C",
            bidding=calls(*ROUND, "1k", "2b"),
        )
    )
    assert "bidding_mismatch" in codes(res) and "contract_mismatch" in codes(res)


def test_thrown_in_bidding() -> None:
    rec = summary([0, 0], bidding=calls(*ROUND, *ROUND))
    del rec["card_points"]
    rec["contract"] = {"kind": "thrown_in"}
    assert check(rec)["valid"]
    rec["bidding"] = calls(*ROUND, "1p", "2p", "3p")
    assert codes(check(rec)) == ["bidding_mismatch"]


def test_thrown_in_with_extras_is_invalid() -> None:
    rec = summary([100, 64], bella=1, doubling="kontra")
    rec["contract"] = {"kind": "thrown_in"}
    assert set(codes(check(rec))) == {"thrown_in_not_empty"}


def test_a_remembered_bidding_answers_like_the_first_time() -> None:
    """Bidding outcomes are remembered per call sequence: a second record with the same
    calls gets the same verdict, and changing one result's error leaves the next alone."""
    bad = calls("1p", "2p")  # stops too early
    first = check(summary([100, 64], kind="orgi", declarer=1, trump="H", bidding=bad))
    first["errors"][0]["params"]["call"] = 99
    first["errors"][0]["message"] = "changed by the caller"
    second = check(summary([100, 64], kind="orgi", declarer=1, trump="H", bidding=bad))
    assert codes(second) == ["bidding_mismatch"]
    assert second["errors"][0]["params"]["call"] == 2
    assert "stops before" in second["errors"][0]["message"]
    # The same calls under another contract: the remembered outcome is compared afresh.
    good = calls("1a")
    assert check(summary([100, 64], kind="orgi", declarer=1, trump="H", bidding=good))["valid"]
    other = check(summary([100, 64], kind="orgi", declarer=2, trump="H", bidding=good))
    assert codes(other) == ["bidding_mismatch"]
