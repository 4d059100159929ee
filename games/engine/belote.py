"""Belote deal records (preset ``belote``; RULES.md "Belote", spec "Other presets").

Checks a Belote record: the contract ``{"kind": "belote", "declarer", "trump", "round"}``
(round 1: trump is the upcard's suit, round 2: another suit) or ``{"kind":
"thrown_in"}``; the melds (sequences of 3 or more, fours of Jacks, Nines, Aces, Tens,
Kings or Queens), belote-rebelote (``bella``), every play under the preset's options
(``play.choice``: the partner heading the trick frees a player from trumping and, on a
trump lead, from going higher) or, for a summary, the feasibility of its numbers; then
scores the deal: cards as Klaverjas (162 with the last trick, 252 with a capot), only the
team with the best meld scores melds (all of both its players'), belote 20 always to the
holder's team, made when the takers have more than the defenders, else "dedans" (the
defenders score the deal's cards, all scored melds and their own belote; the takers
only their belote); after a revoke the clean team scores 162, the scored melds and its
own belote, the revoking team 0. The melds are parsed, checked and contested by
``combos`` (shared with the Schieber's Weis). It does not keep a match
(``keepers.score_match``).

Decisions where RULES.md is silent (also in DECISIONS.md):

- A sequence meld is a whole maximal run of the announcing seat's hand (as Klammern), so
  a run of 8 is one meld of 100, not a 5 and a 3; a four and a sequence may share cards.
  Fours of 8s or 7s are no meld (``not_a_meld``). One seat announcing one four twice, or
  two overlapping sequences, is a ``duplicate_meld``.
- "Dedans" after a capot: the defenders score 252 (the deal's cards with the capot),
  whichever team took all the tricks.
- After a revoke melds count when the announcing seat's turn in the first trick came no
  later than the revoke (as Klammern). The clean team's belote is RULES.md's Decision
  (``belote_seat``): a full record's clean seat that held the trump King and Queen at
  the start, whether or not they were played; a summary's ``bella`` seat of the clean
  team. The result's ``bella`` names the seat only when its belote counted.
- A thrown-in record has no melds, belote, revoke, plays or card points; its ``hands``
  may be left out (the deal was never completed) or give the four 5-card hands of the
  first deal, the upcard in none of them.
- A summary's ``tricks_won`` is optional unless one team has all 162 card points
  (``missing_field``); the upcard belongs to the taker, so a meld or belote of another
  seat that names it is a ``duplicate_card``.
"""

from __future__ import annotations

from typing import Any, Final

from .cards import CARD_TEXT, SUIT_LETTERS, SUIT_NAMES, TrumpTable, parse_card, parse_suit
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
from .klaverjas import (
    KLAVERJAS_POINTS,
    KLAVERJAS_TABLES,
    _check_card_points,
    _check_tricks,
    all_points_need_tricks,
)
from .record import (
    COMMON_FIELDS,
    ENGINE_VERSION,
    FORMAT,
    Checker,
    _parse_plays,
    int_pair,
    parse_hands_checked,
)
from .rules import Options, rules_dict
from .seatwalk import SeatWalk, incomplete_problem, revoke_problem, too_many_problem, walk_seats

Json = dict[str, Any]

DEAL_VALUE: Final = 162
CAPOT_BONUS: Final = 90  # 100 for all tricks instead of the last trick's 10
BELOTE_POINTS: Final = 20
DEAL_CARDS: Final = 32
FIRST_DEAL_CARDS: Final = 5
#: The fields of a Belote record; any other is an ``unknown_field``.
RECORD_FIELDS: Final = COMMON_FIELDS | {"upcard", "melds", "bella"}
#: Fours that are melds, by natural rank (7 8 9 T J Q K A): Nines 150, Jacks 200.
FOUR_VALUES: Final = (0, 0, 150, 100, 200, 100, 100, 100)
#: Belote's melds (``combos``): a sequence of 3 is 20, of 4 50, of 5 or more 100.
BELOTE_COMBOS: Final = Combos(
    per_suit=8,
    texts=CARD_TEXT,
    parse=parse_card,
    four_values=FOUR_VALUES,
    sequence_values=(0, 0, 0, 20, 50, 100, 100, 100, 100),
    word="meld",
    field="melds",
    fours_named="Jacks, Nines, Aces, Tens, Kings or Queens",
)
#: One announced combination (a sequence of one suit or four of one rank).
BeloteMeld = Combination


