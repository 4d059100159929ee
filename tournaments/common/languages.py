"""The language each signed-in user reads the site in, remembered for what reaches them
outside a request: the league reminders by e-mail (``tournaments.leagues.reminders``).

What it does
- ``remember_language``: the sign-in page and the language switch call it with the
  language the request is answered in (the language cookie, else the browser's
  Accept-Language: ``LocaleMiddleware``'s choice), or the language just chosen.
- ``languages_of``: the remembered language of each of some users, in one cache round
  trip; a user whose language is not remembered is missing from the answer and the
  caller decides (the reminders then write in the site's language, ``LANGUAGE_CODE``).

Where it is kept: no table has a user's language (a field on the user would need a
migration), so it is kept in the ``default`` cache without expiry: Redis in production,
persisted by its append-only file (docker-compose.yml); the process's memory on the
embedded default, where a restart forgets it. A cache that is down answers "not
remembered", never an error.
"""

from __future__ import annotations

from collections.abc import Iterable

from django.conf import settings
from django.core.cache import cache

KEY = "user-language:{}"


def remember_language(user_id: int, code: str) -> None:
    """Remember ``code`` as the user's language if it is one of the site's languages."""
    if code in dict(settings.LANGUAGES):
        cache.set(KEY.format(user_id), code, timeout=None)


def languages_of(user_ids: Iterable[int]) -> dict[int, str]:
    """The remembered language of each user who has one, by user id."""
    keys = {KEY.format(pk): pk for pk in user_ids}
    found = cache.get_many(list(keys)) if keys else {}
    known = dict(settings.LANGUAGES)
    return {keys[key]: code for key, code in found.items() if code in known}
