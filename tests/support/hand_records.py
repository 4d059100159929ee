"""A full deal in which exactly one play is a clear mistake: in trick 2 seat 1 (people
say "Sitz 2") plays AC, which costs 26 deal points; KC or JC kept the par. Every other
play is perfect. Found by playing a random deal's hands perfectly except once."""

from __future__ import annotations

from typing import Any

COSTLY_DEAL: dict[str, Any] = {
    "format": "klammern-deal/1",
    "dealer": 0,
    "hands": [
        ["8S", "TH", "7S", "QC", "8C", "TS", "AH", "7H"],
        ["JC", "JS", "7D", "KC", "8H", "AC", "KS", "7C"],
        ["9C", "JD", "9S", "QS", "AS", "AD", "JH", "KD"],
        ["9H", "TD", "QH", "QD", "TC", "9D", "KH", "8D"],
    ],
    "upcard": "AH",
    "contract": {"kind": "orgi", "declarer": 1, "trump": "H"},
    "bidding": [{"seat": 1, "call": "accept"}],
    "melds": [{"seat": 3, "cards": ["8D", "9D", "TD"]}],
    "bella": 3,
    "doubling": "re",
    "plays": [
        "7D",
        "AD",
        "TD",
        "AH",
        "QC",
        "AC",
        "9C",
        "TC",
        "8H",
        "JH",
        "QH",
        "TH",
        "QS",
        "9H",
        "8S",
        "KS",
        "KH",
        "7H",
        "KC",
        "9S",
        "QD",
        "8C",
        "JC",
        "KD",
        "AS",
        "9D",
        "TS",
        "JS",
        "JD",
        "8D",
        "7S",
        "7C",
    ],
}
#: (play index, seat, card, cost, best cards) of the one costly play.
COSTLY_PLAY = (5, 1, "AC", 26, ["KC", "JC"])


#: A full deal (dealt by seat 1: a match's second deal) in which one play turns the par
#: from made into failed: Kleines in Spades by seat 0 (Terz Q-K-A of Spades and Bella for
#: team 0), par 122:82 at the start. In trick 6 seat 0 (people say "Sitz 1") plays ``QS``
#: (play index 22) where ``7S`` kept the par: it costs only 3 points, but takes team 0's
#: par from 105:99 to 102:102, a tie, which fails. Seven earlier plays were costly
#: without turning the game. Found with ``random_deal(random.Random(24))`` (its tenth).
TURNING_DEAL: dict[str, Any] = {
    "format": "klammern-deal/1",
    "dealer": 1,
    "hands": [
        ["7S", "AS", "QS", "8D", "KD", "KS", "8H", "7D"],
        ["KC", "TS", "8S", "JS", "9H", "AD", "9C", "QH"],
        ["QC", "8C", "AH", "TH", "AC", "JD", "TC", "9D"],
        ["7H", "QD", "7C", "KH", "TD", "JC", "JH", "9S"],
    ],
    "upcard": "9C",
    "contract": {"kind": "kleines", "declarer": 0, "trump": "S"},
    "bidding": [
        {"seat": 2, "call": "pass"},
        {"seat": 3, "call": "pass"},
        {"seat": 0, "call": "pass"},
        {"seat": 1, "call": "pass"},
        {"seat": 2, "call": "pass"},
        {"seat": 3, "call": "pass"},
        {"seat": 0, "call": "kleines", "trump": "S"},
        {"seat": 1, "call": "pass"},
    ],
    "melds": [{"seat": 0, "cards": ["QS", "KS", "AS"]}],
    "bella": 0,
    "plays": [
        *("9D", "QD", "7D", "AD"),
        *("KC", "QC", "JC", "KS"),
        *("8D", "JS", "JD", "TD"),
        *("9C", "TC", "7C", "AS"),
        *("8H", "QH", "AH", "KH"),
        *("8C", "9S", "QS", "8S"),
        *("7H", "7S", "9H", "TH"),
        *("KD", "TS", "AC", "JH"),
    ],
}
