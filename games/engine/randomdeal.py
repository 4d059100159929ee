"""Random, legal, full deal records (demo data, load tests, property tests).

``random_deal`` deals 3-2-3, picks a contract that fits the upcard (with a matching
bidding list half of the time), announces the hands' melds and Bella most of the time,
adds Kontra/Re and now and then a March, and plays random legal cards; about one deal
in twenty ends with a revoke and one in forty is thrown in. All randomness comes from
the ``random.Random`` passed in. It does not check its output (``check`` does).

Klaverjas deals (forehand plays; half of them with an upcard that sets trump, the
others "verplicht" without one) and deals for 2 or 3 players (6 cards, a turned card,
a take in the first or second round, completion to 9, sometimes the exchange of the 7
of trumps) and Belote deals (5 cards, the upcard, a take in the first or second round
or one in thirty thrown in, completion to 8 with the upcard to the taker, sequences and
fours announced most of the time, belote-rebelote) follow the same pattern; a Klammern
deal draws the same random numbers as before these presets existed.

Belote Contrée deals (all 8 cards dealt 3-2-3) have a random legal auction: one in
twenty-five thrown in after four passes, else rising bids of random suits up to capot
now and then, a coinche now and then and sometimes its surcoinche; then random legal
plays under the preset's rules.

Schieber deals use the 36-card deck (``jass``): 9 cards each, forehand chooses or (one
in three) pushes to the partner, a trump suit most of the time, else Obenabe or Undenufe;
sequences and fours announced as Weis most of the time, the Stöck, and random legal
plays under the Schieber's rules.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Sequence
from typing import Any

from .cards import CARD_TEXT, SUIT_LETTERS, TABLES, cards_of, mask_of
from .jass import (
    DECK_SIZE,
    JASS_CARD_TEXT,
    MODE_NAMES,
    MODE_TABLES,
    jass_legal,
    jass_trick_winner,
)
from .melds import runs_of
from .play import legal_cards, trick_winner
from .rules import Options, resolve_rules
from .schieber import WEIS

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


def _play_seats(
    rng: random.Random, hands: list[int], forehand: int, trump: int, options: Options
) -> tuple[list[int], dict[str, Any] | None]:
    """Random legal plays for any number of players, now and then ending in a revoke."""
    table = TABLES[trump]

    def legal(hand: int, trick: list[int]) -> int:
        return legal_cards(hand, trick, trump, options)

    def winner(trick: list[int]) -> int:
        return trick_winner(trick, table)

    return _play_cards(rng, hands, forehand, legal, winner, CARD_TEXT)


def _play_cards(
    rng: random.Random,
    hands: list[int],
    forehand: int,
    legal: Callable[[int, list[int]], int],
    winner: Callable[[list[int]], int],
    texts: Sequence[str],
) -> tuple[list[int], dict[str, Any] | None]:
    """Random legal plays of any deck (``texts``) and number of hands; ``legal`` gives a
    hand's legal cards facing a trick, ``winner`` a full trick's winning position."""
    h, n = list(hands), len(hands)
    total = sum(bin(m).count("1") for m in hands)
    revoke_at = rng.randrange(total) if rng.random() < 0.05 else -1
    plays: list[int] = []
    seat, trick = forehand, list[int]()
    for index in range(total):
        allowed = legal(h[seat], trick)
        illegal = h[seat] & ~allowed
        if index == revoke_at and illegal:
            return plays, {"seat": seat, "card": texts[rng.choice(cards_of(illegal))]}
        card = rng.choice(cards_of(allowed))
        h[seat] ^= 1 << card
        plays.append(card)
        trick.append(card)
        if len(trick) < n:
            seat = (seat + 1) % n
            continue
        seat = (seat + 1 + winner(trick)) % n
        trick = []
    return plays, None


def _texts(cards: list[int]) -> list[str]:
    return [CARD_TEXT[c] for c in cards]


def _random_klaverjas(
    rng: random.Random, dealer: int, rules: object, options: Options
) -> dict[str, Any]:
    deck = list(range(32))
    rng.shuffle(deck)
    hands = [deck[8 * s : 8 * s + 8] for s in range(4)]
    forehand = (dealer + 1) % 4
    record: dict[str, Any] = {"format": "klammern-deal/1", "rules": rules, "dealer": dealer}
    record["hands"] = [_texts(h) for h in hands]
    # the same draw under either trump_by, so "turned" deals are as before it existed
    if rng.random() < 0.5 and options.trump_by == "turned":
        up = hands[dealer][-1]
        record["upcard"], trump = CARD_TEXT[up], up >> 3
    else:
        trump = rng.randrange(4)
    record["contract"] = {"kind": "klaverjas", "declarer": forehand, "trump": SUIT_LETTERS[trump]}
    plays, revoke = _play_seats(rng, [mask_of(h) for h in hands], forehand, trump, options)
    record["plays"] = _texts(plays)
    if revoke is not None:
        record["revoke"] = revoke
    return record


def _solo_contract(
    rng: random.Random, order: list[int], turned_suit: int
) -> tuple[dict[str, Any], list[dict[str, Any]]]:
    n = len(order)
    passes = [{"seat": s, "call": "pass"} for s in order]
    roll = rng.random()
    if roll < 0.03:
        return {"kind": "thrown_in"}, passes + passes
    at = rng.randrange(n)
    if roll < 0.6:
        calls = passes[:at] + [{"seat": order[at], "call": "take"}]
        return {"kind": "take", "declarer": order[at], "trump": SUIT_LETTERS[turned_suit]}, calls
    trump = SUIT_LETTERS[rng.choice([s for s in range(4) if s != turned_suit])]
    calls = passes + passes[:at] + [{"seat": order[at], "call": "take", "trump": trump}]
    return {"kind": "take", "declarer": order[at], "trump": trump}, calls


def _random_solo(
    rng: random.Random, dealer: int, rules: object, options: Options
) -> dict[str, Any]:
    n = options.players
    deck = list(range(32))
    rng.shuffle(deck)
    forehand = (dealer + 1) % n
    order = [(forehand + k) % n for k in range(n)]
    hands: list[list[int]] = [deck[6 * s : 6 * s + 6] for s in range(n)]
    turned = deck[6 * n]
    for s in range(n):
        hands[s] += deck[6 * n + 1 + 3 * s : 6 * n + 4 + 3 * s]
    contract, bidding = _solo_contract(rng, order, turned >> 3)
    record: dict[str, Any] = {"format": "klammern-deal/1", "rules": rules, "dealer": dealer}
    record["turned"] = CARD_TEXT[turned]
    record["contract"] = contract
    if rng.random() < 0.5:
        record["bidding"] = bidding
    if contract["kind"] == "thrown_in":
        record["hands"] = [_texts(h) for h in hands]
        record["plays"] = []
        return record
    trump = SUIT_LETTERS.index(contract["trump"])
    seven = trump * 8
    holder = next((s for s in range(n) if seven in hands[s]), None)
    if trump == turned >> 3 and holder is not None and rng.random() < 0.7:
        hands[holder][hands[holder].index(seven)] = turned
        record["exchange"] = holder
    record["hands"] = [_texts(h) for h in hands]
    masks = [mask_of(h) for h in hands]
    record.update(_solo_announcements(rng, masks, trump))
    plays, revoke = _play_seats(rng, masks, forehand, trump, options)
    record["plays"] = _texts(plays)
    if revoke is not None:
        record["revoke"] = revoke
    return record


def _solo_announcements(rng: random.Random, hands: list[int], trump: int) -> dict[str, Any]:
    out: dict[str, Any] = {}
    melds = [
        {"seat": seat, "cards": run.texts()}
        for seat in range(len(hands))
        for run in runs_of(hands[seat])
        if rng.random() < 0.85
    ]
    if melds:
        out["melds"] = melds
    table = TABLES[trump]
    need = (1 << table.king) | (1 << table.queen)
    holder = next((s for s in range(len(hands)) if hands[s] & need == need), None)
    if holder is not None and rng.random() < 0.85:
        out["bella"] = holder
    return out


def _belote_contract(rng: random.Random, order: list[int], up_suit: int) -> dict[str, Any]:
    roll = rng.random()
    if roll < 0.03:
        return {"kind": "thrown_in"}
    taker = order[rng.randrange(4)]
    if roll < 0.6:
        return {"kind": "belote", "declarer": taker, "trump": SUIT_LETTERS[up_suit], "round": 1}
    trump = rng.choice([s for s in range(4) if s != up_suit])
    return {"kind": "belote", "declarer": taker, "trump": SUIT_LETTERS[trump], "round": 2}


def _belote_melds(rng: random.Random, hands: list[int]) -> list[dict[str, Any]]:
    """Most of each hand's sequences (whole runs) and fours that count."""
    melds = []
    for seat, hand in enumerate(hands):
        combos = [run.texts() for run in runs_of(hand)]
        for rank in range(2, 8):  # 9 T J Q K A: the fours that count
            four = [suit * 8 + rank for suit in range(4)]
            if all(hand >> c & 1 for c in four):
                combos.append(_texts(four))
        melds += [{"seat": seat, "cards": c} for c in combos if rng.random() < 0.85]
    rng.shuffle(melds)
    return melds


