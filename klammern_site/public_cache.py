"""A short per-process cache in front of public reads that are the same for every
anonymous reader (the standings API and page): Django's cache framework, ``cache_page``
on the ``public`` cache (a ``LocMemCache`` in each process), with ``conditional_page``
around it, so that a repeated read is answered from memory and a matching
``If-None-Match`` still gets 304 without a body.

Only a ``GET`` (or ``HEAD``) without a query string, an ``Authorization`` header, a
session or a messages cookie is looked up there (``shared_by_everyone``): a signed-in
reader, an organiser, a table's device or ``?fresh=1`` always reaches the view itself.
The key is Django's: the URL, the active language and time zone (Django adds both to
every cache key) and the request headers the answer varies on, so languages never mix.

An entry lives ``PUBLIC_CACHE_SECONDS`` (the ``max-age`` these answers carry anyway), so
a new snapshot shows within the max-age the answer states; a per-process cache hears of
no new snapshot and is not invalidated. It does not decide who may read what: the views
still do, and a DRF view's authentication and throttles run before it (it decorates the
view's method, as DRF's documentation shows for ``cache_page``).
"""

from __future__ import annotations

from collections.abc import Callable
from functools import wraps
from typing import Any

from django.conf import settings
from django.http import HttpRequest
from django.http.response import HttpResponseBase
from django.views.decorators.cache import cache_page
from django.views.decorators.http import conditional_page

#: The cache alias (``settings.CACHES``): per process, never shared between processes.
PUBLIC_CACHE = "public"
#: How long an answer is reused, and the ``max-age`` it states: seconds.
PUBLIC_CACHE_SECONDS = 5
#: Cookies that make a page someone's own (messages are shown once, to one reader).
OWN_COOKIES = ("messages",)

View = Callable[..., HttpResponseBase]


def shared_by_everyone(request: HttpRequest) -> bool:
    """Whether ``request`` is one that any anonymous reader could have sent: its answer
    may come from, and go into, the public cache."""
    if request.method not in ("GET", "HEAD") or request.GET:
        return False
    if "Authorization" in request.headers:
        return False
    own = (settings.SESSION_COOKIE_NAME, *OWN_COOKIES)
    return not any(name in request.COOKIES for name in own)


def cached_for_everyone(view: View) -> View:
    """``view`` with the public cache in front of it for requests ``shared_by_everyone``;
    any other request calls ``view`` as it is."""
    cached = conditional_page(cache_page(PUBLIC_CACHE_SECONDS, cache=PUBLIC_CACHE)(view))

    @wraps(view)
    def wrapper(request: HttpRequest, *args: Any, **kwargs: Any) -> HttpResponseBase:
        if shared_by_everyone(request):
            return cached(request, *args, **kwargs)  # type: ignore[no-any-return]
        return view(request, *args, **kwargs)

    return wrapper
