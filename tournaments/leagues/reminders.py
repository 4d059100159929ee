"""Reminders of the league of clubs, sent by e-mail through Django's mail framework (the
backend is a setting: the console by default, SMTP by the ``EMAIL_*`` settings).

Three kinds, each sent once per match day (``LeagueReminder`` remembers it):
the captains of a match day the day before it; the captains who have not confirmed (and
the home club's organisers) when a complete result has waited 24 hours for confirmation;
the league's organisers when a confirmed result has waited 48 hours for acceptance.
``due_reminders`` finds what is due (the Celery beat task queues one task per match day
and kind), ``send_reminder`` sends one, and ``waiting_for_user`` lists what waits for an
organiser or captain (the console home shows it).

Each recipient reads the reminder in their own language: the one they last signed in or
switched to on the site (``tournaments.clubs.languages``), else the site's language
(``LANGUAGE_CODE``). Neither users, clubs nor leagues store a language, and the games a
league may play (``GameProfile.league``) come from one language area and are the same for
all of a league's readers, so no league or game language would tell a Dutch reader from a
French one. One e-mail goes out per language, to the recipients who read it.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime, timedelta
from typing import Any

from django.conf import settings
from django.core.mail import send_mail
from django.db import IntegrityError, transaction
from django.db.models import Max, Q
from django.utils import formats, timezone, translation
from django.utils.translation import gettext as _

from tournaments.clubs import languages
from tournaments.leagues import selectors as league_selectors
from tournaments.leagues.models import LeagueReminder, MatchDay
from tournaments.tasks import send_league_reminder_task

CONFIRM_AFTER = timedelta(hours=24)
ACCEPT_AFTER = timedelta(hours=48)
Kind = LeagueReminder.Kind


def _complete_since(day: MatchDay) -> datetime | None:
    """When the match day's last Partie finished, if all four are decided."""
    if not league_selectors.day_result(day).complete:
        return None
    if day.tournament_id is None:
        return None
    return day.tournament.rounds.aggregate(last=Max("matches__finished_at"))["last"]


def _confirmed_since(day: MatchDay) -> datetime | None:
    return day.confirmations.aggregate(last=Max("confirmed_at"))["last"]


def is_due(day: MatchDay, kind: str, now: datetime) -> bool:
    """Whether the reminder of ``kind`` is due for the match day now."""
    if kind == Kind.DAY_BEFORE:
        return (
            day.status == MatchDay.Status.SCHEDULED
            and day.starts_at is not None
            and timezone.localdate(day.starts_at) == timezone.localdate(now) + timedelta(days=1)
        )
    if kind == Kind.CONFIRM:
        since = _complete_since(day) if day.status == MatchDay.Status.OPEN else None
        return since is not None and now - since >= CONFIRM_AFTER
    if kind == Kind.ACCEPT:
        since = _confirmed_since(day) if day.status == MatchDay.Status.CONFIRMED else None
        return since is not None and now - since >= ACCEPT_AFTER
    return False


def due_reminders(now: datetime | None = None) -> list[tuple[int, str]]:
    """(match day id, kind) of every reminder due now and not sent yet."""
    now = now or timezone.now()
    tomorrow = timezone.localdate(now) + timedelta(days=1)
    candidates = {
        Kind.DAY_BEFORE: MatchDay.objects.filter(
            status=MatchDay.Status.SCHEDULED, starts_at__date=tomorrow
        ),
        Kind.CONFIRM: MatchDay.objects.filter(status=MatchDay.Status.OPEN),
        Kind.ACCEPT: MatchDay.objects.filter(status=MatchDay.Status.CONFIRMED),
    }
    due = []
    for kind, days in candidates.items():
        sent = LeagueReminder.objects.filter(kind=kind).values("match_day_id")
        for day in days.exclude(pk__in=sent).select_related("tournament").order_by("pk"):
            if is_due(day, kind, now):
                due.append((day.pk, str(kind)))
    return due


def queue_due_reminders() -> int:
    """Queue one sending task for every reminder due now; the number queued."""
    due = due_reminders()
    for match_day_id, kind in due:
        send_league_reminder_task.delay(match_day_id, kind)
    return len(due)


def _with_email(users: Any) -> list[Any]:
    """The users who have an e-mail address, one per address, in address order."""
    by_email = {u.email: u for u in users if u is not None and u.email}
    return [by_email[email] for email in sorted(by_email)]


def recipient_users(day: MatchDay, kind: str) -> list[Any]:
    """Whom the reminder goes to (users with an e-mail address)."""
    if kind == Kind.DAY_BEFORE:
        return _with_email([day.home.captain, day.away.captain])
    if kind == Kind.CONFIRM:
        sides = set(league_selectors.confirmed_sides(day))
        captains = [
            t.captain for s, t in (("home", day.home), ("away", day.away)) if s not in sides
        ]
        return _with_email([*captains, *day.home.club.organisers.all()])
    return _with_email(day.division.league.organisers.all())


