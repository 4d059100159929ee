"""Every text the code and templates mark for translation has a German and a Dutch
translation, none of them fuzzy: ``makemessages`` runs over a copy of the sources with
the committed catalogues, and what it would add or mark stays empty. A text without a
translation shows in English on German pages, and in German on Dutch pages (Django falls
back to the default language)."""

from __future__ import annotations

import os
import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest
from django.conf import settings

from tests.web.test_dutch_pages import catalogue

SOURCES = ("manage.py", "klammern_site", "tournaments", "games", "templates", "locale")


@pytest.mark.parametrize("language", ["de", "fr", "nl"])
def test_every_marked_text_is_translated(tmp_path: Path, language: str) -> None:
    root = Path(settings.BASE_DIR)
    for name in SOURCES:
        source = root / name
        if source.is_dir():
            shutil.copytree(source, tmp_path / name, ignore=shutil.ignore_patterns("__pycache__"))
        else:
            shutil.copy(source, tmp_path / name)
    subprocess.run(
        [sys.executable, "manage.py", "makemessages", "-l", language, "--no-obsolete"],
        cwd=tmp_path,
        env=os.environ,
        check=True,
        capture_output=True,
    )
    texts = catalogue(language, tmp_path / "locale")
    missing = [key for key, text in texts.items() if not text]
    po = tmp_path / "locale" / language / "LC_MESSAGES" / "django.po"
    fuzzy = po.read_text(encoding="utf-8").count("#, fuzzy")
    assert (missing, fuzzy) == ([], 0)


#: Where the organisers read: the console addresses them formally ("Sie") in German; the
#: players' own pages (their link, their card) say "du", as a club evening does.
CONSOLE = (
    "templates/console/",
    "tournaments/web/console.py",
    "tournaments/web/clubs.py",
    "tournaments/web/league_console.py",
    "tournaments/web/pairs.py",
    "tournaments/leagues/services.py",
)
PLAYERS_OWN = ("templates/public/player_link.html", "templates/console/print_player_cards.html")
INFORMAL = re.compile(
    r"\b(du|dein\w*|dich|dir)\b|(^|[.:;!] )(Drucke|Wähle|Gib|Tippe|Trage|Lege|Melde|Prüfe|"
    r"Schließe|Starte|Öffne|Setze|Frage|Lade|Richte)\b"
)


def test_the_german_console_addresses_organisers_formally() -> None:
    po = Path(settings.BASE_DIR) / "locale" / "de" / "LC_MESSAGES" / "django.po"
    informal = []
    for entry in po.read_text(encoding="utf-8").split("\n\n"):
        places = re.findall(r"^#: (.+)$", entry, re.M)
        files = {place.rsplit(":", 1)[0] for line in places for place in line.split()}
        text = " ".join(
            re.findall(r'^(?:msgstr(?:\[\d\])?|)\s*"(.*)"$', entry.split("msgstr", 1)[-1], re.M)
        )
        in_console = any(f.startswith(CONSOLE) for f in files)
        if in_console and not files & set(PLAYERS_OWN) and INFORMAL.search(text):
            informal.append(text)
    assert informal == []
