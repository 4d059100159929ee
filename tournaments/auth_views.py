"""Sign-in endpoints: the API token (``POST /api/auth/token/``) and the organisers'
login page (``/accounts/login/``), both answering 429 while failed attempts lock the
client's address or the account (``tournaments.lockout``).

The token view is DRF's ``ObtainAuthToken`` with the site's parsers
(``DEFAULT_PARSER_CLASSES``, so that a body nested too deeply is a 400 as everywhere
else in the API); the login page is Django's ``LoginView``. Failures are counted by
``tournaments.lockout`` from Django's ``user_login_failed`` signal, not here.
"""

from __future__ import annotations

from typing import Any

from django.contrib.auth.views import LoginView
from django.http import HttpRequest, HttpResponse
from django.shortcuts import render
from drf_spectacular.utils import extend_schema
from rest_framework.authtoken.views import ObtainAuthToken
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.settings import api_settings

from . import lockout


class TokenView(ObtainAuthToken):
    parser_classes = api_settings.DEFAULT_PARSER_CLASSES

    @extend_schema(
        extensions={"x-permissions": ["anonymous"]},
        description="Exchange an organiser's username and password for an API token "
        "(`Authorization: Token <token>`). 400 for a wrong password; 429 while failed "
        "attempts lock the address or the account.",
    )
    def post(self, request: Request, *args: Any, **kwargs: Any) -> Response:
        if wait := lockout.locked_for(request, username=lockout.username_of(request.data)):
            raise lockout.TooManyFailures(wait)
        return super().post(request, *args, **kwargs)


def too_many_failures_page(request: HttpRequest, wait: int) -> HttpResponse:
    """The page a locked-out browser sees: 429 with ``Retry-After``."""
    response = render(
        request, "too_many_failures.html", {"minutes": max(1, -(-wait // 60))}, status=429
    )
    response["Retry-After"] = str(wait)
    return response


class LockoutLoginView(LoginView):
    def post(self, request: HttpRequest, *args: Any, **kwargs: Any) -> HttpResponse:
        if wait := lockout.locked_for(request, username=lockout.username_of(request.POST)):
            return too_many_failures_page(request, wait)
        return super().post(request, *args, **kwargs)
