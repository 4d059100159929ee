"""Hand-built deals and a record builder for the engine tests."""

from __future__ import annotations

import copy
import os
import subprocess
import sys
from pathlib import Path
from typing import Any

from games.engine import CARD_BY_TEXT, CARD_TEXT, TABLES, Options, legal_cards, trick_winner
from games.engine.native import ENV_SWITCH

ROOT = Path(__file__).resolve().parents[2]

FORMAT = "klammern-deal/1"

#: Each seat holds one whole suit: seat 0 Hearts, 1 Clubs, 2 Spades, 3 Diamonds.
SUITED_HANDS = [
    ["7H", "8H", "9H", "TH", "JH", "QH", "KH", "AH"],
    ["7C", "8C", "9C", "TC", "JC", "QC", "KC", "AC"],
    ["7S", "8S", "9S", "TS", "JS", "QS", "KS", "AS"],
    ["7D", "8D", "9D", "TD", "JD", "QD", "KD", "AD"],
]

#: A mixed deal (trump Hearts, dealer 0, upcard 8H) with melds and revoke chances:
#: seat 1 Terz QC-KC-AC, seat 2 Terz 7C-8C-9C, seat 3 Terz 9H-TH-JH (trump), seat 0 Bella.
MIXED_HANDS = [
    ["KH", "QH", "8H", "7H", "8S", "7S", "KD", "AD"],
    ["AC", "TC", "KC", "QC", "AS", "TS", "7D", "8D"],
    ["JC", "9C", "8C", "7C", "KS", "QS", "9D", "TD"],
    ["JH", "9H", "AH", "TH", "JS", "9S", "JD", "QD"],
]
#: Four tricks of MIXED_HANDS: 25 and 22 to team 1 (seat 3), 23 and 10 to team 0 (seat 0).
MIXED_PLAYS = [
    "AC",
    "7C",
    "9H",
    "7H",
    "JH",
    "8H",
    "7D",
    "8C",
    "JD",
    "AD",
    "8D",
    "TD",
    "KD",
    "QC",
    "9D",
    "QD",
]

#: A real deal (Besser by seat 1, trump Clubs) that ends 82:82 without melds.
TIE_RECORD: dict[str, Any] = {
    "format": FORMAT,
    "dealer": 1,
    "hands": [
        ["AD", "KD", "TH", "8S", "QC", "7S", "JS", "8D"],
        ["AC", "TD", "TC", "QH", "8C", "9S", "7H", "AH"],
        ["QS", "9C", "TS", "JC", "7D", "9D", "9H", "JD"],
        ["QD", "AS", "KH", "KS", "JH", "KC", "8H", "7C"],
    ],
    "upcard": "7H",
    "contract": {"kind": "besser", "declarer": 1, "trump": "C"},
    "plays": [
        "9D",
        "QD",
        "AD",
        "TD",
        "8S",
        "9S",
        "QS",
        "KS",
        "JH",
        "TH",
        "AH",
        "9H",
        "8C",
        "9C",
        "KC",
        "QC",
        "JC",
        "7C",
        "KD",
        "AC",
        "JD",
        "8H",
        "8D",
        "TC",
        "7H",
        "7D",
        "KH",
        "JS",
        "AS",
        "7S",
        "QH",
        "TS",
    ],
}


def autoplay(
    hands: list[list[str]],
    trump: str,
    *,
    dealer: int,
    prefix: list[str] | None = None,
    options: Options | None = None,
    stop: int = 32,
) -> list[str]:
    """``prefix`` then, for every later turn, the lowest legal card (by card id)."""
    opts = options or Options()
    t = "CSHD".index(trump)
    masks = [sum(1 << CARD_BY_TEXT[c] for c in h) for h in hands]
    plays: list[str] = []
    seat, trick = (dealer + 1) % 4, []
    for index in range(stop):
        if prefix and index < len(prefix):
            card = CARD_BY_TEXT[prefix[index]]
        else:
            legal = legal_cards(masks[seat], trick, t, opts)
            card = (legal & -legal).bit_length() - 1
        masks[seat] &= ~(1 << card)
        plays.append(CARD_TEXT[card])
        trick.append(card)
        if len(trick) == 4:
            seat = (seat + 1 + trick_winner(trick, TABLES[t])) % 4
            trick = []
        else:
            seat = (seat + 1) % 4
    return plays


def full(
    hands: list[list[str]],
    *,
    dealer: int = 0,
    upcard: str,
    kind: str = "orgi",
    declarer: int = 1,
    trump: str = "H",
    plays: list[str] | None = None,
    **extra: Any,
) -> dict[str, Any]:
    """A full record; plays default to ``autoplay`` of the whole deal."""
    record: dict[str, Any] = {
        "format": FORMAT,
        "dealer": dealer,
        "hands": copy.deepcopy(hands),
        "upcard": upcard,
        "contract": {"kind": kind, "declarer": declarer, "trump": trump},
        "plays": plays if plays is not None else autoplay(hands, trump, dealer=dealer),
    }
    record.update(extra)
    return record


def summary(
    points: list[int],
    *,
    dealer: int = 0,
    upcard: str = "8H",
    kind: str = "orgi",
    declarer: int = 1,
    trump: str = "H",
    **extra: Any,
) -> dict[str, Any]:
    """A summary record."""
    record: dict[str, Any] = {
        "format": FORMAT,
        "dealer": dealer,
        "upcard": upcard,
        "contract": {"kind": kind, "declarer": declarer, "trump": trump},
        "card_points": points,
    }
    record.update(extra)
    return record


def codes(result: dict[str, Any]) -> list[str]:
    """The error codes of a result."""
    return [e["code"] for e in result["errors"]]


def cli_both_engines(command: str, lines: str, *, returncode: int) -> tuple[list[str], list[str]]:
    """``python -m games.engine COMMAND --jsonl`` on ``lines``, run interpreted and then as
    the package chooses (compiled when built); each run's output lines. Asserts that both
    exit with ``returncode``."""
    answers = []
    for engine in ("python", ""):
        done = subprocess.run(
            [sys.executable, "-m", "games.engine", command, "--jsonl"],
            input=lines,
            capture_output=True,
            text=True,
            cwd=ROOT,
            env={**os.environ, ENV_SWITCH: engine},
            check=False,
        )
        assert done.returncode == returncode, done.stderr
        answers.append(done.stdout.splitlines())
    return answers[0], answers[1]
