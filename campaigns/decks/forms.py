"""The deck a coach registers for a match and the cards achieved in it (GB-16,
GB-17): forms clean the input; ``campaigns.decks.services`` decides (and refuses
with the rule)."""

from __future__ import annotations

from django import forms
from django.db.models import Q

from campaigns import rules
from campaigns.models import PlotCard
from league.web.idfields import IdsChoiceField


class CardsField(IdsChoiceField):
    def label_from_instance(self, obj: PlotCard) -> str:
        return f"{obj.name} ({obj.reward_label})"


class DeckForm(forms.Form):
    """GB-16: exactly 12 distinct cards from the pool. The form may start ticked
    from an earlier deck (``prefill``); it says so, and a wrong count says how
    many of the ticked cards were pre-filled."""

    cards = CardsField(queryset=PlotCard.objects.none(), widget=forms.CheckboxSelectMultiple)

    def __init__(self, *args, pool_ids, prefill=None, **kwargs):
        self.prefill = prefill
        if prefill is not None and not args:
            kwargs.setdefault("initial", {"cards": prefill.card_ids})
        super().__init__(*args, **kwargs)
        self.fields["cards"].queryset = PlotCard.objects.filter(pk__in=pool_ids).order_by("kind", "name")

    @property
    def need(self) -> int:
        """GB-16's deck size, for the live counter of static/js/forms.js."""
        return rules.DECK_SIZE

    def clean_cards(self):
        cards = self.cleaned_data["cards"]
        chosen = {c.pk for c in cards}
        prefilled = len(chosen & set(self.prefill.card_ids)) if self.prefill else 0
        refusal = rules.check_deck_size(
            chosen=len(chosen), prefilled=prefilled, prefilled_from=self.prefill.source if self.prefill else ""
        )
        if refusal:
            raise forms.ValidationError(refusal)
        return cards


class AchievementsForm(forms.Form):
    """GB-17: the cards achieved, offered from the coach's deck for the match."""

    cards = CardsField(queryset=PlotCard.objects.none(), widget=forms.CheckboxSelectMultiple, required=False)

    def __init__(self, *args, deck_ids, **kwargs):
        super().__init__(*args, **kwargs)
        self.fields["cards"].queryset = PlotCard.objects.filter(pk__in=deck_ids).filter(
            Q(cp_reward__gt=0) | Q(favour_reward__gt=0)
        ).order_by("name")
