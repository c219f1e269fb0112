"""Forms clean the input; ``campaigns.services`` decides (and refuses with the rule)."""

from __future__ import annotations

from django import forms
from django.db.models import Q

from campaigns import rules
from campaigns.rules import UNLOANABLE_TYPES
from campaigns.models import CampaignCoach, CardOffer, Guild, ModelType, OwnedCard, PlotCard, Sponsorship
from league.web.idfields import IdChoiceField, IdsChoiceField
from league.text.plaintext import PlainTextField


class CardChoiceField(IdChoiceField):
    def label_from_instance(self, obj: PlotCard) -> str:
        return f"{obj.name} ({obj.reward_label}) – {obj.summary}"


class CardsField(IdsChoiceField):
    def label_from_instance(self, obj: PlotCard) -> str:
        return f"{obj.name} ({obj.reward_label})"


class StartingPickForm(forms.Form):
    """GB-14: the Guild (when not known yet) and the starting Guild card."""

    guild = IdChoiceField(queryset=Guild.objects.all(), required=False)
    card = CardChoiceField(queryset=PlotCard.objects.none(), label="Starting Guild card")

    def __init__(self, *args, coach: CampaignCoach, **kwargs):
        super().__init__(*args, **kwargs)
        cards = PlotCard.objects.filter(kind=PlotCard.Kind.GUILD, is_rare=False).select_related("guild")
        if coach.guild_id:
            del self.fields["guild"]
            cards = cards.filter(guild_id=coach.guild_id)
        self.fields["card"].queryset = cards.order_by("guild__name", "order")


class PickForm(forms.Form):
    card = CardChoiceField(queryset=PlotCard.objects.none())

    def __init__(self, *args, options, **kwargs):
        super().__init__(*args, **kwargs)
        self.fields["card"].queryset = options


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


class SponsorshipForm(forms.Form):
    sponsorship = IdChoiceField(queryset=Sponsorship.objects.all())


LOANABLE_TYPES = [(value, label) for value, label in ModelType.choices if value not in UNLOANABLE_TYPES]


class LoanForm(forms.Form):
    """GB-22: Captains and Mascots cannot be loaned, so the form does not offer them."""

    lender = IdChoiceField(queryset=CampaignCoach.objects.none(), label="Borrow from")
    model_name = PlainTextField(max_length=80, label="Model")
    model_type = forms.ChoiceField(
        choices=LOANABLE_TYPES, label="Model type", help_text="Captains and Mascots cannot be loaned."
    )

    def __init__(self, *args, coach: CampaignCoach, **kwargs):
        super().__init__(*args, **kwargs)
        self.fields["lender"].queryset = (
            CampaignCoach.objects.filter(campaign_id=coach.campaign_id).exclude(pk=coach.pk).select_related("entry__coach")
        )


class OwnedCardField(IdChoiceField):
    def label_from_instance(self, obj: OwnedCard) -> str:
        return f"{obj.card.name} ({obj.coach.entry.coach.name})"


class OfferForm(forms.Form):
    """GB-23: Favours (1 to 5) or one of your own unlocked cards for another coach's."""

    kind = forms.ChoiceField(choices=CardOffer.Kind.choices)
    wanted = OwnedCardField(queryset=OwnedCard.objects.none(), label="Card you want")
    favours = forms.IntegerField(required=False, min_value=0, label="Favours offered (purchase)")  # GB-23 bound: the service says it
    offered = OwnedCardField(queryset=OwnedCard.objects.none(), required=False, label="Your card (swap)")

    def __init__(self, *args, coach: CampaignCoach, **kwargs):
        super().__init__(*args, **kwargs)
        movable = OwnedCard.objects.filter(gone_at__isnull=True).exclude(source=OwnedCard.Source.START)
        self.fields["wanted"].queryset = (
            movable.filter(coach__campaign_id=coach.campaign_id)
            .exclude(coach_id=coach.pk)
            .select_related("card", "coach__entry__coach")
        )
        # By id: a coach whose row is not written yet (shown by a GET) owns nothing.
        self.fields["offered"].queryset = movable.filter(coach_id=coach.pk).select_related("card", "coach__entry__coach")

    def clean(self):
        data = super().clean()
        if data.get("kind") == CardOffer.Kind.PURCHASE and not data.get("favours") and data.get("favours") != 0:
            self.add_error("favours", "Say how many Favours (1 to 5) you offer.")
        if data.get("kind") == CardOffer.Kind.SWAP and not data.get("offered"):
            self.add_error("offered", "Choose the card you give in exchange.")
        return data


class AdjustForm(forms.Form):
    """GB-1/GB-11: the Longshanks' adjustment, with the reason the coach will see."""

    ledger = forms.ChoiceField(choices=[("cp", "Campaign Points"), ("favours", "Favours")])
    amount = forms.IntegerField(
        min_value=-rules.MAX_ADJUSTMENT,
        max_value=rules.MAX_ADJUSTMENT,
        help_text=f"Between -{rules.MAX_ADJUSTMENT} and {rules.MAX_ADJUSTMENT}.",
    )
    reason = PlainTextField(max_length=300)