def meld_of_cards(seat: int, cards: list[int]) -> BeloteMeld | None:
    """The combination the cards form, or None (not a sequence nor a four that counts)."""
    return combination_of_cards(seat, cards, BELOTE_COMBOS)


def meld_contest(
    melds: list[BeloteMeld], *, trump: int, forehand: int
) -> tuple[int | None, list[BeloteMeld]]:
    """The team of the best meld and every meld of that team (seat order, then cards)."""
    return contest(melds, trump=trump, forehand=forehand)


class BeloteDeal:
    """The common fields of a well-formed Belote record."""

    def __init__(
        self,
        dealer: int,
        upcard: int,
        contract: tuple[int, int, int] | None,
        melds: list[tuple[int, BeloteMeld]],
        bella: int | None,
        revoke: tuple[int, int] | None,
    ) -> None:
        self.dealer = dealer
        self.upcard = upcard
        #: (declarer, trump, round), or None for a thrown-in deal.
        self.contract = contract
        self.melds = melds
        self.bella = bella
        self.revoke = revoke

    @property
    def forehand(self) -> int:
        """The seat left of the dealer: it leads the first trick."""
        return (self.dealer + 1) % 4


# ----- parsing ---------------------------------------------------------------------------


def _seat(value: object) -> int | None:
    return value if type(value) is int and 0 <= value <= 3 else None


def _problem(ck: Checker, code: Code, message: str, where: str, **params: Any) -> None:
    ck.problems.append(Problem(code, message, field=where, params=params))


def _parse_contract(ck: Checker, value: object) -> tuple[int, int, int] | None | bool:
    """(declarer, trump, round); None for thrown in; False after a problem."""
    shape = "contract must be {kind: belote, declarer, trump, round: 1 or 2} or {kind: thrown_in}"
    if not isinstance(value, dict) or not isinstance(value.get("kind"), str):
        ck.bad(shape, "contract")
        return False
    kind = value["kind"]
    if kind == "thrown_in":
        if set(value) != {"kind"}:
            ck.bad("a thrown-in contract has no declarer, trump or round", "contract")
            return False
        return None
    if kind != "belote":
        _problem(
            ck,
            Code.CONTRACT_MISMATCH,
            f"in Belote a player takes the deal: the contract's kind is belote, not {kind}",
            "contract.kind",
            kind=kind,
        )
        return False
    declarer, trump, rnd = _seat(value.get("declarer")), parse_suit(value.get("trump")), None
    if value.get("round") in (1, 2) and type(value.get("round")) is int:
        rnd = value["round"]
    if declarer is None:
        ck.bad("contract.declarer must be a seat 0-3", "contract.declarer")
    if trump is None:
        ck.bad("contract.trump must be one of C, S, H, D", "contract.trump")
    if rnd is None:
        ck.bad("contract.round must be 1 (the upcard's suit) or 2 (another suit)", "contract.round")
    if declarer is None or trump is None or rnd is None:
        return False
    return declarer, trump, rnd


def parse_belote(ck: Checker) -> BeloteDeal | None:
    """Dealer, upcard, contract, melds, belote and revoke; problems for anything else."""
    rec = ck.record
    if rec.get("format") != FORMAT:
        ck.bad(f"format must be {FORMAT!r}", "format")
    dealer = _seat(rec.get("dealer"))
    if dealer is None:
        ck.bad("dealer must be a seat 0-3", "dealer")
    upcard = parse_card(rec.get("upcard"))
    if upcard is None:
        ck.bad(f"upcard {rec.get('upcard')!r} is not a card (the card turned up)", "upcard")
    contract = _parse_contract(ck, rec.get("contract"))
    melds = parse_combinations(ck, BELOTE_COMBOS)
    bella = rec.get("bella")
    if bella is not None and _seat(bella) is None:
        ck.bad("bella must be the seat 0-3 that announced belote-rebelote", "bella")
    revoke = ck.parse_revoke(rec.get("revoke"))
    if ck.problems or dealer is None or upcard is None or contract is False:
        return None
    assert contract is not True
    deal = BeloteDeal(dealer, upcard, contract, melds, _seat(bella), revoke)
    _check_round(ck, deal)
    check_duplicates(ck, melds, BELOTE_COMBOS)
    return deal


