"""Retention: what is removed once past its time (``docs/privacy.md``; the periods are
settings, ``RETENTION_*_DAYS``). ``purge_expired`` runs daily from the beat schedule
(``tasks.purge_expired_data_task``) and returns how many rows it removed or cleared.

- table codes (only their hash is stored) that expired or were revoked more than
  ``RETENTION_DEVICE_CODE_DAYS`` ago and entered no deal: a code that entered one stays
  with the append-only deal history, which names it and is never changed;
- organiser invitations accepted or expired more than ``RETENTION_INVITATION_DAYS`` ago;
- API tokens expired more than ``RETENTION_API_TOKEN_DAYS`` ago;
- the e-mail addresses a league reminder went to, ``RETENTION_REMINDER_DAYS`` after it
  was sent (the reminder row stays, so it is never sent twice).

Lockout and throttle counters (which name client addresses) live in the cache only for
their rate's window and expire by themselves; logs are the host's (stderr).
"""

from __future__ import annotations

from datetime import datetime, timedelta

from django.conf import settings
from django.db import transaction
from django.db.models import Q
from django.utils import timezone

from tournaments.clubs.models import ApiToken, OrganiserInvitation
from tournaments.events.models import DeviceCredential
from tournaments.leagues.models import LeagueReminder


def _before(days: int, now: datetime) -> datetime:
    return now - timedelta(days=days)


def purge_device_codes(now: datetime) -> int:
    cutoff = _before(settings.RETENTION_DEVICE_CODE_DAYS, now)
    stale = DeviceCredential.objects.filter(
        Q(expires_at__lt=cutoff) | Q(revoked_at__lt=cutoff), deal_versions__isnull=True
    )
    return int(DeviceCredential.objects.filter(pk__in=stale.values("pk")).delete()[0])


def purge_invitations(now: datetime) -> int:
    cutoff = _before(settings.RETENTION_INVITATION_DAYS, now)
    stale = OrganiserInvitation.objects.filter(Q(accepted_at__lt=cutoff) | Q(expires_at__lt=cutoff))
    return int(stale.delete()[0])


def purge_api_tokens(now: datetime) -> int:
    cutoff = _before(settings.RETENTION_API_TOKEN_DAYS, now)
    return int(ApiToken.objects.expired(now=cutoff).delete()[0])


def clear_reminder_recipients(now: datetime) -> int:
    cutoff = _before(settings.RETENTION_REMINDER_DAYS, now)
    return (
        LeagueReminder.objects.filter(sent_at__lt=cutoff)
        .exclude(recipients=[])
        .update(recipients=[])
    )


@transaction.atomic
def purge_expired(*, now: datetime | None = None) -> dict[str, int]:
    """Remove everything past its retention period; counts per kind."""
    now = now or timezone.now()
    return {
        "device_codes": purge_device_codes(now),
        "invitations": purge_invitations(now),
        "api_tokens": purge_api_tokens(now),
        "reminder_recipients": clear_reminder_recipients(now),
    }
