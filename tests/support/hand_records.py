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