def _random_belote(
    rng: random.Random, dealer: int, rules: object, options: Options
) -> dict[str, Any]:
    deck = list(range(32))
    rng.shuffle(deck)
    forehand = (dealer + 1) % 4
    order = [(forehand + k) % 4 for k in range(4)]
    hands: list[list[int]] = [[], [], [], []]
    for k, seat in enumerate(order):  # 3 then 2 cards each
        hands[seat] += deck[3 * k : 3 * k + 3] + deck[12 + 2 * k : 14 + 2 * k]
    up = deck[20]
    record: dict[str, Any] = {"format": "klammern-deal/1", "rules": rules, "dealer": dealer}
    record["upcard"] = CARD_TEXT[up]
    contract = _belote_contract(rng, order, up >> 3)
    record["contract"] = contract
    if contract["kind"] == "thrown_in":
        if rng.random() < 0.5:
            record["hands"] = [_texts(h) for h in hands]
        return record
    taker, pos = contract["declarer"], 21
    for seat in order:
        extra = [up] + deck[pos : pos + 2] if seat == taker else deck[pos : pos + 3]
        pos += 2 if seat == taker else 3
        hands[seat] += extra
    record["hands"] = [_texts(h) for h in hands]
    masks = [mask_of(h) for h in hands]
    trump = SUIT_LETTERS.index(contract["trump"])
    melds = _belote_melds(rng, masks)
    if melds:
        record["melds"] = melds
    table = TABLES[trump]
    need = (1 << table.king) | (1 << table.queen)
    holder = next((s for s in range(4) if masks[s] & need == need), None)
    if holder is not None and rng.random() < 0.85:
        record["bella"] = holder
    plays, revoke = _play_seats(rng, masks, forehand, trump, options)
    record["plays"] = _texts(plays)
    if revoke is not None:
        record["revoke"] = revoke
    return record


