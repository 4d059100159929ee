"""The language each signed-in user reads the site in, remembered for what reaches them
outside a request: the league reminders by e-mail (``tournaments.leagues.reminders``).

What it does
- ``remember_language``: the sign-in page and the language switch call it with the
  language the request is answered in (the language cookie, else the browser's
  Accept-Language: ``LocaleMiddleware``'s choice), or the language just chosen; it is
  stored with the user (``clubs.models.UserLanguage``).
- ``languages_of``: the remembered language of each of some users, in one query; a user
  whose language is not remembered is missing from the answer and the caller decides
  (the reminders then write in the site's language, ``LANGUAGE_CODE``).
"""

from __future__ import annotations

from collections.abc import Iterable

from django.conf import settings

from tournaments.clubs.models import UserLanguage


def remember_language(user_id: int, code: str) -> None:
    """Remember ``code`` as the user's language if it is one of the site's languages."""
    if code in dict(settings.LANGUAGES):
        UserLanguage.objects.update_or_create(user_id=user_id, defaults={"language": code})


def languages_of(user_ids: Iterable[int]) -> dict[int, str]:
    """The remembered language of each user who has one, by user id."""
    known = dict(settings.LANGUAGES)
    rows = UserLanguage.objects.filter(user_id__in=list(user_ids))
    return {user: code for user, code in rows.values_list("user_id", "language") if code in known}
