"""Schieberjass deal records (preset ``schieber``; RULES.md "Schieberjass", spec "Other
presets").

Checks a Schieber record: the 36-card deck (``jass``), the choice ``{"kind": "schieber",
"chooser", "mode": "trump" | "obenabe" | "undenufe", "trump" (trump mode only),
"pushed"}`` (forehand chooses, or pushes to the partner), the Weis (sequences of 3 or
more, fours of Jacks, Nines, Aces, Kings, Queens, Tens), the Stöck, every play under the
Schieber's rules (``jass.jass_legal``) or, for a summary, the feasibility of its numbers;
then scores the deal: cards 152 and the last trick 5 (157), 257 for all 9 tricks (the
"Match"); only the team with the best Weis scores Weis (every Weis of both its players);
Stöck 20 always to the holder's team; no made or failed; after a revoke the clean team
scores 157, the Weis scored in the deal and its own Stöck, the revoking team 0. With the
option ``multipliers`` every point of the deal is multiplied by 1 (Clubs, Diamonds), 2
(Hearts, Spades) or 3 (Obenabe, Undenufe). It does not keep a match
(``keepers.score_match``).

Decisions where RULES.md is silent (also in DECISIONS.md):

- A Schieber deal is never thrown in (forehand must choose or push): a ``thrown_in``
  contract is a ``contract_mismatch``. ``pushed`` is required; the chooser must be
  forehand (not pushed) or forehand's partner (pushed): ``contract_mismatch`` otherwise.
- A sequence Weis is a whole maximal run of the seat's hand (``meld_not_maximal``), so a
  run of 9 is one Weis of 300; a four and a sequence may share cards. The Weis refusals
  use the meld codes (``not_a_meld``, ``meld_not_held``, ``duplicate_meld``); a Stöck not
  held is ``bella_not_held`` (the Stöck is the Schieber's Bella), and Stöck outside a
  trump mode is a ``bad_format``.
- After a revoke, Weis count when the seat's turn in the first trick came no later than
  the revoke (as Belote); the Stöck is a holding (the spec names the seat holding King
  and Queen), so the clean team's Stöck counts as recorded.
- ``winner_team`` is the team with more points (a played deal's total, 157 or 257 plus
  Weis and Stöck in tens, is odd, so there is no tie), the clean team after a revoke; the
  multiplier also applies after a revoke.
"""

from __future__ import annotations

from functools import cache
from typing import Any, Final

from .cards import SUIT_LETTERS
from .errors import Code, Problem
from .jass import (
    CARD_POINTS_SUM,
    DEAL_VALUE,
    DECK_SIZE,
    JASS_CARD_TEXT,
    LAST_TRICK,
    MODE_NAMES,
    MODE_TABLES,
    MODE_WORDS,
    OBENABE,
    UNDENUFE,
    ModeTable,
    Weis,
    explain_jass_illegal,
    jass_legal,
    jass_texts,
    jass_trick_winner,
    multiplier_of,
    parse_jass_card,
    runs_in_hand,
    weis_contest,
    weis_of_cards,
)
from .record import ENGINE_VERSION, FORMAT, Checker, int_pair
from .rules import Options, rules_dict
from .summary import _splits

Json = dict[str, Any]

MATCH_BONUS: Final = 100
STOECK_POINTS: Final = 20
TRICKS: Final = 9
HAND_SIZE: Final = 9
#: Fields a Schieber record must not have.
ABSENT: Final = (
    "upcard",
    "bidding",
    "doubling",
    "march",
    "melds",
    "bella",
    "roem",
    "turned",
    "exchange",
)
MODES: Final = {"trump": -1, "obenabe": OBENABE, "undenufe": UNDENUFE}


class SchieberDeal:
    """The common fields of a well-formed Schieber record."""

    def __init__(
        self,
        dealer: int,
        chooser: int,
        mode: int,
        pushed: bool,
        weis: list[tuple[int, Weis]],
        stoeck: int | None,
        revoke: tuple[int, int] | None,
    ) -> None:
        self.dealer = dealer
        self.chooser = chooser
        #: 0-3 a trump suit, 4 Obenabe, 5 Undenufe.
        self.mode = mode
        self.pushed = pushed
        self.weis = weis
        self.stoeck = stoeck
        self.revoke = revoke

    @property
    def forehand(self) -> int:
        """The seat left of the dealer: it chooses (or pushes) and leads the first trick."""
        return (self.dealer + 1) % 4

    @property
    def table(self) -> ModeTable:
        """Power and points of the cards in this deal's mode."""
        return MODE_TABLES[self.mode]


