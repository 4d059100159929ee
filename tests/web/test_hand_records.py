"""Hand record pages: one deal (hands, contract, play, par, costly plays) in German and
English, a round's print page, the tablet's link and page, the summary's notice, the
player page's points lost against par, and who may see them: the table's tablet and the
organisers at once, others after the close where the tournament allows."""

from __future__ import annotations

from typing import Any

import pytest
from django.conf import settings

from games.analysis_services import analyse_missing_deals
from tests.conftest import Event
from tests.factories import summary_record
from tests.support.clients import Client
from tests.support.hand_records import COSTLY_DEAL
from tournaments.deals import services
from tournaments.events import services as tournament_services

pytestmark = pytest.mark.django_db


@pytest.fixture
def analysed(event: Event) -> Event:
    services.submit_deal(match=event.match1, number=1, record=COSTLY_DEAL)
    services.submit_deal(match=event.match1, number=2, record=summary_record(dealer=1))
    analyse_missing_deals()
    return event


def deal_url(event: Event, number: int = 1) -> str:
    return f"/matches/{event.match1.pk}/deals/{number}/hand/"


def round_url(event: Event) -> str:
    return f"/tournaments/{event.tournament.pk}/rounds/1/hand-records/"


def close(event: Event) -> None:
    tournament_services.close_round(round_=event.round, force=True)


def names(event: Event) -> list[str]:
    return [s.player.name for s in event.table1.seats.order_by("position")]


def in_english(client: Client) -> Client:
    client.cookies[settings.LANGUAGE_COOKIE_NAME] = "en"
    return client


def test_the_deal_page_in_german(analysed: Event, web: Client) -> None:
    body = web.get(deal_url(analysed)).content.decode()
    seat2 = names(analysed)[1]
    assert "Spielbericht" in body and "Teure Karten" in body
    assert f"Sitz 2 ({seat2}): " in body and "kostete 26 Punkte" in body and "besser" in body
    assert "Par (perfektes Spiel)" in body and "Stich" in body
    for name in names(analysed):
        assert name in body
    record = body.split('id="replay"')[0]  # the step-through below shows them once more
    assert record.count('class="hand-row') == 16  # four hands, suits in rows


def test_the_deal_page_in_english(analysed: Event, web: Client) -> None:
    body = in_english(web).get(deal_url(analysed)).content.decode()
    assert "Hand record" in body and "Costly plays" in body
    assert "cost 26 points" in body and "better" in body and "Par (perfect play)" in body


def test_a_summary_says_it_cannot_be_analysed(analysed: Event, web: Client) -> None:
    body = web.get(deal_url(analysed, 2)).content.decode()
    assert "als Zusammenfassung" in body and "Teure Karten" not in body
    body = in_english(web).get(deal_url(analysed, 2)).content.decode()
    assert "entered as a summary" in body


def test_the_round_prints_one_block_per_deal(analysed: Event, web: Client) -> None:
    body = web.get(round_url(analysed)).content.decode()
    assert body.count('class="card hand-record"') == 2
    assert 'data-action="print"' in body and "hand-records-print" in body


@pytest.mark.parametrize("who", ["anonymous", "stranger"])
def test_others_see_it_only_after_the_close(analysed: Event, who: str, stranger: Any) -> None:
    client = Client()
    if who == "stranger":
        client.force_login(stranger)
    assert client.get(deal_url(analysed)).status_code == 404
    assert client.get(round_url(analysed)).status_code == 404
    close(analysed)
    assert client.get(deal_url(analysed)).status_code == 200
    assert client.get(round_url(analysed)).status_code == 200


def test_not_at_all_where_the_tournament_keeps_them_private(
    analysed: Event, client: Client, rival: Client, web: Client
) -> None:
    analysed.tournament.hand_records_public = False
    analysed.tournament.save(update_fields=["hand_records_public"])
    close(analysed)
    for other in (client, rival):  # anonymous, and another club's organiser
        assert other.get(deal_url(analysed)).status_code == 404
        assert other.get(round_url(analysed)).status_code == 404
    assert web.get(deal_url(analysed)).status_code == 200  # the organisers always


def test_another_clubs_organiser_waits_like_everyone(analysed: Event, rival: Client) -> None:
    assert rival.get(deal_url(analysed)).status_code == 404
    close(analysed)
    assert rival.get(deal_url(analysed)).status_code == 200


def test_the_tables_tablet_sees_its_deals_at_once(analysed: Event, client: Client) -> None:
    tablet = client.get(f"/t/{analysed.code1}/").content.decode()
    link = f"/t/{analysed.code1}/deals/1/"
    assert f'href="{link}"' in tablet
    body = client.get(link).content.decode()
    assert "kostete 26 Punkte" in body
    # the other table's tablet sees only its own table's deals (none yet)
    assert client.get(f"/t/{analysed.code2}/deals/1/").status_code == 404
    assert client.get("/t/not-a-code/deals/1/").status_code == 404


def test_the_player_page_shows_points_lost_against_par(analysed: Event, client: Client) -> None:
    seat2 = analysed.table1.seats.get(position=1).player
    seat1 = analysed.table1.seats.get(position=0).player
    assert "Punkte gegen Par" not in client.get(f"/players/{seat2.pk}/").content.decode()
    close(analysed)
    body = client.get(f"/players/{seat2.pk}/").content.decode()
    assert "Punkte gegen Par" in body and '<td class="num">26</td>' in body
    assert 'class="bar"' in body and 'height="100.0"' in body  # 26 of 26: full height
    assert '<td class="num">0</td>' in client.get(f"/players/{seat1.pk}/").content.decode()


def test_each_par_loss_bar_links_to_its_deal(analysed: Event, client: Client) -> None:
    """Issue 20: the bars of points lost against par did not lead to their deals."""
    seat2 = analysed.table1.seats.get(position=1).player
    close(analysed)
    body = client.get(f"/players/{seat2.pk}/").content.decode()
    link = f'<a class="bar-link" href="{deal_url(analysed)}"'
    assert body.count('class="bar-link"') == 1 and link in body
    assert client.get(deal_url(analysed)).status_code == 200
