"""Walking the plays of a deal seat by seat, for any number of players.

``walk_seats`` plays the cards of a Klaverjas deal (4 players) or of Klammern for 2 or 3
players: each card must be in its player's hand and legal (``play.choice`` under the
options), a trick has one card per player, its winner leads the next. It counts each
seat's trick points (with a points table given per game, the last trick +10) and
tricks, and, when asked, the roem of each trick (Klaverjas). It does not score a deal.
The Klammern 4-player walk (``record.walk_plays``) is separate and tuned for speed.
The problems of a card not held and of a stated revoke (``not_in_hand_problem``,
``stated_revoke_problem``) take the deck's card texts and legal-move rule, so the
36-card Schieber (``schieber``) shares them.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any, Final

from .cards import CARD_TEXT, LAST_TRICK_BONUS, TrumpTable
from .errors import Code, Problem
from .play import choice, explain_illegal, trick_winner
from .rules import Options

Json = dict[str, Any]

#: Sequence roem of one suit's cards in a trick, by the suit's 8 bits (natural order).
SEQUENCE_ROEM: Final = tuple(
    50
    if any((bits >> r) & 15 == 15 for r in range(5))
    else 20
    if any((bits >> r) & 7 == 7 for r in range(6))
    else 0
    for bits in range(256)
)
#: Four of a kind by natural rank (7 8 9 T J Q K A): Jacks 200; A, T, K, Q 100.
FOUR_ROEM: Final = (0, 0, 0, 100, 200, 100, 100, 100)
STUK_ROEM: Final = 20


def trick_roem(cards: list[int], table: TrumpTable) -> int:
    """The Klaverjas roem of a trick's cards: sequences, four of a kind, stuk."""
    mask = 0
    for card in cards:
        mask |= 1 << card
    roem = 0
    for suit in range(4):
        roem += SEQUENCE_ROEM[mask >> (8 * suit) & 0xFF]
    rank = cards[0] & 7
    if len(cards) == 4 and all(c & 7 == rank for c in cards):
        roem += FOUR_ROEM[rank]
    if mask >> table.king & 1 and mask >> table.queen & 1:
        roem += STUK_ROEM
    return roem


class SeatWalk:
    """Where the play stands after the recorded plays, per seat."""

    def __init__(
        self,
        tricks: list[Json],
        points: list[int],
        tricks_won: list[int],
        roem: list[int],
        hands: list[int],
        next_seat: int,
        open_trick: list[int],
    ) -> None:
        self.tricks = tricks
        #: Per seat: card points of its tricks (with the points table's bonuses) and,
        #: for the deal's last trick, +10.
        self.points = points
        self.tricks_won = tricks_won
        #: Per seat: roem of its tricks (only when the walk counts roem).
        self.roem = roem
        self.hands = hands
        self.next_seat = next_seat
        self.open_trick = open_trick


def not_in_hand_problem(
    seat: int, card: int, index: int, hands: list[int], texts: Sequence[str] = CARD_TEXT
) -> Problem:
    """The ``card_not_in_hand`` problem of play ``index`` (``texts``: the deck's card
    texts, the 36 of the Schieber or the 32 of the rest)."""
    text = texts[card]
    holder = next((s for s in range(len(hands)) if hands[s] >> card & 1), None)
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


def illegal_play_problem(
    seat: int,
    card: int,
    index: int,
    hand: int,
    trick: list[int],
    table: TrumpTable,
    options: Options,
) -> Problem:
    message, params = explain_illegal(
        seat=seat, card=card, hand=hand, trick=trick, table=table, options=options
    )
    params["trick"] = index // options.players + 1
    return Problem(Code.ILLEGAL_PLAY, message, play=index, field=f"plays[{index}]", params=params)


