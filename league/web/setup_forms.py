"""Forms of the new-league flow and the season set-up page."""

from __future__ import annotations

from django import forms
from django.utils import timezone

from league.datebounds import validate_match_date
from league.services.joining import MAX_PASTED
from league.models import (
    DEFAULT_JOIN_SIGNUPS_PER_HOUR, MAX_CADENCE_DAYS, MAX_JOIN_SIGNUPS_PER_HOUR, MAX_JOIN_USES, League, Season,
)
from league.text.plaintext import PlainTextField
from league.rules import GameRules
from league.rules.scheduling import MAX_DIVISIONS, MIN_DIVISIONS


class NewLeagueForm(forms.Form):
    """The league's name and its first season: its round robin and the days between
    rounds, citing ``game``'s rules for them (GB-4, GB-5); the game's own settings
    are a second form, from its GameRules."""

    name = PlainTextField(max_length=League._meta.get_field("name").max_length, label="League name")
    season_name = PlainTextField(
        max_length=Season._meta.get_field("name").max_length, label="First season", initial="Season 1"
    )
    start_date = forms.DateField(
        label="First round on", validators=[validate_match_date], widget=forms.DateInput(attrs={"type": "date"}),
    )
    cadence_days = forms.IntegerField(
        label="Days between rounds", min_value=1, max_value=MAX_CADENCE_DAYS, initial=7,
    )
    double_round_robin = forms.TypedChoiceField(
        label="Everyone meets everyone", coerce=lambda value: value == "double", initial="single",
        choices=[("single", "Once"), ("double", "Twice, home and away")], widget=forms.RadioSelect,
    )

    def __init__(self, *args, game: type[GameRules], **kwargs):
        super().__init__(*args, **kwargs)
        self.fields["start_date"].initial = timezone.localdate()
        self.fields["cadence_days"].help_text = game.cited("cadence", "7 is one round a week.")
        self.fields["double_round_robin"].help_text = game.cite("fixtures")


class PasteNamesForm(forms.Form):
    names = PlainTextField(
        multiline=True, label="Names, one a line", max_length=MAX_PASTED * 110,
        widget=forms.Textarea(attrs={"rows": 6}),
        help_text="Paste a column from a spreadsheet, a name a line. Blank lines are skipped; a name that played in this league before enters that same coach; a repeated name is refused with its line.",
    )


class JoinLinkForm(forms.Form):
    max_uses = forms.IntegerField(
        label="At most this many people", required=False, min_value=1, max_value=MAX_JOIN_USES,
        help_text="Empty for no limit.",
    )
    closes_on = forms.DateField(
        label="Last day it works", required=False, validators=[validate_match_date],
        widget=forms.DateInput(attrs={"type": "date"}), help_text="Empty to keep it open until you withdraw it.",
    )
    signups_per_hour = forms.IntegerField(
        label="New accounts an hour", min_value=1, max_value=MAX_JOIN_SIGNUPS_PER_HOUR, required=False,
        initial=DEFAULT_JOIN_SIGNUPS_PER_HOUR,
        help_text="How many people may sign up through this link within an hour, all from one shop's Wi-Fi if "
                  "need be; sign-ups without a link stay limited per network.",
    )

    def clean_signups_per_hour(self) -> int:
        """Left empty: the default."""
        return self.cleaned_data["signups_per_hour"] or DEFAULT_JOIN_SIGNUPS_PER_HOUR


class GenerateForm(forms.Form):
    divisions = forms.TypedChoiceField(
        label="Divisions", coerce=int, initial=0, required=False, empty_value=0,
        choices=[(0, "One table, no divisions"), *((n, f"{n} divisions, drawn at random") for n in
                                                   range(MIN_DIVISIONS, MAX_DIVISIONS + 1))],
    )

    def __init__(self, *args, game: type[GameRules], **kwargs):
        super().__init__(*args, **kwargs)
        self.fields["divisions"].help_text = game.cited("divisions", "Each division plays its own round robin.")


class JoinForm(forms.Form):
    """Someone joining who is not a coach yet: what the tables will call them."""

    name = PlainTextField(max_length=100, label="Your name in the tables")
    team = PlainTextField(max_length=100, required=False, label="Team")
