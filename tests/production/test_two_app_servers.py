"""Two app servers behind the proxy (round robin, one nginx worker: consecutive requests
alternate between them): what must hold across processes holds. Two tablets entering
the same deal at once, each through another server: one winner, nothing doubled. A
tablet's retry of an acknowledged deal through the other server: the stored answer
replayed, one deal stored. A session signed in through one server is used through the
other. Which server answered is read from the proxy's access log."""

from __future__ import annotations

import uuid
from concurrent.futures import ThreadPoolExecutor
from typing import Any

from games.models import Deal, DealVersion
from tournaments.clubs.services import issue_api_token

from .conftest import Stack
from .helpers import enter_deal, evening, sign_in
from .proxy import Proxy, Reply

DEALS = 4  # make_event's matches have four


def test_two_tablets_entering_one_deal_at_once_through_both_servers(
    stack: Stack, proxy: Proxy, django_user_model: Any
) -> None:
    night = evening(django_user_model)
    match = night.event.match1
    device = f"Device {night.event.code1}"
    organiser = f"Token {issue_api_token(user=night.organiser)[1]}"
    winners: dict[int, Reply] = {}
    for number in range(1, DEALS + 1):
        with ThreadPoolExecutor(max_workers=2) as pool:
            tablet = pool.submit(enter_deal, proxy, device, match.pk, number, team0_points=60)
            other = pool.submit(enter_deal, proxy, organiser, match.pk, number, team0_points=120)
            replies = [tablet.result(), other.result()]
        assert sorted(r.status for r in replies) == [201, 409], [r.text for r in replies]
        assert {proxy.upstream_of(r) for r in replies} == set(stack.site.upstreams)
        winners[number] = next(r for r in replies if r.status == 201)
        loser = next(r for r in replies if r.status == 409)
        assert loser.json["detail"] == f"Deal {number} of this table was already entered."
    assert Deal.objects.filter(match=match).count() == DEALS
    assert DealVersion.objects.filter(deal__match=match).count() == DEALS
    for number, reply in winners.items():
        stored = DealVersion.objects.get(deal__match=match, deal__number=number)
        assert reply.json["result"]["points"] == [stored.points_0, stored.points_1]
    night.event.tournament.refresh_from_db()
    assert night.event.tournament.results_version == DEALS


def test_a_retry_through_the_other_server_replays_the_stored_answer(
    stack: Stack, proxy: Proxy, django_user_model: Any
) -> None:
    night = evening(django_user_model)
    match, device, key = night.event.match1, f"Device {night.event.code1}", str(uuid.uuid4())
    first = enter_deal(proxy, device, match.pk, 1, key=key)
    # the tablet saw no answer (offline): it sends the same deal again with the same key
    again = enter_deal(proxy, device, match.pk, 1, key=key)
    assert first.status == again.status == 201, again.text
    assert proxy.upstream_of(first) != proxy.upstream_of(again)
    assert again.headers.get("idempotent-replayed") == "true"
    assert again.json == first.json
    assert Deal.objects.filter(match=match).count() == 1
    assert DealVersion.objects.filter(deal__match=match).count() == 1
    night.event.tournament.refresh_from_db()
    assert night.event.tournament.results_version == 1


def test_a_session_signed_in_through_one_server_holds_on_the_other(
    proxy: Proxy, django_user_model: Any
) -> None:
    night = evening(django_user_model)
    browser, signed_in = sign_in(proxy, night.organiser.username)
    servers = {proxy.upstream_of(signed_in)}
    for _ in range(2):  # the next requests go to the other server, then back
        console = proxy.get(f"/console/tournaments/{night.tournament_id}/", browser=browser)
        assert console.status == 200, console.status
        assert night.event.tournament.name in console.text
        servers.add(proxy.upstream_of(console))
    assert len(servers) == 2
