"""Golden results: ``check`` gives byte-for-byte the same JSON as the recorded engine.

A fixed-seed corpus of random deals (every preset and option switch), plus mutated
variants (a play changed or swapped, plays cut short, melds dropped or altered, Bella
moved, hands broken, the contract or bidding edited, bad field types) and score-sheet
versions of the deals (with correct and edited ``card_points``/``tricks_won``). Each
record's ``check`` result, serialised with key order kept, must equal the line stored in
``golden/results.jsonl.gz``; the record's own hash guards against a drifting corpus.

The golden file was written once from the engine before its speed work. To rebuild it
(only when a behaviour change is intended): ``python -m tests.engine.test_golden``.
"""

from __future__ import annotations

import contextlib
import copy
import gzip
import hashlib
import json
import random
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

from games.engine import CARD_TEXT, check, random_deal

GOLDEN = Path(__file__).parent / "golden" / "results.jsonl.gz"
SEED = 20240601
DEALS = 3000

Record = dict[str, Any]

RULES: tuple[object, ...] = (
    None,
    "klammern",
    "klammern-hamburg",
    {"preset": "klammern", "options": {"overtrump_on_trump_lead": True}},
    {"preset": "klammern", "options": {"partner_exempt": True}},
    {"preset": "klammern", "options": {"meld_tie_by_suit": True}},
    {"preset": "klammern", "options": {"revoke_clean_team_takes_all": True}},
    {"preset": "klammern-hamburg", "options": {"failed_game_gives_all": False}},
    {"options": {"overtrump_on_trump_lead": True, "partner_exempt": True, "liga_target": 41}},
)


def _card(rng: random.Random) -> str:
    return CARD_TEXT[rng.randrange(32)]


def _change_play(rec: Record, rng: random.Random) -> None:
    if rec.get("plays"):
        rec["plays"][rng.randrange(len(rec["plays"]))] = _card(rng)


def _swap_plays(rec: Record, rng: random.Random) -> None:
    plays = rec.get("plays") or []
    if len(plays) >= 2:
        i, j = rng.sample(range(len(plays)), 2)
        plays[i], plays[j] = plays[j], plays[i]


def _cut_plays(rec: Record, rng: random.Random) -> None:
    if rec.get("plays"):
        del rec["plays"][rng.randrange(len(rec["plays"])) :]
        if rng.random() < 0.5:
            rec["revoke"] = {"seat": rng.randrange(4), "card": _card(rng)}


def _holder(rec: Record, card: str) -> int | None:
    return next((s for s, hand in enumerate(rec.get("hands", [])) if card in hand), None)


def _swap_own(rec: Record, rng: random.Random) -> None:
    """Swap a play with a later card of the same seat: held, often illegal."""
    plays = rec.get("plays") or []
    if len(plays) < 2:
        return
    i = rng.randrange(len(plays) - 1)
    seat = _holder(rec, plays[i])
    later = [j for j in range(i + 1, len(plays)) if _holder(rec, plays[j]) == seat]
    if later:
        j = rng.choice(later)
        plays[i], plays[j] = plays[j], plays[i]


def _declare_revoke(rec: Record, rng: random.Random) -> None:
    """End the plays early with a revoke by the seat to play, legal or not."""
    plays = rec.get("plays") or []
    if len(plays) < 2:
        return
    k = rng.randrange(len(plays))
    seat = _holder(rec, plays[k])
    if seat is None:
        return
    left = [c for c in rec["hands"][seat] if c not in plays[:k]]
    rec["revoke"] = {"seat": seat, "card": rng.choice(left)}
    del plays[k:]


def _extra_plays(rec: Record, rng: random.Random) -> None:
    rec.setdefault("plays", []).extend(_card(rng) for _ in range(rng.randrange(1, 4)))


def _drop_revoke(rec: Record, rng: random.Random) -> None:
    if "revoke" in rec:
        del rec["revoke"]
    else:
        rec["revoke"] = {"seat": rng.randrange(4), "card": _card(rng)}


def _edit_melds(rec: Record, rng: random.Random) -> None:
    melds = rec.setdefault("melds", [])
    roll = rng.random()
    if melds and roll < 0.3:
        melds.pop(rng.randrange(len(melds)))
    elif melds and roll < 0.55:
        meld = melds[rng.randrange(len(melds))]
        meld["cards"][rng.randrange(len(meld["cards"]))] = _card(rng)
    elif melds and roll < 0.7:
        melds[rng.randrange(len(melds))]["seat"] = rng.randrange(4)
    elif melds and roll < 0.8:
        melds.append(copy.deepcopy(melds[0]))
    elif melds and roll < 0.9:
        meld = melds[rng.randrange(len(melds))]
        meld["cards"].pop(rng.choice((0, -1)))
        if rng.random() < 0.5 and len(meld["cards"]) >= 6:
            melds.append({"seat": meld["seat"], "cards": meld["cards"][3:]})
            del meld["cards"][3:]
    else:
        start = rng.randrange(6)
        suit = "CSHD"[rng.randrange(4)]
        length = rng.choice((2, 3, 3, 4, 5))
        cards = ["789TJQKA"[r] + suit for r in range(start, min(8, start + length))]
        melds.append({"seat": rng.randrange(4), "cards": cards})


def _edit_bella(rec: Record, rng: random.Random) -> None:
    if "bella" in rec and rng.random() < 0.4:
        del rec["bella"]
    else:
        rec["bella"] = rng.randrange(4)


def _edit_contract(rec: Record, rng: random.Random) -> None:
    kind = rng.choice(("orgi", "kleines", "besser"))
    rec["contract"] = {
        "kind": kind,
        "declarer": rng.randrange(4),
        "trump": "CSHD"[rng.randrange(4)],
    }