# ----- parsing ---------------------------------------------------------------------------


def _seat(value: object) -> int | None:
    return value if type(value) is int and 0 <= value <= 3 else None


def _problem(ck: Checker, code: Code, message: str, where: str, **params: Any) -> None:
    ck.problems.append(Problem(code, message, field=where, params=params))


def _parse_contract(ck: Checker, value: object) -> tuple[int, int, bool] | None:
    """(chooser, mode, pushed), or None after a problem."""
    shape = (
        "contract must be {kind: schieber, chooser: seat, mode: trump|obenabe|undenufe, "
        "trump: suit (mode trump only), pushed: true|false}"
    )
    if not isinstance(value, dict) or not isinstance(value.get("kind"), str):
        ck.bad(shape, "contract")
        return None
    kind = value["kind"]
    if kind != "schieber":
        never = " (a Schieber deal is never thrown in)" if kind == "thrown_in" else ""
        _problem(
            ck,
            Code.CONTRACT_MISMATCH,
            f"in the Schieber forehand chooses or pushes: the contract's kind is schieber, "
            f"not {kind}{never}",
            "contract.kind",
            kind=kind,
        )
        return None
    chooser, name, pushed = _seat(value.get("chooser")), value.get("mode"), value.get("pushed")
    mode = MODES.get(name) if isinstance(name, str) else None
    if chooser is None:
        ck.bad("contract.chooser must be a seat 0-3", "contract.chooser")
    if mode is None:
        ck.bad("contract.mode must be trump, obenabe or undenufe", "contract.mode")
    elif mode < 0:
        mode = _parse_trump(ck, value.get("trump"))
    elif "trump" in value:
        ck.bad(f"{name} has no trump suit: leave contract.trump out", "contract.trump")
    if not isinstance(pushed, bool):
        ck.bad("contract.pushed must be true (the partner chose) or false", "contract.pushed")
    if chooser is None or mode is None or mode < 0 or not isinstance(pushed, bool):
        return None
    return chooser, mode, pushed


def _parse_trump(ck: Checker, value: object) -> int | None:
    if isinstance(value, str) and value in SUIT_LETTERS and len(value) == 1:
        return SUIT_LETTERS.index(value)
    ck.bad("contract.trump must be one of C, S, H, D in mode trump", "contract.trump")
    return None


def _check_chooser(ck: Checker, chooser: int, pushed: bool, forehand: int) -> None:
    expected = (forehand + 2) % 4 if pushed else forehand
    if chooser == expected:
        return
    why = (
        f"forehand (seat {forehand}) pushed, so its partner seat {expected} chooses"
        if pushed
        else f"forehand (seat {forehand}) chooses unless it pushes (then pushed is true)"
    )
    _problem(
        ck,
        Code.CONTRACT_MISMATCH,
        f"seat {chooser} cannot be the chooser: {why}",
        "contract.chooser",
        chooser=chooser,
        forehand=forehand,
        pushed=pushed,
    )


def _parse_weis(ck: Checker) -> list[tuple[int, Weis]]:
    value = ck.record.get("weis", [])
    if not isinstance(value, list):
        ck.bad("weis must be a list", "weis")
        return []
    out = []
    for i, item in enumerate(value):
        where = f"weis[{i}]"
        seat = _seat(item.get("seat")) if isinstance(item, dict) else None
        texts = item.get("cards") if isinstance(item, dict) else None
        if seat is None or not isinstance(texts, list):
            ck.bad(f"Weis {i} must be {{seat: 0-3, cards: [...]}}", where)
            continue
        cards = [parse_jass_card(t) for t in texts]
        known = [c for c in cards if c is not None]
        if len(known) != len(cards):
            unknown = next(t for t, c in zip(texts, cards, strict=True) if c is None)
            ck.bad(f"Weis {i} of seat {seat}: {unknown!r} is not a card", where, seat=seat)
            continue
        weis = weis_of_cards(seat, known)
        if weis is None:
            _problem(
                ck,
                Code.NOT_A_MELD,
                f"seat {seat}'s Weis {', '.join(JASS_CARD_TEXT[c] for c in known)} is neither "
                "3 or more cards of one suit in sequence nor four Jacks, Nines, Aces, Kings, "
                "Queens or Tens",
                where,
                seat=seat,
                cards=[JASS_CARD_TEXT[c] for c in known],
            )
            continue
        out.append((i, weis))
    return out


