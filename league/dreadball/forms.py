"""The DreadBall result form (DR-3): who won, by how much, in which Rush, and
whether Sudden Death was played. Landslide follows from the difference."""

from __future__ import annotations

from django import forms
from django.db.models import Q

from league.dreadball.models import MAX_DIFFERENCE, MAX_RUSH, DreadBallTeam, TeamType
from league.web.idfields import IdChoiceField
from league.text.plaintext import PlainTextField

WINNER_CHOICES = [("home", "Home won"), ("away", "Away won"), ("draw", "Draw (only after Sudden Death)")]


class DreadBallResultForm(forms.Form):
    """The score first (who won, by how much), then when it ended. The numbers get
    steppers and the result big toggles (static/js/forms.js, site.css)."""

    winner = forms.ChoiceField(
        label="Result", choices=WINNER_CHOICES, required=False, widget=forms.RadioSelect
    )
    difference = forms.IntegerField(
        label="Final score difference",
        min_value=0,
        max_value=MAX_DIFFERENCE,
        required=False,
        help_text="1 to 7 for a win (7 is a landslide), 0 for a draw or a Sudden Death win with only one team able to throw.",
        error_messages={
            "invalid": "Enter the difference as a whole number, 0 to 7.",
            "min_value": "The difference cannot be negative.",
            "max_value": "The difference is at most 7: a lead of 7 wins by landslide at once.",
        },
        widget=forms.NumberInput(attrs={"inputmode": "numeric", "min": 0, "max": MAX_DIFFERENCE, "data-stepper": ""}),
    )
    rush = forms.IntegerField(
        label="Rush the game ended in",
        min_value=1,
        max_value=MAX_RUSH,
        required=False,
        help_text="Counted from the start: 14 for a full game, 15 or later after Sudden Death.",
        error_messages={
            "invalid": "Enter the Rush as a whole number.",
            "min_value": "The first Rush is Rush 1.",
            "max_value": f"No game runs past Rush {MAX_RUSH}; check the Rush.",
        },
        widget=forms.NumberInput(attrs={"inputmode": "numeric", "min": 1, "max": MAX_RUSH, "data-stepper": ""}),
    )
    sudden_death = forms.BooleanField(label="Sudden Death was played", required=False)

    def clean(self):
        cleaned = super().clean()
        # The organiser's "abandoned" box (league.web.forms.OrganiserFields) needs none of these.
        if cleaned.get("abandoned"):
            return cleaned
        missing = {
            "winner": "Choose who won, or a draw.",
            "difference": "Enter the final score difference (0 for a draw).",
            "rush": "Enter the Rush the game ended in.",
        }
        for name, message in missing.items():
            if name not in self.errors and cleaned.get(name) in (None, ""):
                self.add_error(name, message)
        return cleaned


class RegisterTeamForm(forms.Form):
    """DR-5: a coach names their team and picks the published team it plays; the
    organiser may do it for any coach of the season (``entry``)."""

    entry = IdChoiceField(queryset=None, required=False, label="Coach",
                          error_messages={"invalid_choice": "Choose a coach of this season."})
    name = PlainTextField(label="Team name", max_length=DreadBallTeam._meta.get_field("name").max_length,
                          error_messages={"required": "Give the team a name."})
    team_type = IdChoiceField(queryset=TeamType.objects.order_by("name"), label="Published team",
                              error_messages={"required": "Choose the published team it plays.",
                                              "invalid_choice": "Choose one of the published teams listed."})

    def __init__(self, *args, season, organiser: bool, **kwargs):
        super().__init__(*args, **kwargs)
        # Every league's published teams and the league's own, in one list.
        self.fields["team_type"].queryset = TeamType.objects.filter(
            Q(league__isnull=True) | Q(league_id=season.league_id)).order_by("name")
        if organiser:
            self.fields["entry"].queryset = season.entries.filter(withdrawn_at__isnull=True).select_related("coach")
            self.fields["entry"].required = True
            self.fields["entry"].error_messages["required"] = "Choose the coach whose team this is."
        else:
            del self.fields["entry"]
