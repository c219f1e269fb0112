"""The forms of the organiser's settings page (league/web/settings.py): each
cleans what one section posts; the services (league/services/settings.py) decide."""

from __future__ import annotations

import re
from collections.abc import Mapping

from django import forms

from league.models import League
from league.text.plaintext import PlainTextField

# A model's help text that starts with the rule it follows ("DR-4: a win by 7.").
RULE_FIRST = re.compile(r"^((?:GB|DB|DR|LG)-\d{1,2}[a-z]?)(?::\s*(.*))?$", re.DOTALL)


class LeagueForm(forms.Form):
    name = PlainTextField(max_length=League._meta.get_field("name").max_length)
    description = PlainTextField(
        multiline=True, required=False, max_length=5000, widget=forms.Textarea(attrs={"rows": 4}),
        help_text="Shown on the league's page: where you play, how often, whom to ask.",
    )


class WebhooksForm(forms.Form):
    discord_webhook = PlainTextField(
        label="Discord webhook", required=False, max_length=League._meta.get_field("discord_webhook").max_length,
        widget=forms.URLInput, help_text=League._meta.get_field("discord_webhook").help_text,
    )
    webhook_url = PlainTextField(
        label="Signed webhook", required=False, max_length=League._meta.get_field("webhook_url").max_length,
        widget=forms.URLInput, help_text=League._meta.get_field("webhook_url").help_text,
    )
    # No help text: it would come between the label and the box, which the phone's
    # stylesheet shows as one 44 px target only when they are next to each other.
    new_secret = forms.BooleanField(
        label="Make a new signing secret (the old one stops working: give the receiver the new one)", required=False,
    )


class OrganiserForm(forms.Form):
    who = PlainTextField(
        label="Username or email address", max_length=254,
        help_text="Of an account on this site: they organise the league with you, with the same rights.",
    )


def game_settings_form(model, *, locked: Mapping[str, str], data=None, instance=None) -> forms.ModelForm:
    """A form for every setting of the game's ``model``; the fields in ``locked``
    are shown, disabled: their posted values are ignored."""
    fields = [f.name for f in model._meta.fields if f.editable and f.name not in ("id", "league")]
    form = forms.modelform_factory(model, fields=fields)(data, instance=instance, prefix="game")
    for name in locked:
        if name in form.fields:
            form.fields[name].disabled = True
    return form


def help_and_rule(help_text: str) -> tuple[str, str]:
    """A help text in words and the rule id it started with, if any, shown apart
    (the rule as a small link): "DR-4: a win by 7." -> ("a win by 7.", "DR-4")."""
    found = RULE_FIRST.match(str(help_text))
    if found is None:
        return str(help_text), ""
    return (found.group(2) or "").strip(), found.group(1)