def _check_weis_duplicates(ck: Checker, weis: list[tuple[int, Weis]]) -> None:
    """One seat announcing one four twice, or overlapping sequences."""
    for n, (i, one) in enumerate(weis):
        for j, other in weis[:n]:
            if other.seat != one.seat or other.four != one.four or not other.mask & one.mask:
                continue
            _problem(
                ck,
                Code.DUPLICATE_MELD,
                f"seat {one.seat} announces the Weis {'-'.join(one.texts())} twice "
                f"(Weis {j} and {i})",
                f"weis[{i}]",
                seat=one.seat,
                cards=one.texts(),
                other=j,
            )


def _parse_revoke(ck: Checker) -> tuple[int, int] | None:
    value = ck.record.get("revoke")
    if value is None:
        if "revoke" in ck.record:
            ck.bad("revoke must be {seat, card} (or absent)", "revoke")
        return None
    seat = _seat(value.get("seat")) if isinstance(value, dict) else None
    card = parse_jass_card(value.get("card")) if isinstance(value, dict) else None
    if seat is None or card is None:
        ck.bad("revoke must be {seat: 0-3, card: a card}", "revoke")
        return None
    return seat, card


def parse_schieber(ck: Checker) -> SchieberDeal | None:
    """Dealer, contract, Weis, Stöck and revoke; problems for anything else."""
    rec = ck.record
    if rec.get("format") != FORMAT:
        ck.bad(f"format must be {FORMAT!r}", "format")
    dealer = _seat(rec.get("dealer"))
    if dealer is None:
        ck.bad("dealer must be a seat 0-3", "dealer")
    for name in ABSENT:
        if name in rec:
            ck.bad(f"a Schieber deal has no {name}", name)
    contract = _parse_contract(ck, rec.get("contract"))
    weis = _parse_weis(ck)
    stoeck = _seat(rec.get("stoeck"))
    if "stoeck" in rec and stoeck is None:
        ck.bad("stoeck must be the seat 0-3 holding King and Queen of trumps", "stoeck")
    elif stoeck is not None and contract is not None and contract[1] >= 4:
        ck.bad(f"{MODE_NAMES[contract[1]]} has no trumps, so no Stöck", "stoeck")
    revoke = _parse_revoke(ck)
    if ck.problems or dealer is None or contract is None:
        return None
    chooser, mode, pushed = contract
    deal = SchieberDeal(dealer, chooser, mode, pushed, weis, stoeck, revoke)
    _check_chooser(ck, chooser, pushed, deal.forehand)
    _check_weis_duplicates(ck, weis)
    return deal


# ----- scoring ---------------------------------------------------------------------------


def score_schieber(
    *,
    card_points: tuple[int, int],
    tricks_won: tuple[int, int] | None,
    weis: list[Weis],
    mode: int,
    forehand: int,
    stoeck_team: int | None,
    revoke_team: int | None,
    multiplier: int,
) -> Json:
    """Points with the Match, Weis and Stöck (or after a revoke), times the multiplier."""
    trump = MODE_TABLES[mode].trump
    weis_team, scored = weis_contest(weis, trump=trump, forehand=forehand)
    weis_points = sum(w.value for w in scored)
    match = None
    if revoke_team is None and tricks_won is not None:
        match = next((t for t in (0, 1) if tricks_won[t] == TRICKS), None)
    raw = [0, 0]
    if revoke_team is not None:
        clean = 1 - revoke_team
        raw[clean] = DEAL_VALUE + weis_points
        raw[clean] += STOECK_POINTS if stoeck_team == clean else 0
        outcome, winner = "revoke", clean
    else:
        raw = list(card_points)
        if match is not None:
            raw[match] += MATCH_BONUS
        if weis_team is not None:
            raw[weis_team] += weis_points
        if stoeck_team is not None:
            raw[stoeck_team] += STOECK_POINTS
        # 157 (or 257) plus Weis and Stöck in tens is odd: never a tie
        outcome, winner = "played", int(raw[1] > raw[0])
    points = [raw[0] * multiplier, raw[1] * multiplier]
    return {
        "card_points": list(card_points),
        "match": match,
        "weis": {
            "winning_team": weis_team,
            "scored": [w.to_json() for w in scored],
            "points": weis_points,
        },
        "multiplier": multiplier,
        "points": points,
        "total": points[0] + points[1],
        "outcome": outcome,
        "winner_team": winner,
    }


