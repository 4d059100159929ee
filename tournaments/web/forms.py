"""Forms of the organiser console. They only validate input; the views call services."""

from __future__ import annotations

from typing import Any

from django import forms
from django.utils.text import slugify
from django.utils.translation import gettext_lazy as _

from games import profiles
from tournaments import formats
from tournaments.clubs.models import Club
from tournaments.common.validators import validate_name
from tournaments.events.models import MAX_DEALS_PER_MATCH, MAX_LIGA_TARGET, Tournament

# The tie-break names the platform knows (``common.validators.TIEBREAK_NAMES``); the first must be
# a score, since Buchholz and head-to-head are computed from it.
SCORES = [
    ("tournament_points", _("Tournament points (2 per win, 1 per draw)")),
    ("games_won", _("Games won")),
    ("point_difference", _("Point difference")),
    ("augen", _("Points scored")),
]
TIEBREAKS = [
    *SCORES,
    ("buchholz", _("Opponents' strength (Buchholz)")),
    ("head_to_head", _("Head-to-head among the tied")),
]


def _then_by(initial: str) -> forms.ChoiceField:
    return forms.ChoiceField(
        label=_("then by"), required=False, initial=initial, choices=[("", "—"), *TIEBREAKS]
    )


def game_choices(chosen: str) -> list[dict[str, Any]]:
    """The games the new-tournament form is shown for, the chosen one marked."""
    return [
        {"key": key, "label": profile.label, "chosen": key == chosen}
        for key, profile in profiles.PROFILES.items()
    ]


def rules_label(preset: str) -> str:
    """The game a tournament plays, in words (e.g. "Klaverjas, Rotterdam rules")."""
    return profiles.preset_label(preset)


#: Said wherever an organiser turns a rating option on (docs/ratings.md).
RATING_DEFAULT_NOTE = _(
    "By the club's ratings (mu, the rating's estimate of strength); a player without a "
    "rating counts with the rating library's start value, mu 25."
)
FINALS_SEEDING = [
    (Tournament.FinalsSeeding.STANDINGS, _("the preliminary standings")),
    (Tournament.FinalsSeeding.RATING, _("rating (the best pairs of the standings qualify)")),
]


