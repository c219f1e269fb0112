"""``{% load campaign_tags %}{% campaign_panel season standings %}`` for the league page: the
titles once the Final Day is declared (GB-26), otherwise who leads each title race
(GB-3), and the way to the campaign table. A fixed number of queries."""

from __future__ import annotations

from django import template

from campaigns import selectors
from campaigns.models import Campaign, Title

register = template.Library()


@register.inclusion_tag("campaigns/_league_panel.html")
def campaign_panel(season, standings=None) -> dict:
    """``standings``: the season's table when the page already has it."""
    campaign = Campaign.objects.filter(season=season).select_related("season__league").first() if season else None
    if campaign is None:
        return {"campaign": None, "season": season}
    if campaign.is_over:
        holders = selectors.fixed_titles(campaign)
    else:
        holders = {t: names for t, (names, _) in selectors.title_race(selectors.campaign_rows(campaign, standings=standings)).items()}
    return {
        "campaign": campaign,
        "season": season,
        "titles": [(label, holders.get(value, [])) for value, label in Title.Name.choices],
    }