def _weis_before(deal: SchieberDeal, played: int | None) -> list[Weis]:
    """The Weis that count: after a revoke in the first trick only those of seats whose
    turn came no later than the revoke (``played`` None: a summary, all count)."""
    weis = [w for _, w in deal.weis]
    if deal.revoke is None or played is None:
        return weis
    return [w for w in weis if (w.seat - deal.forehand) % 4 <= played]


def _score(
    ck: Checker,
    deal: SchieberDeal,
    card_points: tuple[int, int],
    tricks: tuple[int, int] | None,
    played: int | None,
) -> Json:
    out = score_schieber(
        card_points=card_points,
        tricks_won=tricks,
        weis=_weis_before(deal, played),
        mode=deal.mode,
        forehand=deal.forehand,
        stoeck_team=None if deal.stoeck is None else deal.stoeck & 1,
        revoke_team=None if deal.revoke is None else deal.revoke[0] & 1,
        multiplier=multiplier_of(deal.mode, ck.options),
    )
    out["stoeck"] = None if deal.stoeck is None else {"seat": deal.stoeck, "points": 20}
    out["tricks_won"] = None if tricks is None else list(tricks)
    return out


# ----- full records ----------------------------------------------------------------------


def _parse_hands(ck: Checker, value: object) -> list[int] | None:
    """The four 9-card hands as masks, or None after telling ``ck`` every problem."""
    if (
        not isinstance(value, list)
        or len(value) != 4
        or not all(isinstance(h, list) for h in value)
    ):
        ck.bad(f"hands must be 4 lists of {HAND_SIZE} cards", "hands")
        return None
    before = len(ck.problems)
    owner: dict[int, int] = {}
    masks = []
    for seat, hand in enumerate(value):
        mask = 0
        for text in hand:
            card = parse_jass_card(text)
            if card is None:
                ck.bad(
                    f"seat {seat}'s hand: {text!r} is not a card of the 36-card deck",
                    f"hands[{seat}]",
                    seat=seat,
                )
                continue
            if card in owner:
                _problem(
                    ck,
                    Code.DUPLICATE_CARD,
                    f"{JASS_CARD_TEXT[card]} is dealt twice (seat {owner[card]} and seat {seat})",
                    f"hands[{seat}]",
                    card=JASS_CARD_TEXT[card],
                    seats=[owner[card], seat],
                )
            owner[card] = seat
            mask |= 1 << card
        if len(hand) != HAND_SIZE:
            _problem(
                ck,
                Code.WRONG_CARD_COUNT,
                f"seat {seat} holds {len(hand)} cards instead of {HAND_SIZE}",
                f"hands[{seat}]",
                seat=seat,
                count=len(hand),
            )
        masks.append(mask)
    return None if len(ck.problems) > before else masks


def _parse_plays(ck: Checker, value: object) -> list[int] | None:
    if not isinstance(value, list):
        ck.bad("plays must be a list of cards", "plays")
        return None
    plays = []
    for i, text in enumerate(value):
        card = parse_jass_card(text)
        if card is None:
            ck.problems.append(
                Problem(
                    Code.BAD_FORMAT,
                    f"play {i}: {text!r} is not a card",
                    play=i,
                    field=f"plays[{i}]",
                )
            )
            return None
        plays.append(card)
    return plays