class TournamentForm(forms.Form):
    club = forms.ModelChoiceField(
        queryset=Club.objects.none(), label=_("Club"), widget=forms.RadioSelect, empty_label=None
    )
    name = forms.CharField(label=_("Name"), max_length=200, validators=[validate_name])
    # the game is chosen before the form is shown (``game_choices``): the form offers
    # only what that game has, in its words
    rules_preset = forms.ChoiceField(
        widget=forms.HiddenInput,
        initial=profiles.DEFAULT_PRESET,
        required=False,
        choices=[(key, profile.label) for key, profile in profiles.PROFILES.items()],
    )
    suits = forms.ChoiceField(
        label=_("Suits"),
        required=False,
        choices=[("", _("As the club plays them")), *profiles.SUIT_STYLES.items()],
        help_text=_("Shown on this game's sheets and pages."),
    )
    format = forms.ChoiceField(
        label=_("Format"),
        widget=forms.RadioSelect,
        initial=formats.INDIVIDUAL.format,
        choices=[(p.format, p.choice_label or p.label) for p in formats.CHOICES],
    )
    match_mode = forms.ChoiceField(
        label=_("A table plays"),
        widget=forms.RadioSelect,
        initial=Tournament.MatchMode.DEALS,
        choices=[],  # the game's own (``GameProfile.match_modes``)
    )
    deals_per_match = forms.IntegerField(
        label=_("Deals per table"), min_value=1, max_value=MAX_DEALS_PER_MATCH, initial=8
    )
    liga_target = forms.IntegerField(
        label=_("Target"), min_value=1, max_value=MAX_LIGA_TARGET, initial=51
    )
    duplicate = forms.BooleanField(
        label=_("Duplicate: every table plays the same boards"),
        required=False,
        help_text=_(
            "The platform deals each round's boards; teams score match points against "
            "every team of their direction that held the same cards (in matches of a "
            "fixed number of deals)."
        ),
    )
    planned_rounds = forms.IntegerField(
        label=_("Planned rounds"), min_value=1, max_value=50, required=False
    )
    tiebreak_1 = forms.ChoiceField(
        label=_("Ranking by"), initial="tournament_points", required=False, choices=SCORES
    )
    tiebreak_2 = _then_by("games_won")
    tiebreak_3 = _then_by("point_difference")
    tiebreak_4 = _then_by("augen")
    tiebreak_5 = _then_by("buchholz")
    tiebreak_6 = _then_by("head_to_head")
    balance_by_rating = forms.BooleanField(
        label=_("Individual: balance the tables by rating"),
        required=False,
        help_text=RATING_DEFAULT_NOTE,
    )
    seed_by_rating = forms.BooleanField(
        label=_("Fixed pairs, Swiss: seed by rating"),
        required=False,
        help_text=_("Round 1 and pairs on equal scores are ordered by the pairs' ratings."),
    )
    finals_seeding = forms.ChoiceField(
        label=_("Seed the finals by"),
        widget=forms.RadioSelect,
        initial=Tournament.FinalsSeeding.STANDINGS,
        required=False,
        choices=FINALS_SEEDING,
    )
    is_public = forms.BooleanField(
        label=_("Public (results on the website)"), required=False, initial=True
    )

    def __init__(
        self, *args: Any, clubs: Any, game: str = profiles.DEFAULT_PRESET, **kwargs: Any
    ) -> None:
        super().__init__(*args, **kwargs)
        self.fields["club"].queryset = clubs
        if len(clubs) == 1:
            self.fields["club"].initial = clubs[0].pk
        self.game = game if game in profiles.PROFILES else profiles.DEFAULT_PRESET
        self.profile = profiles.PROFILES[self.game]
        self.fields["rules_preset"].initial = self.game
        self._fit_to_game(self.profile)

    def _fit_to_game(self, profile: profiles.GameProfile) -> None:
        """Only what the chosen game has, in its words: its match modes (none where its
        rules fix a table's match), the ranking where the organiser chooses it, the
        formats, duplicate, suits and rating options it offers."""
        drop: set[str] = set()
        if profile.match_modes:
            self.fields["match_mode"].choices = list(profile.match_modes.items())  # type: ignore[attr-defined]
            self.fields["liga_target"].label = profile.target_label
        else:
            drop |= {"match_mode", "deals_per_match", "liga_target"}
        if profile.tiebreaks is None:
            words = {key: profile.criteria_words.get(key, label) for key, label in TIEBREAKS}
            for n in range(1, 7):
                field = self.fields[f"tiebreak_{n}"]
                field.choices = [  # type: ignore[attr-defined]
                    (key, words.get(key, label))
                    for key, label in field.choices  # type: ignore[attr-defined]
                ]
        else:
            drop |= {f"tiebreak_{n}" for n in range(1, 7)}
        offered = [
            (value, label)
            for value, label in self.fields["format"].choices  # type: ignore[attr-defined]
            if formats.format_named(value).plays_game(profile)
        ]
        self.fields["format"].choices = offered  # type: ignore[attr-defined]
        if profile.individual_only:
            drop |= {"seed_by_rating", "finals_seeding"}
        if not profile.rating_pool:
            drop |= {"balance_by_rating", "seed_by_rating"}
        if not profile.duplicate:
            drop.add("duplicate")
        if len(profile.suit_styles) < 2:
            drop.add("suits")
        for name in drop:
            del self.fields[name]

    def match_length(self) -> str:
        """How long a table of the chosen game plays, in a sentence."""
        return self.profile.match_length()

    def clean(self) -> dict[str, Any]:
        data = super().clean() or {}
        chain = [data.get(f"tiebreak_{n}") for n in range(1, 7)]
        chain = [name for name in chain if name]
        if len(chain) != len(set(chain)):
            raise forms.ValidationError(_("Each criterion can come only once in the ranking."))
        target = "liga_target" in self.fields and not data.get("liga_target")
        if data.get("match_mode") == Tournament.MatchMode.LIGA and target:
            self.add_error("liga_target", _("A match to a target needs its target."))
        if chain:  # none chosen: the platform's default chain
            data["tiebreaks"] = chain
        data["rules_preset"] = self.game
        data["finals_seeding"] = data.get("finals_seeding") or Tournament.FinalsSeeding.STANDINGS
        self._check_rating_options(data)
        return data

    def _check_rating_options(self, data: dict[str, Any]) -> None:
        """As the API's serializer: each rating option belongs to one format."""
        game_format = formats.format_named(data.get("format") or formats.INDIVIDUAL.format)
        if data.get("balance_by_rating") and not game_format.allows(formats.BALANCE_BY_RATING):
            self.add_error(
                "balance_by_rating", _("Tables are balanced by rating in the individual draw.")
            )
        seeding = data.get("seed_by_rating") or data.get("finals_seeding") == "rating"
        if seeding and not game_format.allows(formats.SEED_BY_RATING):
            self.add_error(
                "seed_by_rating", _("Seeding by rating is for tournaments of fixed pairs.")
            )

    def service_arguments(self) -> dict[str, Any]:
        data = {k: v for k, v in self.cleaned_data.items() if not k.startswith("tiebreak_")}
        data["slug"] = slugify(data["name"])[:90] or "turnier"
        data["rules_preset"] = self.game
        if not data.get("planned_rounds"):
            data.pop("planned_rounds", None)
        return data


class TournamentDetailsForm(forms.Form):
    """What the organiser may change of a tournament at any time (the rules are fixed
    once it starts)."""

    name = forms.CharField(label=_("Name"), max_length=200, validators=[validate_name])
    planned_rounds = forms.IntegerField(
        label=_("Planned rounds"), min_value=1, max_value=50, required=False
    )
    is_public = forms.BooleanField(label=_("Public (results on the website)"), required=False)
    suits = forms.ChoiceField(
        label=_("Suits"),
        required=False,
        choices=[("", _("As the club plays them")), *profiles.SUIT_STYLES.items()],
    )


class RegisterPlayerForm(forms.Form):
    name = forms.CharField(label=_("Player"), max_length=200, validators=[validate_name])
    household = forms.CharField(
        label=_("Household (optional)"), max_length=200, required=False, validators=[validate_name]
    )
    check_in = forms.BooleanField(label=_("Check in right away"), required=False, initial=True)


class CloseRoundForm(forms.Form):
    force = forms.BooleanField(
        label=_("Close even though tables have not finished"), required=False
    )
