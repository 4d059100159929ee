"""The next dealer of a match from the deals entered so far (RULES.md: clockwise after
each deal, the same dealer after a thrown-in one). Nothing here is a game's own: what
differs between games lives in their profiles (``games.profiles``).

No Django, no I/O: values in, values out.
"""

from __future__ import annotations

from typing import Any


def next_dealer(records: list[dict[str, Any]], *, players: int = 4) -> int:
    """Seat of the next dealer: clockwise after each deal, the same after a thrown-in one
    (Klaverjas deals are never thrown in)."""
    if not records:
        return 0
    last = records[-1]
    dealer = int(last.get("dealer", 0))
    thrown_in = (last.get("contract") or {}).get("kind") == "thrown_in"
    return dealer % players if thrown_in else (dealer + 1) % players
