"""What the proxy does at the edge: the player's own address reaches the app (so a lockout
keyed by it locks that player only, whatever X-Forwarded-For the client forges); static
files come from nginx; the app's internal views are not reachable from outside while
/healthz is; pages are gzipped; a body over the app's limit is refused by nginx."""

from __future__ import annotations

import gzip
import json
from typing import Any

from django.conf import settings

from .conftest import CODE_RATE, Stack
from .helpers import evening
from .proxy import Proxy

WRONG = "Device ZZZZ-ZZZZ"


def device_check(proxy: Proxy, source: str, headers: dict[str, str] | None = None) -> int:
    reply = proxy.get(
        "/api/device/", headers={"Authorization": WRONG, **(headers or {})}, source=source
    )
    return reply.status


def test_the_lockout_sees_each_players_own_address(proxy: Proxy) -> None:
    player, neighbour = "127.0.0.5", "127.0.0.6"
    assert [device_check(proxy, player) for _ in range(CODE_RATE)] == [401] * CODE_RATE
    assert device_check(proxy, player) == 429
    # another address behind the same proxy is not locked out ...
    assert device_check(proxy, neighbour) == 401
    # ... and cannot be made to look like the locked one, nor the locked one escape
    assert device_check(proxy, neighbour, {"X-Forwarded-For": player}) == 401
    assert device_check(proxy, player, {"X-Forwarded-For": neighbour}) == 429


def test_static_files_come_from_nginx(stack: Stack) -> None:
    manifest = json.loads((stack.static_root / "staticfiles.json").read_text())
    hashed = manifest["paths"]["tournaments/site.css"]
    reply = stack.proxy.get(f"/static/{hashed}", headers={"Accept-Encoding": "gzip"})
    assert reply.status == 200 and reply.headers["content-type"].startswith("text/css")
    assert reply.headers.get("content-encoding") == "gzip"  # whitenoise's .gz, sent as it is
    original = (stack.static_root / hashed).read_bytes()
    assert gzip.decompress(reply.body) == original
    assert stack.proxy.upstream_of(reply) == "-"  # no app server was asked
    missing = stack.proxy.get("/static/tournaments/no-such-file.css")
    assert missing.status == 404 and stack.proxy.upstream_of(missing) == "-"


def test_internal_views_are_not_reachable_from_outside(stack: Stack) -> None:
    for path in ("/metrics", "/metrics/", "/readyz", "/readyz/?verbose=1"):
        reply = stack.proxy.get(path)
        assert reply.status == 404, path
        assert stack.proxy.upstream_of(reply) == "-", path
    health = stack.proxy.get("/healthz")
    assert health.status == 200 and stack.proxy.upstream_of(health) in stack.site.upstreams


def test_pages_are_gzipped(proxy: Proxy, django_user_model: Any) -> None:
    path = f"/tournaments/{evening(django_user_model).tournament_id}/standings/"
    for _ in range(2):  # from the app, then from the cache
        reply = proxy.get(path, headers={"Accept-Encoding": "gzip", "Accept-Language": "de"})
        assert reply.status == 200 and reply.headers.get("content-encoding") == "gzip"
        assert b"<html" in gzip.decompress(reply.body)
    plain = proxy.get(path, headers={"Accept-Language": "de"})
    assert plain.cache == "HIT" and "content-encoding" not in plain.headers
    assert b"<html" in plain.body


def test_a_body_over_the_apps_limit_is_refused_by_nginx(stack: Stack) -> None:
    limit = settings.DATA_UPLOAD_MAX_MEMORY_SIZE
    body = b"x" * (limit + 1)
    reply = stack.proxy.request(
        "POST", "/api/matches/1/deals/1/", body=body, headers={"Content-Type": "application/json"}
    )
    assert reply.status == 413
    assert stack.proxy.upstream_of(reply) == "-"
    under = stack.proxy.request(
        "POST", "/api/matches/1/deals/1/", body=b"{}", headers={"Content-Type": "application/json"}
    )
    assert under.status == 404 and under.json["code"] == "not_found"  # the app's answer
    assert stack.proxy.upstream_of(under) in stack.site.upstreams
