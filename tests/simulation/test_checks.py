"""The simulation's checks find lost, doubled, extra and altered deals and standings that
differ from a fresh recompute; a table plays on until its match is complete."""

from __future__ import annotations

import math

from tournaments.simulation.checks import percentile, verify_deals, verify_standings
from tournaments.simulation.scenario import match_complete


def stored_deal(number: int, record: dict, versions: int = 1) -> dict:
    return {
        "number": number,
        "version": versions,
        "record": record,
        "history": [{"version": v} for v in range(1, versions + 1)],
    }


EXPECTED = {(7, 1): {"dealer": 0}, (7, 2): {"dealer": 1}}


def test_everything_stored_once_is_fine() -> None:
    stored = {7: [stored_deal(1, {"dealer": 0}), stored_deal(2, {"dealer": 1})]}
    assert verify_deals(EXPECTED, stored) == []


def test_lost_doubled_extra_and_altered_deals_are_found() -> None:
    stored = {
        7: [
            stored_deal(1, {"dealer": 3}),
            stored_deal(1, {"dealer": 3}),
            stored_deal(3, {}, versions=2),
        ]
    }

    problems = verify_deals(EXPECTED, stored)

    assert "match 7 deal 1: stored 2 times" in problems
    assert "match 7 deal 2: accepted but not stored (lost)" in problems
    assert "match 7 deal 3: stored but never accepted" in problems
    assert "match 7 deal 1: stored record differs from the one accepted" in problems
    assert "match 7 deal 3: 2 versions, expected 1" in problems


SNAPSHOT = {"results_version": 5, "computed_version": 5, "up_to_date": True, "data": {"r": 1}}


def test_standings_equal_to_fresh_recompute() -> None:
    fresh = {**SNAPSHOT, "fresh": True, "equals_snapshot": True}
    problems, verdict = verify_standings(SNAPSHOT, fresh)
    assert problems == [] and "fresh full recompute" in verdict


def test_standings_differing_from_fresh_recompute_fail() -> None:
    fresh = {**SNAPSHOT, "data": {"r": 2}, "fresh": True, "equals_snapshot": False}
    problems, _ = verify_standings(SNAPSHOT, fresh)
    assert "standings: fresh recompute reports equals_snapshot=false" in problems
    assert "standings: fresh recompute differs from the snapshot" in problems


def test_stale_or_missing_snapshot_fails() -> None:
    stale = {**SNAPSHOT, "computed_version": 4, "up_to_date": False}
    assert verify_standings(stale, None)[0] == ["standings: snapshot v4 is behind results v5"]
    missing = {**SNAPSHOT, "computed_version": None, "up_to_date": False}
    assert verify_standings(missing, None)[0] == ["standings: no snapshot was ever computed"]


def test_percentile_nearest_rank() -> None:
    values = [float(v) for v in range(1, 101)]
    assert (percentile(values, 50), percentile(values, 95), percentile(values, 99)) == (
        50.0,
        95.0,
        99.0,
    )
    assert math.isnan(percentile([], 50))


def test_a_table_plays_until_the_server_says_its_match_is_complete() -> None:
    # the server's word decides: a thrown-in deal left the match open after 8 entries
    assert not match_complete({"match_status": "open"}, played=8, planned=8)
    assert match_complete({"match_status": "finished"}, played=8, planned=8)
    # a server whose answer does not say: the played deals (thrown-in ones not counted)
    assert not match_complete({"number": 8}, played=7, planned=8)
    assert match_complete({"number": 9}, played=8, planned=8)
