"""What the organiser's admin actions ask before they call the services:
rearranging, abandoning, entering or correcting a result, giving a reason. One
action may span leagues of several games, so their words cite no game's rule
unless only that game's leagues can see them (GB-20's warning)."""

from __future__ import annotations

from django import forms
from django.contrib.admin.widgets import AdminDateWidget

from league import layers
from league.services import results as services
from league.datebounds import MatchDateField
from league.models import Fixture, Result
from league.text.plaintext import PlainTextField


class RearrangeForm(forms.Form):
    new_date = MatchDateField(widget=AdminDateWidget, help_text="The fixture keeps its round.")
    reason = PlainTextField(max_length=250, widget=forms.Textarea(attrs={"rows": 3}), help_text="Every coach of the season with an email address is told.")


def _game_rules(queryset, league_lookup: str):
    """The rules of the one game the selected objects belong to, or None when they
    span leagues of different games (a game's result form fits its own game only)."""
    systems = set(queryset.values_list(f"{league_lookup}__game_system", flat=True))
    if len(systems) != 1:
        return None
    obj = queryset.select_related(league_lookup).first()
    league = obj
    for part in league_lookup.split("__"):
        league = getattr(league, part)
    return league.rules


def _result_form_class(rules) -> type[forms.Form]:
    """The game's result form with a reason and, where the game allows it, the
    organiser's override (GB-8)."""
    game_form = rules.report_form_class()
    attrs = {
        "reason": PlainTextField(
            max_length=500, widget=forms.Textarea(attrs={"rows": 3}), help_text="Kept in the fixture's history."
        )
    }
    if layers.warns_on_correction(rules.system):  # only a game whose layer warns
        attrs["acknowledge"] = forms.BooleanField(
            required=False, label="Go ahead even where the correction leaves a coach owing Favours",
            help_text="You are warned first, with the coaches and amounts (GB-20).",
        )
    if rules.allows_override:
        attrs["override"] = forms.BooleanField(
            required=False, label="Override the rules' checks", help_text="Accept a score the rules reject; the reason is recorded."
        )
    return type("ResultForm", (game_form,), attrs)


def _record(fixture: Fixture, user, data: dict, **extra) -> Result:
    """Enter, correct or abandon through the service; the form's "acknowledge" box
    is the go-ahead after a warning (GB-20), not a fact of the result."""
    facts = {key: value for key, value in data.items() if key != "acknowledge"}
    return services.record_result(
        fixture=fixture, by=user, acknowledged=bool(data.get("acknowledge")), **extra, **facts
    )


class ReasonForm(forms.Form):
    reason = PlainTextField(max_length=500, widget=forms.Textarea(attrs={"rows": 3}), help_text="Kept in the fixture's history.")


class OverrideReasonForm(forms.Form):
    reason = PlainTextField(
        max_length=500, widget=forms.Textarea(attrs={"rows": 3}), label="Why approve without the opponent's confirmation",
        help_text="Kept in the history of each result approved.",
    )