def _check_held(ck: Checker, deal: SchieberDeal, hands: list[int]) -> None:
    for i, weis in deal.weis:
        _check_weis_held(ck, i, weis, hands[weis.seat])
    table = deal.table
    if deal.stoeck is None:
        return
    need = (1 << table.king) | (1 << table.queen)
    if hands[deal.stoeck] & need != need:
        king, queen = JASS_CARD_TEXT[table.king], JASS_CARD_TEXT[table.queen]
        _problem(
            ck,
            Code.BELLA_NOT_HELD,
            f"seat {deal.stoeck} announces Stöck without holding {king} and {queen}",
            "stoeck",
            seat=deal.stoeck,
            cards=[king, queen],
        )


def _check_weis_held(ck: Checker, i: int, weis: Weis, hand: int) -> None:
    name = "-".join(weis.texts())
    missing = weis.mask & ~hand
    if missing:
        lacking = jass_texts(missing)
        _problem(
            ck,
            Code.MELD_NOT_HELD,
            f"seat {weis.seat} announces the Weis {name} but did not hold {', '.join(lacking)}",
            f"weis[{i}]",
            seat=weis.seat,
            cards=weis.texts(),
            missing=lacking,
        )
        return
    if weis.four:
        return
    whole = next(r for r in runs_in_hand(hand) if r & weis.mask)
    if whole != weis.mask:
        _problem(
            ck,
            Code.MELD_NOT_MAXIMAL,
            f"seat {weis.seat} announces {name} but holds the run {'-'.join(jass_texts(whole))}: "
            "a sequence is announced whole",
            f"weis[{i}]",
            seat=weis.seat,
            cards=weis.texts(),
            run=jass_texts(whole),
        )


class Walk:
    """Where the play stands after the recorded plays."""

    def __init__(self) -> None:
        self.tricks: list[Json] = []
        self.points = [0, 0]
        self.tricks_won = [0, 0]
        self.next_seat = 0
        self.trick: list[int] = []
        self.hands: list[int] = []


def _not_in_hand(seat: int, card: int, index: int, hands: list[int]) -> Problem:
    text = JASS_CARD_TEXT[card]
    holder = next((s for s in range(4) if hands[s] >> card & 1), None)
    if holder == seat:
        message = f"seat {seat} plays {text} a second time"
    elif holder is None:
        message = f"seat {seat} plays {text}, which no seat holds"
    else:
        message = f"seat {seat} plays {text}, which seat {holder} holds"
    return Problem(
        Code.CARD_NOT_IN_HAND,
        message,
        play=index,
        field=f"plays[{index}]",
        params={"seat": seat, "card": text, "holder": holder},
    )


def walk(hands: list[int], plays: list[int], forehand: int, table: ModeTable) -> Walk | Problem:
    """Play the cards in order, checking each; the first broken play is the problem."""
    state = Walk()
    h = list(hands)
    seat, trick = forehand, state.trick
    for index, card in enumerate(plays):
        hand = h[seat]
        if not hand >> card & 1:
            return _not_in_hand(seat, card, index, hands)
        if not jass_legal(hand, trick, table) >> card & 1:
            message, params = explain_jass_illegal(seat, card, hand, trick, table)
            params["trick"] = index // 4 + 1
            return Problem(
                Code.ILLEGAL_PLAY, message, play=index, field=f"plays[{index}]", params=params
            )
        h[seat] = hand ^ (1 << card)
        trick.append(card)
        if len(trick) < 4:
            seat = (seat + 1) % 4
            continue
        leader = (seat + 1) % 4
        winner = (leader + jass_trick_winner(trick, table)) % 4
        value = sum(table.points[c] for c in trick)
        if index == DECK_SIZE - 1:
            value += LAST_TRICK
        state.tricks.append(
            {
                "leader": leader,
                "cards": [JASS_CARD_TEXT[c] for c in trick],
                "winner": winner,
                "points": value,
            }
        )
        state.points[winner & 1] += value
        state.tricks_won[winner & 1] += 1
        seat, trick = winner, []
    state.next_seat, state.trick, state.hands = seat, trick, h
    return state


