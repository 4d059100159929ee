"""A club with everything its players and organisers see, written through the services,
for the accessibility scan (``test_accessibility_browser.py``): a table of every game
family in the middle of its match and one whose match is over (the confirm step), a
finished evening (standings, player, club and KlammernBoss, ratings, hand records), a
pairs tournament and a league. ``pages()`` lists the addresses to scan."""

from __future__ import annotations

import random
from dataclasses import dataclass, field
from typing import Any

from django.contrib.auth import get_user_model

from games import profiles
from games.engine import FIRST_DEALER, next_dealer, random_deal
from games.models import Deal
from tournaments.clubs.models import Club, Player
from tournaments.deals import services as deal_services
from tournaments.draw import services as draw
from tournaments.events import services
from tournaments.events.models import Match, Round, Tournament
from tournaments.leagues import services as leagues
from tournaments.pairs import services as pairs

NAMES = [
    "Anna Baumann",
    "Bernd Vogt",
    "Clara Keller",
    "Dieter Schmid",
    "Eva Huber",
    "Franz Meier",
    "Gabi Frei",
    "Hans Wagner",
]
#: The game families a table plays, by engine preset.
FAMILIES = ("klammern", "klammern-hamburg", "klaverjas-rotterdam", "klammern-2", "klammern-3")
ORGANISER, PASSWORD = "orga-a11y", "Kreuz-Bube-77"


@dataclass
class Tablet:
    """A table's device code: ``live`` in the middle of its match, ``over`` finished."""

    family: str
    live: str
    over: str
    round_id: int
    match_id: int


@dataclass
class World:
    club: Club
    evening: Tournament
    evening_round: Round
    match: Match
    pairs_tournament: Tournament
    league: Any
    tablets: list[Tablet] = field(default_factory=list)

    def public_pages(self) -> dict[str, str]:
        evening, match = self.evening, self.match
        player = Player.objects.filter(clubs=self.club).order_by("pk").first()
        deal = Deal.objects.filter(match=match).order_by("number").first()
        return {
            "home": "/",
            "tournament": f"/tournaments/{evening.pk}/",
            "seating": f"/tournaments/{evening.pk}/rounds/1/",
            "standings": f"/tournaments/{evening.pk}/standings/",
            "projector": f"/tournaments/{evening.pk}/projector/",
            "player": f"/players/{player.pk}/",
            "club": f"/clubs/{self.club.slug}/",
            "ratings": f"/clubs/{self.club.slug}/ratings/",
            "hand-record": f"/matches/{match.pk}/deals/{deal.number}/hand/",
            "hand-records": f"/tournaments/{evening.pk}/rounds/1/hand-records/",
            "pairs": f"/tournaments/{self.pairs_tournament.pk}/",
            "league": f"/leagues/{self.league.slug}/",
            "login": "/accounts/login/",
            "signup": "/accounts/signup/",
        }

    def console_pages(self) -> dict[str, str]:
        evening, match = self.evening, self.match
        day = self.league.divisions.first().match_days.order_by("round").first()
        team = self.league.divisions.first().teams.order_by("pk").first()
        live = self.tablets[0]
        return {
            "console": "/console/",
            "console-tournament": f"/console/tournaments/{evening.pk}/",
            "console-round": f"/console/rounds/{self.evening_round.pk}/",
            "console-match": f"/console/matches/{match.pk}/",
            "console-deal": f"/console/matches/{match.pk}/deals/1/",
            "console-live-round": f"/console/rounds/{live.round_id}/",
            "console-live-match": f"/console/matches/{live.match_id}/",
            "console-live-deal": f"/console/matches/{live.match_id}/deals/3/",
            "console-club": f"/console/clubs/{self.club.pk}/",
            "console-players": f"/console/clubs/{self.club.pk}/players/",
            "console-pairs": f"/console/tournaments/{self.pairs_tournament.pk}/pairs/",
            "console-leagues": "/console/leagues/",
            "console-league": f"/console/leagues/{self.league.pk}/",
            "console-league-team": f"/console/league-teams/{team.pk}/",
            "console-league-day": f"/console/match-days/{day.pk}/",
        }


