"""The new-tournament form offers only what the chosen game has, in its words (issue 35):
Belote chosen, a French organiser sees Belote's match length and no small/big points,
Liga-Partie or Augen; Klammern keeps its match modes and ranking. Every game in every
language; the form creates the chosen game's tournament."""

from __future__ import annotations

import re
from typing import Any

import pytest

from games import profiles
from tests.support.clients import Client
from tests.support.game_words import LANGUAGES, forbidden, german_left, offences
from tournaments.events.models import Tournament

pytestmark = pytest.mark.django_db


def form_of(web: Client, game: str, language: str) -> tuple[str, str]:
    """The new-tournament card for a game: its game choice and its form (the text)."""
    web.cookies["django_language"] = language
    page = web.get(f"/console/?game={game}").content.decode()
    card = page.split('id="new-tournament"')[1].split("</section>")[0]
    choice, form = card.split('<form method="post"')
    return choice, form


def words(html: str) -> str:
    return re.sub(r"\s+", " ", re.sub(r"<[^>]+>", " ", html))


@pytest.mark.parametrize("game", list(profiles.PROFILES))
def test_the_form_speaks_only_the_chosen_games_words(
    organiser: Any, web: Client, game: str
) -> None:
    english = ""
    for language in reversed(LANGUAGES):  # English first: the others translate it
        choice, form = form_of(web, game, language)
        assert f'value="{game}" checked' in choice
        assert f'name="rules_preset" value="{game}"' in form
        sentence = choice.split('data-bind="match-length">')[1].split("</div>")[0]
        english = english or sentence
        assert language == "en" or sentence != english, (game, language, sentence)
        shown = [words(form), sentence]
        found = offences(shown, forbidden(game, language))
        if language != "de":
            found += german_left(shown, game)
        assert found == [], (game, language, found)


@pytest.mark.parametrize(
    ("language", "length"),
    [("fr", "12 donnes"), ("de", "12 Spiele"), ("nl", "12 spellen"), ("en", "12 deals")],
)
def test_belote_chosen_the_form_says_its_match_length_and_offers_no_match_modes(
    organiser: Any, web: Client, language: str, length: str
) -> None:
    choice, form = form_of(web, "belote", language)
    assert length in words(choice)
    for name in ("match_mode", "liga_target", "deals_per_match", "tiebreak_1"):
        assert f'name="{name}"' not in form, name
    assert 'name="duplicate"' in form  # every partnership game of four (issue 36)
    assert 'name="suits"' not in form  # Belote has French suits only


def test_klammern_chosen_the_form_offers_its_match_modes_and_ranking(
    organiser: Any, web: Client
) -> None:
    choice, form = form_of(web, "klammern", "fr")
    for name in ("match_mode", "liga_target", "deals_per_match", "tiebreak_1", "duplicate"):
        assert f'name="{name}"' in form, name
    assert "Liga" in words(form) and "Augen" in words(form)


def test_the_schieber_offers_its_suits_and_two_players_only_the_individual_format(
    organiser: Any, web: Client
) -> None:
    _, schieber = form_of(web, "schieber", "de")
    assert 'name="suits"' in schieber
    _, two = form_of(web, "klammern-2", "de")
    formats = re.findall(r'name="format" value="(\w+)"', two)
    assert formats == ["individual"]
    assert 'name="balance_by_rating"' not in two  # not rated


def test_each_profile_says_its_match_length(organiser: Any) -> None:
    from django.utils.translation import override

    with override("en"):
        sentences = {key: p.match_length() for key, p in profiles.PROFILES.items()}
    assert sentences["klaverjas-rotterdam"] == "A table plays 16 deals."
    assert sentences["belote"] == "A table plays 12 deals."
    assert sentences["klammern-3"] == "A table plays a match to 500 points."
    assert "Liga-Partie" in sentences["klammern"]


def test_the_form_creates_the_chosen_games_tournament(
    club_a: Any, organiser: Any, web: Client
) -> None:
    data = {"club": club_a.pk, "name": "Soirée belote", "format": "individual"}
    reply = web.post("/console/?game=belote", {**data, "rules_preset": "belote"})
    assert reply.status_code == 302
    tournament = Tournament.objects.get(name="Soirée belote")
    assert (tournament.rules_preset, tournament.deals_per_match) == ("belote", 12)


def test_a_refused_form_stays_on_the_chosen_game(club_a: Any, organiser: Any, web: Client) -> None:
    web.cookies["django_language"] = "fr"
    reply = web.post("/console/?game=belote", {"club": club_a.pk, "rules_preset": "belote"})
    body = reply.content.decode()
    assert reply.status_code == 200 and 'value="belote" checked' in body
    assert 'name="match_mode"' not in body