def _check_round(ck: Checker, deal: BeloteDeal) -> None:
    if deal.contract is None:
        return
    _, trump, rnd = deal.contract
    up_suit = deal.upcard >> 3
    if rnd == 1 and trump != up_suit:
        message = (
            f"in the first round the taker plays the upcard's suit {SUIT_NAMES[up_suit]}, "
            f"not {SUIT_NAMES[trump]}"
        )
    elif rnd == 2 and trump == up_suit:
        message = (
            f"in the second round the taker names a suit other than the upcard's "
            f"{SUIT_NAMES[up_suit]}"
        )
    else:
        return
    _problem(
        ck,
        Code.CONTRACT_MISMATCH,
        message,
        "contract.trump",
        trump=SUIT_LETTERS[trump],
        upcard_suit=SUIT_LETTERS[up_suit],
        round=rnd,
    )


# ----- scoring ---------------------------------------------------------------------------


def score_belote(
    *,
    takers: int,
    card_points: tuple[int, int],
    capot: int | None,
    melds: list[BeloteMeld],
    trump: int,
    forehand: int,
    belote_team: int | None,
    revoke_team: int | None,
) -> Json:
    """Points after made/dedans, capot or a revoke; the melds as scored; the outcome."""
    meld_team, scored = meld_contest(melds, trump=trump, forehand=forehand)
    meld_points = sum(m.value for m in scored)
    cards = list(card_points)
    if capot is not None and revoke_team is None:
        cards[capot] += CAPOT_BONUS
    own = list(cards)
    if meld_team is not None:
        own[meld_team] += meld_points
    if belote_team is not None:
        own[belote_team] += BELOTE_POINTS
    points = [0, 0]
    if revoke_team is not None:
        winner, outcome = 1 - revoke_team, "revoke"
        points[winner] = DEAL_VALUE + meld_points
        points[winner] += BELOTE_POINTS if belote_team == winner else 0
    elif own[takers] > own[1 - takers]:
        winner, outcome, points = takers, "made", own
    else:
        winner, outcome = 1 - takers, "failed"
        points[winner] = cards[0] + cards[1] + meld_points
        for team in (0, 1):
            points[team] += BELOTE_POINTS if belote_team == team else 0
    return {
        "card_points": list(card_points),
        "capot": capot if revoke_team is None else None,
        "melds": {"winning_team": meld_team, "scored": [m.to_json() for m in scored]},
        "points": points,
        "total": points[0] + points[1],
        "outcome": outcome,
        "winner_team": winner,
    }


def thrown_in_score() -> Json:
    """Nothing played, nothing scored."""
    return {
        "card_points": [0, 0],
        "capot": None,
        "melds": {"winning_team": None, "scored": []},
        "bella": None,
        "points": [0, 0],
        "total": 0,
        "outcome": "thrown_in",
        "winner_team": None,
        "tricks_won": None,
    }


def _thrown_in(ck: Checker, deal: BeloteDeal) -> Json:
    rec = ck.record
    for name in ("melds", "bella", "revoke", "card_points", "tricks_won", "plays"):
        if rec.get(name) not in (None, []):
            _problem(
                ck,
                Code.THROWN_IN_NOT_EMPTY,
                f"a thrown-in deal was not played, so it has no {name}",
                name,
                field=name,
            )
    if "hands" in rec:
        hands = parse_hands_checked(ck, rec["hands"], seats=4, hand_size=FIRST_DEAL_CARDS)
        holder = (
            None
            if hands is None
            else next((s for s in range(4) if hands[s] >> deal.upcard & 1), None)
        )
        if holder is not None:
            _problem(
                ck,
                Code.DUPLICATE_CARD,
                f"the upcard {CARD_TEXT[deal.upcard]} was turned up, but it is also in seat "
                f"{holder}'s hand (a thrown-in deal lists the four 5-card hands)",
                "upcard",
                card=CARD_TEXT[deal.upcard],
                seats=[holder],
            )
    return thrown_in_score()


def belote_seat(deal: BeloteDeal, table: TrumpTable, hands: list[int] | None) -> int | None:
    """The seat whose belote counts, or None.

    Without a revoke: the seat that announced it (``bella``). After a revoke only the
    clean team's belote counts (RULES.md "Belote", Revoke, Decision): in a full record
    the clean team's seat that held the trump King and Queen at the deal's start, played
    before the revoke or not, announced or not; in a summary (``hands`` None: the engine
    cannot see the holdings) the recorded ``bella`` seat when it is of the clean team
    (spec: a summary's ``bella`` names the seat of belote-rebelote). The revoking team's
    belote is lost."""
    if deal.revoke is None:
        return deal.bella
    clean = 1 - (deal.revoke[0] & 1)
    if hands is None:
        return deal.bella if deal.bella is not None and deal.bella & 1 == clean else None
    need = (1 << table.king) | (1 << table.queen)
    return next((seat for seat in (clean, clean + 2) if hands[seat] & need == need), None)


