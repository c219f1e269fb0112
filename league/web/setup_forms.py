"""Forms of the new-league flow and the season set-up page."""

from __future__ import annotations

import datetime

from django import forms
from django.urls import reverse
from django.utils import timezone
from django.utils.html import format_html

from league.datebounds import MatchDateField
from league.models import MAX_CADENCE_DAYS, League, Season
from league.text.plaintext import PlainTextField
from league.rules import GameRules
from league.rules.scheduling import MAX_DIVISIONS, MIN_DIVISIONS


FIRST_ROUND_AFTER = datetime.timedelta(days=7)


def first_round_default() -> datetime.date:
    """A week from the organiser's today: time to gather the coaches and publish the
    fixtures, and the weekday they set the league up on (often their club night)."""
    return timezone.localdate() + FIRST_ROUND_AFTER


class NewLeagueForm(forms.Form):
    """The league's name and its first season: its round robin and the days between
    rounds, citing ``game``'s rules for them (GB-4, GB-5); the game's own settings
    are a second form, from its GameRules."""

    name = PlainTextField(max_length=League._meta.get_field("name").max_length, label="League name")
    season_name = PlainTextField(
        max_length=Season._meta.get_field("name").max_length, label="First season", initial="Season 1"
    )
    start_date = MatchDateField(label="First round on")
    cadence_days = forms.IntegerField(
        label="Days between rounds", min_value=1, max_value=MAX_CADENCE_DAYS, initial=7,
    )
    double_round_robin = forms.TypedChoiceField(
        label="Everyone meets everyone", coerce=lambda value: value == "double", initial="single",
        choices=[("single", "Once"), ("double", "Twice, home and away")], widget=forms.RadioSelect,
    )

    def __init__(self, *args, game: type[GameRules], **kwargs):
        super().__init__(*args, **kwargs)
        self.fields["start_date"].initial = first_round_default()
        self.fields["cadence_days"].help_text = game.cited("cadence", "7 is one round a week.")
        # The rule in words, its id only as the small link to /rules/ (never a bare "GB-4").
        rule = game.cite("fixtures")
        words = "How many times each pair plays the other in the season."
        self.fields["double_round_robin"].help_text = (
            format_html('{} <a class="rule" href="{}#{}">{}</a>', words, reverse("rules"), rule, rule) if rule else words
        )


class GenerateForm(forms.Form):
    divisions = forms.TypedChoiceField(
        label="Divisions", coerce=int, initial=0, required=False, empty_value=0,
        choices=[(0, "One table, no divisions"), *((n, f"{n} divisions, drawn at random") for n in
                                                   range(MIN_DIVISIONS, MAX_DIVISIONS + 1))],
    )

    def __init__(self, *args, game: type[GameRules], **kwargs):
        super().__init__(*args, **kwargs)
        self.fields["divisions"].help_text = game.cited("divisions", "Each division plays its own round robin.")
