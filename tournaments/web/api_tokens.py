"""The organiser's API tokens in the console: the card on the console home lists the
live ones (one per client: name, issued, last used, expires; never the token itself) and
revokes one at a time. Tokens are issued through ``POST /api/auth/token/``, not here."""

from __future__ import annotations

from django.contrib import messages
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.urls import reverse
from django.utils.translation import gettext as _
from django.views.decorators.http import require_POST

from tournaments.clubs import services as clubs
from tournaments.clubs.models import ApiToken
from tournaments.common.errors import NotFound

from .console import organiser_required


@organiser_required
@require_POST
def revoke_token(request: HttpRequest, pk: int) -> HttpResponse:
    """Revoke one of the user's tokens (404 for any other); the others keep working."""
    try:
        clubs.revoke_api_token(user=request.user, token_id=pk)
    except NotFound as exc:
        raise Http404(exc.message) from exc
    if request.htmx:
        tokens = ApiToken.objects.live().filter(user=request.user)
        context = {"api_tokens": tokens, "token_revoked": True}
        return render(request, "console/_api_tokens_card.html", context)
    messages.success(request, _("API token revoked."))
    return redirect(reverse("console") + "#api-tokens")
