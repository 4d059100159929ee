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
  the revoke (as Belote). The clean team's Stöck is RULES.md's Decision
  (``stoeck_seat``): a full record's clean seat that held the trump King and Queen at
  the start, played before the revoke or not; a summary's ``stoeck`` seat of the clean
  team. The result's ``stoeck`` names the seat only when its Stöck counted.
- ``winner_team`` is the team with more points (a played deal's total, 157 or 257 plus
  Weis and Stöck in tens, is odd, so there is no tie), the clean team after a revoke; the
  multiplier also applies after a revoke.
"""

from __future__ import annotations

from functools import cache
from typing import Any, Final

from . import summary
from .cards import SUIT_LETTERS
from .combos import (
    Combination,
    Combos,
    check_claims,
    check_duplicates,
    check_held,
    check_summary_runs,
    combination_of_cards,
    contest,
    parse_combinations,
)
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
    explain_jass_illegal,
    jass_legal,
    jass_trick_winner,
    multiplier_of,
    parse_jass_card,
)
from .klaverjas import _check_tricks
from .record import COMMON_FIELDS, ENGINE_VERSION, FORMAT, Checker, int_pair
from .rules import Options, rules_dict
from .seatwalk import (
    incomplete_problem,
    not_in_hand_problem,
    stated_revoke_problem,
    too_many_problem,
)
from .summary import sums_by_count_of

Json = dict[str, Any]

MATCH_BONUS: Final = 100
STOECK_POINTS: Final = 20
TRICKS: Final = 9
HAND_SIZE: Final = 9
#: The fields of a Schieber record; any other is an ``unknown_field``.
RECORD_FIELDS: Final = COMMON_FIELDS | {"weis", "stoeck"}
MODES: Final = {"trump": -1, "obenabe": OBENABE, "undenufe": UNDENUFE}
#: Weis: four of a kind by natural rank 6 7 8 9 T J Q K A (four 8s, 7s or 6s nothing).
FOUR_WEIS: Final = (0, 0, 0, 150, 100, 200, 100, 100, 100)
#: The Schieber's Weis (``combos``): sequences of 3 20, 4 50, 5 100, 50 more a card.
WEIS: Final = Combos(
    per_suit=9,
    texts=JASS_CARD_TEXT,
    parse=parse_jass_card,
    four_values=FOUR_WEIS,
    sequence_values=(0, 0, 0, 20, 50, 100, 150, 200, 250, 300),
    word="Weis",
    field="weis",
    fours_named="Jacks, Nines, Aces, Kings, Queens or Tens",
)
#: One announced Weis (a sequence of one suit or four of one rank).
Weis = Combination


def weis_of_cards(seat: int, cards: list[int]) -> Weis | None:
    """The Weis the cards form, or None."""
    return combination_of_cards(seat, cards, WEIS)


def weis_contest(weis: list[Weis], *, trump: int, forehand: int) -> tuple[int | None, list[Weis]]:
    """The team of the best Weis and every Weis of that team."""
    return contest(weis, trump=trump, forehand=forehand)


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
    contract = _parse_contract(ck, rec.get("contract"))
    weis = parse_combinations(ck, WEIS)
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
    check_duplicates(ck, weis, WEIS)
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


def stoeck_seat(deal: SchieberDeal, hands: list[int] | None) -> int | None:
    """The seat whose Stöck counts, or None.

    Without a revoke: the recorded ``stoeck`` seat. After a revoke only the clean team's
    Stöck counts (RULES.md "Schieberjass", Revoke, Decision): in a full record the clean
    team's seat that held the trump King and Queen at the deal's start, played before
    the revoke or not, recorded or not; in a summary (``hands`` None: the engine cannot
    see the holdings) the recorded ``stoeck`` seat when it is of the clean team (spec:
    a summary's ``stoeck`` is the seat holding them). The revoking team's Stöck is lost;
    Obenabe and Undenufe have no Stöck."""
    if deal.revoke is None:
        return deal.stoeck
    clean = 1 - (deal.revoke[0] & 1)
    if hands is None:
        return deal.stoeck if deal.stoeck is not None and deal.stoeck & 1 == clean else None
    table = deal.table
    if table.trump < 0:
        return None
    need = (1 << table.king) | (1 << table.queen)
    return next((seat for seat in (clean, clean + 2) if hands[seat] & need == need), None)


def _score(
    ck: Checker,
    deal: SchieberDeal,
    card_points: tuple[int, int],
    tricks: tuple[int, int] | None,
    played: int | None,
    hands: list[int] | None,
) -> Json:
    stoeck = stoeck_seat(deal, hands)
    out = score_schieber(
        card_points=card_points,
        tricks_won=tricks,
        weis=_weis_before(deal, played),
        mode=deal.mode,
        forehand=deal.forehand,
        stoeck_team=None if stoeck is None else stoeck & 1,
        revoke_team=None if deal.revoke is None else deal.revoke[0] & 1,
        multiplier=multiplier_of(deal.mode, ck.options),
    )
    out["stoeck"] = None if stoeck is None else {"seat": stoeck, "points": STOECK_POINTS}
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
        check_held(ck, i, weis, hands[weis.seat], WEIS)
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


class Walk:
    """Where the play stands after the recorded plays."""

    def __init__(self) -> None:
        self.tricks: list[Json] = []
        self.points = [0, 0]
        self.tricks_won = [0, 0]
        self.next_seat = 0
        self.trick: list[int] = []
        self.hands: list[int] = []


def walk(hands: list[int], plays: list[int], forehand: int, table: ModeTable) -> Walk | Problem:
    """Play the cards in order, checking each; the first broken play is the problem."""
    state = Walk()
    h = list(hands)
    seat, trick = forehand, state.trick
    for index, card in enumerate(plays):
        hand = h[seat]
        if not hand >> card & 1:
            return not_in_hand_problem(seat, card, index, hands, JASS_CARD_TEXT)
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
        return (
            incomplete_problem(played, DECK_SIZE, state.next_seat) if played < DECK_SIZE else None
        )
    table = deal.table

    def legal(hand: int) -> int:
        return jass_legal(hand, state.trick, table)

    return stated_revoke_problem(
        deal.revoke,
        played=played,
        deal_cards=DECK_SIZE,
        next_seat=state.next_seat,
        hands=state.hands,
        legal=legal,
        texts=JASS_CARD_TEXT,
    )


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
        ck.problems.append(too_many_problem(len(plays), DECK_SIZE))
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
    out = _score(ck, deal, points, tricks, len(plays), hands)
    out["tricks"] = state.tricks
    return out


# ----- summary records -------------------------------------------------------------------


def _claims(ck: Checker, deal: SchieberDeal) -> None:
    """Two seats claiming one card (Weis, Stöck, the revoke card)."""
    others: list[tuple[int, int, str]] = []
    table = deal.table
    if deal.stoeck is not None:
        others += [(table.king, deal.stoeck, "stoeck"), (table.queen, deal.stoeck, "stoeck")]
    if deal.revoke is not None:
        others.append((deal.revoke[1], deal.revoke[0], "revoke.card"))
    check_claims(ck, deal.weis, WEIS, others, {})


def _classes(points: tuple[int, ...]) -> tuple[tuple[tuple[int, int], ...], int]:
    """(value, how many cards) of the non-zero values, and the number of zero cards."""
    values = sorted({p for p in points if p}, reverse=True)
    return tuple((v, points.count(v)) for v in values), points.count(0)


@cache
def _mode_values(mode: int) -> tuple[tuple[tuple[int, int], ...], int, tuple[int, ...]]:
    """The mode's card-value classes, blank cards, and sums by number of cards."""
    classes, zero_cards = _classes(MODE_TABLES[mode].points)
    return classes, zero_cards, sums_by_count_of(classes, zero_cards)


def full_deal_feasible(mode: int, tricks: int, points: int) -> bool:
    """Can a team with ``tricks`` of the 9 tricks have ``points`` card points (the last
    trick's 5 included when it has it)?"""
    return summary.full_deal_feasible(
        tricks,
        points,
        sums_by_count=_mode_values(mode)[2],
        deal_tricks=TRICKS,
        last_trick=LAST_TRICK,
    )


def revoke_feasible(
    mode: int, points: tuple[int, int], tricks: tuple[int, int] | None, revoke_card: int
) -> bool:
    """Can the tricks completed before a revoke (at most 8, no last trick, the revoke card
    in none) give these card points (and trick counts)?"""
    classes, zero_cards, _ = _mode_values(mode)
    return summary.revoke_feasible(
        points,
        tricks,
        revoke_card_value=MODE_TABLES[mode].points[revoke_card],
        classes=classes,
        card_sum=CARD_POINTS_SUM,
        zero_cards=zero_cards,
        deal_tricks=TRICKS,
    )


def _impossible(ck: Checker, code: Code, message: str, where: str, **params: Any) -> None:
    ck.problems.append(Problem(code, message, field=where, params=params))


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
    check_summary_runs(ck, deal.weis, WEIS)
    points = int_pair(ck, "card_points", DEAL_VALUE)
    tricks = int_pair(ck, "tricks_won", TRICKS) if "tricks_won" in rec else None
    if points is None or ck.problems:
        return {}
    revoke = deal.revoke is not None
    if tricks is None and not revoke and DEAL_VALUE in points:
        ck.problems.append(_all_points_need_tricks(points))
        return {}
    if tricks is not None and not _check_tricks(ck, tricks, revoke, TRICKS):
        return {}
    _check_card_points(ck, deal, points, tricks)
    if ck.problems:
        return {}
    return _score(ck, deal, points, tricks, None, None)


# ----- entry point -----------------------------------------------------------------------


def check_schieber(record: Json, preset: str, options: Options) -> Json:
    """Check a Schieber record under resolved rules; the result object."""
    ck = Checker(record, preset, options)
    ck.refuse_unknown_fields(RECORD_FIELDS, "a Schieber deal record")
    mode = "full" if "hands" in record else "summary"
    deal = parse_schieber(ck)
    if deal is None or ck.problems:
        return ck.invalid(mode)
    scored = _check_full(ck, deal) if mode == "full" else _check_summary(ck, deal)
    if ck.failed():
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
    "stoeck_seat",
    "full_deal_feasible",
    "revoke_feasible",
    "score_schieber",
]
