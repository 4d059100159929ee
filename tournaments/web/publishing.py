"""Publishing a club's tables where the club already is: an Atom feed of the club's news
(finished evenings with their winners, changes of the KlammernBoss title), embeds for
the club's own website and printable tables for the notice board."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime
from typing import Any

from django.contrib.syndication.views import Feed
from django.db.models import Max
from django.http import HttpRequest
from django.shortcuts import get_object_or_404
from django.urls import reverse
from django.utils.feedgenerator import Atom1Feed
from django.utils.translation import gettext

from tournaments.models import Club, Tournament

from . import selectors

FEED_EVENINGS = 20  # the newest finished evenings in a club's feed


@dataclass(frozen=True)
class NewsItem:
    """One entry of a club's feed: an evening's result or a new KlammernBoss."""

    key: str
    title: str
    description: str
    link: str
    when: datetime


def _finished_at(evenings: list[Tournament]) -> dict[int, datetime]:
    """When each evening ended: its last round's closing, else its creation."""
    closed = dict(
        Tournament.objects.filter(pk__in=[t.pk for t in evenings])
        .annotate(last=Max("rounds__closed_at"))
        .values_list("pk", "last")
    )
    return {t.pk: closed.get(t.pk) or t.created for t in evenings}


def _winners(tournament: Tournament) -> list[str]:
    rows = selectors.standings_view(tournament)["rows"]
    return [row["name"] for row in rows if row.get("rank") == 1 and row.get("played")]


def club_news(club: Club) -> list[NewsItem]:
    """The club's news, newest first: each finished public evening with its winners and
    each change of the KlammernBoss title (RULES.md, "KlammernBoss")."""
    evenings = list(
        Tournament.objects.public()
        .filter(club=club, status=Tournament.Status.FINISHED, league_match_day__isnull=True)
        .order_by("-created", "-pk")[:FEED_EVENINGS]
    )
    when = _finished_at(evenings)
    items = []
    for evening in evenings:
        winners = ", ".join(_winners(evening))
        items.append(
            NewsItem(
                key=f"result-{evening.pk}",
                title=gettext("Result: %(evening)s") % {"evening": evening.name},
                description=(
                    gettext("Winner: %(names)s") % {"names": winners}
                    if winners
                    else gettext("The evening is finished.")
                ),
                link=reverse("standings", args=[evening.pk]),
                when=when[evening.pk],
            )
        )
    view = selectors.club_view(club)
    for title in view["titles"]:
        evening_pk = title.get("evening")
        if not title["new"] or evening_pk not in when:
            continue
        previous = title.get("previous_name")
        items.append(
            NewsItem(
                key=f"boss-{evening_pk}-{title['boss']}",
                title=gettext("New KlammernBoss: %(name)s") % {"name": title["name"]},
                description=(
                    gettext("%(name)s takes the title from %(previous)s at %(evening)s.")
                    % {
                        "name": title["name"],
                        "previous": previous,
                        "evening": title["tournament_name"],
                    }
                    if previous
                    else gettext("%(name)s is the first KlammernBoss, crowned at %(evening)s.")
                    % {"name": title["name"], "evening": title["tournament_name"]}
                ),
                link=reverse("club", args=[club.slug]) + "#titles",
                when=when[evening_pk],
            )
        )
    return sorted(items, key=lambda item: (item.when, item.key), reverse=True)


class ClubFeed(Feed):  # type: ignore[type-arg]  # generic in the stubs only
    """The club's news as Atom: /clubs/<slug>/feed.atom."""

    feed_type = Atom1Feed

    def get_object(self, request: HttpRequest, *args: Any, **kwargs: Any) -> Club:
        return get_object_or_404(Club, slug=kwargs["slug"])

    def title(self, obj: Club) -> str:
        return gettext("%(club)s: results and KlammernBoss") % {"club": obj.name}

    def subtitle(self, obj: Club) -> str:
        return gettext("Finished evenings and changes of the KlammernBoss title at %(club)s.") % {
            "club": obj.name
        }

    def link(self, obj: Club) -> str:
        return reverse("club", args=[obj.slug])

    def feed_url(self, obj: Club) -> str:
        return reverse("club-feed", args=[obj.slug])

    def feed_guid(self, obj: Club) -> str:
        return f"tag:klammern,2026:club-{obj.pk}"

    def items(self, obj: Club) -> list[NewsItem]:
        return club_news(obj)

    def item_title(self, item: NewsItem) -> str:
        return item.title

    def item_description(self, item: NewsItem) -> str:
        return item.description

    def item_link(self, item: NewsItem) -> str:
        return item.link

    def item_guid(self, item: NewsItem) -> str:
        return f"tag:klammern,2026:{item.key}"

    item_guid_is_permalink = False

    def item_pubdate(self, item: NewsItem) -> datetime:
        return item.when

    def item_updateddate(self, item: NewsItem) -> datetime:
        return item.when
