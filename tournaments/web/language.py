"""The language switch as plain links: ``GET /lang/<code>/?next=<path>`` sets the language
cookie exactly as Django's ``set_language`` does and redirects back.

A link needs no form and so no CSRF token: public pages can be the same bytes for every
anonymous visitor (and cached as such), and the switch works without JavaScript, signed
in or not. An unknown language is 404; a ``next`` that is missing or points to another
host or scheme goes to the home page. Django's POST view stays at ``/i18n/setlang/``.
A signed-in user's choice is also remembered for the e-mails the site sends them
(``tournaments.clubs.languages``).
"""

from __future__ import annotations

from django.conf import settings
from django.http import Http404, HttpRequest, HttpResponseRedirect
from django.utils.cache import add_never_cache_headers
from django.utils.http import url_has_allowed_host_and_scheme

from tournaments.clubs import languages


def switch_language(request: HttpRequest, code: str) -> HttpResponseRedirect:
    if code not in dict(settings.LANGUAGES):
        raise Http404("No such language.")
    response = HttpResponseRedirect(_safe_next(request))
    response.set_cookie(
        settings.LANGUAGE_COOKIE_NAME,
        code,
        max_age=settings.LANGUAGE_COOKIE_AGE,
        path=settings.LANGUAGE_COOKIE_PATH,
        domain=settings.LANGUAGE_COOKIE_DOMAIN,
        secure=settings.LANGUAGE_COOKIE_SECURE,
        httponly=settings.LANGUAGE_COOKIE_HTTPONLY,
        samesite=settings.LANGUAGE_COOKIE_SAMESITE,
    )
    add_never_cache_headers(response)  # it sets a cookie: no proxy may replay it
    if request.user.is_authenticated:
        languages.remember_language(request.user.pk, code)
    return response


def _safe_next(request: HttpRequest) -> str:
    target = request.GET.get("next", "")
    safe = url_has_allowed_host_and_scheme(
        url=target, allowed_hosts={request.get_host()}, require_https=request.is_secure()
    )
    return target if target and safe else "/"
