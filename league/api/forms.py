from __future__ import annotations

from django import forms

from league.api.models import Scope
from league.api.tokens import NAME_LENGTH
from league.text.plaintext import PlainTextField


class TokenForm(forms.Form):
    name = PlainTextField(
        max_length=NAME_LENGTH, label="Name", help_text="What it is for, such as “match reporter”.",
        error_messages={"required": "Name the token, so you know which one to revoke later."},
    )
    scopes = forms.MultipleChoiceField(
        label="It may", choices=Scope.choices, initial=[Scope.READ], widget=forms.CheckboxSelectMultiple,
        error_messages={"required": "Choose at least one thing the token may do."},
    )
