"""A round-average bye (issue 20): its averages are rounded half up wherever they are
shown or exported (Python's ``round`` rounded half to even: "107,62" beside "1,38"), and
the standings CSV holds every figure of the ranking, bye credits included, in the order
of the tie-break chain, so that sorting by its columns reproduces the ranks. And every
column of the results CSV has its own name (German had "Spiel" twice)."""

from __future__ import annotations

from decimal import Decimal
from fractions import Fraction
from typing import Any

import pytest
from django.utils import translation

from tests.conftest import make_event
from tests.factories import summary_record
from tests.support.clients import Client
from tournaments.clubs.models import Club
from tournaments.deals.services import submit_deal
from tournaments.events.models import Match
from tournaments.results.standings import shown_value
from tournaments.web import csv_export

from .test_evening import rows_of, speaking


@pytest.mark.parametrize(
    ("value", "shown"),
    [
        (107.625, Decimal("107.63")),
        (1.375, Decimal("1.38")),
        (0.125, Decimal("0.13")),
        (Fraction(861, 8), Decimal("107.63")),
        (Fraction(1, 8), Decimal("0.13")),
        (-1.625, Decimal("-1.63")),
        (Fraction(1, 3), Decimal("0.33")),
        (12.5, Decimal("12.5")),
        (Decimal("2.675"), Decimal("2.68")),
        (4.0, 4),
    ],
)
def test_a_fraction_is_shown_rounded_half_up(value: Any, shown: Any) -> None:
    assert shown_value(value) == shown and type(shown_value(value)) is type(shown)


@pytest.mark.parametrize(("language", "shown"), [("de", "107,63"), ("en", "107.63")])
def test_a_csv_cell_rounds_half_up(language: str, shown: str) -> None:
    with translation.override(language):
        assert csv_export.cell(107.625) == shown
        assert csv_export.cell(0.125) == shown.replace("107", "0").replace("63", "13")


@pytest.fixture
def bye_evening(club_a: Club) -> Any:
    """17 players: four tables and a bye; three tables draw (82:82 twice, each side
    failing once), one is won, so the bye's
    average of games won is 2 winners / 16 results = 0.125."""
    event = make_event(club=club_a, players=17, deals=2)
    matches = Match.objects.filter(round=event.round).order_by("table__number")
    for match, points in zip(matches, [100, 82, 82, 82], strict=True):
        for number in (1, 2):
            record = summary_record(dealer=number - 1, team0_points=points)
            submit_deal(match=match, number=number, record=record)
    return event


@pytest.mark.django_db
def test_the_standings_show_the_bye_average_rounded_half_up(
    bye_evening: Any, client: Client
) -> None:
    body = client.get(f"/tournaments/{bye_evening.tournament.pk}/standings/").content.decode()
    assert ">0,13<" in body and ">0,12<" not in body


@pytest.mark.django_db
@pytest.mark.parametrize(("language", "delimiter"), [("de", ";"), ("en", ",")])
def test_the_standings_csv_reproduces_the_order_from_its_columns(
    bye_evening: Any, web: Client, language: str, delimiter: str
) -> None:
    url = f"/console/tournaments/{bye_evening.tournament.pk}/standings.csv"
    head, *rows = rows_of(speaking(web, language).get(url), delimiter)
    won_with_byes = {"de": "Gewonnene Partien, Freilose eingerechnet"}.get(
        language, "Games won, byes included"
    )
    assert won_with_byes in head
    start = head.index({"de": "Turnierpunkte"}.get(language, "Tournament points"))
    assert head[start:][:4] == [
        {"de": "Turnierpunkte"}.get(language, "Tournament points"),
        won_with_byes,
        {"de": "Punktdifferenz"}.get(language, "Point difference"),
        # Klammern's own column (its profile's), headed with its long title
        {"de": "Erzielte Augen"}.get(language, "Match points (Augen) scored"),
    ]
    bye = next(
        row for row in rows if row[head.index({"de": "Freilose"}.get(language, "Byes"))] == "1"
    )
    assert bye[start + 1] == ("0,13" if language == "de" else "0.13")

    def key(row: list[str]) -> tuple[Decimal, ...]:
        return tuple(
            Decimal(v.replace(",", ".")) if v else Decimal("-Infinity") for v in row[start:]
        )

    assert [key(r) for r in rows] == sorted((key(r) for r in rows), reverse=True)
    for above, below in zip(rows, rows[1:], strict=False):
        assert (above[0] == below[0]) == (key(above) == key(below))  # shared rank: all equal


@pytest.mark.django_db
@pytest.mark.parametrize("language", ["de", "en", "fr", "nl"])
def test_every_results_csv_column_has_its_own_name(
    bye_evening: Any, web: Client, language: str
) -> None:
    url = f"/console/tournaments/{bye_evening.tournament.pk}/results.csv"
    head = rows_of(speaking(web, language).get(url), "," if language == "en" else ";")[0]
    assert len(head) == len(set(head)), head
    contract = {"de": "Spielart", "en": "Contract", "fr": "Contrat", "nl": "Spelsoort"}
    assert contract[language] in head