def _end_problem(deal: SchieberDeal, state: Walk, played: int) -> Problem | None:
    if deal.revoke is None:
        if played < DECK_SIZE:
            return Problem(
                Code.INCOMPLETE_PLAY,
                f"only {played} of {DECK_SIZE} cards are played and no revoke is stated",
                play=played,
                field="plays",
                params={"count": played, "next_seat": state.next_seat},
            )
        return None
    seat, card = deal.revoke
    text = JASS_CARD_TEXT[card]
    params: dict[str, Any] = {"seat": seat, "card": text}
    if played >= DECK_SIZE:
        return Problem(
            Code.TOO_MANY_PLAYS,
            "a revoke cannot follow the last card",
            field="revoke",
            params=params,
        )
    if seat != state.next_seat:
        return Problem(
            Code.REVOKE_WRONG_SEAT,
            f"the revoke is by seat {seat}, but seat {state.next_seat} was to play",
            play=played,
            field="revoke.seat",
            params={**params, "expected": state.next_seat},
        )
    if not state.hands[seat] >> card & 1:
        return Problem(
            Code.CARD_NOT_IN_HAND,
            f"seat {seat} revokes with {text}, which it does not hold",
            play=played,
            field="revoke.card",
            params=params,
        )
    if jass_legal(state.hands[seat], state.trick, deal.table) >> card & 1:
        return Problem(
            Code.REVOKE_NOT_ILLEGAL,
            f"seat {seat} could legally play {text}: it is no revoke",
            play=played,
            field="revoke.card",
            params=params,
        )
    return None


def _check_full(ck: Checker, deal: SchieberDeal) -> Json:
    rec = ck.record
    for name in ("card_points", "tricks_won"):
        if name in rec:
            ck.bad(f"{name} belongs to a summary record, not to one with hands", name)
    hands = _parse_hands(ck, rec["hands"])
    if "plays" not in rec:
        ck.bad("a record with hands must list its plays", "plays")
    plays = _parse_plays(ck, rec.get("plays", []))
    if hands is not None:
        _check_held(ck, deal, hands)
    if hands is None or plays is None or ck.problems:
        return {}
    if len(plays) > DECK_SIZE:
        ck.problems.append(
            Problem(
                Code.TOO_MANY_PLAYS,
                f"{len(plays)} plays listed; a deal has {DECK_SIZE}",
                play=DECK_SIZE,
                field=f"plays[{DECK_SIZE}]",
                params={"count": len(plays)},
            )
        )
        return {}
    state = walk(hands, plays, deal.forehand, deal.table)
    if isinstance(state, Problem):
        ck.problems.append(state)
        return {}
    problem = _end_problem(deal, state, len(plays))
    if problem is not None:
        ck.problems.append(problem)
        return {}
    points = (state.points[0], state.points[1])
    tricks = (state.tricks_won[0], state.tricks_won[1])
    out = _score(ck, deal, points, tricks, len(plays))
    out["tricks"] = state.tricks
    return out


# ----- summary records -------------------------------------------------------------------


def _claims(ck: Checker, deal: SchieberDeal) -> None:
    """Two seats claiming one card (Weis, Stöck, the revoke card)."""
    owner: dict[int, tuple[int, str]] = {}
    claims: list[tuple[int, int, str]] = []
    for i, weis in deal.weis:
        claims += [(c, weis.seat, f"weis[{i}]") for c in range(DECK_SIZE) if weis.mask >> c & 1]
    table = deal.table
    if deal.stoeck is not None:
        claims += [(table.king, deal.stoeck, "stoeck"), (table.queen, deal.stoeck, "stoeck")]
    if deal.revoke is not None:
        claims.append((deal.revoke[1], deal.revoke[0], "revoke.card"))
    for card, seat, where in claims:
        prev = owner.setdefault(card, (seat, where))
        if prev[0] != seat:
            _problem(
                ck,
                Code.DUPLICATE_CARD,
                f"seat {seat} ({where}) and seat {prev[0]} ({prev[1]}) both claim "
                f"{JASS_CARD_TEXT[card]}",
                where,
                card=JASS_CARD_TEXT[card],
                seats=[prev[0], seat],
            )


