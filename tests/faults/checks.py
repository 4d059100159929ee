"""What every fault scenario must end with: each intended deal stored exactly once, with
the record its tablet sent, and the tournament's result counter counting each once."""

from __future__ import annotations

import time
from collections import Counter
from typing import Any

from games.models import Deal, DealVersion
from tournaments.events.models import Match, Tournament

from .harness import Submission, http


def describe(items: list[Submission]) -> str:
    return ", ".join(f"m{i.match_id}#{i.number}: {i.statuses} {i.body}" for i in items[:5])


def assert_each_deal_stored_once(tournament: Tournament, items: list[Submission]) -> None:
    unanswered = [i for i in items if i.final != 201]
    assert not unanswered, f"deals without a final 201: {describe(unanswered)}"
    stored = Counter(
        Deal.objects.filter(match__round__tournament=tournament).values_list("match_id", "number")
    )
    intended = Counter((i.match_id, i.number) for i in items)
    assert stored == intended, f"lost {intended - stored}, unexpected {stored - intended}"
    versions = DealVersion.objects.filter(deal__match__round__tournament=tournament)
    assert versions.count() == len(items), "a deal got more than one version"
    by_deal = {(v.deal.match_id, v.deal.number): v for v in versions.select_related("deal")}
    for item in items:
        version = by_deal[(item.match_id, item.number)]
        stored_as = {**item.record, "rules": tournament.rules_preset}
        assert version.is_current and version.record == stored_as
        assert item.body["result"]["points"] == [version.points_0, version.points_1]
    tournament.refresh_from_db()
    assert tournament.results_version == len(items), "a result change was counted twice"
    assert not Match.objects.filter(round__tournament=tournament, status="open").exists()


def retried(items: list[Submission]) -> int:
    """How many deals needed more than one attempt (evidence the fault hit something)."""
    return sum(1 for i in items if len(i.statuses) > 1)


def assert_standings_converge(
    base: str, tablets_auth: str, tournament: Tournament, *, within: float = 120.0
) -> float:
    """Poll the organisers' fresh recompute until the stored snapshot counts every result
    and equals it; returns the seconds it took."""
    url = f"{base}/api/tournaments/{tournament.pk}/standings/?fresh=1"
    started = time.monotonic()
    body: Any = None
    while time.monotonic() - started < within:
        status, _, body = http("GET", url, headers={"Authorization": tablets_auth})
        if status == 200 and body["up_to_date"] and body["equals_snapshot"]:
            assert (
                body["computed_version"]
                == body["results_version"]
                == tournament_version(tournament)
            )
            return time.monotonic() - started
        time.sleep(1)
    summary = (
        {
            k: body.get(k)
            for k in (
                "results_version",
                "computed_version",
                "up_to_date",
                "equals_snapshot",
                "detail",
            )
        }
        if isinstance(body, dict)
        else body
    )
    raise AssertionError(f"standings did not converge within {within:.0f} s: {summary}")


def tournament_version(tournament: Tournament) -> int:
    tournament.refresh_from_db()
    return tournament.results_version