def _melds_before(deal: BeloteDeal, played: int) -> list[BeloteMeld]:
    """The melds that count: after a revoke in the first trick only those of seats whose
    turn came no later than the revoke."""
    melds = [m for _, m in deal.melds]
    if deal.revoke is None:
        return melds
    return [m for m in melds if (m.seat - deal.forehand) % 4 <= played]


def _result_tail(seat: int | None) -> Json:
    return {"bella": None if seat is None else {"seat": seat, "points": BELOTE_POINTS}}


# ----- full records ----------------------------------------------------------------------


def _check_held(ck: Checker, deal: BeloteDeal, hands: list[int], table: TrumpTable) -> None:
    assert deal.contract is not None
    declarer = deal.contract[0]
    if not hands[declarer] >> deal.upcard & 1:
        _problem(
            ck,
            Code.CARD_NOT_IN_HAND,
            f"the upcard {CARD_TEXT[deal.upcard]} goes to the taker, but it is not in seat "
            f"{declarer}'s hand",
            "upcard",
            seat=declarer,
            card=CARD_TEXT[deal.upcard],
        )
    for i, meld in deal.melds:
        check_held(ck, i, meld, hands[meld.seat], BELOTE_COMBOS)
    need = (1 << table.king) | (1 << table.queen)
    if deal.bella is not None and hands[deal.bella] & need != need:
        _problem(
            ck,
            Code.BELLA_NOT_HELD,
            f"seat {deal.bella} announces belote without holding {CARD_TEXT[table.king]} "
            f"and {CARD_TEXT[table.queen]}",
            "bella",
            seat=deal.bella,
            cards=[CARD_TEXT[table.king], CARD_TEXT[table.queen]],
        )


def _check_end(
    ck: Checker, deal: BeloteDeal, walk: SeatWalk, played: int, table: TrumpTable
) -> None:
    if deal.revoke is not None:
        problem = revoke_problem(
            deal.revoke, walk, played=played, deal_cards=DEAL_CARDS, table=table, options=ck.options
        )
        if problem is not None:
            ck.problems.append(problem)
    elif played < DEAL_CARDS:
        ck.problems.append(incomplete_problem(played, DEAL_CARDS, walk.next_seat))


def _teams(per_seat: list[int]) -> tuple[int, int]:
    return per_seat[0] + per_seat[2], per_seat[1] + per_seat[3]


def _check_full(ck: Checker, deal: BeloteDeal) -> Json:
    rec = ck.record
    for name in ("card_points", "tricks_won"):
        if name in rec:
            ck.bad(f"{name} belongs to a summary record, not to one with hands", name)
    if deal.contract is None:
        return _thrown_in(ck, deal)
    declarer, trump, _ = deal.contract
    table = KLAVERJAS_TABLES[trump]
    hands = parse_hands_checked(ck, rec["hands"], seats=4, hand_size=8)
    if "plays" not in rec:
        ck.bad("a record with hands must list its plays", "plays")
    plays = _parse_plays(ck, rec.get("plays", []))
    if hands is not None:
        _check_held(ck, deal, hands, table)
    if hands is None or plays is None or ck.problems:
        return {}
    if len(plays) > DEAL_CARDS:
        ck.problems.append(too_many_problem(len(plays), DEAL_CARDS))
        return {}
    walk = walk_seats(
        hands,
        plays,
        forehand=deal.forehand,
        table=table,
        points=table.points,
        options=ck.options,
        count_roem=False,
    )
    if isinstance(walk, Problem):
        ck.problems.append(walk)
        return {}
    _check_end(ck, deal, walk, len(plays), table)
    if ck.problems:
        return {}
    tricks = _teams(walk.tricks_won)
    bella = belote_seat(deal, table, hands)
    out = score_belote(
        takers=declarer & 1,
        card_points=_teams(walk.points),
        capot=next((t for t in (0, 1) if tricks[t] == 8), None),
        melds=_melds_before(deal, len(plays)),
        trump=trump,
        forehand=deal.forehand,
        belote_team=None if bella is None else bella & 1,
        revoke_team=None if deal.revoke is None else deal.revoke[0] & 1,
    )
    out.update(_result_tail(bella))
    out["tricks_won"] = list(tricks)
    out["tricks"] = walk.tricks
    return out