def walk_seats(
    start: list[int],
    plays: list[int],
    *,
    forehand: int,
    table: TrumpTable,
    points: tuple[int, ...],
    options: Options,
    count_roem: bool,
) -> SeatWalk | Problem:
    """Play the cards in order, checking each; the first broken play is the problem."""
    n_seats = options.players
    last_start = (32 // 4 if n_seats == 4 else 9) * n_seats - n_seats
    h = list(start)
    tricks: list[Json] = []
    pts, won, roem = [0] * n_seats, [0] * n_seats, [0] * n_seats
    seat, trick = forehand, list[int]()
    for index, card in enumerate(plays):
        hand = h[seat]
        if not hand >> card & 1:
            return not_in_hand_problem(seat, card, index, start)
        if not choice(hand, trick, table, options).legal >> card & 1:
            return illegal_play_problem(seat, card, index, hand, trick, table, options)
        h[seat] = hand ^ (1 << card)
        trick.append(card)
        if len(trick) < n_seats:
            seat = (seat + 1) % n_seats
            continue
        leader = (seat + 1) % n_seats
        winner = (leader + trick_winner(trick, table)) % n_seats
        value = sum([points[c] for c in trick])
        if index + 1 - n_seats == last_start:
            value += LAST_TRICK_BONUS
        entry: Json = {
            "leader": leader,
            "cards": [CARD_TEXT[c] for c in trick],
            "winner": winner,
            "points": value,
        }
        pts[winner] += value
        won[winner] += 1
        if count_roem:
            entry["roem"] = trick_roem(trick, table)
            roem[winner] += entry["roem"]
        tricks.append(entry)
        seat, trick = winner, []
    return SeatWalk(tricks, pts, won, roem, h, seat, trick)


def revoke_problem(
    revoke: tuple[int, int],
    walk: SeatWalk,
    *,
    played: int,
    deal_cards: int,
    table: TrumpTable,
    options: Options,
) -> Problem | None:
    """What is wrong with a declared revoke after ``played`` plays, if anything."""

    def legal(hand: int) -> int:
        return choice(hand, walk.open_trick, table, options).legal

    return stated_revoke_problem(
        revoke,
        played=played,
        deal_cards=deal_cards,
        next_seat=walk.next_seat,
        hands=walk.hands,
        legal=legal,
        texts=CARD_TEXT,
    )


def stated_revoke_problem(
    revoke: tuple[int, int],
    *,
    played: int,
    deal_cards: int,
    next_seat: int,
    hands: list[int],
    legal: Callable[[int], int],
    texts: Sequence[str],
) -> Problem | None:
    """What is wrong with a declared revoke, for any deck: after the last card, not the
    seat to play, a card it does not hold, or a card it could legally play (``legal``
    gives the legal cards of a hand facing the open trick)."""
    seat, card = revoke
    text = texts[card]
    params: dict[str, Any] = {"seat": seat, "card": text}
    if played >= deal_cards:
        return Problem(
            Code.TOO_MANY_PLAYS,
            "a revoke cannot follow the last card",
            field="revoke",
            params=params,
        )
    if seat != next_seat:
        return Problem(
            Code.REVOKE_WRONG_SEAT,
            f"the revoke is by seat {seat}, but seat {next_seat} was to play",
            play=played,
            field="revoke.seat",
            params={**params, "expected": next_seat},
        )
    if not hands[seat] >> card & 1:
        return Problem(
            Code.CARD_NOT_IN_HAND,
            f"seat {seat} revokes with {text}, which it does not hold",
            play=played,
            field="revoke.card",
            params=params,
        )
    if legal(hands[seat]) >> card & 1:
        return Problem(
            Code.REVOKE_NOT_ILLEGAL,
            f"seat {seat} could legally play {text}: it is no revoke",
            play=played,
            field="revoke.card",
            params=params,
        )
    return None


def incomplete_problem(played: int, deal_cards: int, next_seat: int) -> Problem:
    """A full record that stops before the last card without a revoke."""
    return Problem(
        Code.INCOMPLETE_PLAY,
        f"only {played} of {deal_cards} cards are played and no revoke is stated",
        play=played,
        field="plays",
        params={"count": played, "next_seat": next_seat},
    )


def too_many_problem(played: int, deal_cards: int) -> Problem:
    """More plays than the deal has cards."""
    return Problem(
        Code.TOO_MANY_PLAYS,
        f"{played} plays listed; a deal has {deal_cards}",
        play=deal_cards,
        field=f"plays[{deal_cards}]",
        params={"count": played},
    )
