"""The template tag ``{% footer_club as c %}`` (a builtin of the site's templates): the
club whose imprint and privacy notice a page's footer links, found in the page's context
(``footer_club``, ``club`` or ``tournament.club``), or None."""

from __future__ import annotations

from typing import Any

from django import template

from tournaments.clubs.models import Club

register = template.Library()


@register.simple_tag(takes_context=True)
def footer_club(context: template.Context) -> Club | None:
    for key in ("footer_club", "club"):
        value: Any = context.get(key)
        if isinstance(value, Club):
            return value
    club = getattr(context.get("tournament"), "club", None)
    return club if isinstance(club, Club) else None
