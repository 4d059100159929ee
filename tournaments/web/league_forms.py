"""Forms of the league pages of the organiser console. They validate input only (a
roster from the club's players, a captain by user name, pairs from a team's roster);
the views call the services in ``tournaments/leagues/services.py``."""

from __future__ import annotations

from typing import Any

from django import forms
from django.contrib.auth import get_user_model
from django.utils.text import slugify
from django.utils.translation import gettext_lazy as _

from games import profiles
from tournaments.clubs.models import Club, Player
from tournaments.common.validators import validate_name, validate_slug
from tournaments.events.models import MAX_LIGA_TARGET
from tournaments.leagues import selectors as league_selectors
from tournaments.leagues.models import Division, LeagueTeam

#: The games a league can play (their profiles say so): Liga-Partien of four players.
LEAGUE_PRESETS = tuple(key for key, profile in profiles.PROFILES.items() if profile.league)
DATE_TIME = forms.DateTimeInput(attrs={"type": "datetime-local"}, format="%Y-%m-%dT%H:%M")


class LeagueForm(forms.Form):
    name = forms.CharField(
        label=_("Name of the league"), max_length=200, validators=[validate_name]
    )
    season = forms.CharField(
        label=_("Season"),
        max_length=100,
        required=False,
        help_text=_("e.g. 2025/26"),
        validators=[validate_name],
    )
    slug = forms.SlugField(
        label=_("Web address (letters, digits, dashes)"),
        max_length=100,
        required=False,
        validators=[validate_slug],
    )
    rules_preset = forms.ChoiceField(
        label=_("Game"),
        widget=forms.RadioSelect,
        initial=LEAGUE_PRESETS[0],
        choices=[(name, profiles.PROFILES[name].label) for name in LEAGUE_PRESETS],
    )
    liga_target = forms.IntegerField(
        label=_("Liga target (match points of a Liga-Partie)"),
        min_value=1,
        max_value=MAX_LIGA_TARGET,
        initial=51,
    )
    is_public = forms.BooleanField(
        label=_("Public (table and fixtures on the website)"), required=False, initial=True
    )

    def service_arguments(self) -> dict[str, Any]:
        data = dict(self.cleaned_data)
        name = data["name"] + (f" {data['season']}" if data["season"] else "")
        data["slug"] = data["slug"] or slugify(name)[:100] or "liga"
        return data


class LeagueSettingsForm(LeagueForm):
    """The league's name, season, game, target, visibility and last date (its address
    stays)."""

    last_day = forms.DateField(
        label=_("Last date of the season"),
        required=False,
        widget=forms.DateInput(attrs={"type": "date"}, format="%Y-%m-%d"),
        help_text=_("Match days not played by then are settled as the rules say."),
    )

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        del self.fields["slug"]

    def changes(self, league: Any) -> dict[str, Any]:
        """Only what differs: the rules may not be sent again once a match day is open."""
        return {k: v for k, v in self.cleaned_data.items() if getattr(league, k) != v}


class DivisionForm(forms.Form):
    name = forms.CharField(label=_("Division"), max_length=100, validators=[validate_name])
    order = forms.IntegerField(label=_("Order"), min_value=1, max_value=99, initial=1)
    promoted = forms.IntegerField(
        label=_("Teams promoted"), min_value=0, max_value=20, initial=1, required=False
    )
    relegated = forms.IntegerField(
        label=_("Teams relegated"), min_value=0, max_value=20, initial=1, required=False
    )

    def clean_promoted(self) -> int:
        value = self.cleaned_data["promoted"]
        return 1 if value is None else int(value)  # RULES.md: default 1 up

    def clean_relegated(self) -> int:
        value = self.cleaned_data["relegated"]
        return 1 if value is None else int(value)  # and 1 down


class NextSeasonForm(forms.Form):
    season = forms.CharField(
        label=_("Next season"),
        max_length=100,
        validators=[validate_name],
        help_text=_("e.g. 2026/27"),
    )
    slug = forms.SlugField(
        label=_("Web address (letters, digits, dashes)"), max_length=100, validators=[validate_slug]
    )


