"""One German spelling (issue 20: "große", "grosse", "gross" and "abschliessen" side by
side): standard German with ß in the German catalogue, the templates and the scripts. And
the tablet's confirm summary names its columns apart (German said "SPIEL | SPIEL")."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from django.conf import settings

from tests.conftest import Event
from tests.support.clients import Client
from tests.web.test_dutch_pages import catalogue
from tests.web.test_evening import speaking
from tests.web.test_evening_findings import enter

#: Swiss spellings of words whose standard German spelling has ß.
SWISS = re.compile(
    r"\b(ab|Ab)?[Ss]chliess|\b[Gg]ross(e|er|en|es)?\b|\b[Aa]usser\b|\b[Ss]trasse|"
    r"\b[Gg]emäss\b|\bheisst\b|\b[Ff]uss\b|\b[Gg]rösse"
)


def test_the_german_catalogue_writes_eszett() -> None:
    texts = catalogue("de", Path(settings.BASE_DIR) / "locale")
    swiss = sorted(text for text in texts.values() if SWISS.search(text))
    assert swiss == []
    assert "Runde abschließen" in texts.values()


def test_templates_and_scripts_write_no_swiss_spelling() -> None:
    root = Path(settings.BASE_DIR)
    files = [*(root / "templates").rglob("*.html"), *(root / "tournaments").rglob("*.js")]
    found = [
        f"{f.relative_to(root)}: {m.group(0)}"
        for f in files
        for m in SWISS.finditer(f.read_text(encoding="utf-8"))
    ]
    assert found == []


@pytest.mark.django_db
@pytest.mark.parametrize("language", ["de", "en", "fr", "nl"])
def test_the_confirm_summary_names_each_column_once(
    event: Event, client: Client, language: str
) -> None:
    for number, points in enumerate([100, 100, 30, 100], start=1):
        enter(event, number, points)
    body = speaking(client, language).get(f"/t/{event.code1}/state/").content.decode()
    summary = body[body.index('id="confirm-summary"') : body.index("</thead>")]
    heads = re.findall(r"<th[^>]*>([^<]+)</th>", summary)
    assert len(heads) == 4 and len(set(heads)) == 4, heads
    contract = {"de": "Spielart", "en": "Contract", "fr": "Contrat", "nl": "Spelsoort"}
    assert contract[language] in heads
