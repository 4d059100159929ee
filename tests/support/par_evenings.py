"""Evenings whose deals are analysed, for the tests of points lost against par over
evenings and seasons (``tests/web/test_par_pages.py`` and its browser test)."""

from __future__ import annotations

import copy
from typing import Any

from games.analysis_services import analyse_missing_deals
from games.models import DealAnalysis
from tests.conftest import Event
from tests.support.hand_records import COSTLY_DEAL
from tournaments.deals import services
from tournaments.draw import services as draw
from tournaments.events import services as tournament_services
from tournaments.events.models import Match


def rotated(record: dict[str, Any], turn: int) -> dict[str, Any]:
    """The same deal with every seat moved on by ``turn`` (dealer, hands, contract,
    bidding, melds, Bella): a valid record with the next dealer, the same play."""
    out = copy.deepcopy(record)
    move = lambda seat: (seat + turn) % 4  # noqa: E731 - a one-line mapping
    out["dealer"] = move(record["dealer"])
    out["hands"] = [record["hands"][(s - turn) % 4] for s in range(4)]
    out["contract"]["declarer"] = move(record["contract"]["declarer"])
    out["bidding"] = [{**b, "seat": move(b["seat"])} for b in record["bidding"]]
    out["melds"] = [{**m, "seat": move(m["seat"])} for m in record["melds"]]
    out["bella"] = move(record["bella"])
    return out


def forget_values(*matches: Match) -> None:
    """Make the stored analyses of ``matches`` ones of before "values" (analysis 1.0.0):
    each play keeps its cost and best cards, but not the cost of every legal card."""
    for stored in DealAnalysis.objects.filter(version__deal__match__in=matches):
        for play in stored.analysis.get("plays", []):
            play.pop("values", None)
        stored.save(update_fields=["analysis"])


def give_values(match: Match, number: int, index: int, saved: int) -> dict[str, Any]:
    """Store the "values" a newer analysis gives a play (the cost of each legal card):
    the played card kept par, the other legal card would have cost ``saved``."""
    stored = DealAnalysis.objects.get(
        version__deal__match=match, version__deal__number=number, version__is_current=True
    )
    data = stored.analysis
    play = data["plays"][index]
    assert play["cost"] == 0
    play["values"] = {play["card"]: 0, "7C" if play["card"] != "7C" else "8C": saved}
    stored.analysis = data
    stored.save(update_fields=["analysis"])
    return play


def play_evening(event: Event) -> Event:
    """Table 1 plays four deals (each seat makes the 26-point slip once), table 2 one,
    analysed as before "values"; only a play of table 1's deal 3 has them (it saved 30);
    the round is not closed."""
    for turn in range(4):
        services.submit_deal(match=event.match1, number=turn + 1, record=rotated(COSTLY_DEAL, turn))
    services.submit_deal(match=event.match2, number=1, record=COSTLY_DEAL)
    analyse_missing_deals()
    forget_values(event.match1, event.match2)
    give_values(event.match1, 3, 8, saved=30)
    return event


def second_evening(club: Any, event: Event) -> Match:
    """A second tournament of the same eight players: each table plays the costly deal
    once, analysed as before "values"; its round is closed. The first table's match."""
    second = tournament_services.create_tournament(
        club=club, name="Winterturnier", slug="winter", deals_per_match=1
    )
    for seat in event.round.seats.all():
        reg = tournament_services.register_player(tournament=second, player=seat.player)
        tournament_services.check_in_registration(registration=reg)
    tournament_services.start_tournament(tournament=second)
    round_ = draw.draw_round(tournament=second, seed=3)
    tournament_services.publish_round(round_=round_)
    tables = list(round_.tables.order_by("number"))
    for table in tables:
        services.submit_deal(match=table.match, number=1, record=COSTLY_DEAL)
    analyse_missing_deals()
    forget_values(*(table.match for table in tables))
    tournament_services.close_round(round_=round_, force=True)
    return tables[0].match