def by_language(users: list[Any]) -> dict[str, list[str]]:
    """The recipients' e-mail addresses by the language each reads (their remembered
    language, else the site's), languages in code order."""
    remembered = languages.languages_of(u.pk for u in users)
    groups: dict[str, list[str]] = {}
    for user in users:
        groups.setdefault(remembered.get(user.pk, settings.LANGUAGE_CODE), []).append(user.email)
    return dict(sorted(groups.items()))


def _message(day: MatchDay, kind: str) -> tuple[str, str]:
    names = {
        "league": day.division.league.name,
        "home": day.home.name,
        "away": day.away.name,
        "round": day.round,
        "when": formats.date_format(timezone.localtime(day.starts_at), "SHORT_DATETIME_FORMAT")
        if day.starts_at
        else "–",
        "venue": day.venue or day.home.club.name,
    }
    if kind == Kind.DAY_BEFORE:
        subject = _("%(league)s: %(home)s – %(away)s tomorrow") % names
        body = _(
            "Match day %(round)s of %(league)s, %(home)s – %(away)s, is tomorrow, "
            "%(when)s, at %(venue)s. Each team fields two pairs of its roster."
        )
    elif kind == Kind.CONFIRM:
        subject = _("%(league)s: confirm the result of %(home)s – %(away)s") % names
        body = _(
            "The tables of match day %(round)s of %(league)s, %(home)s – %(away)s, have "
            "finished more than 24 hours ago; the result waits for the captains' (or the "
            "home club's) confirmation in the console."
        )
    else:
        subject = _("%(league)s: accept the result of %(home)s – %(away)s") % names
        body = _(
            "The result of match day %(round)s of %(league)s, %(home)s – %(away)s, was "
            "confirmed more than 48 hours ago and waits for the league's acceptance in the "
            "console."
        )
    return subject, body % names


def send_reminder(*, match_day_id: int, kind: str, now: datetime | None = None) -> bool:
    """Send one reminder if it is still due and was not sent; True if it was sent now.
    Idempotent: a repeated task finds the ``LeagueReminder`` and sends nothing."""
    now = now or timezone.now()
    day = (
        MatchDay.objects.select_related(
            "division__league", "home__club", "home__captain", "away__captain", "tournament"
        )
        .filter(pk=match_day_id)
        .first()
    )
    if day is None or not is_due(day, kind, now):
        return False
    users = recipient_users(day, kind)
    try:
        with transaction.atomic():
            LeagueReminder.objects.create(
                match_day=day, kind=kind, recipients=[u.email for u in users]
            )
            for language, to in by_language(users).items():
                with translation.override(language):
                    subject, body = _message(day, kind)
                send_mail(subject, body, None, to)
    except IntegrityError:
        return False  # sent by another run
    return True


# --- what waits for a user (the console home) ---------------------------------------------


@dataclass(frozen=True)
class Waiting:
    day: MatchDay
    what: str


def waiting_for_user(user: Any) -> list[Waiting]:
    """The match days waiting for the user: results to accept (league organiser) or to
    confirm (captain, home club), and postponements to answer (the other team's captain
    or club) or to decide (league organiser)."""
    if not getattr(user, "is_authenticated", False):
        return []
    leagues = user.organised_leagues.values("pk")
    clubs = user.organised_clubs.values("pk")
    days = (
        MatchDay.objects.filter(
            Q(division__league__in=leagues, status=MatchDay.Status.CONFIRMED)
            | Q(status=MatchDay.Status.OPEN, home__club__in=clubs)
            | Q(status=MatchDay.Status.OPEN, home__captain=user)
            | Q(status=MatchDay.Status.OPEN, away__captain=user)
            | Q(division__league__in=leagues, postponements__status__in=("consented", "refused"))
            | Q(postponements__status="asked", home__club__in=clubs)
            | Q(postponements__status="asked", away__club__in=clubs)
            | Q(postponements__status="asked", home__captain=user)
            | Q(postponements__status="asked", away__captain=user)
        )
        .distinct()
        .select_related("division__league", "home__club", "away__club", "tournament")
        .order_by(*league_selectors.IN_DATE_ORDER)
    )
    rows = []
    for day in days[:50]:
        what = _what_waits(day, user)
        if what:
            rows.append(Waiting(day, what))
    return rows


def _what_waits(day: MatchDay, user: Any) -> str:
    pending = (
        day.postponements.filter(status__in=("asked", "consented", "refused"))
        .select_related("asked_by")
        .first()
    )
    organiser = league_selectors.organises_league(user, day.division.league_id)
    if pending is not None:
        if pending.status != "asked" and organiser:
            return _("A postponement to decide")
        answering = day.away if pending.asked_by_id == day.home_id else day.home
        if pending.status == "asked" and league_selectors.acts_for_team(user, answering):
            return _("A postponement asked by %(team)s to answer") % {"team": pending.asked_by.name}
    if day.status == MatchDay.Status.CONFIRMED and organiser:
        return _("A result to accept")
    if day.status == MatchDay.Status.OPEN and league_selectors.day_result(day).complete:
        sides = set(league_selectors.confirmed_sides(day))
        for side, team in (("home", day.home), ("away", day.away)):
            if side not in sides and league_selectors.captains(user, team):
                return _("A result to confirm")
        if league_selectors.organises_club_id(user, day.home.club_id):
            return _("A result to confirm (venue)")
    return ""
