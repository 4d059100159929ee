"""Legal cards (RULES.md "Playing a card") and trick winners, table-driven."""

from __future__ import annotations

import random

import pytest

from games.engine import CARD_BY_TEXT, CARD_TEXT, TABLES, Options, legal_cards, trick_winner
from games.engine.play import explain_illegal

BASE = Options()
OVER_LEAD = Options(overtrump_on_trump_lead=True)
EXEMPT = Options(partner_exempt=True)


def mask(cards: str) -> int:
    return sum(1 << CARD_BY_TEXT[c] for c in cards.split())


def texts(m: int) -> set[str]:
    return {CARD_TEXT[c] for c in range(32) if m >> c & 1}


CASES = [
    # (name, hand, trick, trump, options, legal)
    ("lead anything", "7H AS KD", "", "H", BASE, "7H AS KD"),
    ("follow suit", "QS 8S 7H JH", "AS", "H", BASE, "QS 8S"),
    ("follow suit, no duty to beat", "QS 8S", "AS", "H", BASE, "QS 8S"),
    ("follow suit even when trick trumped", "QS 8S JH", "AS 7H", "H", BASE, "QS 8S"),
    ("must trump", "7H JH KD", "AS", "H", BASE, "7H JH"),
    ("must overtrump", "7H JH KD", "AS TH", "H", BASE, "JH"),
    ("must undertrump when unable to overtrump", "7H 8H KD", "AS TH", "H", BASE, "7H 8H"),
    ("discard only without trumps", "KD 7C", "AS TH", "H", BASE, "KD 7C"),
    ("discard when no trump", "KD 7C", "AS", "H", BASE, "KD 7C"),
    ("trump lead: any trump", "7H JH KD", "9H", "H", BASE, "7H JH"),
    ("trump lead: any trump even if can beat", "AH 7H", "TH", "H", BASE, "AH 7H"),
    ("trump lead, option: must beat", "AH 7H", "TH", "H", OVER_LEAD, "AH"),
    ("trump lead, option: cannot beat, any trump", "QH 7H", "TH", "H", OVER_LEAD, "QH 7H"),
    ("trump lead, option: beat the highest", "AH 7H JH", "TH 9H", "H", OVER_LEAD, "JH"),
    ("trump lead, no trumps: discard", "AS KD", "TH", "H", BASE, "AS KD"),
    ("partner heads, default must trump", "7H KD", "AS 7S", "H", BASE, "7H"),
    ("partner heads, exempt: any card", "7H KD", "AS 7S", "H", EXEMPT, "7H KD"),
    ("partner heads after trumping, exempt", "AH KD", "7S TH 8S", "H", EXEMPT, "AH KD"),
    ("opponent heads, exempt still trumps", "7H KD", "7S AS", "H", EXEMPT, "7H"),
    ("exempt does not lift follow suit", "QS 7H KD", "AS 7S", "H", EXEMPT, "QS"),
    ("third seat overtrumps the trumped trick", "QH JH 7D", "AS 7S 9H", "H", BASE, "JH"),
    ("Clubs trump", "JC 7C AS", "KD AD", "C", BASE, "JC 7C"),
]


@pytest.mark.parametrize(
    ("name", "hand", "trick", "trump", "options", "legal"), CASES, ids=[c[0] for c in CASES]
)
def test_legal_cards(
    name: str, hand: str, trick: str, trump: str, options: Options, legal: str
) -> None:
    trick_cards = [CARD_BY_TEXT[c] for c in trick.split()]
    got = legal_cards(mask(hand), trick_cards, "CSHD".index(trump), options)
    assert texts(got) == set(legal.split())


WINNERS = [
    ("AS TS 7S KS", "H", 0),
    ("7S AS 9H KS", "H", 2),
    ("7S AS 9H JH", "H", 3),
    ("7S AD KD QD", "H", 0),
    ("TH JH AH 9H", "H", 1),
    ("9H AH TH KH", "H", 0),
    ("QS KS 7C JS", "C", 2),
]


@pytest.mark.parametrize(("cards", "trump", "winner"), WINNERS)
def test_trick_winner(cards: str, trump: str, winner: int) -> None:
    trick = [CARD_BY_TEXT[c] for c in cards.split()]
    assert trick_winner(trick, TABLES["CSHD".index(trump)]) == winner


def test_message_names_seat_suit_and_cards() -> None:
    message, params = explain_illegal(
        seat=2,
        card=CARD_BY_TEXT["7H"],
        hand=mask("QS 8S 7H"),
        trick=[CARD_BY_TEXT["AS"]],
        table=TABLES[0],
        options=BASE,
    )
    assert message == "seat 2 must follow Spades (QS, 8S) but played 7H"
    assert params["legal"] == ["QS", "8S"] and params["rule"] == "follow_suit"


def test_message_overtrump() -> None:
    message, _ = explain_illegal(
        seat=0,
        card=CARD_BY_TEXT["7H"],
        hand=mask("7H JH KD"),
        trick=[CARD_BY_TEXT["AS"], CARD_BY_TEXT["TH"]],
        table=TABLES[2],
        options=BASE,
    )
    assert message == "seat 0 must beat TH with a higher trump (JH) but played 7H"


@pytest.mark.parametrize(
    "options", [BASE, OVER_LEAD, EXEMPT, Options(overtrump_on_trump_lead=True, partner_exempt=True)]
)
def test_fast_check_agrees_with_legal_cards(options: Options) -> None:
    """The inline check in walk_plays accepts exactly the cards legal_cards allows."""
    from games.engine.errors import Problem
    from games.engine.record import walk_plays

    rng = random.Random(5)
    for _ in range(300):
        deck = list(range(32))
        rng.shuffle(deck)
        hands = [sum(1 << c for c in deck[8 * s : 8 * s + 8]) for s in range(4)]
        trump = rng.randrange(4)
        plays: list[int] = []
        seat, trick, h = 1, [], list(hands)
        for _ in range(rng.randrange(1, 32)):
            legal = legal_cards(h[seat], trick, trump, options)
            for card in range(32):
                if h[seat] >> card & 1:
                    walked = walk_plays(hands, plays + [card], 1, TABLES[trump], options)
                    assert (not isinstance(walked, Problem)) == bool(legal >> card & 1)
            card = rng.choice([c for c in range(32) if legal >> c & 1])
            h[seat] ^= 1 << card
            plays.append(card)
            trick.append(card)
            if len(trick) == 4:
                seat = (seat + 1 + trick_winner(trick, TABLES[trump])) % 4
                trick = []
            else:
                seat = (seat + 1) % 4
