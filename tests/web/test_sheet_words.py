"""Every text a game's score sheet can show speaks that game, in the page's language
(issue 35): the error texts (every engine code, by rule and by field, filled as the
sheet's script fills them), the texts its script shows on its own and the sheet's own
words. A Belote sheet names no Bella, Jappa, Mie, Terz or 164; a Klammern sheet no
belote; a French, Dutch or English sheet shows no German left untranslated."""

from __future__ import annotations

import json
import re
import uuid
from pathlib import Path
from typing import Any

import pytest
from django.utils.translation import override

from games import profiles
from games.engine.errors import Code
from tests.conftest import client_for
from tests.factories import PlayerFactory
from tests.support.clients import Client
from tests.support.game_words import (
    LANGUAGES,
    SAME_AS_ENGLISH,
    forbidden,
    german_left,
    offences,
)
from tournaments.clubs.models import Club
from tournaments.common import engine_messages
from tournaments.draw import services as draw
from tournaments.events import services
from tournaments.events.models import Match

pytestmark = pytest.mark.django_db

NAMES = ("Anna", "Bernd", "Chloé", "David")


def sample_params(template: str) -> dict[str, Any]:
    """A value for every placeholder of a template, as the engine gives them."""
    values: dict[str, Any] = {
        "seat": 1,
        "expected": 2,
        "next_seat": 3,
        "seats": [0, 1],
        "card": "JH",
        "cards": ["KH", "QH"],
        "missing": ["QH"],
        "legal": ["7C", "8C"],
        "run": ["7D", "8D", "9D", "TD"],
        "trump": "H",
        "upcard_suit": "S",
        "led_suit": "C",
        "suit": "D",
        "count": 5,
        "card_points": [60, 90],
    }
    return {name: values.get(name, 7) for name in re.findall(r"\{(\w+)\}", template)}


def table_code(club: Club, preset: str) -> str:
    players = profiles.PROFILES[preset].players
    tournament = services.create_tournament(
        club=club, name=f"Abend {preset}", slug=f"abend-{preset}", rules_preset=preset
    )
    for name in NAMES[:players]:
        registration = services.register_player(
            tournament=tournament, player=PlayerFactory(name=name)
        )
        services.check_in_registration(registration=registration)
    services.start_tournament(tournament=tournament)
    round_ = services.publish_round(round_=draw.draw_round(tournament=tournament, seed=1))
    _, code = services.issue_device_code(table=round_.matches.get().table)
    return code


def sheet_texts(page: str) -> tuple[dict[str, Any], list[str]]:
    """The page's sheet config and every text the sheet can show: its error templates
    filled, its script's strings and the words of the sheet (its form)."""
    config = json.loads(page.split('id="tablet-config" type="application/json">')[1].split("<")[0])
    templates: dict[str, str] = config["errorTemplates"]
    texts = []
    for key, template in templates.items():
        code, _, field = key.partition(".")
        error = {"code": code, "field": field or None, "message": "engine words"}
        params = sample_params(template)
        if code == "illegal_play" and field:
            error = {"code": code, "message": "engine words", "params": {"rule": field}}
        error["params"] = {**params, **error.get("params", {})}
        message = engine_messages.localized_message(error, templates)
        assert "{" not in message and message != "engine words", (key, message)
        texts.append(message)
    texts += [str(text) for text in config["strings"].values()]
    form = page.split('<form class="entry')[1].split("</form>")[0]
    words = re.sub(r"\s+", " ", re.sub(r"<[^>]+>", " ", form.split(">", 1)[1]))
    texts.append(words)
    return config, texts


@pytest.fixture
def club(organiser: Any) -> Club:
    club = Club.objects.create(name="Cercle des cartes", slug="cercle-cartes")
    club.organisers.add(organiser)
    return club


@pytest.mark.parametrize("preset", list(profiles.PROFILES))
def test_every_text_of_a_sheet_speaks_its_game_in_the_pages_language(
    club: Club, web: Client, preset: str
) -> None:
    code = table_code(club, preset)
    english: dict[str, str] = {}
    for language in reversed(LANGUAGES):  # English first: the others are its translations
        web.cookies["django_language"] = language
        page = web.get(f"/t/{code}/").content.decode()
        config, texts = sheet_texts(page)
        shown = {**config["errorTemplates"], **config["strings"]}
        if language == "en":
            english = shown
        else:  # a sentence left in English is no translation (a game's term may stay)
            same = [k for k, v in shown.items() if v == english.get(k) and " " in v.strip()]
            same = [k for k in same if (language, k) not in SAME_AS_ENGLISH]
            assert same == [], (preset, language, same)
        assert {str(c) for c in Code} - engine_messages.ENGINE_WORDS_IN_ENGLISH <= set(
            key.split(".")[0] for key in config["errorTemplates"]
        )
        found = offences(texts, forbidden(preset, language))
        if language != "de":
            found += german_left(texts, preset)
        assert [(word, text[:300]) for word, text in found] == [], (preset, language)


