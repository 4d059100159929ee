"""The hand record page step by step (``?step=<plays>``): the hands shrinking, the trick
on the table, each legal card's cost for the seat to play, the perfect line from there,
the play that turned the game apart from small slips, the par graph and the makeable
table; from the stored analysis only, in German and English; and where there is nothing
to step through (a summary, an analysis not done yet, one from before values existed)."""

from __future__ import annotations

import re

import pytest
from django.conf import settings

from games.analysis_services import analyse_missing_deals
from games.models import DealAnalysis
from tests.conftest import Event
from tests.factories import summary_record
from tests.support.clients import Client
from tests.support.hand_records import TURNING_DEAL
from tournaments.deals import services
from tournaments.deals.hand_records import SeatView
from tournaments.deals.replay import perfect_line, replay, turning_plays

pytestmark = pytest.mark.django_db

TURN = 22  # the play index of TURNING_DEAL's QS, which turned made into failed


@pytest.fixture
def analysed(event: Event) -> Event:
    services.submit_deal(match=event.match1, number=1, record=summary_record(dealer=0))
    services.submit_deal(match=event.match1, number=2, record=TURNING_DEAL)  # seat 1 deals
    analyse_missing_deals()
    return event


def url(event: Event, step: object = None, number: int = 2) -> str:
    base = f"/matches/{event.match1.pk}/deals/{number}/hand/"
    return base if step is None else f"{base}?step={step}"


def section(body: str) -> str:
    match = re.search(r'<section class="card replay" id="replay".*?</section>', body, re.S)
    assert match, "no step-through section"
    return match.group(0)


def stored(event: Event) -> dict:
    return DealAnalysis.objects.get(
        version__deal__match=event.match1, version__deal__number=2
    ).analysis


def test_the_start_shows_all_hands_and_the_first_choice(analysed: Event, web: Client) -> None:
    body = section(web.get(url(analysed)).content.decode())
    assert "Schritt für Schritt" in body and "Stich 1 · Karte 1 von 32" in body
    assert body.count('class="hand replay-hand') == 4
    assert body.count('class="hand-row') == 16
    first = stored(analysed)["plays"][0]
    assert body.count('<li class="card-value') == len(first["values"])
    assert "is-played" in body and "beste" in body
    assert "Perfektes Spiel ab hier" in body and body.count('class="line-card"') == 32
    assert 'class="par-graph"' in body and body.count('<circle class="pt') == 33
    assert "Team 1 <strong>122</strong>" in body and "Team 2 <strong>82</strong>" in body
    assert body.count('<tr><th scope="row">') == 4  # the makeable table, a row a trump
    assert 'class="num is-own"' in body


def test_the_hands_shrink_and_the_trick_shows_who_played(analysed: Event, web: Client) -> None:
    body = section(web.get(url(analysed, 6)).content.decode())
    assert "Stich 2 · Karte 7 von 32" in body
    assert body.count('class="trick-played') == 2  # trick 2: two cards down
    assert "Sitz 1</span>" in body or "Sitz 2</span>" in body
    ranks = re.findall(r'class="hand-row[^"]*">(.*?)</div>', body, re.S)
    shown = sum(len(re.findall(r"\b(?:10|[789BDKA]) ", row)) for row in ranks)  # German
    assert shown == 32 - 6
    end = section(web.get(url(analysed, 4)).content.decode())
    assert "geht an Sitz" in end  # a complete trick names its winner


def test_the_turning_play_is_marked_apart_from_slips(analysed: Event, web: Client) -> None:
    analysis = stored(analysed)
    assert turning_plays(analysis) == [TURN]
    body = section(web.get(url(analysed, TURN)).content.decode())
    assert 'class="replay-choice is-turning"' in body
    assert "Diese Karte hat das Spiel gedreht" in body and "kostete 3 Punkte" in body
    slip = next(p["play"] for p in analysis["plays"] if p["cost"] > 0 and p["play"] != TURN)
    body = section(web.get(url(analysed, slip)).content.decode())
    assert "Ein kleiner Fehler" in body and "Diese Karte hat das Spiel gedreht" not in body
    assert body.count('class="pt is-costly is-turning"') == 1
    listed = re.search(r'<ul class="turning-plays">(.*?)</ul>', body, re.S)
    assert (
        listed and listed.group(1).count("<li>") == 1 and f"?step={TURN}#replay" in listed.group(1)
    )
    assert "gemacht → verloren" in " ".join(listed.group(1).split())