# ----- summary records -------------------------------------------------------------------


def _claims(ck: Checker, deal: BeloteDeal, table: TrumpTable) -> None:
    """Two seats claiming one card (melds, belote, the revoke card, the taker's upcard)."""
    assert deal.contract is not None
    owner: dict[int, tuple[int, str]] = {deal.upcard: (deal.contract[0], "upcard")}
    others: list[tuple[int, int, str]] = []
    if deal.bella is not None:
        others += [(table.king, deal.bella, "bella"), (table.queen, deal.bella, "bella")]
    if deal.revoke is not None:
        others.append((deal.revoke[1], deal.revoke[0], "revoke.card"))
    check_claims(ck, deal.melds, BELOTE_COMBOS, others, owner)


def _check_summary(ck: Checker, deal: BeloteDeal) -> Json:
    rec = ck.record
    for name in ("hands", "plays"):
        if name in rec:
            ck.bad(f"{name} belongs to a full record (with hands)", name)
    if deal.contract is None:
        return _thrown_in(ck, deal)
    declarer, trump, _ = deal.contract
    table = KLAVERJAS_TABLES[trump]
    _claims(ck, deal, table)
    check_summary_runs(ck, deal.melds, BELOTE_COMBOS)
    points = int_pair(ck, "card_points", DEAL_VALUE)
    tricks = int_pair(ck, "tricks_won", 8) if "tricks_won" in rec else None
    if points is None or ck.problems:
        return {}
    revoke = deal.revoke is not None
    if tricks is None and not revoke and DEAL_VALUE in points:
        ck.problems.append(all_points_need_tricks(points, DEAL_VALUE))
        return {}
    if tricks is not None and not _check_tricks(ck, tricks, revoke):
        return {}
    revoke_value = None if deal.revoke is None else KLAVERJAS_POINTS[trump][deal.revoke[1]]
    _check_card_points(ck, points, tricks, revoke_value)
    if ck.problems:
        return {}
    bella = belote_seat(deal, table, None)
    out = score_belote(
        takers=declarer & 1,
        card_points=points,
        capot=None if tricks is None else next((t for t in (0, 1) if tricks[t] == 8), None),
        melds=[m for _, m in deal.melds],
        trump=trump,
        forehand=deal.forehand,
        belote_team=None if bella is None else bella & 1,
        revoke_team=None if deal.revoke is None else deal.revoke[0] & 1,
    )
    out.update(_result_tail(bella))
    out["tricks_won"] = None if tricks is None else list(tricks)
    return out


# ----- entry point -----------------------------------------------------------------------


def check_belote(record: Json, preset: str, options: Options) -> Json:
    """Check a Belote record under resolved rules; the result object."""
    ck = Checker(record, preset, options)
    ck.refuse_unknown_fields(RECORD_FIELDS, "a Belote deal record")
    mode = "full" if "hands" in record else "summary"
    deal = parse_belote(ck)
    if deal is None or ck.problems:
        return ck.invalid(mode)
    scored = _check_full(ck, deal) if mode == "full" else _check_summary(ck, deal)
    if ck.failed():
        return ck.invalid(mode)
    contract = deal.contract
    out: Json = {
        "valid": True,
        "errors": [],
        "mode": mode,
        "kind": "belote" if contract is not None else "thrown_in",
        "trump": None if contract is None else SUIT_LETTERS[contract[1]],
        "declarer": None if contract is None else contract[0],
        "playing_team": None if contract is None else contract[0] & 1,
        "round": None if contract is None else contract[2],
        "upcard": CARD_TEXT[deal.upcard],
    }
    tricks = scored.pop("tricks", None)
    if tricks is not None:
        out["tricks"] = tricks
    out.update(scored)
    revoke = deal.revoke
    out["revoke"] = None if revoke is None else {"seat": revoke[0], "card": CARD_TEXT[revoke[1]]}
    out["rules"] = rules_dict(preset, options)
    out["engine_version"] = ENGINE_VERSION
    return out


__all__ = [
    "BeloteMeld",
    "belote_seat",
    "check_belote",
    "meld_contest",
    "meld_of_cards",
    "score_belote",
]
