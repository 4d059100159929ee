"""The live-standings embed names its columns in the game's words (its profile's,
games/profiles/) in the embed's language (``?lang=``), not in the reader's browser's:
Klammern's Augen are "Matchpunten" to a Dutch reader."""

from __future__ import annotations

import re

import pytest
from django.utils import translation

from games import profiles
from tests.conftest import Event
from tests.support.clients import Client
from tests.web.test_publishing import play_evening

pytestmark = pytest.mark.django_db

#: The heads of the columns for tournament points, point difference and Augen.
HEADS = {
    "de": ["Pkt.", "Diff.", "Augen"],
    "nl": ["Ptn", "Verschil", "Matchpunten"],
    "fr": ["Pts", "Diff.", "Points de match"],
    "en": ["Pts", "Diff", "Augen"],
}
TITLES = {
    "de": "Erzielte Augen",
    "nl": "Gescoorde matchpunten",
    "fr": "Points de match marqués",
    "en": "Match points (Augen) scored",
}


def heads(body: str) -> list[tuple[str, str]]:
    """The (title, label) of each criterion's column head."""
    return re.findall(r'<th class="num[^"]*" title="([^"]*)">([^<]+)</th>', body)


@pytest.mark.parametrize("language", ["nl", "de", "fr", "en"])
def test_the_embedded_standings_use_the_games_words_in_the_embeds_language(
    event: Event, client: Client, language: str
) -> None:
    play_evening(event, team0_points=64)
    url = f"/embed/tournaments/{event.tournament.pk}/standings/?lang={language}"
    other = "en" if language == "de" else "de"  # the browser asks for another language
    for response in (
        client.get(url, HTTP_ACCEPT_LANGUAGE=other),
        client.get(url, HTTP_ACCEPT_LANGUAGE=other, HTTP_HX_REQUEST="true"),
    ):
        body = response.content.decode()
        labels = [label for _, label in heads(body)]
        assert labels[0] == HEADS[language][0] and HEADS[language][1] in labels
        assert (TITLES[language], HEADS[language][2]) in heads(body)
        assert f"<dt>{HEADS[language][-1]}</dt><dd>{TITLES[language]}</dd>" in body
        if language in ("nl", "fr"):
            assert "Augen" not in body, "no German word in a Dutch or French embed"
    with translation.override(language):
        column = profiles.KLAMMERN.standings_columns["augen"].shown()
    assert [column["label"], column["title"]] == [HEADS[language][-1], TITLES[language]]


def test_each_game_names_its_points_in_its_profile() -> None:
    """Every game the platform offers names its match points itself: none falls back to
    the platform's neutral name."""
    for profile in profiles.PROFILES.values():
        assert "augen" in profile.standings_columns, profile.key
    with translation.override("nl"):
        assert str(profiles.PROFILES["klaverjas-rotterdam"].standings_columns["augen"].label) == (
            "Punten"
        )