@pytest.mark.parametrize("preset", list(profiles.PROFILES))
def test_the_api_refuses_a_deal_in_its_games_words(club: Club, preset: str) -> None:
    """The API's refusal (``engine_errors``) fills the same game's templates: a Belote
    deal with an unheld belote-rebelote is refused in Belote's words, not Klammern's."""
    profile = profiles.PROFILES[preset]
    for language in LANGUAGES:
        with override(language):
            templates = engine_messages.sheet_error_templates(profile)
            errors = [
                {"code": key.split(".")[0], "field": key.partition(".")[2] or None}
                | {"message": "engine words", "params": sample_params(template)}
                for key, template in templates.items()
                if not key.startswith("illegal_play.")
            ]
            messages = [e["message"] for e in engine_messages.engine_errors(errors, preset=preset)]
        assert offences(messages, forbidden(preset, language)) == [], (preset, language)


def test_a_belote_sheet_names_belote_rebelote_and_its_own_numbers(club: Club, web: Client) -> None:
    code = table_code(club, "belote")
    web.cookies["django_language"] = "fr"
    config, _ = sheet_texts(web.get(f"/t/{code}/").content.decode())
    templates = config["errorTemplates"]
    assert "belote-rebelote" in templates["bella_not_held"]
    assert "162" in templates["bad_format.card_points"]
    assert "impossible_points.sum" not in templates  # Klammern's 164, only on its sheet
    assert {"terz", "fuenfzig", "pointsRange"}.isdisjoint(config["strings"])


def test_a_klammern_sheet_keeps_its_own_words(club: Club, web: Client) -> None:
    code = table_code(club, "klammern")
    web.cookies["django_language"] = "fr"
    config, _ = sheet_texts(web.get(f"/t/{code}/").content.decode())
    assert "Bella" in config["errorTemplates"]["bella_not_held"]
    assert "164" in config["errorTemplates"]["impossible_points.sum"]
    assert config["strings"]["terz"] == "Terz" and "164" in config["strings"]["pointsRange"]


def test_an_api_refusal_of_a_belote_deal_speaks_belote(club: Club) -> None:
    """A Belote deal taken in the second round in the upcard's suit: the API's French
    refusal explains Belote's two rounds, not Klammern's Orgi, Kleines and Besser."""
    code = table_code(club, "belote")
    match = Match.objects.get(round__tournament__slug="abend-belote")
    api = client_for(device_code=code)
    api.cookies["django_language"] = "fr"
    record = {
        "format": "klammern-deal/1",
        "dealer": 0,
        "upcard": "7S",
        "contract": {"kind": "belote", "declarer": 1, "trump": "S", "round": 2},
        "card_points": [100, 62],
    }
    reply = api.post(
        f"/api/matches/{match.pk}/deals/1/",
        record,
        format="json",
        HTTP_IDEMPOTENCY_KEY=str(uuid.uuid4()),
        HTTP_ACCEPT_LANGUAGE="fr",
    )
    assert reply.status_code == 400, reply.json()
    messages = [e["message"] for e in reply.json()["errors"]]
    assert any("tour" in m for m in messages), messages
    assert offences(messages, forbidden("belote", "fr")) == [], messages


def test_the_sheets_build_on_the_library_not_on_klammerns_sheet() -> None:
    """Every game's sheet takes what sheets share from ``sheet.js`` (``window.Sheet``);
    none reaches into Klammern's ``entry.js`` (``window.DealEntry``), and the library names
    no game's sheet."""
    static = Path(__file__).resolve().parents[2] / "tournaments" / "static" / "tournaments"
    sheets = sorted(static.glob("entry_*.js"))
    assert len(sheets) >= 5
    for path in sheets:
        text = path.read_text(encoding="utf-8")
        assert "window.Sheet.attach(this, form, config)" in text, path.name
        assert "window.Sheet.share(" in text, path.name
        assert "window.DealEntry" not in text, path.name
    library = re.sub(r"/\*.*?\*/|//[^\n]*", "", (static / "sheet.js").read_text(), flags=re.S)
    assert "window.Sheet = lib;" in library
    assert "DealEntry" not in library and "Entry" not in library
