"""The tablet's first load on a venue's slow link (``bench/tablet_load.py`` measures it):
what makes it small is asserted here, never its timings.

- the page (and every other answer of the site's own) is gzipped for a browser that
  accepts it; static files are served precompressed by whitenoise with immutable caching;
- the page asks for its stylesheet and the sheet's scripts and nothing else before the
  sheet takes input: no separate script for the ``js`` class, the icon inline, htmx
  (only the score panel's refresh needs it) fetched once the sheet is set up;
- all of this under the strict script policy: the one inline script carries the nonce.
"""

from __future__ import annotations

import gzip
import re
from pathlib import Path
from typing import Any

import pytest
from django.core.management import call_command
from django.templatetags.static import static
from django.test import override_settings
from playwright.sync_api import expect

from tests.conftest import Event, make_event
from tests.support.clients import Client
from tournaments.clubs.models import Club
from tournaments.web import tablet

from .test_browser import enter_deal

SHEET_FILES = {
    "tournaments/site.css",
    "tournaments/sheet.js",
    "tournaments/entry.js",
    "tournaments/tablet.js",
}


def page_of(client: Client, event: Event, **headers: str) -> Any:
    return client.get(f"/t/{event.code1}/", headers=headers)


@pytest.mark.django_db
def test_the_page_is_gzipped_for_a_browser_that_accepts_it(client: Client, event: Event) -> None:
    plain = page_of(client, event)
    packed = page_of(client, event, accept_encoding="gzip, deflate, br")
    assert "Content-Encoding" not in plain
    assert packed["Content-Encoding"] == "gzip"
    assert "Accept-Encoding" in packed["Vary"]
    body = gzip.decompress(packed.content).decode()
    assert 'id="entry"' in body and 'id="tablet-config"' in body
    assert len(packed.content) * 3 < len(plain.content)  # about 37 KB to 8 KB


@pytest.mark.django_db
def test_the_score_panel_is_gzipped_too(client: Client, event: Event) -> None:
    state = client.get(f"/t/{event.code1}/state/", headers={"accept_encoding": "gzip"})
    assert state.status_code == 200 and state["Content-Encoding"] == "gzip"
    assert b'id="table-state"' in gzip.decompress(state.content)


def static_files(body: str) -> list[str]:
    return re.findall(r'(?:src|href)="(/static/[^"]+)"', body)


@pytest.mark.django_db
def test_the_page_loads_only_what_the_sheet_needs(client: Client, event: Event) -> None:
    response = page_of(client, event)
    body = response.content.decode()
    scripts = [
        static("tournaments/sheet.js"),
        static("tournaments/entry.js"),
        static("tournaments/tablet.js"),
    ]
    htmx = static("tournaments/htmx.min.js")
    # the stylesheet, each script once preloaded from <head> and once in its tag, htmx
    expected = [static("tournaments/site.css"), *scripts * 2, htmx]
    assert sorted(static_files(body)) == sorted(expected)
    # the sheets' library before the game's sheet, the sheet before the tablet's driver
    tags = [body.index(f'<script src="{script}"></script>') for script in scripts]
    assert tags == sorted(tags)
    assert "js-on" not in body and "favicon.svg" not in body
    assert '<link rel="icon" href="data:image/svg+xml,' in body
    # htmx is written in by a script after tablet.js: its bytes come after the sheet's
    assert f'document.write(\'<script src="{htmx}">' in body
    assert body.index(static("tournaments/tablet.js") + '"></script>') < body.index(htmx)


@pytest.mark.django_db
def test_inline_scripts_carry_the_policy_nonce(client: Client, event: Event) -> None:
    response = page_of(client, event)
    policy = response["Content-Security-Policy"]
    script_src = re.search(r"script-src ([^;]*)", policy).group(1)
    assert "unsafe-inline" not in script_src and "unsafe-eval" not in script_src
    nonce = re.search(r"'nonce-([^']+)'", script_src).group(1)
    inline = re.findall(r"<script(?![^>]*\bsrc=)([^>]*)>", response.content.decode())
    inline = [attributes for attributes in inline if 'type="application/json"' not in attributes]
    assert len(inline) == 2  # the js class in <head>, the htmx loader after tablet.js
    assert all(f'nonce="{nonce}"' in attributes for attributes in inline)