class ForfeitForm(forms.Form):
    """The team that did not appear (or could not field two pairs), and why."""

    team = forms.ChoiceField(label=_("Team that did not appear"), widget=forms.RadioSelect)
    reason = forms.CharField(label=_("Reason"), max_length=500, validators=[validate_name])

    def __init__(self, *args: Any, home: LeagueTeam, away: LeagueTeam, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.teams = {str(home.pk): home, str(away.pk): away}
        self.fields["team"].choices = [(k, t.name) for k, t in self.teams.items()]

    def chosen_team(self) -> LeagueTeam:
        return self.teams[self.cleaned_data["team"]]


class PostponementForm(forms.Form):
    starts_at = forms.DateTimeField(label=_("New date and time"), widget=DATE_TIME)
    reason = forms.CharField(label=_("Reason"), max_length=500, validators=[validate_name])


class CaptainField(forms.CharField):
    """A captain by user name (empty: none yet)."""

    def clean(self, value: Any) -> Any:
        username = super().clean(value)
        if not username:
            return None
        user = get_user_model().objects.filter(username=username).first()
        if user is None:
            raise forms.ValidationError(
                _("There is no user '%(name)s'."), code="unknown_user", params={"name": username}
            )
        return user


class TeamForm(forms.Form):
    """A club's team: a name, a captain and a roster of the club's players."""

    division = forms.ModelChoiceField(
        label=_("Division"), queryset=Division.objects.none(), empty_label=None
    )
    name = forms.CharField(label=_("Team name"), max_length=200, validators=[validate_name])
    captain = CaptainField(
        label=_("Captain (user name)"),
        max_length=150,
        required=False,
        help_text=_("The captain confirms the team's results; an account is needed."),
    )
    roster = forms.ModelMultipleChoiceField(
        label=_("Roster"),
        queryset=Player.objects.none(),
        widget=forms.CheckboxSelectMultiple,
        required=False,
        help_text=_(
            "The club's players: a player joins the club when registered for its evenings."
        ),
    )

    def __init__(
        self,
        *args: Any,
        club: Club,
        divisions: Any = None,
        team: LeagueTeam | None = None,
        **kw: Any,
    ) -> None:
        if team is not None:
            kw.setdefault("initial", {}).update(
                name=team.name,
                captain=team.captain.get_username() if team.captain else "",
                roster=list(team.roster.all()),
            )
        super().__init__(*args, **kw)
        self.fields["roster"].queryset = club.players.order_by("name")
        league_id = team.division.league_id if team is not None else _league_of(divisions)
        if league_id is not None:
            self._mark_taken(league_id, team)
        if divisions is None:
            del self.fields["division"]
        else:
            self.fields["division"].queryset = divisions
            self.fields["division"].label_from_instance = lambda division: division.name

    def _mark_taken(self, league_id: int, team: LeagueTeam | None) -> None:
        """Players on another team of the league say so (RULES.md, "Eligibility": the
        service refuses them)."""
        self.fields["roster"].label_from_instance = _marked(_taken(league_id, team))


def _taken(league_id: int, team: LeagueTeam | None) -> dict[int, str]:
    """Per player id, the other team of the league the player is on the roster of or has
    played for."""
    rows = LeagueTeam.roster.through.objects.filter(leagueteam__division__league_id=league_id)
    if team is not None:
        rows = rows.exclude(leagueteam=team)
    taken = dict(rows.values_list("player_id", "leagueteam__name"))
    for player_id, first in league_selectors.played_for(league_id).items():
        if team is None or first.pk != team.pk:
            taken.setdefault(player_id, first.name)
    return taken


def _marked(taken: dict[int, str]) -> Any:
    return lambda player: (
        _("%(name)s (plays for %(team)s)") % {"name": player.name, "team": taken[player.pk]}
        if player.pk in taken
        else player.name
    )


def _league_of(divisions: Any) -> int | None:
    division = divisions.first() if divisions is not None else None
    return division.league_id if division is not None else None


class FixturesForm(forms.Form):
    first_day = forms.DateTimeField(
        label=_("First match day (date and time, optional)"), required=False, widget=DATE_TIME
    )
    days_between = forms.IntegerField(
        label=_("Days between match days"), min_value=1, max_value=365, initial=14
    )


class RemakeFixturesForm(FixturesForm):
    """A new fixture list in place of one of which no match day has been played."""

    confirm = forms.BooleanField(
        label=_("Yes, replace the fixture list: its dates and venues are made anew."),
        required=True,
    )

    def service_arguments(self) -> dict[str, Any]:
        data = dict(self.cleaned_data)
        del data["confirm"]
        return {**data, "remake": True}


class MatchDayForm(forms.Form):
    starts_at = forms.DateTimeField(label=_("Date and time"), required=False, widget=DATE_TIME)
    venue = forms.CharField(
        label=_("Venue"), max_length=300, required=False, validators=[validate_name]
    )


class SendBackForm(forms.Form):
    reason = forms.CharField(
        label=_("Why is the result sent back?"),
        max_length=500,
        validators=[validate_name],
        help_text=_("The captains and the home club see this; they correct and confirm again."),
    )


class OpenTablesForm(forms.Form):
    """Each team's two pairs, from its roster: four different players per team."""

    SLOTS = ("1a", "1b", "2a", "2b")

    def __init__(self, *args: Any, home: LeagueTeam, away: LeagueTeam, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.sides = {"home": home, "away": away}
        for side, team in self.sides.items():
            players = list(team.roster.order_by("name"))
            taken = _taken(team.division.league_id, team)
            for number, slot in enumerate(self.SLOTS):
                field = forms.ModelChoiceField(
                    label=_("Pair %(pair)s, player %(player)s")
                    % {"pair": slot[0], "player": "AB"[slot[1] == "b"]},
                    queryset=team.club.players.order_by("name"),
                    initial=players[number].pk if number < len(players) else None,
                )
                field.label_from_instance = _marked(taken)
                self.fields[f"{side}_{slot}"] = field

    def pairs(self, side: str) -> list[list[Player]]:
        data = self.cleaned_data
        return [[data[f"{side}_{n}a"], data[f"{side}_{n}b"]] for n in (1, 2)]

    @property
    def home_fields(self) -> list[Any]:
        return [self[f"home_{slot}"] for slot in self.SLOTS]

    @property
    def away_fields(self) -> list[Any]:
        return [self[f"away_{slot}"] for slot in self.SLOTS]
