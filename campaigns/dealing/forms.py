"""Wheeling & Dealing's forms (GB-21 to GB-23): they clean the input;
``campaigns.dealing.services`` decides (and refuses with the rule)."""

from __future__ import annotations

from django import forms

from campaigns.rules import UNLOANABLE_TYPES
from campaigns.models import CampaignCoach, CardOffer, ModelType, OwnedCard, Sponsorship
from league.web.idfields import IdChoiceField
from league.text.plaintext import PlainTextField


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