@pytest.mark.django_db
def test_the_service_worker_keeps_no_file_the_page_no_longer_loads() -> None:
    assert "tournaments/js-on.js" not in tablet.TABLET_ASSETS
    assert set(SHEET_FILES) | {"tournaments/htmx.min.js"} <= set(tablet.TABLET_ASSETS)


@pytest.mark.django_db
def test_static_files_are_served_compressed_and_immutable(
    client: Client, tmp_path: Path, event: Event
) -> None:
    storages = {
        "default": {"BACKEND": "django.core.files.storage.FileSystemStorage"},
        "staticfiles": {"BACKEND": "whitenoise.storage.CompressedManifestStaticFilesStorage"},
    }
    with override_settings(STATIC_ROOT=tmp_path, STORAGES=storages, WHITENOISE_AUTOREFRESH=False):
        call_command(
            "collectstatic",
            interactive=False,
            verbosity=0,
            ignore_patterns=["admin", "rest_framework", "drf_spectacular_sidecar"],
        )
        fresh = Client()  # a new handler: whitenoise reads the new STATIC_ROOT
        body = fresh.get(f"/t/{event.code1}/").content.decode()
        used = set(static_files(body))
        assert len(used) == 5 and all(  # site.css, sheet.js, entry.js, tablet.js, htmx
            re.search(r"\.[0-9a-f]{12}\.", url) for url in used
        )
        for url in used:
            answer = fresh.get(url, headers={"accept_encoding": "gzip"})
            assert answer.status_code == 200
            assert answer["Content-Encoding"] == "gzip", url
            assert "immutable" in answer["Cache-Control"], url
            answer.close()


# --- in the browser ---------------------------------------------------------------------

READY_PROBE = """
Object.defineProperty(window, "klammernTablet", {
  configurable: true,
  get() { return this.__tablet; },
  set(value) { this.__tablet = value; window.__sheetReady = performance.now(); },
});
"""


@pytest.mark.browser
@pytest.mark.django_db(transaction=True)
def test_the_browser_fetches_the_sheet_first_and_htmx_after(live_server: Any, page: Any) -> None:
    event = make_event(club=Club.objects.create(name="KC Herzbube", slug="herzbube"))
    requests: list[str] = []
    page.on("request", lambda r: requests.append(r.url.removeprefix(live_server.url)))
    page.add_init_script(READY_PROBE)
    page.goto(f"{live_server.url}/t/{event.code1}/")
    expect(page.locator(".entry-head h2")).to_contain_text("Spiel 1")
    page.wait_for_function("() => !!window.htmx && window.__sheetReady !== undefined")
    page.wait_for_load_state("networkidle")
    assert page.evaluate("document.documentElement.classList.contains('js')")
    expect(page.locator(".nojs-banner")).to_be_hidden()
    loaded = [url for url in requests if url.startswith("/static/")]
    assert sorted(loaded) == sorted(
        static(name) for name in [*SHEET_FILES, "tournaments/htmx.min.js"]
    )
    pages = [url for url in requests if not url.startswith("/static/")]
    assert pages == [f"/t/{event.code1}/", "/t/sw.js"] or pages == [f"/t/{event.code1}/"]
    started = page.evaluate(
        "name => performance.getEntriesByType('resource')"
        ".find(e => e.name.includes(name)).startTime",
        "htmx.min",
    )
    assert started >= page.evaluate("window.__sheetReady")
    # htmx works: an entered deal appears in the score panel it refreshes
    enter_deal(page, declarer=1, points0=64)
    expect(page.locator("#table-state .deal-list li")).to_have_count(1)
    page.goto("about:blank")  # nothing of the page's still in flight when the test ends


@pytest.mark.django_db
def test_a_gzipped_answer_still_revalidates(client: Client, event: Event) -> None:
    """GZipMiddleware weakens the ETag of what it compresses; the live tables' polls
    (If-None-Match with that weak tag) still get 304."""
    url = f"/tournaments/{event.tournament.pk}/standings/table/"
    first = client.get(url, headers={"accept_encoding": "gzip"})
    assert first.status_code == 200 and first["Content-Encoding"] == "gzip"
    assert first["ETag"].startswith('W/"standings-table-')
    again = client.get(url, headers={"accept_encoding": "gzip", "if_none_match": first["ETag"]})
    assert again.status_code == 304
