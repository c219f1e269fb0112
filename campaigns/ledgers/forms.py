"""The Longshanks' adjustment of a coach's ledgers (GB-1, GB-11): the form cleans
the input; ``campaigns.ledgers.services.adjust`` decides (and refuses with the rule)."""

from __future__ import annotations

from django import forms

from campaigns import rules
from league.text.plaintext import PlainTextField


class AdjustForm(forms.Form):
    """GB-1/GB-11: the Longshanks' adjustment, with the reason the coach will see."""

    ledger = forms.ChoiceField(choices=[("cp", "Campaign Points"), ("favours", "Favours")])
    amount = forms.IntegerField(
        min_value=-rules.MAX_ADJUSTMENT,
        max_value=rules.MAX_ADJUSTMENT,
        help_text=f"Between -{rules.MAX_ADJUSTMENT} and {rules.MAX_ADJUSTMENT}.",
    )
    reason = PlainTextField(max_length=300)
