"""Points lost against par over an evening and a season on the public pages: the player
page (per deal with links, per evening, over time, best plays), a tournament's evening
(best play and most expensive slip) and the club page (par leaders with a minimum of
deals); nothing of a tournament whose hand records are not public; a fixed number of
statements whatever the number of deals."""

from __future__ import annotations

from datetime import date
from typing import Any

import pytest
from django.conf import settings
from django.db import connection
from django.test.utils import CaptureQueriesContext

from games.analysis_services import analyse_missing_deals
from games.models import DealAnalysis
from tests.conftest import Event
from tests.factories import PlayerFactory
from tests.support.clients import Client
from tests.support.hand_records import COSTLY_DEAL, COSTLY_PLAY
from tests.support.par_evenings import forget_values, play_evening, rotated, second_evening
from tournaments.clubs import services as club_services
from tournaments.clubs.models import Player
from tournaments.deals import par_selectors, services
from tournaments.draw import services as draw
from tournaments.events import services as tournament_services
from tournaments.events.models import Match, Tournament
from tournaments.pairs import services as pairs

pytestmark = pytest.mark.django_db

#: The deal whose one costly play (seat 2's, 26 points) each test evening repeats.
INDEX, SEAT, CARD, COST, _ = COSTLY_PLAY


@pytest.fixture
def evening(event: Event) -> Event:
    """See ``play_evening``: table 1 four deals, table 2 one, one play with values."""
    return play_evening(event)


def close(event: Event) -> None:
    tournament_services.close_round(round_=event.round, force=True)


def seated(event: Event, table: int, position: int) -> Player:
    return (event.table1 if table == 1 else event.table2).seats.get(position=position).player


def hand_link(match: Match, number: int) -> str:
    return f'href="/matches/{match.pk}/deals/{number}/hand/"'


def english(client: Client) -> Client:
    return speaking(client, "en")


def speaking(client: Client, language: str) -> Client:
    client.cookies[settings.LANGUAGE_COOKIE_NAME] = language
    return client


def page(client: Client, url: str) -> str:
    response = client.get(url)
    assert response.status_code == 200
    return response.content.decode()


# --- the player page ------------------------------------------------------------------


def test_the_player_page_lists_each_evening_with_its_deals(evening: Event, client: Client) -> None:
    close(evening)
    player = seated(evening, 1, SEAT)
    body = page(client, f"/players/{player.pk}/")
    assert "Verlorene Punkte gegen Par" in body and "6,5</b> je Spiel" in body
    assert "4 Spiele" in body and "26 Punkte verloren" in body
    section = body[body.index('id="par"') :]
    for number in range(1, 5):
        assert hand_link(evening.match1, number) in section
    assert hand_link(evening.match2, 1) not in section  # another table's deal
    cells = '<td class="num hide-sm">4</td><td class="num">26</td><td class="num">6,5</td>'
    assert cells in body  # deals (not on a phone), points lost, per deal
    assert body.count('class="bar-link"') == 4


def test_the_player_page_in_english(evening: Event, client: Client) -> None:
    close(evening)
    body = page(english(client), f"/players/{seated(evening, 1, 0).pk}/")
    assert "Points lost against par" in body and "6.5</b> per deal" in body
    assert "Deal by deal" in body and "The deals" in body


def test_the_player_page_names_the_players_best_plays(evening: Event, client: Client) -> None:
    close(evening)
    stored = DealAnalysis.objects.get(
        version__deal__match=evening.match1, version__deal__number=3, version__is_current=True
    )
    seat = stored.analysis["plays"][8]["seat"]
    body = page(client, f"/players/{seated(evening, 1, seat).pk}/")
    assert "Beste Karten" in body
    assert "die einzige Karte, die Par hielt: jede andere hätte mindestens 30 Punkte" in body
    assert "Runde 1, Spiel 3, Stich 3" in body
    other = page(client, f"/players/{seated(evening, 1, (seat + 1) % 4).pk}/")
    assert "Beste Karten" not in other  # the best play is not the partner's or opponent's