def players_of(club: Club) -> list[Player]:
    return [services.create_player(club=club, name=name) for name in NAMES]


def started(club: Club, players: list[Player], *, slug: str, **options: Any) -> Tournament:
    tournament = services.create_tournament(club=club, name=slug.title(), slug=slug, **options)
    for player in players:
        registration = services.register_player(tournament=tournament, player=player)
        services.check_in_registration(registration=registration)
    services.start_tournament(tournament=tournament)
    return tournament


def play(match: Match, deals: int, *, preset: str, options: dict[str, Any], seed: int) -> None:
    rng, rules = random.Random(seed), {"preset": preset, "options": options}
    engine_options, dealer = profiles.tournament_rules(preset, options), FIRST_DEALER
    for number in range(1, deals + 1):
        record = random_deal(rng, dealer=dealer, rules=rules)
        deal_services.submit_deal(match=match, number=number, record=record)
        thrown_in = record["contract"]["kind"] == "thrown_in"
        dealer = next_dealer(dealer, thrown_in=thrown_in, options=engine_options)


def family_tablet(club: Club, players: list[Player], family: str) -> Tablet:
    """A round of the family's game: table 1 two deals in, table 2 finished."""
    options = {"match_by": "deals", "deals_per_match": 4}
    field_ = players[:6] if family in ("klammern-2", "klammern-3") else players
    tournament = started(
        club,
        field_,
        slug=f"abend-{family}",
        rules_preset=family,
        rules_options=options,
        deals_per_match=4,
    )
    round_ = draw.draw_round(tournament=tournament, seed=3)
    services.publish_round(round_=round_)
    first, second = round_.tables.order_by("number")[:2]
    play(Match.objects.get(table=first), 2, preset=family, options=options, seed=1)
    play(Match.objects.get(table=second), 4, preset=family, options=options, seed=2)
    live = services.issue_device_code(table=first)[1]
    over = services.issue_device_code(table=second)[1]
    match = Match.objects.get(table=first)
    return Tablet(family=family, live=live, over=over, round_id=round_.pk, match_id=match.pk)


def finished_evening(club: Club, players: list[Player]) -> tuple[Tournament, Round, Match]:
    options = {"match_by": "deals", "deals_per_match": 2}
    tournament = started(club, players, slug="herbst", rules_options=options, deals_per_match=2)
    round_ = draw.draw_round(tournament=tournament, seed=5)
    services.publish_round(round_=round_)
    for match in Match.objects.filter(round=round_).order_by("table__number"):
        play(match, 2, preset="klammern", options=options, seed=match.table.number)
    services.close_round(round_=round_, force=True)
    services.finish_tournament(tournament=tournament)
    return tournament, round_, Match.objects.filter(round=round_).order_by("table__number")[0]


def pairs_tournament(club: Club, players: list[Player]) -> Tournament:
    tournament = started(club, players, slug="paare", format=Tournament.Format.PAIRS)
    pairs.draw_pairs(tournament=tournament, seed=4)
    return tournament


def league_of(club: Club, user: Any) -> Any:
    other = Club.objects.create(name="KC Eichel Ulm", slug="eichel-ulm")
    league = leagues.create_league(organiser=user, name="Bodensee-Liga", slug="bodensee")
    division = leagues.create_division(league=league, name="Oberliga")
    for team_club, name in ((club, "Herzbube I"), (other, "Eichel I")):
        roster = [services.create_player(club=team_club, name=f"{name} {i}") for i in range(4)]
        leagues.enter_team(
            division=division, club_id=team_club.pk, name=name, captain=user, roster=roster
        )
    leagues.make_fixtures(division=division)
    return league


def build_world() -> World:
    user = get_user_model().objects.create_user(ORGANISER, password=PASSWORD)
    club = Club.objects.create(name="KC Herzbube Konstanz", slug="herzbube", city="Konstanz")
    club.organisers.add(user)
    players = players_of(club)
    evening, round_, match = finished_evening(club, players)
    world = World(
        club=club,
        evening=evening,
        evening_round=round_,
        match=match,
        pairs_tournament=pairs_tournament(club, players),
        league=league_of(club, user),
    )
    world.tablets = [family_tablet(club, players, family) for family in FAMILIES]
    return world