def _edit_bidding(rec: Record, rng: random.Random) -> None:
    calls = rec.get("bidding")
    if not calls:
        rec["bidding"] = [{"seat": rng.randrange(4), "call": "accept"}]
    elif rng.random() < 0.5:
        calls.pop(rng.randrange(len(calls)))
    else:
        calls[rng.randrange(len(calls))]["call"] = rng.choice(("accept", "pass", "kleines"))


def _break_hands(rec: Record, rng: random.Random) -> None:
    if "hands" not in rec:
        return
    hand = rec["hands"][rng.randrange(4)]
    roll = rng.random()
    if roll < 0.4:
        hand[rng.randrange(8)] = _card(rng)
    elif roll < 0.6:
        hand.pop()
    elif roll < 0.8:
        hand[rng.randrange(8)] = rng.choice(("XX", "", 7, None, "1S", "ts"))
    else:
        i = rng.randrange(8)
        if hand[i][0] == "T":
            hand[i] = "10" + hand[i][1]


def _bad_field(rec: Record, rng: random.Random) -> None:
    name = rng.choice(
        ("format", "dealer", "upcard", "doubling", "march", "melds", "bella", "revoke", "plays")
    )
    rec[name] = rng.choice((None, 5, -1, "x", [], {}, True, 2.0, ["AS"], {"seat": 1}))


def _tens(rec: Record, rng: random.Random) -> None:
    for key in ("plays",):
        rec[key] = ["10" + c[1] if c[0] == "T" and rng.random() < 0.5 else c for c in rec[key]]


MUTATIONS: tuple[Callable[[Record, random.Random], None], ...] = (
    _change_play,
    _change_play,
    _swap_plays,
    _swap_own,
    _swap_own,
    _swap_own,
    _declare_revoke,
    _declare_revoke,
    _cut_plays,
    _extra_plays,
    _drop_revoke,
    _edit_melds,
    _edit_melds,
    _edit_bella,
    _edit_contract,
    _edit_bidding,
    _break_hands,
    _bad_field,
    _tens,
)


def _summary(rec: Record, result: Record, rng: random.Random) -> Record | None:
    """The deal as a score sheet, its numbers sometimes edited."""
    if not result.get("valid") or result.get("outcome") == "thrown_in":
        return None
    sheet = {k: v for k, v in copy.deepcopy(rec).items() if k not in ("hands", "plays")}
    points = [0, 0]
    for trick in result["tricks"]:
        points[trick["winner"] % 2] += trick["points"]
    sheet["card_points"] = points
    if rng.random() < 0.6:
        sheet["tricks_won"] = list(result["tricks_won"])
    roll = rng.random()
    if roll < 0.3:
        delta = rng.choice((-10, -3, -1, 1, 2, 10))
        team = rng.randrange(2)
        points[team] = max(0, points[team] + delta)
        if rng.random() < 0.5:
            points[1 - team] = max(0, points[1 - team] - delta)
    elif roll < 0.4 and "tricks_won" in sheet:
        sheet["tricks_won"][rng.randrange(2)] += rng.choice((-1, 1))
    elif roll < 0.5:
        _edit_melds(sheet, rng)
    elif roll < 0.55:
        sheet["plays"] = []
    return sheet


def _odd_records() -> Iterator[object]:
    yield None
    yield []
    yield "deal"
    yield {}
    yield {"format": "klammern-deal/1", "rules": "nope"}
    yield {"format": "klammern-deal/1", "rules": {"preset": "klammern", "options": {"x": 1}}}
    yield {"format": "klammern-deal/1", "rules": {"options": {"liga_target": 0}}}
    yield {"format": "klammern-deal/1", "rules": 5, "dealer": 0}


def corpus() -> Iterator[object]:
    """Every record of the golden corpus, in a fixed order."""
    yield from _odd_records()
    rng = random.Random(SEED)
    for i in range(DEALS):
        rules = RULES[i % len(RULES)]
        rec = random_deal(rng, dealer=i % 4, rules=rules)
        yield rec
        mutated = copy.deepcopy(rec)
        for _ in range(1 + (rng.random() < 0.3)):
            # A second mutation may meet a field the first one broke: it then stops.
            with contextlib.suppress(AttributeError, IndexError, KeyError, TypeError):
                rng.choice(MUTATIONS)(mutated, rng)
        yield mutated
        sheet = _summary(rec, check(rec), rng)
        if sheet is not None:
            yield sheet


def _digest(record: object) -> str:
    return hashlib.sha1(json.dumps(record).encode()).hexdigest()[:12]


def _line(record: object) -> str:
    return json.dumps({"record": _digest(record), "result": check(record)})


def test_check_matches_golden_results() -> None:
    with gzip.open(GOLDEN, "rt", encoding="utf-8") as f:
        golden = f.read().splitlines()
    records = list(corpus())
    assert len(records) == len(golden)
    mismatches = []
    for index, (record, expected) in enumerate(zip(records, golden, strict=True)):
        before = copy.deepcopy(record)
        got = _line(record)
        assert record == before, f"check() changed record {index}"
        if got != expected:
            mismatches.append(index)
    assert not mismatches, f"{len(mismatches)} results differ, first at record {mismatches[0]}"


def _write() -> None:
    GOLDEN.parent.mkdir(exist_ok=True)
    with gzip.GzipFile(GOLDEN, "wb", compresslevel=9, mtime=0) as raw:
        raw.write("".join(_line(r) + "\n" for r in corpus()).encode())


if __name__ == "__main__":
    _write()