def test_evenings_over_time_make_a_line(evening: Event, club_a: Any, client: Client) -> None:
    close(evening)
    match = second_evening(club_a, evening)
    player = match.table.seats.get(position=SEAT).player
    body = page(client, f"/players/{player.pk}/")
    assert body.count('class="dot-link"') == 2
    assert f'href="/tournaments/{match.round.tournament_id}/"' in body
    assert f'href="/tournaments/{evening.tournament.pk}/"' in body
    first = body.index("Winterturnier", body.index("par-evening-table"))
    assert first < body.index("Herbstturnier", first)  # the newest evening first


def test_nothing_before_the_round_is_closed(evening: Event, client: Client) -> None:
    player = seated(evening, 1, SEAT)
    assert "Verlorene Punkte gegen Par" not in page(client, f"/players/{player.pk}/")
    assert 'id="par-highlights"' not in page(client, f"/tournaments/{evening.tournament.pk}/")
    assert 'id="par-leaders"' not in page(client, f"/clubs/{evening.club.slug}/")


def test_nothing_of_a_tournament_with_private_hand_records(
    evening: Event, client: Client, web: Client
) -> None:
    evening.tournament.hand_records_public = False
    evening.tournament.save(update_fields=["hand_records_public"])
    close(evening)
    player = seated(evening, 1, SEAT)
    for who in (client, web):  # anonymous, and the club's organiser on the public pages
        bodies = [
            page(who, f"/players/{player.pk}/"),
            page(who, f"/tournaments/{evening.tournament.pk}/"),
            page(who, f"/clubs/{evening.club.slug}/"),
        ]
        for body in bodies:
            assert "/hand/" not in body
            assert 'id="par"' not in body and 'id="par-highlights"' not in body
            assert 'id="par-leaders"' not in body


def test_a_pairs_tournament_counts_each_partner_on_his_own(club_a: Any, client: Client) -> None:
    tournament = tournament_services.create_tournament(
        club=club_a, name="Paare", slug="paare", format=Tournament.Format.PAIRS
    )
    for _ in range(8):
        reg = tournament_services.register_player(tournament=tournament, player=PlayerFactory())
        tournament_services.check_in_registration(registration=reg)
    tournament_services.start_tournament(tournament=tournament)
    pairs.draw_pairs(tournament=tournament, seed=1)
    round_ = draw.draw_round(tournament=tournament, seed=1)
    tournament_services.publish_round(round_=round_)
    table = round_.tables.order_by("number")[0]
    services.submit_deal(match=table.match, number=1, record=COSTLY_DEAL)
    analyse_missing_deals()
    tournament_services.close_round(round_=round_, force=True)
    slipped, partner = (table.seats.get(position=p).player for p in (SEAT, (SEAT + 2) % 4))
    assert "26 Punkte verloren" in page(client, f"/players/{slipped.pk}/")
    assert "0 Punkte verloren" in page(client, f"/players/{partner.pk}/")
    slip = page(client, f"/tournaments/{tournament.pk}/").split('data-highlight="slip"')[1]
    assert slipped.name in slip.split("</dd>")[0]


# --- an evening -----------------------------------------------------------------------


def test_the_evening_names_its_best_play_and_its_most_expensive_slip(
    evening: Event, client: Client
) -> None:
    close(evening)
    best = DealAnalysis.objects.get(
        version__deal__match=evening.match1, version__deal__number=3, version__is_current=True
    ).analysis["plays"][8]
    body = page(client, f"/tournaments/{evening.tournament.pk}/")
    section = body[body.index('id="par-highlights"') :]
    assert "Der Abend an den Karten" in section
    best_part = section[section.index('data-highlight="best"') : section.index("</dd>")]
    assert seated(evening, 1, best["seat"]).name in best_part
    assert hand_link(evening.match1, 3) in best_part and "Stich 3" in best_part
    assert "mindestens 30 Punkte" in best_part
    slip = section[section.index('data-highlight="slip"') :]
    # four slips of 26 points: the first, table 1's deal 1 (seat 2)
    assert seated(evening, 1, SEAT).name in slip and "kostete 26 Punkte" in slip
    assert hand_link(evening.match1, 1) in slip and "Stich 2" in slip


