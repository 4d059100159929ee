"""Announced combinations for any deck: Belote's melds and the Schieber's Weis.

A combination is a sequence of 3 or more cards of one suit in the natural order, or four
cards of one rank that count. ``Combos`` describes one game's: its deck (ranks per suit,
card texts), the value of each sequence length and of each four, and the words its
messages use. The helpers parse the record's list of combinations, check them against
the hands (held, announced whole) or, in a summary, against each other (one seat's
touching sequences, two seats claiming one card), and decide the contest: the higher
value, then more cards, then the higher top card in natural order (a four's rank is its
top), then a trump sequence, then the seat first in play from forehand; the team of the
best scores every combination of both its players.

It knows nothing of tricks or scoring; ``belote`` and ``schieber`` use it.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

from .errors import Code, Problem
from .record import Checker


class Combos:
    """One game's combinations: deck, values and words."""

    def __init__(
        self,
        *,
        per_suit: int,
        texts: Sequence[str],
        parse: Callable[[object], int | None],
        four_values: tuple[int, ...],
        sequence_values: tuple[int, ...],
        word: str,
        field: str,
        fours_named: str,
    ) -> None:
        #: Ranks per suit (a card is ``suit * per_suit + rank``).
        self.per_suit = per_suit
        self.texts = texts
        self.parse = parse
        #: A four's value by natural rank (0: no combination).
        self.four_values = four_values
        #: A sequence's value by its length (3 or more).
        self.sequence_values = sequence_values
        #: "meld" or "Weis" in messages; ``field`` is the record's list ("melds", "weis").
        self.word = word
        self.field = field
        #: The fours that count, in words ("Jacks, Nines, Aces, Tens, Kings or Queens").
        self.fours_named = fours_named

    def texts_of(self, mask: int) -> list[str]:
        """The card texts of a mask, lowest id first."""
        return [self.texts[c] for c in range(len(self.texts)) if mask >> c & 1]

    def runs(self, hand: int) -> list[int]:
        """The masks of the maximal sequences of 3 or more cards of one suit in a hand."""
        out = []
        n = self.per_suit
        for suit in range(4):
            rank = 0
            while rank < n:
                if not hand >> (n * suit + rank) & 1:
                    rank += 1
                    continue
                start = rank
                while rank < n and hand >> (n * suit + rank) & 1:
                    rank += 1
                if rank - start >= 3:
                    out.append(((1 << (rank - start)) - 1) << (n * suit + start))
        return out

    def fours(self, hand: int) -> list[int]:
        """The masks of the fours that count in a hand."""
        out = []
        for rank in range(self.per_suit):
            four = sum(1 << (self.per_suit * s + rank) for s in range(4))
            if self.four_values[rank] and hand & four == four:
                out.append(four)
        return out


class Combination:
    """One announced combination: a sequence of one suit or four of one rank."""

    def __init__(
        self, seat: int, mask: int, *, four: bool, top: int, suit: int, value: int, texts: list[str]
    ) -> None:
        self.seat = seat
        self.mask = mask
        self.four = four
        #: Natural rank of the top card (a four's rank).
        self.top = top
        #: The sequence's suit; -1 for a four.
        self.suit = suit
        self.count = bin(mask).count("1")
        self.value = value
        self._texts = texts

    def texts(self) -> list[str]:
        """The cards, lowest first (a four: Clubs, Spades, Hearts, Diamonds)."""
        return list(self._texts)

    def strength(self, trump: int, forehand: int) -> tuple[int, int, int, int, int]:
        """Value, cards, top card, trump sequence, earlier in play from forehand."""
        trump_sequence = int(not self.four and self.suit == trump)
        return (self.value, self.count, self.top, trump_sequence, -((self.seat - forehand) % 4))

    def to_json(self) -> dict[str, Any]:
        """The result's entry for a scored combination."""
        return {"seat": self.seat, "cards": self.texts(), "points": self.value}


