"""Services of clubs without the admin: signing up, creating a club (its creator organises
it) and changing its settings, members and guests, inviting further organisers by a
single-use link, a club's seasons, and an organiser's API tokens (one per client, each
named and revoked on its own).

An invitation's token is random (``secrets.token_urlsafe``), shown once and stored only
as its HMAC (keyed with SECRET_KEY); it expires after ``INVITATION_DAYS`` and works once.
An API token is made and stored the same way; it lives ``API_TOKEN_TTL_HOURS``
(``tournaments.access.authentication`` refuses it afterwards), and a user holds at most
``MAX_API_TOKENS`` live ones.
"""

from __future__ import annotations

import hashlib
import hmac
import secrets
import unicodedata
from datetime import date, timedelta
from typing import Any

from django.conf import settings
from django.contrib.auth import get_user_model
from django.core.exceptions import ValidationError
from django.db import IntegrityError, transaction
from django.utils import timezone
from django.utils.translation import gettext_lazy as _

from tournaments.clubs.models import (
    ApiToken,
    Club,
    ClubMembership,
    OrganiserInvitation,
    Player,
    Season,
    hash_api_token,
)
from tournaments.common.errors import Conflict, NotFound, Refused
from tournaments.common.validators import validate_name

INVITATION_DAYS = 7
#: Live API tokens one user may hold: a script that signs in on every run without
#: revoking its token is told so instead of filling the table.
MAX_API_TOKENS = 100


def hash_invitation_token(token: str) -> str:
    return hmac.new(
        settings.SECRET_KEY.encode(), f"invitation:{token.strip()}".encode(), hashlib.sha256
    ).hexdigest()


def normalised_username(username: str) -> str:
    """The username as Django stores it (NFKC: "ｏｒｇａｎｉｓｅｒ" is "organiser")."""
    return unicodedata.normalize("NFKC", username)


def check_username(username: str) -> None:
    """No invisible characters and no word mixing look-alike alphabets, as in names."""
    try:
        validate_name(username)
    except ValidationError as exc:
        raise Refused(f"username_{exc.code}", exc.messages[0]) from exc


@transaction.atomic
def sign_up(*, username: str, email: str, password: str) -> Any:
    """A new user account (validated by the caller's form or serializer). A username
    that equals an existing one after NFKC normalisation, ignoring case, is taken."""
    users = get_user_model()
    username = normalised_username(username)
    check_username(username)
    if users.objects.filter(username__iexact=username).exists():
        raise Conflict("username_taken", _("This username is taken."))
    try:
        with transaction.atomic():
            return users.objects.create_user(username=username, email=email, password=password)
    except IntegrityError as exc:  # signed up at the same moment
        raise Conflict("username_taken", _("This username is taken.")) from exc


@transaction.atomic
def create_club(*, user: Any, name: str, slug: str, city: str = "") -> Club:
    """A new club; ``user`` becomes its organiser."""
    try:
        with transaction.atomic():
            club = Club.objects.create(name=name.strip(), slug=slug, city=city.strip())
    except IntegrityError as exc:
        raise Conflict(
            "club_slug_taken",
            _("A club with the address '%(slug)s' exists already."),
            params={"slug": slug},
        ) from exc
    club.organisers.add(user)
    return club


#: What an organiser may change of a club (its address, the slug, stays).
@transaction.atomic
def set_membership(*, club: Club, player: Player, kind: str) -> ClubMembership:
    """Make a player of the club a member or a guest."""
    membership = ClubMembership.objects.select_for_update().get(club=club, player=player)
    if membership.kind != kind:
        membership.kind = kind
        membership.save(update_fields=["kind"])
    return membership


@transaction.atomic
def invite_organiser(*, club: Club, invited_by: Any) -> tuple[OrganiserInvitation, str]:
    """A single-use invitation; the plain token is returned once and never stored."""
    token = secrets.token_urlsafe(24)
    invitation = OrganiserInvitation.objects.create(
        club=club,
        token_hash=hash_invitation_token(token),
        created_by=invited_by,
        expires_at=timezone.now() + timedelta(days=INVITATION_DAYS),
    )
    return invitation, token