def test_the_evening_in_english(evening: Event, client: Client) -> None:
    close(evening)
    body = page(english(client), f"/tournaments/{evening.tournament.pk}/")
    assert "Best play" in body and "Most expensive slip" in body and "cost 26 points" in body
    assert "the only card that kept par: any other would have cost at least 30 points" in body


@pytest.mark.parametrize(
    ("language", "words"),
    [
        ("nl", ["De avond aan de kaarten", "Duurste fout", "de enige kaart die par hield"]),
        ("fr", ["La soirée aux cartes", "Faute la plus chère", "la seule carte qui gardait"]),
    ],
)
def test_the_evening_in_dutch_and_french(
    evening: Event, client: Client, language: str, words: list[str]
) -> None:
    close(evening)
    body = page(speaking(client, language), f"/tournaments/{evening.tournament.pk}/")
    for word in words:
        assert word in body


def test_an_evening_of_older_analyses_has_a_slip_but_no_best_play(
    event: Event, client: Client
) -> None:
    services.submit_deal(match=event.match1, number=1, record=COSTLY_DEAL)
    analyse_missing_deals()
    forget_values(event.match1)
    close(event)
    body = page(client, f"/tournaments/{event.tournament.pk}/")
    assert 'data-highlight="slip"' in body and 'data-highlight="best"' not in body


def test_an_evening_of_todays_analyses_has_its_best_play(event: Event, client: Client) -> None:
    """The engine's own "values" (not stored by hand): the best play is the best card
    whose costly alternatives cost the most, at the least of them."""
    services.submit_deal(match=event.match1, number=1, record=COSTLY_DEAL)
    analyse_missing_deals()
    close(event)
    plays = DealAnalysis.objects.get(version__deal__match=event.match1).analysis["plays"]
    saved = max(
        min(v for v in play["values"].values() if v > 0)
        for play in plays
        if play["cost"] == 0 and any(v > 0 for v in play["values"].values())
    )
    body = page(client, f"/tournaments/{event.tournament.pk}/")
    best = body[body.index('data-highlight="best"') :]
    assert f"mindestens {saved} Punkte" in best[: best.index("</dd>")]


# --- the club page --------------------------------------------------------------------


def test_the_club_ranks_players_with_enough_deals(
    evening: Event, client: Client, monkeypatch: pytest.MonkeyPatch
) -> None:
    season = club_services.create_season(
        club=evening.club, name="2026", starts_on=date(2026, 1, 1), ends_on=date(2026, 12, 31)
    )
    evening.tournament.season = season
    evening.tournament.save(update_fields=["season"])
    close(evening)
    monkeypatch.setattr(par_selectors, "MIN_DEALS", 4)
    body = page(client, f"/clubs/{evening.club.slug}/")
    section = body[body.index('id="par-leaders"') :]
    assert "Am nächsten am perfekten Spiel" in section and "ab 4 ausgewerteten Spielen" in section
    assert "Saison 2026" in section and "Seit jeher" in section
    for position in range(4):  # table 1: four deals each, 26 points lost: 6,5
        assert section.count(seated(evening, 1, position).name) == 2  # season and all time
    for position in range(4):  # table 2: one deal each, too few to rank
        assert seated(evening, 2, position).name not in section
    assert section.count('<td class="num">6,5</td>') == 8
    assert section.count('<td class="rank">1</td>') == 8  # the same per deal: all first


def test_the_season_is_the_latest_evenings(
    evening: Event, club_a: Any, client: Client, monkeypatch: pytest.MonkeyPatch
) -> None:
    autumn = club_services.create_season(
        club=club_a, name="Herbst", starts_on=date(2026, 9, 1), ends_on=date(2026, 11, 30)
    )
    evening.tournament.season = autumn
    evening.tournament.save(update_fields=["season"])
    club_services.create_season(  # a later season without an evening yet
        club=club_a, name="Frühling", starts_on=date(2027, 3, 1), ends_on=date(2027, 5, 31)
    )
    close(evening)
    monkeypatch.setattr(par_selectors, "MIN_DEALS", 4)
    section = page(client, f"/clubs/{club_a.slug}/").split('id="par-leaders"')[1]
    assert "Saison Herbst" in section and "Frühling" not in section
    second_evening(club_a, evening)  # the latest evening, in no season
    section = page(client, f"/clubs/{club_a.slug}/").split('id="par-leaders"')[1]
    assert "Saison" not in section and "Seit jeher" in section


