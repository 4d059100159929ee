"""Pure algorithms of the fixed-pair formats: forming pairs (at random or by the card
method of seed 002) and the finals bracket (seeding, by rating too, and who advances).

Values in, values out: the standard library only, no database, no clock, randomness only
through a ``random.Random`` built from a seed. Loading rows and saving the outcome is the
job of ``tournaments/pairs/services.py`` and ``finals.py``. A round robin of pairs and the
Swiss order by rating are the draw's (``draw/methods/pairs.py``), a pair's rating the
ratings' (``ratings/elo.py``), the season table the results' (``results/season_ranking.py``).
"""

from __future__ import annotations

import math
import random
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass

from tournaments.results.standings import game_winner

# --------------------------------------------------------------------------- forming pairs

#: Card order for the draw, low to high: rank (side-suit order of RULES.md, 7 lowest, Ace
#: highest), then suit (Diamonds < Hearts < Spades < Clubs, as for meld ties).
RANKS = "789TJQKA"
SUITS = "DHSC"
DECK = tuple(rank + suit for rank in RANKS for suit in SUITS)  # 32 cards, lowest first


@dataclass(frozen=True)
class PairDraw:
    """Players formed into pairs; ``cards`` (card method only) says who drew which card,
    ``left_over`` is the player without a partner when the count is odd."""

    pairs: tuple[tuple[int, int], ...]
    left_over: int | None
    cards: Mapping[int, str]


def random_pairs(players: Sequence[int], *, seed: int) -> PairDraw:
    """Shuffle the players with the seed and pair them off in that order."""
    order = sorted(set(players))
    random.Random(f"klammern-form-pairs:{seed}").shuffle(order)
    return _paired_off(order, {})


