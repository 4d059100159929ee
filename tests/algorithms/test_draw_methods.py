"""The draw's one entry (``tournaments.draw.seating``): every method is reached by its name,
the same as calling the method's module directly; an unknown name is refused."""

from __future__ import annotations

import pytest

from tournaments.draw import seating
from tournaments.draw.methods import individual, pairs, small_tables


def _entrants(count: int) -> list[seating.Entrant]:
    return [seating.Entrant(id=n, club=n % 3) for n in range(1, count + 1)]


def test_each_method_by_name_is_its_module() -> None:
    assert dict(seating.METHODS) == {
        "individual": individual.draw_individual,
        "small_tables": small_tables.draw_small_tables,
        "pairs": pairs.draw_pairs,
    }


def test_the_entry_draws_as_the_method_does() -> None:
    history = seating.history_from_tables([[(1, 2, 3, 4), (5, 6, 7, 8)]], byes=[9])
    by_name = seating.draw("individual", _entrants(10), history, round_number=2, seed=7)
    direct = individual.draw_individual(_entrants(10), history, round_number=2, seed=7)
    assert by_name == direct
    assert len(by_name.tables) == 2 and len(by_name.byes) == 2

    small = seating.draw(
        "small_tables", _entrants(7), seating.SeatingHistory(), table_size=3, round_number=1, seed=3
    )
    assert [len(t) for t in small.tables] == [3, 3] and len(small.byes) == 1

    pair_history = seating.pair_history_from_tables([[(1, 2), (3, 4)]])
    drawn = seating.draw("pairs", [1, 2, 3, 4, 5], pair_history, round_number=2, seed=1)
    assert drawn == seating.draw_pairs([1, 2, 3, 4, 5], pair_history, round_number=2, seed=1)
    assert drawn.cost.to_dict()["repeated_meetings"] == 0


def test_an_unknown_method_is_refused() -> None:
    with pytest.raises(ValueError, match="no draw method 'swiss'"):
        seating.draw("swiss", _entrants(8), seating.SeatingHistory(), round_number=1, seed=1)