def combination_of_cards(seat: int, cards: list[int], combos: Combos) -> Combination | None:
    """The combination the cards form, or None (neither a sequence of 3 or more of one
    suit nor a four that counts)."""
    mask = 0
    for card in cards:
        mask |= 1 << card
    if bin(mask).count("1") != len(cards) or len(cards) < 3:
        return None
    n = combos.per_suit
    suits = {c // n for c in cards}
    ranks = sorted(c % n for c in cards)
    texts = combos.texts_of(mask)
    if len(suits) == 1 and ranks == list(range(ranks[0], ranks[0] + len(ranks))):
        value = combos.sequence_values[len(cards)]
        return Combination(
            seat, mask, four=False, top=ranks[-1], suit=cards[0] // n, value=value, texts=texts
        )
    if len(cards) == 4 and len(set(ranks)) == 1 and combos.four_values[ranks[0]]:
        value = combos.four_values[ranks[0]]
        return Combination(seat, mask, four=True, top=ranks[0], suit=-1, value=value, texts=texts)
    return None


def contest(
    items: list[Combination], *, trump: int, forehand: int
) -> tuple[int | None, list[Combination]]:
    """The team of the best combination and every one of that team (seat, then cards)."""
    if not items:
        return None, []
    best = max(items, key=lambda c: c.strength(trump, forehand))
    team = best.seat & 1
    scored = sorted((c for c in items if c.seat & 1 == team), key=lambda c: (c.seat, c.mask))
    return team, scored


def _problem(ck: Checker, code: Code, message: str, where: str, **params: Any) -> None:
    ck.problems.append(Problem(code, message, field=where, params=params))


def parse_combinations(ck: Checker, combos: Combos) -> list[tuple[int, Combination]]:
    """The record's combinations as (list index, Combination); problems for bad entries."""
    value = ck.record.get(combos.field, [])
    if not isinstance(value, list):
        ck.bad(f"{combos.field} must be a list", combos.field)
        return []
    out = []
    for i, item in enumerate(value):
        where = f"{combos.field}[{i}]"
        seat = item.get("seat") if isinstance(item, dict) else None
        texts = item.get("cards") if isinstance(item, dict) else None
        if type(seat) is not int or not 0 <= seat <= 3 or not isinstance(texts, list):
            ck.bad(f"{combos.word} {i} must be {{seat: 0-3, cards: [...]}}", where)
            continue
        cards = [combos.parse(t) for t in texts]
        known = [c for c in cards if c is not None]
        if len(known) != len(cards):
            unknown = next(t for t, c in zip(texts, cards, strict=True) if c is None)
            ck.bad(f"{combos.word} {i} of seat {seat}: {unknown!r} is not a card", where, seat=seat)
            continue
        item_combo = combination_of_cards(seat, known, combos)
        if item_combo is None:
            shown = [combos.texts[c] for c in known]
            _problem(
                ck,
                Code.NOT_A_MELD,
                f"seat {seat}'s {combos.word} {', '.join(shown)} is neither 3 or more cards of "
                f"one suit in sequence nor four {combos.fours_named}",
                where,
                seat=seat,
                cards=shown,
            )
            continue
        out.append((i, item_combo))
    return out


def check_duplicates(ck: Checker, items: list[tuple[int, Combination]], combos: Combos) -> None:
    """One seat announcing one four twice, or overlapping sequences."""
    for n, (i, one) in enumerate(items):
        for j, other in items[:n]:
            if other.seat != one.seat or other.four != one.four or not other.mask & one.mask:
                continue
            _problem(
                ck,
                Code.DUPLICATE_MELD,
                f"seat {one.seat} announces {'-'.join(one.texts())} twice "
                f"({combos.field} {j} and {i})",
                f"{combos.field}[{i}]",
                seat=one.seat,
                cards=one.texts(),
                other=j,
            )


def check_held(ck: Checker, i: int, item: Combination, hand: int, combos: Combos) -> None:
    """A combination must be in its seat's hand, a sequence as a whole maximal run."""
    name = "-".join(item.texts())
    where = f"{combos.field}[{i}]"
    missing = item.mask & ~hand
    if missing:
        lacking = combos.texts_of(missing)
        _problem(
            ck,
            Code.MELD_NOT_HELD,
            f"seat {item.seat} announces {name} but did not hold {', '.join(lacking)}",
            where,
            seat=item.seat,
            cards=item.texts(),
            missing=lacking,
        )
        return
    if item.four:
        return
    whole = next(r for r in combos.runs(hand) if r & item.mask)
    if whole != item.mask:
        run = combos.texts_of(whole)
        _problem(
            ck,
            Code.MELD_NOT_MAXIMAL,
            f"seat {item.seat} announces {name} but holds the run {'-'.join(run)}: "
            "a sequence is announced whole",
            where,
            seat=item.seat,
            cards=item.texts(),
            run=run,
        )


def check_summary_runs(ck: Checker, items: list[tuple[int, Combination]], combos: Combos) -> None:
    """Sequences of one seat that touch form one longer run: announce it whole."""
    for i, item in items:
        if item.four:
            continue
        others = 0
        for j, other in items:
            if j != i and other.seat == item.seat and not other.four:
                others |= other.mask
        if others & item.mask:
            continue  # a duplicate_meld
        whole = next(r for r in combos.runs(others | item.mask) if r & item.mask)
        if whole != item.mask:
            run = combos.texts_of(whole)
            _problem(
                ck,
                Code.MELD_NOT_MAXIMAL,
                f"seat {item.seat} announces {'-'.join(item.texts())} next to another "
                f"sequence of its own: together they are one run {'-'.join(run)}",
                f"{combos.field}[{i}]",
                seat=item.seat,
                cards=item.texts(),
                run=run,
            )


def check_claims(
    ck: Checker,
    items: list[tuple[int, Combination]],
    combos: Combos,
    others: list[tuple[int, int, str]],
    owner: dict[int, tuple[int, str]],
) -> None:
    """Two seats claiming one card in a summary: the combinations' cards, then ``others``
    (card, seat, field: the Bella or Stöck cards, the revoke card), against ``owner``
    (cards already known to be a seat's, e.g. Belote's upcard)."""
    claims: list[tuple[int, int, str]] = []
    for i, item in items:
        where = f"{combos.field}[{i}]"
        claims += [(c, item.seat, where) for c in range(len(combos.texts)) if item.mask >> c & 1]
    for card, seat, where in claims + others:
        prev = owner.setdefault(card, (seat, where))
        if prev[0] != seat:
            text = combos.texts[card]
            _problem(
                ck,
                Code.DUPLICATE_CARD,
                f"seat {seat} ({where}) and seat {prev[0]} ({prev[1]}) both claim {text}",
                where,
                card=text,
                seats=[prev[0], seat],
            )


__all__ = [
    "Combination",
    "Combos",
    "check_claims",
    "check_duplicates",
    "check_held",
    "check_summary_runs",
    "combination_of_cards",
    "contest",
    "parse_combinations",
]
