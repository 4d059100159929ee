"""Read-only queries that several views share: round progress and standings state."""

from __future__ import annotations

from typing import Any

from django.db.models import Count, Max, Q, Sum

from .models import DeviceCredential, Round, Tournament


def _version_stats(round_: Round) -> dict[int, dict[str, Any]]:
    from games.models import DealVersion

    current = Q(is_current=True)
    rows = (
        DealVersion.objects.filter(deal__match__round=round_)
        .values("deal__match")
        .annotate(
            entered=Count("id", filter=current),
            corrections=Count("id", filter=Q(version__gt=1)),
            last_entry_at=Max("created"),
            mp0=Sum("match_points_0", filter=current),
            mp1=Sum("match_points_1", filter=current),
        )
    )
    return {row.pop("deal__match"): row for row in rows}


def round_progress(round_: Round) -> list[dict[str, Any]]:
    """Per table: deals entered and expected, status, confirmations, corrections."""
    stats = _version_stats(round_)
    with_device = set(
        DeviceCredential.objects.usable()
        .filter(table__round=round_)
        .values_list("table_id", flat=True)
    )
    matches = round_.matches.select_related("table").prefetch_related("confirmations")
    progress = []
    for m in matches.order_by("table__number"):
        row = stats.get(m.pk, {})
        progress.append({
            "table": m.table.number,
            "match": m.pk,
            "status": m.status,
            "deals_entered": row.get("entered", 0),
            "deals_expected": m.deals_planned,
            "target": m.target,
            "match_points": [row.get("mp0") or 0, row.get("mp1") or 0],
            "confirmed_teams": sorted(c.team for c in m.confirmations.all()),
            "corrections": row.get("corrections", 0),
            "last_entry_at": row.get("last_entry_at"),
            "device_active": m.table_id in with_device,
        })  # fmt: skip
    return progress


def standings_state(tournament: Tournament) -> dict[str, Any]:
    snapshot = getattr(tournament, "standings_snapshot", None)
    computed = snapshot.computed_version if snapshot else None
    up_to_date = computed is not None and computed >= tournament.results_version
    if snapshot is None:
        detail = "Standings have not been computed yet."
    elif up_to_date:
        detail = "Standings are up to date."
    else:
        detail = "Newer results are being counted; these standings may be behind."
    return {
        "tournament": tournament.pk,
        "results_version": tournament.results_version,
        "computed_version": computed,
        "up_to_date": up_to_date,
        "computed_at": snapshot.computed_at if snapshot else None,
        "detail": detail,
        "data": snapshot.data if snapshot else {},
    }
