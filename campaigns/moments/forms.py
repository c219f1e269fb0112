"""The starting pick and a Moment's pick (GB-13, GB-14): forms clean the input;
``campaigns.moments.services`` decides (and refuses with the rule)."""

from __future__ import annotations

from django import forms

from campaigns.models import CampaignCoach, Guild, PlotCard
from league.web.idfields import IdChoiceField


class CardChoiceField(IdChoiceField):
    def label_from_instance(self, obj: PlotCard) -> str:
        return f"{obj.name} ({obj.reward_label}) – {obj.summary}"


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