def find_invitation(token: str) -> OrganiserInvitation:
    invitation = (
        OrganiserInvitation.objects.select_related("club")
        .filter(token_hash=hash_invitation_token(token))
        .first()
    )
    if invitation is None:
        raise NotFound("invitation_unknown", _("This invitation link is not valid."))
    return invitation


@transaction.atomic
def accept_invitation(*, token: str, user: Any) -> Club:
    """Make ``user`` an organiser of the invitation's club; the link is used up."""
    found = find_invitation(token)
    invitation = OrganiserInvitation.objects.select_for_update().get(pk=found.pk)
    if invitation.accepted_at is not None:
        raise Conflict("invitation_used", _("This invitation has been used already."))
    if not invitation.is_usable():
        raise Conflict("invitation_expired", _("This invitation has expired."))
    invitation.accepted_by = user
    invitation.accepted_at = timezone.now()
    invitation.save(update_fields=["accepted_by", "accepted_at"])
    invitation.club.organisers.add(user)
    return invitation.club


# --- seasons ----------------------------------------------------------------------------


def _check_season(starts_on: date, ends_on: date, best_of: int | None, min_evenings: int) -> None:
    if ends_on < starts_on:
        raise Refused("season_dates", _("A season ends after it starts."))
    if best_of is not None and best_of < 1 or min_evenings < 1:
        raise Refused("season_counts", _("Best N and minimum evenings are at least 1."))


@transaction.atomic
def create_season(
    *,
    club: Club,
    name: str,
    starts_on: date,
    ends_on: date,
    best_of: int | None = None,
    min_evenings: int = 1,
) -> Season:
    _check_season(starts_on, ends_on, best_of, min_evenings)
    return Season.objects.create(
        club=club,
        name=name,
        starts_on=starts_on,
        ends_on=ends_on,
        best_of=best_of,
        min_evenings=min_evenings,
    )


@transaction.atomic
def update_season(*, season: Season, changes: dict[str, Any]) -> Season:
    season = Season.objects.select_for_update().get(pk=season.pk)
    for field, value in changes.items():
        setattr(season, field, value)
    _check_season(season.starts_on, season.ends_on, season.best_of, season.min_evenings)
    season.save(update_fields=list(changes))
    return season


@transaction.atomic
def issue_api_token(*, user: Any, name: str = "") -> tuple[ApiToken, str]:
    """A new API token for one client of ``user``, and its secret (shown once, stored
    only hashed). The user's other tokens keep working; expired ones are deleted. 409
    ``too_many_tokens`` while the user holds ``MAX_API_TOKENS`` live ones."""
    get_user_model().objects.select_for_update().get(pk=user.pk)  # one issue at a time
    now = timezone.now()
    tokens = ApiToken.objects.filter(user=user)
    tokens.expired(now=now).delete()
    if tokens.count() >= MAX_API_TOKENS:
        raise Conflict(
            "too_many_tokens",
            _(
                "You already hold %(count)d API tokens. Revoke those you no longer use "
                "(DELETE /api/auth/tokens/{id}/ or the console) before signing in again."
            ),
            params={"count": MAX_API_TOKENS},
        )
    key = secrets.token_urlsafe(32)
    token = ApiToken.objects.create(user=user, name=name, key_hash=hash_api_token(key), created=now)
    return token, key


def revoke_api_token(*, user: Any, token_id: int) -> None:
    """Revoke one of ``user``'s API tokens; 404 ``token_not_found`` for any other id."""
    deleted, _counts = ApiToken.objects.filter(user=user, pk=token_id).delete()
    if not deleted:
        raise NotFound("token_not_found", _("You hold no API token with this number."))


def revoke_api_tokens(*, user: Any, token_ids: list[int]) -> None:
    """Revoke those of ``token_ids`` that are ``user``'s tokens (a browser's logout)."""
    ApiToken.objects.filter(user=user, pk__in=token_ids).delete()
