"""Every console page of a running evening fits a phone (390 px): an organiser walking
between the tables has nothing but a phone, and nothing may stick out sideways but
scrollable tables."""

from __future__ import annotations

from typing import Any

import pytest

from tests.conftest import make_event
from tournaments.clubs.models import Club

from .conftest import PHONE, assert_fits
from .test_console_deals import club, console_page  # noqa: F401 - the fixture
from .test_pages import enter

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


@pytest.mark.parametrize("language", ["de", "en"])
def test_console_pages_fit_a_phone(
    live_server: Any,
    contexts: Any,
    club: Club,  # noqa: F811 - the fixture imported above
    language: str,
) -> None:
    base = live_server.url
    event = make_event(club=club, deals=4)
    enter(event, 1, team0_points=100)
    tournament, round_, match = event.tournament, event.round, event.match1
    page = console_page(contexts, base, language, PHONE)
    for path in (
        "/console/",
        f"/console/tournaments/{tournament.pk}/",
        f"/console/tournaments/{tournament.pk}/players/qr/",
        f"/console/rounds/{round_.pk}/",
        f"/console/rounds/{round_.pk}/seating/",
        f"/console/rounds/{round_.pk}/table-cards/",
        f"/console/matches/{match.pk}/",
        f"/console/matches/{match.pk}/deals/1/",
        f"/console/matches/{match.pk}/deals/2/",
        f"/console/clubs/{club.pk}/",
        "/console/leagues/",
    ):
        response = page.goto(base + path)
        assert response is not None and response.status == 200, path
        assert_fits(page, PHONE["width"])