def _contree_auction(rng: random.Random) -> tuple[list[Any], tuple[int, int, int, int] | None]:
    """A random legal auction from forehand (call ``k`` is seat ``forehand + k``'s) and
    its outcome (bidder's place, level with capot 170, trump, doubling), or None."""
    if rng.random() < 0.04:
        return ["pass"] * 4, None
    calls: list[Any] = []
    bid: tuple[int, int, int] | None = None  # place in the calls, level, trump
    passes = 0
    while bid is None or passes < 3:
        place = len(calls)
        levels = [v for v in (*range(80, 170, 10), 170) if bid is None or v > bid[1]]
        roll = rng.random()
        if bid is not None and (place - bid[0]) & 1 and roll < 0.1:
            calls.append("coinche")
            if rng.random() < 0.3:
                calls.append("surcoinche")
                return calls, (bid[0], bid[1], bid[2], 2)
            return calls, (bid[0], bid[1], bid[2], 1)
        if levels and ((bid is None and (roll < 0.5 or passes == 3)) or roll < 0.35):
            level = levels[min(int(rng.expovariate(0.8)), len(levels) - 1)]
            trump = rng.randrange(4)
            calls.append(
                {"value": "capot" if level == 170 else level, "trump": SUIT_LETTERS[trump]}
            )
            bid, passes = (place, level, trump), 0
            continue
        calls.append("pass")
        passes += 1
    return calls, (bid[0], bid[1], bid[2], 0)


