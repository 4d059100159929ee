"""Sign-in endpoints: the API token (``POST /api/auth/token/`` issues it,
``DELETE`` revokes it) and the organisers' login page (``/accounts/login/``), both
answering 429 while failed attempts lock the client's address or the account
(``tournaments.common.lockout``), and the site's logout, which also revokes an API token issued
to that browser's session.

The token view is DRF's ``ObtainAuthToken`` with the site's parsers
(``DEFAULT_PARSER_CLASSES``, so that a body nested too deeply is a 400 as everywhere
else in the API); its tokens expire (``tournaments.common.authentication``). The login page is
Django's ``LoginView``. Attempts are counted by ``tournaments.common.lockout.LockoutBackend``
before the password is checked, not here. A successful sign-in on the page remembers the
language the page was read in (``tournaments.common.languages``: the league reminders
write to the user in it).
"""

from __future__ import annotations

from typing import Any

from django.contrib.auth.forms import AuthenticationForm
from django.contrib.auth.views import LoginView, LogoutView
from django.http import HttpRequest, HttpResponse
from django.shortcuts import render
from django.utils.translation import get_language
from django.utils.translation import gettext_lazy as _
from drf_spectacular.utils import extend_schema
from rest_framework import serializers, status
from rest_framework.authtoken.models import Token
from rest_framework.authtoken.views import ObtainAuthToken
from rest_framework.exceptions import NotAuthenticated, ValidationError
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.settings import api_settings

from klammern_site.serializers import Serializer
from tournaments.common import authentication, languages, lockout

#: The session key under which a browser's session keeps the API token issued to it.
SESSION_TOKEN = "api_token"


class TokenSerializer(Serializer):
    token = serializers.CharField(help_text="For ``Authorization: Token <token>``.")
    expires_at = serializers.DateTimeField()


class TokenView(ObtainAuthToken):
    parser_classes = api_settings.DEFAULT_PARSER_CLASSES

    @extend_schema(
        extensions={"x-permissions": ["anonymous"]},
        responses={200: TokenSerializer},
        description="Exchange an organiser's username and password for an API token "
        "(`Authorization: Token <token>`), valid until `expires_at` (`API_TOKEN_TTL_HOURS`). "
        "400 for a wrong password; 429 while failed attempts lock the address or the account.",
    )
    def post(self, request: Request, *args: Any, **kwargs: Any) -> Response:
        if wait := lockout.locked_for(request, username=lockout.username_of(request.data)):
            raise lockout.TooManyFailures(wait)
        serializer = self.get_serializer(data=request.data)
        try:
            serializer.is_valid(raise_exception=True)
        except ValidationError:
            if wait := getattr(request, lockout.LOCKED_WAIT, 0):  # locked meanwhile
                raise lockout.TooManyFailures(wait) from None
            raise
        token = authentication.issue_token(serializer.validated_data["user"])
        if request.session.session_key:  # a browser: its logout revokes the token
            request.session[SESSION_TOKEN] = token.key
        body = {"token": token.key, "expires_at": authentication.token_expires_at(token)}
        return Response(TokenSerializer(body).data)

    @extend_schema(
        request=None,
        responses={204: None},
        description="Revoke the API token this request presents (`Authorization: Token "
        "<token>`); it authenticates nobody afterwards. 401 without a token.",
    )
    def delete(self, request: Request, *args: Any, **kwargs: Any) -> Response:
        if not isinstance(request.auth, Token):
            raise NotAuthenticated(_("Send the API token to revoke: Authorization: Token <token>."))
        Token.objects.filter(pk=request.auth.pk).delete()
        return Response(status=status.HTTP_204_NO_CONTENT)


class TokenRevokingLogoutView(LogoutView):
    """The site's logout, revoking the API token issued to this browser's session."""

    def post(self, request: HttpRequest, *args: Any, **kwargs: Any) -> HttpResponse:
        key = request.session.get(SESSION_TOKEN)
        if key and request.user.is_authenticated:
            Token.objects.filter(key=key, user=request.user).delete()
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
        response = super().post(request, *args, **kwargs)
        if wait := getattr(request, lockout.LOCKED_WAIT, 0):  # locked meanwhile
            return too_many_failures_page(request, wait)
        return response

    def form_valid(self, form: AuthenticationForm) -> HttpResponse:
        response = super().form_valid(form)
        languages.remember_language(form.get_user().pk, get_language())
        return response