def card_draw_pairs(players: Sequence[int], *, seed: int) -> PairDraw:
    """Seed 002: "jeder zieht eine Karte und die jeweils höchsten und niedrigsten
    Kartenwertezieher spielen zusammen". Each player draws a card from a shuffled pack
    (a further pack per 32 players; equal cards of two packs: the first pack's is higher);
    the highest card plays with the lowest, the second highest with the second lowest, and
    so on. With an odd count the middle card is left over."""
    ids = sorted(set(players))
    packs = max(1, math.ceil(len(ids) / len(DECK)))
    cards = [(value, pack) for pack in range(packs) for value in range(len(DECK))]
    rng = random.Random(f"klammern-card-draw:{seed}")
    rng.shuffle(cards)
    drawn = dict(zip(ids, cards, strict=False))
    ranked = sorted(ids, key=lambda p: (-drawn[p][0], drawn[p][1]))  # highest first
    pairs = tuple((ranked[i], ranked[-1 - i]) for i in range(len(ranked) // 2))
    left_over = ranked[len(ranked) // 2] if len(ranked) % 2 else None
    return PairDraw(pairs, left_over, {p: DECK[drawn[p][0]] for p in ids})


def _paired_off(order: Sequence[int], cards: Mapping[int, str]) -> PairDraw:
    pairs = tuple((order[i], order[i + 1]) for i in range(0, len(order) - 1, 2))
    left_over = order[-1] if len(order) % 2 else None
    return PairDraw(pairs, left_over, cards)


# --------------------------------------------------------------------------- round robin


# --------------------------------------------------------------------------- by rating


def by_rating(entrants: Iterable[int], ratings: Mapping[int, float]) -> list[int]:
    """The entrants best first by rating; equal ratings in id (registration) order."""
    return sorted(set(entrants), key=lambda e: (-ratings[e], e))


# --------------------------------------------------------------------------- finals

#: Bracket slots of each stage and the seeds (1-based) or earlier slots that meet there.
QUARTER_SEEDS = {"QF1": (1, 8), "QF2": (4, 5), "QF3": (2, 7), "QF4": (3, 6)}
SEMI_SEEDS = {"SF1": (1, 4), "SF2": (2, 3)}
SEMI_FROM_QUARTERS = {"SF1": ("QF1", "QF2"), "SF2": ("QF3", "QF4")}
SLOT_ORDER = ("QF1", "QF2", "QF3", "QF4", "SF1", "SF2", "F", "P3")


@dataclass(frozen=True)
class BracketMatch:
    """A finals match to play: the slot, and the entrants with their seeds (home first;
    the better seed is home)."""

    slot: str
    home: int
    away: int
    home_seed: int
    away_seed: int


@dataclass(frozen=True)
class FinishedMatch:
    """A played finals match: who sat home/away with which seed, and the winner."""

    slot: str
    home: int
    away: int
    home_seed: int
    away_seed: int
    winner: int

    @property
    def loser(self) -> int:
        return self.away if self.winner == self.home else self.home

    def seed_of(self, entrant: int) -> int:
        return self.home_seed if entrant == self.home else self.away_seed


def first_finals_round(ranking: Sequence[int], *, size: int) -> list[BracketMatch]:
    """The opening finals matches of the best ``size`` (4 or 8) of ``ranking`` (best
    first): semi-finals 1-4 and 2-3, or quarter-finals 1-8, 4-5, 2-7, 3-6 (in bracket
    order, so that the winners of QF1 and QF2 meet in SF1)."""
    if size not in (4, 8):
        raise ValueError("finals are played by 4 or 8 entrants")
    if len(ranking) < size:
        raise ValueError(f"finals of {size} need {size} ranked entrants")
    seeds = QUARTER_SEEDS if size == 8 else SEMI_SEEDS
    return [
        BracketMatch(slot, ranking[a - 1], ranking[b - 1], a, b) for slot, (a, b) in seeds.items()
    ]


def seeded_by_rating(qualified: Sequence[int], ratings: Mapping[int, float]) -> list[int]:
    """The finals seeds by rating: the qualified entrants (best of the standings first)
    reordered best rating first; equal ratings keep the standings' order."""
    place = {e: i for i, e in enumerate(qualified)}
    return sorted(qualified, key=lambda e: (-ratings[e], place[e]))


def next_finals_round(played: Sequence[FinishedMatch]) -> list[BracketMatch]:
    """After the quarter-finals: the semi-finals; after the semi-finals: the final (the
    winners) and the match for third place (the losers). Empty after the final."""
    by_slot = {m.slot: m for m in played}
    if "F" in by_slot:
        return []
    if "SF1" in by_slot and "SF2" in by_slot:
        first, second = by_slot["SF1"], by_slot["SF2"]
        return [
            _seeded(
                "F",
                (first.winner, first.seed_of(first.winner)),
                (second.winner, second.seed_of(second.winner)),
            ),
            _seeded(
                "P3",
                (first.loser, first.seed_of(first.loser)),
                (second.loser, second.seed_of(second.loser)),
            ),
        ]
    if all(slot in by_slot for slot in QUARTER_SEEDS):
        out = []
        for slot, (a, b) in SEMI_FROM_QUARTERS.items():
            x, y = by_slot[a], by_slot[b]
            out.append(
                _seeded(slot, (x.winner, x.seed_of(x.winner)), (y.winner, y.seed_of(y.winner)))
            )
        return out
    raise ValueError("the current finals round is not complete")


def _seeded(slot: str, one: tuple[int, int], other: tuple[int, int]) -> BracketMatch:
    home, away = sorted((one, other), key=lambda entrant: entrant[1])
    return BracketMatch(slot, home[0], away[0], home[1], away[1])


def finals_winner(
    *,
    big: tuple[int, int],
    small: tuple[int, int],
    match_points: tuple[int, int],
    liga_winner: int | None = None,
    seeds: tuple[int, int],
) -> int:
    """Side (0 home, 1 away) that wins a finals match. A Liga-Partie: its winner. A match
    of deals: more big points, then small points, then match points (the rule book's
    winner of a game). **Decision**: a match level on all of them goes to the better
    seed (a knockout needs a winner; the preliminary rounds earned the seed)."""
    if liga_winner is not None:
        return liga_winner
    winner = game_winner(big, small, match_points)
    if winner is not None:
        return winner
    return 0 if seeds[0] < seeds[1] else 1


def final_placings(played: Sequence[FinishedMatch]) -> dict[int, int]:
    """Places 1-4 once the final and the match for third place are played."""
    by_slot = {m.slot: m for m in played}
    places: dict[int, int] = {}
    if "F" in by_slot:
        places[by_slot["F"].winner], places[by_slot["F"].loser] = 1, 2
    if "P3" in by_slot:
        places[by_slot["P3"].winner], places[by_slot["P3"].loser] = 3, 4
    return places
