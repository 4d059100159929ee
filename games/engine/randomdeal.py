"""Random, legal, full deal records (demo data, load tests, property tests).

``random_deal`` deals 3-2-3, picks a contract that fits the upcard (with a matching
bidding list half of the time), announces the hands' melds and Bella most of the time,
adds Kontra/Re and now and then a March, and plays random legal cards; about one deal
in twenty ends with a revoke and one in forty is thrown in. All randomness comes from
the ``random.Random`` passed in. It does not check its output (``check`` does).
"""

from __future__ import annotations

import random
from typing import Any

from .cards import CARD_TEXT, SUIT_LETTERS, TABLES, cards_of, mask_of
from .melds import runs_of
from .play import legal_cards, trick_winner
from .rules import Options, resolve_rules

CLUBS = 0


def _deal(rng: random.Random, dealer: int) -> list[list[int]]:
    deck = list(range(32))
    rng.shuffle(deck)
    hands: list[list[int]] = [[], [], [], []]
    order = [(dealer + 1 + k) % 4 for k in range(4)]
    pos = 0
    for packet in (3, 2, 3):
        for seat in order:
            hands[seat] += deck[pos : pos + packet]
            pos += packet
    return hands


def _contract(
    rng: random.Random, forehand: int, up: int
) -> tuple[dict[str, Any], list[dict[str, Any]]]:
    order = [(forehand + k) % 4 for k in range(4)]
    roll = rng.random()
    passes = [{"seat": s, "call": "pass"} for s in order]
    if roll < 0.025:
        return {"kind": "thrown_in"}, passes + passes
    if roll < 0.6:
        at = rng.randrange(4)
        calls = passes[:at] + [{"seat": order[at], "call": "accept"}]
        return {"kind": "orgi", "declarer": order[at], "trump": SUIT_LETTERS[up]}, calls
    kleines_at = rng.randrange(4)
    if roll < 0.8 and up != CLUBS and kleines_at < 3:
        at = rng.randrange(kleines_at + 1, 4)
        calls = passes + passes[:kleines_at] + [{"seat": order[kleines_at], "call": "kleines"}]
        calls += passes[kleines_at + 1 : at] + [{"seat": order[at], "call": "besser"}]
        return {"kind": "besser", "declarer": order[at], "trump": "C"}, calls
    trump = rng.choice([s for s in range(4) if s != up])
    calls = (
        passes
        + passes[:kleines_at]
        + [{"seat": order[kleines_at], "call": "kleines", "trump": SUIT_LETTERS[trump]}]
    )
    calls += passes[kleines_at + 1 :]
    contract = {"kind": "kleines", "declarer": order[kleines_at], "trump": SUIT_LETTERS[trump]}
    return contract, calls


def _announcements(rng: random.Random, hands: list[int], trump: int) -> dict[str, Any]:
    out: dict[str, Any] = {}
    melds = [
        {"seat": seat, "cards": run.texts()}
        for seat in range(4)
        for run in runs_of(hands[seat])
        if rng.random() < 0.85
    ]
    rng.shuffle(melds)
    if melds:
        out["melds"] = melds
    table = TABLES[trump]
    need = (1 << table.king) | (1 << table.queen)
    holder = next((s for s in range(4) if hands[s] & need == need), None)
    if holder is not None and rng.random() < 0.85:
        out["bella"] = holder
    roll = rng.random()
    if roll < 0.05:
        out["doubling"] = "re"
    elif roll < 0.2:
        out["doubling"] = "kontra"
    if rng.random() < 0.03:
        out["march"] = True
    return out


def _play(
    rng: random.Random, hands: list[int], forehand: int, trump: int, options: Options
) -> tuple[list[int], dict[str, Any] | None]:
    h = list(hands)
    table = TABLES[trump]
    revoke_at = rng.randrange(32) if rng.random() < 0.05 else -1
    plays: list[int] = []
    seat = forehand
    trick: list[int] = []
    for index in range(32):
        legal = legal_cards(h[seat], trick, trump, options)
        illegal = h[seat] & ~legal
        if index == revoke_at and illegal:
            return plays, {"seat": seat, "card": CARD_TEXT[rng.choice(cards_of(illegal))]}
        card = rng.choice(cards_of(legal))
        h[seat] ^= 1 << card
        plays.append(card)
        trick.append(card)
        if len(trick) < 4:
            seat = (seat + 1) % 4
            continue
        seat = (seat + 1 + trick_winner(trick, table)) % 4
        trick = []
    return plays, None


def random_deal(rng: random.Random, *, dealer: int = 0, rules: object = None) -> dict[str, Any]:
    """One random legal full deal record dealt by ``dealer`` under ``rules``."""
    options = resolve_rules(rules)
    forehand = (dealer + 1) % 4
    hands = _deal(rng, dealer)
    up = hands[dealer][6]
    contract, bidding = _contract(rng, forehand, up >> 3)
    record: dict[str, Any] = {"format": "klammern-deal/1"}
    if rules is not None:
        record["rules"] = rules
    record.update(
        {
            "dealer": dealer,
            "hands": [[CARD_TEXT[c] for c in h] for h in hands],
            "upcard": CARD_TEXT[up],
            "contract": contract,
        }
    )
    if rng.random() < 0.5:
        record["bidding"] = bidding
    if contract["kind"] == "thrown_in":
        record["plays"] = []
        return record
    trump = "CSHD".index(contract["trump"])
    masks = [mask_of(h) for h in hands]
    record.update(_announcements(rng, masks, trump))
    plays, revoke = _play(rng, masks, forehand, trump, options)
    record["plays"] = [CARD_TEXT[c] for c in plays]
    if revoke is not None:
        record["revoke"] = revoke
    return record