def _summary_runs(ck: Checker, deal: SchieberDeal) -> None:
    """Sequences of one seat that touch form one longer run: announce it whole."""
    for i, weis in deal.weis:
        if weis.four:
            continue
        others = 0
        for j, other in deal.weis:
            if j != i and other.seat == weis.seat and not other.four:
                others |= other.mask
        if others & weis.mask:
            continue  # a duplicate_meld
        whole = next(r for r in runs_in_hand(others | weis.mask) if r & weis.mask)
        if whole != weis.mask:
            _problem(
                ck,
                Code.MELD_NOT_MAXIMAL,
                f"seat {weis.seat} announces {'-'.join(weis.texts())} next to another "
                f"sequence of its own: together they are one run {'-'.join(jass_texts(whole))}",
                f"weis[{i}]",
                seat=weis.seat,
                cards=weis.texts(),
                run=jass_texts(whole),
            )


def _classes(points: tuple[int, ...]) -> tuple[tuple[tuple[int, int], ...], int]:
    """(value, how many cards) of the non-zero values, and the number of zero cards."""
    values = sorted({p for p in points if p}, reverse=True)
    return tuple((v, points.count(v)) for v in values), points.count(0)


@cache
def _sums_by_count(mode: int) -> tuple[int, ...]:
    """Per number of cards k: the bitset of card-point sums k of the 36 cards can give."""
    sums = [1] + [0] * DECK_SIZE
    for value in MODE_TABLES[mode].points:
        for k in range(DECK_SIZE, 0, -1):
            sums[k] |= sums[k - 1] << value
    return tuple(sums)


def full_deal_feasible(mode: int, tricks: int, points: int) -> bool:
    """Can a team with ``tricks`` of the 9 tricks have ``points`` card points (the last
    trick's 5 included when it has it)?"""
    if not 0 <= tricks <= TRICKS or points < 0:
        return False
    sums = _sums_by_count(mode)[4 * tricks]
    without_last = tricks < TRICKS and bool(sums >> points & 1)
    with_last = tricks >= 1 and points >= LAST_TRICK and bool(sums >> (points - LAST_TRICK) & 1)
    return without_last or with_last


def revoke_feasible(
    mode: int, points: tuple[int, int], tricks: tuple[int, int] | None, revoke_card: int
) -> bool:
    """Can the tricks completed before a revoke (at most 8, no last trick, the revoke card
    in none) give these card points (and trick counts)?"""
    values = list(MODE_TABLES[mode].points)
    values.pop(revoke_card)
    classes, zero_cards = _classes(tuple(values))
    if min(points) < 0 or sum(points) > sum(values):
        return False
    splits = _splits(classes, 0, points[0], points[1])
    if tricks is None:
        counts = [(a, b) for a in range(TRICKS) for b in range(TRICKS - a)]
    else:
        counts = [tricks]
    for a, b in counts:
        for na, nb in splits:
            zeros_a, zeros_b = 4 * a - na, 4 * b - nb
            if zeros_a >= 0 and zeros_b >= 0 and zeros_a + zeros_b <= zero_cards:
                return True
    return False


def _impossible(ck: Checker, code: Code, message: str, where: str, **params: Any) -> None:
    ck.problems.append(Problem(code, message, field=where, params=params))


def _check_tricks(ck: Checker, tricks: tuple[int, int], revoke: bool) -> bool:
    if sum(tricks) > TRICKS - 1 if revoke else sum(tricks) != TRICKS:
        wanted = "exceed the 8 tricks a revoke leaves room for" if revoke else "do not add up to 9"
        _impossible(
            ck,
            Code.IMPOSSIBLE_TRICKS,
            f"tricks {tricks[0]}:{tricks[1]} {wanted}",
            "tricks_won",
            tricks_won=list(tricks),
        )
        return False
    return True


