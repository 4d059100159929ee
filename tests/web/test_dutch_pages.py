"""A Klaverjas evening's pages in Dutch hold no German: the tablet and its score panel,
the public tournament, seating, standings, projector, player and club pages, and the
console's tournament, round and table-card pages.

Django falls back to the default language (German) for a text the Dutch catalogue lacks,
so a missing Dutch translation shows German on a Dutch page. The test reads both
catalogues and looks for every German translation on the Dutch pages."""

from __future__ import annotations

import ast
import re
from html import unescape
from pathlib import Path
from typing import Any

import pytest
from django.conf import settings

from tests.support.clients import Client
from tests.web.test_browser_presets import DUTCH, evening, klaverjas_deal, open_round, post_deal
from tournaments.clubs.models import Club
from tournaments.events import services

pytestmark = pytest.mark.django_db

LOCALE = Path(settings.BASE_DIR) / "locale"


def catalogue(language: str, locale: Path = LOCALE) -> dict[tuple[str, str], str]:
    """(context, msgid) → msgstr of a .po file; plural forms by their first form."""
    entries: dict[tuple[str, str], str] = {}
    current: dict[str, str] = {}
    key = ""

    def flush() -> None:
        if current.get("msgid"):
            entries[(current.get("msgctxt", ""), current["msgid"])] = current.get("msgstr", "")

    text = (locale / language / "LC_MESSAGES" / "django.po").read_text(encoding="utf-8")
    for line in text.splitlines():
        if line.startswith("msgctxt ") or (line.startswith("msgid ") and key != "msgctxt"):
            flush()
            current = {}
        match = re.match(r'^(msgctxt|msgid|msgid_plural|msgstr(?:\[0\])?)\s+(".*")$', line)
        if match:
            key = match.group(1).replace("[0]", "")
            current[key] = current.get(key, "") + ast.literal_eval(match.group(2))
        elif line.startswith('"') and key:
            current[key] = current.get(key, "") + ast.literal_eval(line)
        elif not line.strip():
            key = ""
    flush()
    return entries


def german_only() -> list[str]:
    """Every German translation that differs from the English text and from the Dutch
    one, as fragments between placeholders long enough not to be Dutch words as well. A
    text the Dutch catalogue lacks shows in German, so one of these would appear."""
    dutch = catalogue("nl")
    fragments = []
    for key, german in catalogue("de").items():
        if not german or german == key[1] or german == dutch.get(key):
            continue
        for part in re.split(r"%\(\w+\)s|\{\w+\}|%s|%d", german):
            part = part.strip(" .,:;()")
            if len(part) >= 12:
                fragments.append(part)
    return fragments


def page_text(client: Client, url: str) -> str:
    response = client.get(url)
    assert response.status_code == 200, url
    body = response.content.decode()
    assert '<html lang="nl"' in body or url.endswith("/state/"), url
    body = re.sub(r"<(script|style)\b.*?</\1>", " ", body, flags=re.S)
    return " ".join(unescape(re.sub(r"<[^>]+>", " ", body)).split())


def test_a_klaverjas_evening_in_dutch_shows_no_german(organiser: Any, club_a: Club) -> None:
    tournament = evening(club_a, preset="klaverjas-rotterdam", names=DUTCH, options={})
    round_ = open_round(tournament, seed=1)
    codes = []
    for match in round_.matches.order_by("table__number"):
        _, code = services.issue_device_code(table=match.table)
        codes.append(code)
        for number in range(1, 6):
            post_deal(match, code, number, klaverjas_deal(number, match.table.number))
    player = round_.matches.first().table.seats.first().player

    visitor, console = Client(), Client()
    console.force_login(organiser)
    for client in (visitor, console):
        client.get("/lang/nl/", {"next": "/"})
    pages = {
        visitor: [
            f"/t/{codes[0]}/",
            f"/t/{codes[0]}/state/",
            f"/tournaments/{tournament.pk}/",
            f"/tournaments/{tournament.pk}/rounds/1/",
            f"/tournaments/{tournament.pk}/standings/",
            f"/tournaments/{tournament.pk}/projector/",
            f"/players/{player.pk}/",
            f"/clubs/{club_a.slug}/",
        ],
        console: [
            f"/console/tournaments/{tournament.pk}/",
            f"/console/rounds/{round_.pk}/",
            f"/console/rounds/{round_.pk}/table-cards/",
        ],
    }
    fragments = german_only()
    assert len(fragments) > 500  # the German catalogue, less what Dutch shares with it
    texts = {url: page_text(client, url) for client, urls in pages.items() for url in urls}
    found = {url: [f for f in fragments if f in text] for url, text in texts.items()}
    assert {url: hits for url, hits in found.items() if hits} == {}
