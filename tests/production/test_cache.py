"""The proxy's short cache, against a live nginx in front of two app servers: anonymous
public reads are served from it for the few seconds the app allows, once per language;
a signed-in reader (session cookie or ``Authorization``) is never served from it nor
stored in it; a POST never is; and a cached page shows a new deal within the lifetime."""

from __future__ import annotations

import time
from typing import Any

from klammern_site.public_cache import PUBLIC_READ_MAX_AGE

from .helpers import enter_deal, evening, sign_in
from .proxy import Proxy, poll


def pages(tournament: int) -> list[str]:
    return [f"/tournaments/{tournament}/standings/", f"/api/tournaments/{tournament}/standings/"]


def test_anonymous_reads_are_cached_once_per_language(proxy: Proxy, django_user_model: Any) -> None:
    tournament = evening(django_user_model).tournament_id
    for path in [*pages(tournament), f"/tournaments/{tournament}/standings/table/"]:
        answers = {}
        for language in ("de", "fr"):
            first = proxy.get(path, headers={"Accept-Language": language})
            again = proxy.get(path, headers={"Accept-Language": f"{language}-CH, en;q=0.5"})
            assert first.status == again.status == 200, (path, first.status)
            assert (first.cache, again.cache) == ("MISS", "HIT"), (path, language)
            assert again.body == first.body
            control = first.headers["cache-control"]
            assert "public" in control and f"s-maxage={PUBLIC_READ_MAX_AGE}" in control
            answers[language] = first.body
        assert answers["de"] != answers["fr"], path
    page = proxy.get(pages(tournament)[0], headers={"Accept-Language": "fr"})
    assert '<html lang="fr"' in page.text and page.cache == "HIT"


def test_the_language_cookie_has_its_own_entry(proxy: Proxy, django_user_model: Any) -> None:
    path = pages(evening(django_user_model).tournament_id)[0]
    german = proxy.get(path, headers={"Accept-Language": "de"})
    assert german.cache == "MISS" and '<html lang="de"' in german.text
    cookie = {"Accept-Language": "de", "Cookie": "django_language=nl"}
    dutch = proxy.get(path, headers=cookie)
    assert dutch.cache == "MISS" and '<html lang="nl"' in dutch.text
    assert proxy.get(path, headers=cookie).cache == "HIT"


def test_a_signed_in_reader_is_never_served_from_the_cache_nor_stored(
    proxy: Proxy, django_user_model: Any
) -> None:
    night = evening(django_user_model)
    page, api = pages(night.tournament_id)
    browser, _ = sign_in(proxy, night.organiser.username)
    for _ in range(2):
        signed_in = proxy.get(page, headers={"Accept-Language": "de"}, browser=browser)
        assert signed_in.status == 200 and signed_in.cache == "BYPASS"
    token = proxy.request(
        "POST",
        "/api/auth/token/",
        body={"username": night.organiser.username, "password": "proxy-organiser-pw"},
    )
    assert token.status == 200, token.text
    auth = {"Authorization": f"Token {token.json['token']}"}
    for _ in range(2):
        assert proxy.get(api, headers=auth).cache == "BYPASS"
    # nothing of theirs was stored: the first anonymous reads are misses
    assert proxy.get(page, headers={"Accept-Language": "de"}).cache == "MISS"
    assert proxy.get(api).cache == "MISS"
    # and a cached anonymous answer is not given to them either
    assert proxy.get(api).cache == "HIT"
    assert proxy.get(api, headers=auth).cache == "BYPASS"
    assert proxy.get(page, headers={"Accept-Language": "de"}, browser=browser).cache == "BYPASS"


def test_a_post_is_never_cached(proxy: Proxy, django_user_model: Any) -> None:
    api = pages(evening(django_user_model).tournament_id)[1]
    for _ in range(2):
        posted = proxy.request("POST", api, body={})
        assert posted.status in (401, 403, 405) and posted.cache not in ("HIT", "STALE")
    assert proxy.get(api).cache == "MISS"


def test_a_cached_page_shows_a_new_deal_within_the_lifetime(
    proxy: Proxy, django_user_model: Any
) -> None:
    night = evening(django_user_model)
    page, api = pages(night.tournament_id)
    before_page = proxy.get(page)
    before_api = proxy.get(api)
    assert proxy.get(page).cache == proxy.get(api).cache == "HIT"
    entered = enter_deal(proxy, f"Device {night.event.code1}", night.event.match1.pk, 1)
    assert entered.status == 201, entered.text

    def api_shows_it() -> bool:
        body = proxy.get(api).json
        return bool(body["results_version"] == 1 and body["up_to_date"])

    def page_shows_it() -> bool:
        return proxy.get(page).body != before_page.body

    assert before_api.json["results_version"] == 0
    limit = PUBLIC_READ_MAX_AGE + 1.5  # the lifetime, and the worker's recompute
    start = time.monotonic()
    poll(api_shows_it, timeout=limit)
    poll(page_shows_it, timeout=max(limit - (time.monotonic() - start), 0.1))
    assert time.monotonic() - start <= limit
