"""Forms clean input; the services in league/services.py decide."""

from __future__ import annotations

from django import forms

MAX_SCORE = 99  # a sanity bound for the input box; the game's rules set the real limits


def _score_field(label: str) -> forms.IntegerField:
    return forms.IntegerField(
        label=label,
        min_value=0,
        max_value=MAX_SCORE,
        error_messages={
            "invalid": "Enter a whole number of points.",
            "min_value": "Points cannot be negative.",
            "max_value": f"That is more than {MAX_SCORE} points; check the score.",
            "required": "Enter both scores.",
        },
        widget=forms.NumberInput(attrs={"inputmode": "numeric", "min": 0}),
    )


class ScoreForm(forms.Form):
    """Both sides' scores, labelled with the coaches' names and the game's unit."""

    home_score = _score_field("Home")
    away_score = _score_field("Away")

    def __init__(self, *args, fixture=None, score_label: str = "VP", **kwargs):
        super().__init__(*args, **kwargs)
        if fixture is not None:
            self.fields["home_score"].label = f"{fixture.home} ({score_label})"
            if fixture.away_id:
                self.fields["away_score"].label = f"{fixture.away} ({score_label})"


class ReportResultForm(ScoreForm):
    pass


class RecordResultForm(ScoreForm):
    """The organiser enters, corrects or abandons a result (GB-6, GB-8)."""

    abandoned = forms.BooleanField(
        required=False, label="Abandoned (GB-6: both coaches record a loss; VP kept for information)"
    )
    override = forms.BooleanField(
        required=False, label="Accept a score the VP rules reject (GB-8; the reason is recorded)"
    )
    reason = forms.CharField(max_length=500, widget=forms.TextInput(attrs={"size": 40}))


class DisputeForm(forms.Form):
    reason = forms.CharField(
        max_length=500,
        label="What is wrong with the report?",
        error_messages={"required": "Say what is wrong with the report, so the organiser can settle it."},
        widget=forms.Textarea(attrs={"rows": 2}),
    )


class RearrangeForm(forms.Form):
    date = forms.DateField(label="New date", widget=forms.DateInput(attrs={"type": "date"}))
    reason = forms.CharField(max_length=300, widget=forms.TextInput(attrs={"size": 40}))


class ReasonForm(forms.Form):
    reason = forms.CharField(max_length=500, widget=forms.TextInput(attrs={"size": 40}))