def _random_contree(
    rng: random.Random, dealer: int, rules: object, options: Options
) -> dict[str, Any]:
    forehand = (dealer + 1) % 4
    hands = _deal(rng, dealer)
    record: dict[str, Any] = {"format": "klammern-deal/1", "rules": rules, "dealer": dealer}
    record["hands"] = [_texts(h) for h in hands]
    calls, outcome = _contree_auction(rng)
    record["bids"] = calls
    if outcome is None:
        record["contract"] = {"kind": "thrown_in"}
        return record
    place, level, trump, doubling = outcome
    record["contract"] = {
        "kind": "contree",
        "declarer": (forehand + place) % 4,
        "trump": SUIT_LETTERS[trump],
        "value": "capot" if level == 170 else level,
        "doubling": doubling,
    }
    plays, revoke = _play_seats(rng, [mask_of(h) for h in hands], forehand, trump, options)
    record["plays"] = _texts(plays)
    if revoke is not None:
        record["revoke"] = revoke
    return record


def _schieber_choice(rng: random.Random, forehand: int) -> tuple[dict[str, Any], int]:
    """The contract and its mode (0-3 a trump suit, 4 Obenabe, 5 Undenufe)."""
    pushed = rng.random() < 1 / 3
    roll = rng.random()
    mode = rng.randrange(4) if roll < 0.7 else 4 if roll < 0.85 else 5
    contract: dict[str, Any] = {
        "kind": "schieber",
        "chooser": (forehand + 2) % 4 if pushed else forehand,
        "mode": MODE_NAMES[mode],
    }
    if mode < 4:
        contract["trump"] = SUIT_LETTERS[mode]
    contract["pushed"] = pushed
    return contract, mode


def _random_schieber(rng: random.Random, dealer: int, rules: object) -> dict[str, Any]:
    deck = list(range(DECK_SIZE))
    rng.shuffle(deck)
    forehand = (dealer + 1) % 4
    masks = [mask_of(deck[9 * s : 9 * s + 9]) for s in range(4)]
    record: dict[str, Any] = {"format": "klammern-deal/1", "rules": rules, "dealer": dealer}
    record["hands"] = [[JASS_CARD_TEXT[c] for c in deck[9 * s : 9 * s + 9]] for s in range(4)]
    contract, mode = _schieber_choice(rng, forehand)
    record["contract"] = contract
    weis = [
        {"seat": seat, "cards": WEIS.texts_of(combo)}
        for seat in range(4)
        for combo in WEIS.runs(masks[seat]) + WEIS.fours(masks[seat])
        if rng.random() < 0.85
    ]
    rng.shuffle(weis)
    if weis:
        record["weis"] = weis
    table = MODE_TABLES[mode]
    if mode < 4:
        need = (1 << table.king) | (1 << table.queen)
        holder = next((s for s in range(4) if masks[s] & need == need), None)
        if holder is not None and rng.random() < 0.85:
            record["stoeck"] = holder
    plays, revoke = _play_cards(
        rng,
        masks,
        forehand,
        lambda hand, trick: jass_legal(hand, trick, table),
        lambda trick: jass_trick_winner(trick, table),
        JASS_CARD_TEXT,
    )
    record["plays"] = [JASS_CARD_TEXT[c] for c in plays]
    if revoke is not None:
        record["revoke"] = revoke
    return record


def random_deal(rng: random.Random, *, dealer: int = 0, rules: object = None) -> dict[str, Any]:
    """One random legal full deal record dealt by ``dealer`` under ``rules``."""
    options = resolve_rules(rules, include_engine_only=True)
    if options.game == "klaverjas":
        return _random_klaverjas(rng, dealer % 4, rules, options)
    if options.game == "belote":
        return _random_belote(rng, dealer % 4, rules, options)
    if options.game == "contree":
        return _random_contree(rng, dealer % 4, rules, options)
    if options.game == "schieber":
        return _random_schieber(rng, dealer % 4, rules)
    if options.players != 4:
        return _random_solo(rng, dealer % options.players, rules, options)
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
