"""What the tablet's score sheets share beyond a game's own (``GameProfile.sheet`` names
the templates, script, error texts and script texts of each game's sheet): the assets
the service worker precaches and the rows of a points match's deals.

It only shapes what the pages show; the records are checked and scored by the engine.
"""

from __future__ import annotations

from typing import Any

from games import profiles


def sheet_assets() -> tuple[str, ...]:
    """Every game's own sheet script and stylesheet: precached by the tablet's service
    worker."""
    names = {
        name
        for profile in profiles.PROFILES.values()
        for name in (profile.sheet.entry_script, profile.sheet.stylesheet)
        if name
    }
    return tuple(sorted(names))


def deal_rows(
    deals: list[dict[str, Any]], seat_names: list[str], profile: profiles.GameProfile
) -> list[dict[str, Any]]:
    """Each deal of a points match for the tablet's list, newest first, with the game's
    marks (nat, dedans, capot, ...) and note (roem, announcements) from its profile; a
    revoke names who revoked (the record's revoke seat), not the taker."""
    rows = []
    for deal in reversed(deals):
        result = deal["result"] or {}
        contract = deal["record"].get("contract") or {}
        declarer = contract.get("declarer", result.get("declarer"))  # Schieber: who chose
        revoke = deal["record"].get("revoke") or {}
        revoker = revoke.get("seat") if isinstance(revoke, dict) else None
        rows.append(
            {
                "number": deal["number"],
                "outcome": result.get("outcome", ""),
                "trump": contract.get("trump"),
                "declarer": seat_names[declarer] if isinstance(declarer, int) else "",
                "points": result.get("points") or [],
                "marks": profile.deal_marks(
                    result, seat_names[revoker] if isinstance(revoker, int) else ""
                ),
                "revoker": seat_names[revoker] if isinstance(revoker, int) else "",
                "note": profile.deal_note(result),
            }
        )
    return rows
