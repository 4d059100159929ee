"""factory_boy factories for the platform's models, and hand-written deal records."""

from __future__ import annotations

from typing import Any

import factory
from django.contrib.auth import get_user_model

from tournaments.clubs.models import Club, ClubMembership, Player
from tournaments.events.models import Registration, Tournament


class UserFactory(factory.django.DjangoModelFactory):
    class Meta:
        model = get_user_model()
        django_get_or_create = ("username",)

    username = factory.Sequence(lambda n: f"user{n}")
    password = factory.django.Password("pw")


class ClubFactory(factory.django.DjangoModelFactory):
    class Meta:
        model = Club

    name = factory.Sequence(lambda n: f"Klammerclub {n}")
    slug = factory.Sequence(lambda n: f"club-{n}")


class PlayerFactory(factory.django.DjangoModelFactory):
    class Meta:
        model = Player

    name = factory.Sequence(lambda n: f"Spieler {n}")


class MembershipFactory(factory.django.DjangoModelFactory):
    class Meta:
        model = ClubMembership

    club = factory.SubFactory(ClubFactory)
    player = factory.SubFactory(PlayerFactory)


class TournamentFactory(factory.django.DjangoModelFactory):
    class Meta:
        model = Tournament

    club = factory.SubFactory(ClubFactory)
    name = factory.Sequence(lambda n: f"Turnier {n}")
    slug = factory.Sequence(lambda n: f"turnier-{n}")


class RegistrationFactory(factory.django.DjangoModelFactory):
    class Meta:
        model = Registration

    tournament = factory.SubFactory(TournamentFactory)
    player = factory.SubFactory(PlayerFactory)
    status = Registration.Status.CHECKED_IN


def summary_record(
    *, dealer: int = 0, team0_points: int = 64, declarer: int | None = None, **extra: Any
) -> dict[str, Any]:
    """A valid summary deal record: seat ``declarer`` (forehand, dealer+1, unless given)
    plays an Orgi in Hearts; ``team0_points`` of the 164 card points go to team 0."""
    seat = (dealer + 1) % 4 if declarer is None else declarer
    record: dict[str, Any] = {
        "format": "klammern-deal/1",
        "dealer": dealer,
        "upcard": "7H",
        "contract": {"kind": "orgi", "declarer": seat, "trump": "H"},
        "card_points": [team0_points, 164 - team0_points],
    }
    record.update(extra)
    return record


def invalid_record() -> dict[str, Any]:
    """An Orgi whose trump is not the upcard's suit, with impossible card points."""
    return {
        "format": "klammern-deal/1",
        "dealer": 0,
        "upcard": "7H",
        "contract": {"kind": "orgi", "declarer": 1, "trump": "S"},
        "card_points": [100, 100],
    }
