"""Sign-in endpoints: organisers' API tokens, one per client (``POST /api/auth/token/``
issues a new one at every sign-in, ``GET /api/auth/tokens/`` lists the caller's,
``DELETE /api/auth/tokens/{id}/`` revokes one of them, ``DELETE /api/auth/token/`` the one
presented), the organisers' login page (``/accounts/login/``), both sign-ins answering 429
while wrong passwords lock the client's address or the account at that address
(``tournaments.access.lockout``), and the site's logout, which also revokes the API tokens
issued to that browser's session (never the scripts' tokens).
A successful sign-in on the page remembers the language the page was read in
(``tournaments.clubs.languages``: the league reminders write to the user in it).
"""

from __future__ import annotations

from typing import Any

from django.contrib.auth.forms import AuthenticationForm
from django.contrib.auth.views import LoginView, LogoutView
from django.db.models import QuerySet
from django.http import HttpRequest, HttpResponse
from django.shortcuts import render
from django.utils.translation import get_language
from django.utils.translation import gettext_lazy as _
from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import extend_schema, extend_schema_view
from rest_framework import mixins, permissions, serializers, status, viewsets
from rest_framework.authtoken.serializers import AuthTokenSerializer
from rest_framework.exceptions import NotAuthenticated, ValidationError
from rest_framework.renderers import JSONRenderer
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.settings import api_settings
from rest_framework.views import APIView

from klammern_site.parsers import ParsedBody
from klammern_site.serializers import ModelSerializer, Serializer
from tournaments.access import lockout
from tournaments.clubs import languages
from tournaments.clubs import services as clubs
from tournaments.clubs.models import ApiToken
from tournaments.common.validators import validate_name
from tournaments.events.permissions import NotADevice

#: The session key under which a browser's session keeps the ids of the API tokens issued
#: to it (its logout revokes them).
SESSION_TOKENS = "api_token_ids"


class TokenSignInSerializer(Serializer, AuthTokenSerializer):
    """An organiser's username and password (checked as DRF's ``AuthTokenSerializer``
    does) and the name of the client the token is for."""

    token = None  # DRF's answer field: the answer is ``IssuedTokenSerializer``
    name = serializers.CharField(
        required=False,
        allow_blank=True,
        max_length=100,
        validators=[validate_name],
        help_text="What the token is for (e.g. `scoreboard script`), to tell it apart in the list.",
    )


class ApiTokenSerializer(ModelSerializer):
    """One of the user's API tokens as listed: never the token itself."""

    expires_at = serializers.DateTimeField(read_only=True)

    class Meta:
        model = ApiToken
        fields = ["id", "name", "created", "last_used", "expires_at"]
        read_only_fields = fields


class IssuedTokenSerializer(Serializer):
    """A newly issued API token: the token itself (this once) and its entry in the list."""

    token = serializers.CharField(
        help_text="For ``Authorization: Token <token>``. Shown only here: the site keeps "
        "only its hash."
    )
    id = serializers.IntegerField()
    name = serializers.CharField()
    created = serializers.DateTimeField()
    last_used = serializers.DateTimeField(allow_null=True)
    expires_at = serializers.DateTimeField()


class TokenView(ParsedBody, APIView):
    throttle_classes = ()  # failed attempts are counted by the lockout instead
    permission_classes = ()
    parser_classes = api_settings.DEFAULT_PARSER_CLASSES
    renderer_classes = (JSONRenderer,)

    @extend_schema(
        extensions={"x-permissions": ["anonymous"]},
        request=TokenSignInSerializer,
        responses={200: IssuedTokenSerializer, 409: OpenApiTypes.OBJECT},
        description="Exchange an organiser's username and password for a new API token for "
        "this client (`Authorization: Token <token>`), named by the optional `name`, valid "
        "until `expires_at` (`API_TOKEN_TTL_HOURS`). Every call issues another token; the "
        "user's earlier tokens keep working (`GET /api/auth/tokens/` lists them). 400 for a "
        f"wrong password; 409 `too_many_tokens` while the user holds {clubs.MAX_API_TOKENS} "
        "live tokens; 429 while wrong passwords lock the address, or the account at that address.",
    )
    def post(self, request: Request, *args: Any, **kwargs: Any) -> Response:
        if wait := lockout.locked_for(request, username=lockout.username_of(request.data)):
            raise lockout.TooManyFailures(wait)
        serializer = TokenSignInSerializer(data=request.data, context={"request": request})
        try:
            serializer.is_valid(raise_exception=True)
        except ValidationError:
            if wait := getattr(request, lockout.LOCKED_WAIT, 0):  # locked meanwhile
                raise lockout.TooManyFailures(wait) from None
            raise
        data = serializer.validated_data
        token, key = clubs.issue_api_token(user=data["user"], name=data.get("name", ""))
        if request.session.session_key:  # a browser: its logout revokes the token
            request.session[SESSION_TOKENS] = [*request.session.get(SESSION_TOKENS, []), token.pk]
        return Response({"token": key, **ApiTokenSerializer(token).data})

    @extend_schema(
        request=None,
        responses={204: None},
        description="Revoke the API token this request presents (`Authorization: Token "
        "<token>`); it authenticates nobody afterwards, the user's other tokens keep "
        "working. 401 without a token.",
    )
    def delete(self, request: Request, *args: Any, **kwargs: Any) -> Response:
        if not isinstance(request.auth, ApiToken):
            raise NotAuthenticated(_("Send the API token to revoke: Authorization: Token <token>."))
        clubs.revoke_api_token(user=request.user, token_id=request.auth.pk)
        return Response(status=status.HTTP_204_NO_CONTENT)


@extend_schema_view(
    list=extend_schema(
        operation_id="auth_tokens_list",
        description="The caller's live API tokens, newest first: each client's token with "
        "its name, when it was issued, last used (to the minute) and expires. Never the "
        "token itself.",
    ),
    destroy=extend_schema(
        operation_id="auth_tokens_destroy",
        description="Revoke one of the caller's API tokens; the others keep working. 404 "
        "for an id that is not one of the caller's tokens.",
    ),
)
class ApiTokenViewSet(
    ParsedBody, mixins.ListModelMixin, mixins.DestroyModelMixin, viewsets.GenericViewSet
):
    """A signed-in user's API tokens (token or session); table devices are refused."""

    serializer_class = ApiTokenSerializer
    permission_classes = [NotADevice, permissions.IsAuthenticated]
    filter_backends: list[Any] = []

    def get_queryset(self) -> QuerySet[ApiToken]:
        if getattr(self, "swagger_fake_view", False):
            return ApiToken.objects.none()
        return ApiToken.objects.live().filter(user=self.request.user)

    def perform_destroy(self, instance: ApiToken) -> None:
        clubs.revoke_api_token(user=self.request.user, token_id=instance.pk)


class TokenRevokingLogoutView(LogoutView):
    """The site's logout, revoking the API tokens issued to this browser's session (and
    no other token of the user)."""

    def post(self, request: HttpRequest, *args: Any, **kwargs: Any) -> HttpResponse:
        ids = request.session.get(SESSION_TOKENS)
        if ids and request.user.is_authenticated:
            clubs.revoke_api_tokens(user=request.user, token_ids=ids)
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