def test_the_costly_plays_mark_the_one_that_turned_the_game(analysed: Event, web: Client) -> None:
    body = web.get(url(analysed)).content.decode()
    costly = re.search(r'<ul class="costly-plays">(.*?)</ul>', body, re.S)
    assert costly and costly.group(1).count("<li") == 8
    turned = re.findall(r'<li class="is-turning">(.*?)</li>', costly.group(1), re.S)
    assert len(turned) == 1 and "hat das Spiel gedreht" in turned[0] and "(Stich 6)" in turned[0]
    assert body.count('class="trick-card is-costly') == 8  # the play, trick by trick
    assert body.count('class="trick-card is-costly is-turning"') == 1


def test_the_perfect_line_joins_the_record_and_the_stored_lines(analysed: Event) -> None:
    analysis = stored(analysed)
    plays = analysis["plays"]
    for step in range(33):
        line = perfect_line(analysis, step)
        assert len(line) == 32 - step
        costly = next((p for p in plays[step:] if p["cost"] > 0), None)
        if costly is None:
            assert [x["card"] for x in line] == [p["card"] for p in plays[step:]]
        else:
            j = costly["play"]
            assert [x["card"] for x in line[: j - step]] == [p["card"] for p in plays[step:j]]
            assert line[j - step :] == costly["line"]


def test_in_english(analysed: Event, web: Client) -> None:
    web.cookies[settings.LANGUAGE_COOKIE_NAME] = "en"
    body = section(web.get(url(analysed, TURN)).content.decode())
    assert "Step by step" in body and "This play turned the game" in body
    assert "Perfect play from here" in body and "What each trump makes" in body
    assert "made → failed" in " ".join(body.split())


@pytest.mark.parametrize(
    "raw, where", [("abc", "Karte 1 von"), ("-4", "Karte 1 von"), ("99", "Ende des Spiels")]
)
def test_an_unreadable_step_is_clamped(analysed: Event, web: Client, raw: str, where: str) -> None:
    response = web.get(url(analysed, raw))
    assert response.status_code == 200
    assert where in section(response.content.decode())


def test_nothing_to_step_through(analysed: Event, web: Client) -> None:
    summary = web.get(url(analysed, 3, number=1)).content.decode()
    assert 'id="replay"' not in summary and "replay.js" not in summary
    row = DealAnalysis.objects.get(version__deal__match=analysed.match1, version__deal__number=2)
    old = dict(row.analysis)
    old["plays"] = [
        {k: v for k, v in p.items() if k not in ("values", "line")} for p in old["plays"]
    ]
    row.analysis = old
    row.save(update_fields=["analysis"])
    body = web.get(url(analysed)).content.decode()
    assert 'id="replay"' not in body and "Teure Karten" in body


def test_the_page_reads_and_never_solves(
    analysed: Event, web: Client, django_assert_max_num_queries, monkeypatch
) -> None:
    import games.engine.analysis as engine_analysis

    def refuse(*args: object, **kwargs: object) -> None:
        raise AssertionError("the page must not solve")

    monkeypatch.setattr(engine_analysis, "analyse", refuse)
    monkeypatch.setattr(engine_analysis, "perfect_line", refuse)
    with django_assert_max_num_queries(20):
        assert web.get(url(analysed, 10)).status_code == 200


def test_the_tablet_steps_through_its_deal(analysed: Event, client: Client) -> None:
    body = client.get(f"/t/{analysed.code1}/deals/2/?step={TURN}").content.decode()
    assert "Diese Karte hat das Spiel gedreht" in section(body)
    assert 'src="/static/tournaments/replay.js"' in body


def test_a_march_let_go_is_a_turning_play() -> None:
    analysis = {
        "par_outcome": "march_won",
        "plays": [
            {"play": 0, "par_outcome": "march_won", "march": True},
            {"play": 1, "par_outcome": "march_won", "march": True},
            {"play": 2, "par_outcome": "march_lost", "march": False},
            {"play": 3, "par_outcome": "march_lost", "march": False},
        ],
    }
    assert turning_plays(analysis) == [2]
    assert turning_plays({"par_outcome": "failed", "plays": []}) == []


def test_a_ten_written_10_leaves_the_hand_when_played(analysed: Event) -> None:
    record = {
        **TURNING_DEAL,
        "hands": [[c.replace("T", "10") for c in h] for h in TURNING_DEAL["hands"]],
    }
    seats = [SeatView(p, p + 1, f"P{p}", p % 2) for p in range(4)]
    analysis = stored(analysed)
    for step in (0, 13, 32):
        shown = replay(record, {}, analysis, seats, step=step, ranks="789TJQKA")
        assert shown is not None
        held = sum(len(row["ranks"]) for h in shown["hands"] for row in h["rows"])
        assert held == 32 - step
