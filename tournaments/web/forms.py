"""Forms of the organiser console. They only validate input; the views call services."""

from __future__ import annotations

from typing import Any

from django import forms
from django.utils.text import slugify
from django.utils.translation import gettext_lazy as _

from tournaments.models import Club, Tournament


class TournamentForm(forms.Form):
    club = forms.ModelChoiceField(queryset=Club.objects.none(), label=_("Club"),
                                  widget=forms.RadioSelect, empty_label=None)  # fmt: skip
    name = forms.CharField(label=_("Name"), max_length=200)
    format = forms.ChoiceField(
        label=_("Format"), widget=forms.RadioSelect, initial=Tournament.Format.INDIVIDUAL,
        choices=[(Tournament.Format.INDIVIDUAL, _("Individual (new partners each round)")),
                 (Tournament.Format.PAIRS, _("Fixed pairs")),
                 (Tournament.Format.LEAGUE, _("League"))],
    )  # fmt: skip
    match_mode = forms.ChoiceField(
        label=_("A table plays"), widget=forms.RadioSelect, initial=Tournament.MatchMode.DEALS,
        choices=[(Tournament.MatchMode.DEALS, _("A fixed number of deals (small/big points)")),
                 (Tournament.MatchMode.LIGA, _("A Liga-Partie to a target of match points"))],
    )  # fmt: skip
    deals_per_match = forms.IntegerField(label=_("Deals per table"), min_value=1,
                                         max_value=64, initial=8)  # fmt: skip
    liga_target = forms.IntegerField(label=_("Liga target"), min_value=1, max_value=500,
                                     initial=51)  # fmt: skip
    planned_rounds = forms.IntegerField(label=_("Planned rounds"), min_value=1, max_value=50,
                                        required=False)  # fmt: skip
    is_public = forms.BooleanField(label=_("Public (results on the website)"), required=False,
                                   initial=True)  # fmt: skip

    def __init__(self, *args: Any, clubs: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.fields["club"].queryset = clubs
        if len(clubs) == 1:
            self.fields["club"].initial = clubs[0].pk

    def service_arguments(self) -> dict[str, Any]:
        data = dict(self.cleaned_data)
        data["slug"] = slugify(data["name"])[:90] or "turnier"
        if not data.get("planned_rounds"):
            data.pop("planned_rounds", None)
        return data


class RegisterPlayerForm(forms.Form):
    name = forms.CharField(label=_("Player"), max_length=200)
    household = forms.CharField(label=_("Household (optional)"), max_length=200, required=False)
    check_in = forms.BooleanField(label=_("Check in right away"), required=False, initial=True)


class CloseRoundForm(forms.Form):
    force = forms.BooleanField(label=_("Close even though tables have not finished"),
                               required=False)  # fmt: skip
