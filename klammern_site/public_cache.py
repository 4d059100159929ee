"""The lifetime a caching proxy (nginx, ``deploy/nginx/``) and a browser may keep the
anonymous public reads for: the standings page and its partial, the standings API,
embeds, feeds and share pictures. One place for all of them, by URL name.

An answer to an anonymous GET or HEAD of one of these (no session user, no
``Authorization`` header) with status 200 gets ``public`` and ``s-maxage`` of
``PUBLIC_READ_MAX_AGE`` seconds (the proxy's lifetime: the live standings are never more
than that stale behind it), and ``max-age`` of as much if the view set none (a share
picture keeps its own longer browser lifetime). An answer marked ``private`` or
``no-store``, or setting a cookie, is left alone; so is every other request: a signed-in
organiser's pages are never stored by anybody.
"""

from __future__ import annotations

from collections.abc import Callable

from django.conf import settings
from django.http import HttpRequest, HttpResponse
from django.utils.cache import get_max_age, patch_cache_control

#: Seconds a proxy may serve a public read without asking the app again.
PUBLIC_READ_MAX_AGE = 5
#: The URL names of the public reads (tournaments/web/urls.py, tournaments/urls.py).
PUBLIC_READS = frozenset(
    {
        "standings",
        "standings-table",
        "tournament-standings",
        "embed-club",
        "embed-standings",
        "embed-season",
        "embed-division",
        "club-feed",
        "club-og",
        "season-og",
        "standings-og",
    }
)


def is_anonymous_read(request: HttpRequest) -> bool:
    """A GET or HEAD without a session cookie and without ``Authorization``: the same
    test as the proxy's, and it reads no session from the database."""
    return (
        request.method in ("GET", "HEAD")
        and "HTTP_AUTHORIZATION" not in request.META
        and settings.SESSION_COOKIE_NAME not in request.COOKIES
    )


def is_public_read(request: HttpRequest) -> bool:
    match = request.resolver_match
    return match is not None and match.url_name in PUBLIC_READS


def shareable(response: HttpResponse) -> bool:
    control = response.get("Cache-Control", "").lower()
    return (
        response.status_code == 200
        and not response.cookies
        and not ("private" in control or "no-store" in control or "no-cache" in control)
    )


class PublicReadCacheMiddleware:
    """Last in ``MIDDLEWARE``: sees the view's answer before any cookie is set."""

    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        response = self.get_response(request)
        if is_public_read(request) and is_anonymous_read(request) and shareable(response):
            if get_max_age(response) is None:
                patch_cache_control(response, max_age=PUBLIC_READ_MAX_AGE)
            patch_cache_control(response, public=True, s_maxage=PUBLIC_READ_MAX_AGE)
        return response