def test_the_club_shows_its_latest_evenings_best_play_and_slip(
    evening: Event, club_a: Any, client: Client
) -> None:
    close(evening)
    body = page(client, f"/clubs/{evening.club.slug}/")
    section = body[body.index('id="par-highlights"') :]
    assert f'href="/tournaments/{evening.tournament.pk}/">Herbstturnier</a>' in section
    assert "Beste Karte" in section and "Teuerster Fehler" in section
    match = second_evening(club_a, evening)  # newer, of older analyses: a slip only
    body = page(client, f"/clubs/{evening.club.slug}/")
    section = body[body.index('id="par-highlights"') :]
    assert ">Winterturnier</a>" in section and "Herbstturnier" not in section
    assert hand_link(match, 1) in section and 'data-highlight="best"' not in section


def test_the_club_says_when_nobody_has_enough_deals(
    evening: Event, client: Client, monkeypatch: pytest.MonkeyPatch
) -> None:
    close(evening)
    monkeypatch.setattr(par_selectors, "MIN_DEALS", 5)
    body = page(english(client), f"/clubs/{evening.club.slug}/")
    assert "Nobody has 5 analysed deals yet." in body


def test_the_leader_with_the_least_lost_comes_first(
    evening: Event, club_a: Any, client: Client, monkeypatch: pytest.MonkeyPatch
) -> None:
    close(evening)
    match = second_evening(club_a, evening)  # one more deal for everyone
    monkeypatch.setattr(par_selectors, "MIN_DEALS", 5)
    leaders = par_selectors.club_par_leaders(evening.club, seasons=[])
    assert leaders is not None
    rows = [(r["player"], r["total"].deals, r["total"].lost) for r in leaders["all_time_rows"]]
    slipped = {t.seats.get(position=SEAT).player_id for t in match.round.tables.all()}
    expected = sorted(  # table 1's players: 4 + 1 deals; the others have 2, too few
        (s.player_id, 5, 26 + (26 if s.player_id in slipped else 0))
        for s in evening.table1.seats.all()
    )
    assert sorted(rows) == expected
    assert [r[2] for r in rows] == sorted(r[2] for r in rows)


# --- statements -----------------------------------------------------------------------


def statements(client: Client, url: str) -> int:
    """The statements of a page once its stored snapshots are warm."""
    page(client, url)
    with CaptureQueriesContext(connection) as queries:
        page(client, url)
    return len(queries)


def test_the_pages_cost_the_same_statements_for_more_deals(
    evening: Event, client: Client, django_assert_max_num_queries: Any
) -> None:
    close(evening)
    few = seated(evening, 2, 0)  # one deal
    many = seated(evening, 1, 0)  # four deals
    assert statements(client, f"/players/{few.pk}/") == statements(client, f"/players/{many.pk}/")
    with django_assert_max_num_queries(40):
        page(client, f"/players/{many.pk}/")
    with django_assert_max_num_queries(12):
        page(client, f"/tournaments/{evening.tournament.pk}/")
    with django_assert_max_num_queries(25):
        page(client, f"/clubs/{evening.club.slug}/")


def test_more_tables_and_deals_add_no_statements(event: Event, client: Client) -> None:
    for turn in range(4):
        services.submit_deal(match=event.match1, number=turn + 1, record=rotated(COSTLY_DEAL, turn))
    services.submit_deal(match=event.match2, number=1, record=COSTLY_DEAL)
    analyse_missing_deals(limit=1)  # one deal analysed, one table
    close(event)
    tournament, club = f"/tournaments/{event.tournament.pk}/", f"/clubs/{event.club.slug}/"
    before = statements(client, tournament), statements(client, club)
    assert analyse_missing_deals() == 4  # five deals at two tables
    assert (statements(client, tournament), statements(client, club)) == before