def _check_card_points(
    ck: Checker, deal: SchieberDeal, points: tuple[int, int], tricks: tuple[int, int] | None
) -> None:
    shown = f"card points {points[0]}:{points[1]}"
    if deal.revoke is not None:
        card = deal.revoke[1]
        if not revoke_feasible(deal.mode, points, tricks, card):
            most = CARD_POINTS_SUM - deal.table.points[card]
            _impossible(
                ck,
                Code.IMPOSSIBLE_POINTS,
                f"{shown} cannot come from the tricks taken before a revoke (no last trick, "
                f"the revoke card in no trick: at most {most} in all)",
                "card_points",
                card_points=list(points),
            )
        return
    if sum(points) != DEAL_VALUE:
        _impossible(
            ck,
            Code.IMPOSSIBLE_POINTS,
            f"{shown} add up to {sum(points)}, not {DEAL_VALUE}",
            "card_points",
            card_points=list(points),
        )
        return
    for team in (0, 1):
        counts = range(TRICKS + 1) if tricks is None else (tricks[team],)
        if not any(full_deal_feasible(deal.mode, t, points[team]) for t in counts):
            with_tricks = "" if tricks is None else f" with {tricks[team]} tricks"
            _impossible(
                ck,
                Code.IMPOSSIBLE_POINTS,
                f"team {team} cannot have {points[team]} card points{with_tricks} in "
                f"{MODE_WORDS[deal.mode]}: no set of tricks gives that",
                "card_points",
                card_points=list(points),
                team=team,
            )


def _all_points_need_tricks(points: tuple[int, int]) -> Problem:
    team = points.index(DEAL_VALUE)
    return Problem(
        Code.MISSING_FIELD,
        f"team {team} has all {DEAL_VALUE} card points: enter the tricks each team took "
        f"(all 9 tricks to team {team} is a Match, 257; or 8 and a trick of blank cards to "
        f"team {1 - team})",
        field="tricks_won",
        params={"card_points": list(points), "team": team},
    )


def _check_summary(ck: Checker, deal: SchieberDeal) -> Json:
    rec = ck.record
    for name in ("hands", "plays"):
        if name in rec:
            ck.bad(f"{name} belongs to a full record (with hands)", name)
    _claims(ck, deal)
    _summary_runs(ck, deal)
    points = int_pair(ck, "card_points", DEAL_VALUE)
    tricks = int_pair(ck, "tricks_won", TRICKS) if "tricks_won" in rec else None
    if points is None or ck.problems:
        return {}
    revoke = deal.revoke is not None
    if tricks is None and not revoke and DEAL_VALUE in points:
        ck.problems.append(_all_points_need_tricks(points))
        return {}
    if tricks is not None and not _check_tricks(ck, tricks, revoke):
        return {}
    _check_card_points(ck, deal, points, tricks)
    if ck.problems:
        return {}
    return _score(ck, deal, points, tricks, None)


# ----- entry point -----------------------------------------------------------------------


def check_schieber(record: Json, preset: str, options: Options) -> Json:
    """Check a Schieber record under resolved rules; the result object."""
    ck = Checker(record, preset, options)
    mode = "full" if "hands" in record else "summary"
    deal = parse_schieber(ck)
    if deal is None or ck.problems:
        return ck.invalid(mode)
    scored = _check_full(ck, deal) if mode == "full" else _check_summary(ck, deal)
    if ck.problems:
        return ck.invalid(mode)
    trump = deal.table.trump
    contract: Json = {"kind": "schieber", "chooser": deal.chooser, "mode": MODE_NAMES[deal.mode]}
    if trump >= 0:
        contract["trump"] = SUIT_LETTERS[trump]
    contract["pushed"] = deal.pushed
    out: Json = {
        "valid": True,
        "errors": [],
        "mode": mode,
        "kind": "schieber",
        "contract": contract,
        "game_mode": MODE_NAMES[deal.mode],
        "trump": None if trump < 0 else SUIT_LETTERS[trump],
        "chooser": deal.chooser,
        "pushed": deal.pushed,
        "declarer": deal.chooser,
        "playing_team": deal.chooser & 1,
    }
    tricks = scored.pop("tricks", None)
    if tricks is not None:
        out["tricks"] = tricks
    out.update(scored)
    revoke = deal.revoke
    out["revoke"] = (
        None if revoke is None else {"seat": revoke[0], "card": JASS_CARD_TEXT[revoke[1]]}
    )
    out["rules"] = rules_dict(preset, options)
    out["engine_version"] = ENGINE_VERSION
    return out


__all__ = [
    "check_schieber",
    "full_deal_feasible",
    "revoke_feasible",
    "score_schieber",
]
